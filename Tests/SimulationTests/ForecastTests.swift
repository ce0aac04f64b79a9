import HabitatTestSupport
import Testing
import Reports
import RulesCore
import ScenarioFormat
import ScrollOffRules
@testable import Simulation
import ProductRegistry
@testable import ScrollOffLife

/// Issue 5: forecasts from an acquisition curve — totals are the sum of their months, MRR matches the ledger.
@Suite("Forecasts", .serialized)
struct ForecastTests {
    static let yaml = """
        name: forecast
        start: 2026-01-05
        horizon_days: 100
        replications: 2
        population:
          installs: 120
          acquisition:
            ramp: {from: 20, to: 200, over_days: 60}
        \(MechanismBehavior.yaml())
        """

    @Test("forecast totals equal the sum of their months; installs total the curve; people are scaled by the curve's weight")
    func totals() throws {
        let scenario = try ScenarioLoader(catalogues: Products.catalogues).load(yaml: Self.yaml, fileName: "f.yaml")
        var run = SimulationRun<ScrollOffProduct>(scenario: scenario, threads: 2)
        try run.simulate()
        let table = run.arms[0].forecast
        let months = table.values.keys.sorted()
        #expect(months.count == 4)   // 2026-01 … 2026-04
        let real = scenario.population.acquisition!.realInstalls(start: scenario.start, days: 100).reduce(0, +)
        for metric in table.metrics where metric.flow {
            for r in 0..<2 {
                let sum = months.reduce(0.0) { $0 + (table.values[$1]![metric.name]![r]) }
                let rows = table.rows(ReportKeys(scenario: "f", arm: "control", replication: nil, product: "scroll-off"))
                let total = rows.first { $0[4] == .text("total") && $0[5] == .text(metric.name) }
                #expect(total != nil)
                if metric.name == "installs" { #expect(abs(sum - real) < 1e-6, "installs sum to the curve's total") }
            }
        }
        // The total row is the pooled sum of months, to the cent.
        let rows = table.rows(ReportKeys(scenario: "f", arm: "control", replication: nil, product: "scroll-off"))
        for metric in ["installs", "gross_revenue_usd", "net_revenue_usd"] {
            let monthly = rows.filter { $0[5] == .text(metric) && $0[4] != .text("total") }.map { Self.number($0[6]) }
            let total = Self.number(rows.first { $0[5] == .text(metric) && $0[4] == .text("total") }![6])
            #expect(abs(monthly.reduce(0, +) - total) <= 0.005 * Double(monthly.count + 1), "\(metric): \(monthly) vs \(total)")
        }
    }

    static func number(_ f: CSVField) -> Double {
        if case .number(let d, _) = f { return d }
        return .nan
    }

    @Test("each month's MRR is the last subscription charge in force, per the ledger")
    func mrrMatchesTheLedger() throws {
        let scenario = try ScenarioLoader(catalogues: Products.catalogues).load(yaml: Self.yaml, fileName: "f.yaml")
        let world = try World<ScrollOffProduct>(scenario: scenario, arm: scenario.arms[0], replication: 1)
        let plans: [String: Plan] = Dictionary(uniqueKeysWithValues: [Plan.premiumMonthly, .proMonthly, .proAnnual].map { ($0.sku, $0) })
        var checked = 0
        for id in 0..<120 {
            var life = PersonLife(world: world, person: id)
            life.ledgerLog = []
            let outcome = life.run()
            let charges = life.ledgerLog!.filter { $0.kind == .subscriptionPurchase || $0.kind == .subscriptionRenewal }
            for (month, m) in outcome.months where m.mrr > .zero {
                // The month's standing is taken at its end (or at the horizon): the latest charge before then.
                let end = min(life.zone.startOfMonth(month.next), life.horizonEnd)
                let charge = try #require(charges.last { $0.at < end }, "person \(id) \(month): MRR \(m.mrr) without a charge")
                let plan = try #require(plans[charge.productID])
                #expect(m.mrr == Money(micros: charge.amount.micros / Int64(plan.periodMonths)), "person \(id) \(month)")
                #expect(m.plan == (plan.tier == .pro ? "pro" : "premium"))
                checked += 1
            }
        }
        #expect(checked > 10, "enough paying person-months to mean something (\(checked))")
    }
}
