import HabitatTestSupport
import Foundation
import Testing
import Reports
import RulesCore
import ScenarioFormat
import ScrollOffRules
@testable import Simulation
import ProductRegistry
@testable import ScrollOffLife
import NudgeLife

/// Issue 14 part 1: a world check in every run (`world-check.csv`).
@Suite("World check")
struct WorldCheckTests {
    @Test("the 23 figures, in order, with their published ranges and sources")
    func figureList() {
        let ids = WorldFigures.all.map(\.id)
        #expect(ids == ["unlocks_per_day", "sessions_under_30s_share", "pickups_within_3min_share", "notification_session_share",
                        "peak_hour", "night_to_peak_ratio", "weekend_uplift", "habit_days_to_95_median",
                        "habit_days_to_95_mean_over_median", "habit_decay_levelled_by_65d_share", "retention_d1", "retention_d7",
                        "retention_d14", "retention_d30", "download_to_paid_d35", "trial_to_paid", "trial_start_install_day_share",
                        "first_monthly_renewal", "monthly_12m_retention", "annual_12m_retention", "refund_share",
                        "revenue_per_install_d14_usd", "target_app_opens_reduction_weeks_1_3"])
        let ranges: [String: (Double, Double)] = [
            "unlocks_per_day": (70, 95), "sessions_under_30s_share": (0.5, 1), "pickups_within_3min_share": (0.4, 0.6),
            "notification_session_share": (0.08, 0.15), "peak_hour": (17, 22), "night_to_peak_ratio": (0, 0.45),
            "weekend_uplift": (0, 0.15), "habit_days_to_95_median": (55, 80), "habit_days_to_95_mean_over_median": (1.5, 2.5),
            "habit_decay_levelled_by_65d_share": (0.9, 1), "retention_d1": (0.22, 0.30), "retention_d7": (0.10, 0.16),
            "retention_d14": (0.07, 0.12), "retention_d30": (0.03, 0.08), "download_to_paid_d35": (0.007, 0.046),
            "trial_to_paid": (0.16, 0.48), "trial_start_install_day_share": (0.8, 1), "first_monthly_renewal": (0.5, 0.6),
            "monthly_12m_retention": (0.05, 0.19), "annual_12m_retention": (0.17, 0.43), "refund_share": (0.03, 0.04),
            "revenue_per_install_d14_usd": (0.10, 0.89), "target_app_opens_reduction_weeks_1_3": (0.13, 0.48),
        ]
        for f in WorldFigures.all {
            #expect(f.low == ranges[f.id]?.0 && f.high == ranges[f.id]?.1, "\(f.id)")
            #expect(!f.source.isEmpty && !f.summary.isEmpty && !f.unit.isEmpty, "\(f.id)")
            #expect(f.contains(f.low) && f.contains(f.high) && !f.contains(f.high + 1))
        }
        #expect(WorldFigures.figure("retention_d1")?.source.contains("Adjust") == true)
        #expect(WorldFigures.figure("download_to_paid_d35")?.source.contains("RevenueCat") == true)
    }

    @Test("column names are stable")
    func columns() {
        #expect(WorldCheck.header == ["arm", "figure", "unit", "source", "range_low", "range_high", "simulated_mean", "ci_low", "ci_high",
                                      "inside", "applies", "replications"])
        #expect(WorldCheck.fileHeader == ["scenario", "arm", "replication", "product", "figure", "unit", "source", "range_low", "range_high",
                                          "simulated_mean", "ci_low", "ci_high", "inside", "applies", "replications"])
        #expect(WorldCheckRow.applicable == "yes")
    }

    @Test("pooling: a share's interval is made for proportions (log-odds over replications, Wilson with one), other figures' Student-t; inapplicable rows keep their reason")
    func pooling() throws {
        let f = try #require(WorldFigures.figure("retention_d1"))
        let two = WorldCheck.pool(f, [.share(25, of: 100, else: "x"), .share(27, of: 100, else: "x")])
        #expect(two.mean == 0.26 && two.replications == 2 && two.inside == true && two.applies == "yes")
        // s = 0.01·√2, n = 2: the standard error s/√2 = 0.01; on the log-odds scale 0.01 / (0.26 · 0.74) (issue 40).
        let half = 12.706204736174707 * 0.01 / (0.26 * 0.74), centre = log(0.26 / 0.74)
        #expect(abs(two.ciHigh! - 1 / (1 + exp(-(centre + half)))) < 1e-9)
        #expect(abs(two.ciLow! - 1 / (1 + exp(-(centre - half)))) < 1e-9)
        // The case: three replications at 0, 0, 3/4 — Student-t would read [−0.33, 0.83].
        let spread = WorldCheck.pool(f, [.share(0, of: 4, else: "x"), .share(0, of: 4, else: "x"), .share(3, of: 4, else: "x")])
        #expect(spread.ciLow! > 0 && spread.ciLow! <= 0.25 && spread.ciHigh! >= 0.25 && spread.ciHigh! < 1)
        // Every replication at 0: Wilson's on the pooled counts (0 of 12), not a degenerate [0, 0].
        let zeros = WorldCheck.pool(f, [.share(0, of: 5, else: "x"), .share(0, of: 7, else: "x")])
        #expect(zeros.ciLow == 0 && zeros.ciHigh == WorldCheck.wilson95(0, 12).1 && zeros.ciHigh! > 0.2)
        // A figure that is no share keeps the Student-t interval over replications.
        let unlocks = try #require(WorldFigures.figure("unlocks_per_day"))
        let counts = WorldCheck.pool(unlocks, [.value(80), .value(82)])
        #expect(abs(counts.ciHigh! - 81 - 12.706204736174707 * 1) < 1e-9)
        let one = WorldCheck.pool(f, [.share(31, of: 100, else: "x")])
        #expect(one.inside == false && one.replications == 1)
        let (lo, hi) = WorldCheck.wilson95(31, 100)
        #expect(one.ciLow == lo && one.ciHigh == hi && lo < 0.31 && hi > 0.31 && abs(lo - 0.2278) < 1e-3 && abs(hi - 0.4063) < 1e-3)
        let none = WorldCheck.pool(f, [.notApplicable("needs 2 days; run has 1")])
        #expect(none.mean == nil && none.inside == nil && none.applies == "needs 2 days; run has 1" && none.replications == 0)
        let rows = WorldCheck.csvRows(arm: "control", [one, none])
        #expect(rows[0] == ["control", "retention_d1", "fraction", f.source, "0.22", "0.3", "0.31", WorldCheck.format(lo), WorldCheck.format(hi),
                            "false", "yes", "1"])
        #expect(rows[1].suffix(6) == ["", "", "", "", "needs 2 days; run has 1", "0"])
    }

    @Test("hand-built ledgers: refunds over charges, first payment by day 35, revenue in the first 14 days, renewals")
    func ledgerArithmetic() throws {
        var acc = RunAccumulator<ScrollOffProduct>(horizonDays: 400)
        let t = Instant(millisecondsSinceEpoch: 0)
        func entry(_ kind: LedgerEntry.Kind, _ usd: Double) -> LedgerEntry { LedgerEntry(at: t, amount: Money(usd: usd), productID: "x", kind: kind) }
        // Person A: monthly on day 3, renewed on day 33 and every month to day 368; a token on day 5.
        var a = PersonWorldFacts()
        a.book(entry(.subscriptionPurchase, 4.99), day: 3, periodMonths: 1)
        a.book(entry(.consumablePurchase, 0.99), day: 5, periodMonths: 0)
        for d in stride(from: 33, through: 368, by: 30) { a.book(entry(.subscriptionRenewal, 4.99), day: d, periodMonths: 1) }
        acc.world.add(a, observedDays: 400, trialDays: nil)
        // Person B: monthly on day 10, refunded on day 12; never renewed.
        var b = PersonWorldFacts()
        b.book(entry(.subscriptionPurchase, 4.99), day: 10, periodMonths: 1)
        b.book(entry(.refund, -4.99), day: 12, periodMonths: 1)
        acc.world.add(b, observedDays: 400, trialDays: nil)
        // Person C: annual on day 40 (after day 35), observable 400 days: not yet at its renewal; D: nothing, observable 20 days.
        var c = PersonWorldFacts()
        c.book(entry(.subscriptionPurchase, 39.99), day: 40, periodMonths: 12)
        acc.world.add(c, observedDays: 400, trialDays: nil)
        acc.world.add(PersonWorldFacts(), observedDays: 20, trialDays: nil)
        let m = acc.worldMeasurements(horizonDays: 400)
        let charges = 2 + 12 + 1 + 1, refunds = 1
        #expect(m["refund_share"]?.value == Double(refunds) / Double(charges))
        #expect(m["download_to_paid_d35"]?.successes == 2 && m["download_to_paid_d35"]?.trials == 3)
        // Days 0–13 of the three people observable 14 days: A 4.99 + 0.99, B 4.99 − 4.99, C nothing, D nothing (4 people).
        #expect(abs(m["revenue_per_install_d14_usd"]!.value! - 5.98 / 4) < 1e-9)
        #expect(m["first_monthly_renewal"]?.successes == 1 && m["first_monthly_renewal"]?.trials == 2)
        #expect(m["monthly_12m_retention"]?.successes == 1 && m["monthly_12m_retention"]?.trials == 2)
        #expect(m["annual_12m_retention"]?.reason == "no annual subscription reached 12 months inside the run")
        #expect(m["trial_to_paid"]?.reason == "no trials offered")
    }

    @Test("a 30-day run: every figure has a row; what 30 days cannot measure says why; the rest is measured")
    func shortRun() throws {
        let yaml = """
            name: wc
            start: 2026-01-05
            horizon_days: 30
            replications: 2
            population:
              installs: 60
            """ + "\n" + MechanismBehavior.yaml()   // enough purchases for the refund and revenue rows at 60 people
        let scenario = try ScenarioLoader(catalogues: Products.catalogues).load(yaml: yaml, fileName: "wc.yaml")
        var run = SimulationRun<ScrollOffProduct>(scenario: scenario, threads: 2)
        try run.simulate()
        let check = run.worldCheck()
        #expect(check.count == 1 && check[0].arm == "control")
        let rows = Dictionary(uniqueKeysWithValues: check[0].rows.map { ($0.figure.id, $0) })
        #expect(check[0].rows.map(\.figure.id) == WorldFigures.all.map(\.id))
        for id in ["retention_d30", "download_to_paid_d35", "monthly_12m_retention", "annual_12m_retention", "first_monthly_renewal"] {
            #expect(rows[id]?.applies.hasPrefix("needs ") == true && rows[id]?.applies.hasSuffix("run has 30") == true, "\(id): \(rows[id]!.applies)")
            #expect(rows[id]?.mean == nil && rows[id]?.inside == nil)
        }
        #expect(rows["trial_to_paid"]?.applies == "no trials offered")
        for id in ["unlocks_per_day", "sessions_under_30s_share", "pickups_within_3min_share", "peak_hour", "retention_d1", "retention_d14",
                   "habit_days_to_95_median", "refund_share", "revenue_per_install_d14_usd"] {
            #expect(rows[id]?.applies == "yes" && rows[id]?.replications == 2 && rows[id]?.mean != nil && rows[id]?.inside != nil, "\(id)")
        }
        // The same reading as retention.csv's app-opened day 1, pooled over replications.
        let d1 = run.arms[0].worldReadings.map { $0["retention_d1"]!.value! }
        #expect(rows["retention_d1"]!.mean! == d1.reduce(0, +) / 2)
        let pooled = run.arms[0].pooled.retention.retention(activity: .appOpened, day: 1)!
        #expect(abs(pooled - rows["retention_d1"]!.mean!) < 0.1)
    }

    @Test("a product that sells nothing: money figures say so")
    func productSellingNothing() throws {
        let acc = RunAccumulator<Toy.Adapter>(horizonDays: 60)
        let m = acc.worldMeasurements(horizonDays: 60)
        #expect(m["download_to_paid_d35"]?.reason == "product sells nothing")
        #expect(m["trial_to_paid"]?.reason == "product sells no subscription")
        #expect(m["first_monthly_renewal"]?.reason == "product sells no subscription")
        #expect(m["refund_share"]?.reason?.hasPrefix("no refunds possible") == true)
        #expect(m["revenue_per_install_d14_usd"]?.reason == "product sells nothing")
    }

    @Test("the target apps' opens reduction is measured only for a product that restricts apps: Nudge's row says why not (issue 39)")
    func opensReductionOnlyForARestrictingProduct() throws {
        // An empty accumulator of 60 days: a blocker's figure is measurable in principle (only nobody used it).
        #expect(RunAccumulator<ScrollOffProduct>(horizonDays: 60).worldMeasurements(horizonDays: 60)["target_app_opens_reduction_weeks_1_3"]?.reason
                == "nobody used the product in weeks 1-3")
        #expect(RunAccumulator<NudgeAdapter>(horizonDays: 60).worldMeasurements(horizonDays: 60)["target_app_opens_reduction_weeks_1_3"]?.reason
                == "product restricts no app")
    }
}
