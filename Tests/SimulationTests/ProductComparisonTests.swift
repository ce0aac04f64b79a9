import Behavior
import EarnedAccessLife
import Foundation
import HabitatTestSupport
import NoAppLife
import NudgeLife
import NudgeRules
import Reports
import RulesCore
import ScenarioFormat
import ScrollOffLife
import ScrollOffRules
import Testing
@testable import Simulation
import ProductRegistry

/// Issue 28: the person outlives the app, `none` is the same people untreated, and products as arms are compared on
/// the same people — with the tests that would catch a dishonest comparison.
struct ProductComparisonTests {
    typealias ScrollOff = ScrollOffAdapter<ScrollOffEngine>

    static func scenario(_ yaml: String) throws -> ResolvedScenario {
        try ScenarioLoader(catalogues: Products.catalogues).load(yaml: yaml, fileName: "comparison.yaml")
    }

    /// Every life of arm `arm` (replication 1).
    static func lives<A: ProductAdapter>(_: A.Type, _ s: ResolvedScenario, arm: Int = 0) throws -> [LifeSummary<A>] {
        let world = try World<A>(scenario: s, arm: s.arms[arm], replication: 1)
        return (0..<s.arms[arm].population.installs).map { id in
            var life = PersonLife(world: world, person: id)
            return life.run()
        }
    }

    /// A run of several products, simulated, and its readings by arm name.
    static func readings(_ yaml: String) throws -> [String: ArmReadings] {
        var run = try Products.run(try scenario(yaml), threads: 2)
        try run.simulate(progress: nil)
        return Dictionary(uniqueKeysWithValues: run.armReadings.map { ($0.name, $0) })
    }

    /// The paired difference arm − control of a comparison KPI, everyone (or one persona).
    static func paired(_ kpi: String, _ arm: ArmReadings, _ control: ArmReadings, persona: String? = nil) -> ExperimentComparison {
        ExperimentComparison(kpi: kpi, unit: "", controlArm: control.name, arm: arm.name,
                             control: control.values(persona: persona)[kpi]!, treatment: arm.values(persona: persona)[kpi]!)
    }

    @Test("the person lives to the horizon: an uninstall ends the tenure, not the life")
    func aLifeOutlivesTheApp() throws {
        let s = try Self.scenario("name: t\nproduct: scroll-off\nhorizon_days: 45\npopulation: {installs: 120}\n")
        let lives = try Self.lives(ScrollOff.self, s)
        let uninstalled = lives.filter { $0.churn == ChurnKind.uninstall.rawValue }
        #expect(uninstalled.count > 5, "the test needs people who uninstall")
        for l in lives {
            // Every person lives every day from install to the horizon: each closes at its local midnight, the
            // horizon's own last day at the end of the life.
            #expect(l.neutral.personDays == l.observedDays, "every day from install to the horizon has its neutral figures")
            if l.churn == ChurnKind.uninstall.rawValue {
                // An uninstall at the horizon's last day-end leaves no untreated day: at most every day but the last.
                #expect(l.personDays <= l.observedDays - 1, "the product's own days end with the tenure")
            } else {
                #expect(l.personDays == l.observedDays - 1, "every day but the horizon's last ends with a day-end event")
            }
        }
        // After the uninstall the days are untreated: counted, and never with the product in use.
        var untreated: Int64 = 0
        for l in uninstalled {
            for w in 0..<l.learning.weeks { untreated += l.learning.totals(week: w, status: .untreated).personDays }
        }
        #expect(untreated > 0)
        #expect(uninstalled.contains { $0.personDays < $0.observedDays - 1 }, "some tenures end before the horizon's last day")
        #expect(lives.allSatisfy { $0.neutral.pickups == 0 }, "pickups are the run's to add (comparisonSums)")
    }

    @Test("tenure_days ends every tenure on its day: the weeks after are untreated for everyone")
    func tenureDaysEndsEveryTenure() throws {
        let s = try Self.scenario("name: t\nproduct: scroll-off\nhorizon_days: 35\ntenure_days: 7\npopulation: {installs: 80}\n")
        let lives = try Self.lives(ScrollOff.self, s)
        for l in lives {
            #expect((l.inUseDays.max() ?? 0) <= 7, "no use of the product after day 7")
            #expect(l.neutral.personDays == l.observedDays)
            for w in 2..<l.learning.weeks {
                let treated = l.learning.totals(week: w, status: .active).personDays + l.learning.totals(week: w, status: .dormant).personDays
                #expect(treated == 0, "week \(w) is after every tenure")
            }
        }
        #expect(lives.contains { $0.churn == "tenure_end" })
    }

    /// With both mechanisms by which a product changes a person's urges and pickups switched off — the habit held
    /// still (`urges.habit_residual_share` 1: an app habit stays at its plateau whatever the person does) and every
    /// session its intended length (`urges.pickup_follows_actual_session` 0: the next pickup after the intended end,
    /// whatever a shield did) — urges and pickups are wholly exogenous, so every person's must be the same under every
    /// product and none: only what they do with them differs (issue 39; `PickupMechanismTests` has each on).
    @Test("a person's exogenous life is the same under every product and none")
    func exogenousLifeIsTheSame() throws {
        func s(_ product: String) throws -> ResolvedScenario {
            try Self.scenario("name: t\nproduct: \(product)\nhorizon_days: 21\npopulation: {installs: 60}\nbehavior: {urges.habit_residual_share: 1, urges.pickup_follows_actual_session: 0}\n")
        }
        struct Exogenous: Equatable { var pickups, sessions, notifications, urges: Int; var installedAt: Instant; var days: Int }
        func exogenous<A: ProductAdapter>(_ l: [LifeSummary<A>]) -> [Exogenous] {
            l.map { Exogenous(pickups: $0.common[.pickups], sessions: $0.common[.sessions], notifications: $0.common[.notificationSessions],
                              urges: $0.neutral.urges, installedAt: $0.installedAt, days: $0.neutral.personDays) }
        }
        let none = exogenous(try Self.lives(NoAppAdapter.self, try s("none")))
        let so = exogenous(try Self.lives(ScrollOff.self, try s("scroll-off")))
        let ea = exogenous(try Self.lives(EarnedAccessAdapter.self, try s("earned-access")))
        #expect(none.reduce(0) { $0 + $1.urges } > 1000)
        #expect(so.count == none.count && ea.count == none.count)
        #expect(zip(so, none).filter { $0 != $1 }.count == 0, "people whose exogenous life differs under Scroll Off")
        #expect(zip(ea, none).filter { $0 != $1 }.count == 0, "people whose exogenous life differs under Earned Access")
    }

    @Test("none against none differs by exactly 0, overall and for every persona")
    func noneAgainstNoneIsZero() throws {
        let r = try Self.readings("""
            name: t
            horizon_days: 14
            replications: 3
            population:
              installs: 60
              personas: [{name: student, share: 0.5}, {name: worker, share: 0.5}]
            arms:
              - {name: none-a, product: none}
              - {name: so, product: scroll-off}
              - {name: none-b, product: none}
            """)
        for persona in [nil, "student", "worker"] {
            for d in ComparisonKPIs.neutral {
                let c = Self.paired(d.id, r["none-b"]!, r["none-a"]!, persona: persona)
                #expect(c.diff == 0, "\(d.id) \(persona ?? "all")")
                #expect(c.paired?.lower == 0 && c.paired?.upper == 0, "\(d.id) \(persona ?? "all")")
            }
        }
        // … and the report says so: none-b's row against none-a.
        let rows = ProductComparison.rows(scenario: "t", arms: [r["none-a"]!, r["so"]!, r["none-b"]!])
        let header = ProductComparison.header
        let armCol = header.firstIndex(of: "arm")!, diffCol = header.firstIndex(of: "vs_none_diff")!, noneCol = header.firstIndex(of: "none_arm")!
        let noneB = rows.filter { $0[armCol] == .text("none-b") }
        #expect(!noneB.isEmpty)
        for row in noneB {
            #expect(row[noneCol] == .text("none-a"))
            #expect(row[diffCol].rendered == "0.000000")
        }
    }

    @Test("a product that blocks nothing changes no product-neutral outcome: its effect on minutes is 0")
    func aProductThatBlocksNothing() throws {
        // Nobody grants the Screen Time permission, so neither product blocks any app.
        let r = try Self.readings("""
            name: t
            horizon_days: 14
            replications: 3
            population: {installs: 80}
            behavior: {onboarding.completion.permission: 0}
            products: [none, scroll-off, earned-access]
            """)
        for arm in ["scroll-off", "earned-access"] {
            let c = Self.paired("target_app_minutes_per_day", r[arm]!, r["none"]!)
            let ci = try #require(c.paired)
            #expect(ci.lower <= 0 && ci.upper >= 0, "\(arm): \(ci)")
            #expect(c.diff == 0, "\(arm)")
            #expect(Self.paired("urges_acted_per_day", r[arm]!, r["none"]!).diff == 0)
        }
        // The same people with the products that do block: a real, nonzero effect.
        let blocking = try Self.readings("name: t\nhorizon_days: 14\nreplications: 3\npopulation: {installs: 80}\nproducts: [none, scroll-off]\n")
        let c = Self.paired("target_app_minutes_per_day", blocking["scroll-off"]!, blocking["none"]!)
        #expect((c.paired?.upper ?? 0) < 0, "Scroll Off blocking apps reduces minutes in them")
    }

    @Test("extreme rules do what they must: a price nobody pays earns nothing; a cap of 0 grants nothing")
    func extremeRules() throws {
        let r = try Self.readings("""
            name: t
            horizon_days: 21
            replications: 2
            population: {installs: 150}
            arms:
              - {name: none, product: none}
              - name: unaffordable
                product: scroll-off
                rules: {prices: {premium_monthly: 1000, pro_monthly: 1000, pro_annual: 1000}, tokens: {price_usd: 1000, monthly_purchase_cap: 0}}
              - name: no-grants
                product: earned-access
                rules: {quest: {max_per_day: 0}, emergency: {per_day: 0}}
            """)
        let unaffordable = r["unaffordable"]!.values(persona: nil)
        #expect(unaffordable["net_revenue_per_install"]!.allSatisfy { $0 == 0 })
        #expect(unaffordable["paying_share"]!.allSatisfy { $0 == 0 })
        #expect(r["no-grants"]!.kpi("unlocks_per_day_quest").allSatisfy { $0 == 0 })
        #expect(r["no-grants"]!.kpi("unlocks_per_day_emergency").allSatisfy { $0 == 0 })
        // `none` has no shared product figures at all.
        #expect(r["none"]!.values(persona: nil)["in_use_d1"] == nil && r["none"]!.values(persona: nil)["app_opened_d1"] == nil)
    }

    @Test("each product's claim stands beside its true effect against none, on the claim's own denominator and per person-day to the horizon")
    func claimsBesideTrueEffects() throws {
        let r = try Self.readings("name: t\nhorizon_days: 14\nreplications: 2\npopulation: {installs: 60}\nproducts: [scroll-off, nudge, none]\n")
        let rows = ProductComparison.rows(scenario: "t", arms: [r["scroll-off"]!, r["nudge"]!, r["none"]!])
        let h = ProductComparison.header
        func col(_ name: String) -> Int { h.firstIndex(of: name)! }
        let claims = rows.filter { $0[col("kind")] == .text("claim") }
        #expect(claims.map { $0[col("kpi")] } == [.text("median_time_saved_per_day"), .text("items_done_per_dau")])
        for (armName, row) in zip(["scroll-off", "nudge"], claims) {
            let arm = r[armName]!, none = r["none"]!
            let claim = try #require(arm.claims.first)
            // The claim's own KPI is per the days the claim says (its population), and the row says the same basis.
            let definition = try #require(arm.kpiValues.first?.first { $0.0.id == claim.kpi }?.0)
            #expect(definition.population == claim.basis.population, "\(armName): the claim is per \(definition.population)")
            #expect(row[col("claim_basis")] == .text(claim.basis.rawValue))
            #expect(row[col("true_effect_basis")] == .text("per_person_day_to_horizon"))
            // Per person-day of every installer to the horizon: the neutral KPI's paired difference, in the claim's sense.
            let perPersonDay = Self.paired(claim.neutralKPI, arm, none)
            let sign = claim.sense == .reduces ? -1.0 : 1.0
            #expect(row[col("true_effect")].rendered == CSVField.optional(perPersonDay.diff.map { sign * $0 }, decimals: 6).rendered)
            // On the claim's basis: the same paired Σ over every person-day, ÷ the arm's days of that basis.
            let armValue = arm.values(persona: nil)[claim.neutralKPI]!, noneValue = none.values(persona: nil)[claim.neutralKPI]!
            var perBasisDay: [Double] = []
            for (k, c) in arm.comparisons.enumerated() {
                let days = claim.basis == .dayInUse ? c.all.inUseDays : c.all.appOpenedDays
                let personDays = c.all.personDays
                #expect(none.comparisons[k].all.personDays == personDays, "the same people on the same days")
                #expect(days > 0 && days < personDays, "\(armName): the product was in use on some days, not all")
                perBasisDay.append(sign * (armValue[k] - noneValue[k]) * Double(personDays) / Double(days))
            }
            let mean = perBasisDay.reduce(0, +) / Double(perBasisDay.count)
            let onBasis = try #require(Double(row[col("true_effect_on_claim_basis")].rendered))
            #expect(abs(onBasis - mean) < 1e-5, "\(armName): \(onBasis) against \(mean)")
            // Fewer days in the denominator than person-days: the effect per claim day is the larger in size.
            #expect(abs(onBasis) >= abs(Double(row[col("true_effect")].rendered) ?? 0))
        }
        // The denominators agree person by person: the days a claim is counted over are the days the true effect is
        // divided by — Nudge's DAU-days are the days the app was opened, Scroll Off's Insights days the days in use
        // (each day that ends before the horizon: the horizon's last day has no day-end to book the app's figure).
        let s = try Self.scenario("name: t\nproduct: scroll-off\nhorizon_days: 14\npopulation: {installs: 60}\n")
        for life in try Self.lives(ScrollOff.self, s) {
            #expect(life.tally.appMinutesSavedPerActiveDay.count == life.inUseDays.filter { $0 < life.observedDays - 1 }.count,
                    "Scroll Off: the claim's days are the days in use")
        }
        let n = try Self.scenario("name: t\nproduct: nudge\nhorizon_days: 14\npopulation: {installs: 60}\n")
        var opened = 0
        for life in try Self.lives(NudgeAdapter.self, n) {
            #expect(life.tally.counts[.activeDays] == life.activeDays.count, "Nudge: the claim's DAU-days are the days the app was opened")
            opened += life.activeDays.count
        }
        #expect(opened > 0)
    }
}

extension ProductComparisonTests {
    @Test("a scenario whose every arm is of another product runs that product (and writes no comparison)")
    func everyArmAnotherProduct() throws {
        let s = try Self.scenario("name: t\nproduct: scroll-off\nhorizon_days: 7\npopulation: {installs: 20}\narms:\n  - {name: a, product: earned-access}\n  - {name: b, product: earned-access}\n")
        #expect(s.products == ["earned-access"])
        var run = try Products.run(s, threads: 1)
        try run.simulate(progress: nil)
        #expect(run.armReadings.map(\.product) == ["earned-access", "earned-access"])
        #expect(run.kpiSummary().allSatisfy { $0.table.summary("unlocks_per_day_quest").count > 0 })
        try withTemporaryDirectory(prefix: "habitat-one-other-product") { root in
            let report = try ReportDirectory(destination: root.appendingPathComponent("run"))
            let files = try run.write(to: report, wallSeconds: 0, checkpoint: {}, extra: { _ in })
            #expect(files.contains("unlocks.csv"))
            #expect(!files.contains("product-comparison.csv"))
        }
    }
}
