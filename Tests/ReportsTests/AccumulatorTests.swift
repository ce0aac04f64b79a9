import Testing
import RulesCore
@testable import Reports

let keys = ReportKeys(scenario: "s", arm: "control", replication: 1, product: "scroll-off")

@Suite("Report accumulators")
struct AccumulatorTests {
    @Test func storeFeesAre30PercentThen15AfterAYearOrInTheSmallBusinessProgramme() {
        let p = StoreFeePolicy()
        #expect(p.rate(isSubscription: true, paidTenureDays: 364) == 0.30)
        #expect(p.rate(isSubscription: true, paidTenureDays: 365) == 0.15)
        #expect(p.rate(isSubscription: false, paidTenureDays: 900) == 0.30)   // tokens never get the tenure rate
        #expect(StoreFeePolicy(smallBusinessProgram: true).rate(isSubscription: false, paidTenureDays: 0) == 0.15)
    }

    @Test func revenueFoldsPeopleAndCountsEachPayerOncePerMonthAndSource() {
        let jan = MonthID(year: 2026, month: 1), feb = MonthID(year: 2026, month: 2)
        var alice = PersonRevenue()
        alice.add(month: jan, source: "tokens", gross: Money(usd: 0.99), fee: Money(usd: 0.99).fraction(0.3))
        alice.add(month: jan, source: "tokens", gross: Money(usd: 0.99), fee: Money(usd: 0.99).fraction(0.3))
        alice.add(month: jan, source: "subscription", gross: Money(usd: 4.99), fee: Money(usd: 4.99).fraction(0.3))
        var bob = PersonRevenue()
        bob.add(month: feb, source: "subscription", gross: Money(usd: 4.99), refund: Money(usd: 4.99), fee: .zero)
        var a = RevenueAccumulator(), b = RevenueAccumulator()
        a.add(alice)
        b.add(bob)
        var all = a
        all.merge(b)
        var reversed = b
        reversed.merge(a)
        #expect(all == reversed)     // integer money: merge order does not matter
        let rows = all.rows(keys).map { $0.map(\.rendered) }
        #expect(rows == [
            ["s", "control", "1", "scroll-off", "2026-01", "subscription", "4.99", "0.00", "1.50", "3.49", "1", "1", "0.00"],
            ["s", "control", "1", "scroll-off", "2026-01", "tokens", "1.98", "0.00", "0.59", "1.39", "2", "1", "0.00"],
            ["s", "control", "1", "scroll-off", "2026-02", "subscription", "4.99", "4.99", "0.00", "0.00", "1", "1", "0.00"],
            ["s", "control", "1", "scroll-off", "total", "subscription", "9.98", "4.99", "1.50", "3.49", "2", "2", "0.00"],
            ["s", "control", "1", "scroll-off", "total", "tokens", "1.98", "0.00", "0.59", "1.39", "2", "1", "0.00"],
        ])
        #expect(all.gross(month: jan) == Money(usd: 6.97))
    }

    @Test func funnelCountsOnlyUnbrokenPrefixesAndJudgesConversionFromThePreviousStage() {
        let stages = [
            FunnelStage(order: 1, id: "A0", name: "opened", event: "a", windowAnchor: nil, window: nil, targetMin: nil, targetMax: nil),
            FunnelStage(order: 2, id: "A1", name: "permitted", event: "b", windowAnchor: "A0", window: .hours(24), targetMin: 0.75, targetMax: nil),
            FunnelStage(order: 3, id: "A2", name: "blocked", event: "c", windowAnchor: "A0", window: .hours(24), targetMin: 0.40, targetMax: 0.50),
        ]
        var f = FunnelAccumulator(stageCount: 3)
        f.add(reachedStages: [true, true, true])
        f.add(reachedStages: [true, true, false])
        f.add(reachedStages: [true, false, true])     // A2 without A1 does not count
        f.add(reachedStages: [true, true, false])
        #expect(f.reached == [4, 3, 1])
        let rows = f.rows(keys, stages: stages).map { $0.map(\.rendered) }
        // The columns before the three of issue 38 (target_basis, basis_people, rate_on_basis) are as they were.
        #expect(rows[1].dropLast(3).suffix(6) == ["3", "0.750000", "0.750000", "0.75", "", "true"])
        #expect(rows[2].dropLast(3).suffix(6) == ["1", "0.333333", "0.250000", "0.40", "0.50", "false"])
        #expect(rows[0][rows[0].count - 4] == "")
        // The stage-free add chains every stage on the one before, as before issue 38.
        #expect(rows[2].suffix(3) == ["previous_stage", "3", "0.333333"])
    }

    /// Issue 38 (seed 001 §11 "Day-7 retention 35%", "Free → Pro conversion 4%": shares of installs): a stage on
    /// installs is counted outside the chain and judged against its basis population, and the file says which basis.
    @Test func funnelJudgesAShareOfInstallsOnItsOwnBasis() {
        let stages = [
            FunnelStage(order: 1, id: "N0", name: "opened", event: "a", windowAnchor: nil, window: nil, targetMin: nil, targetMax: nil),
            FunnelStage(order: 2, id: "N5", name: "acted", event: "b", windowAnchor: nil, window: nil, targetMin: 0.5, targetMax: nil),
            FunnelStage(order: 3, id: "N6", name: "day 7", event: "c", windowAnchor: nil, window: nil, targetMin: 0.35, targetMax: nil,
                        basis: .installs(observedPastDay: 7), chained: false),
            FunnelStage(order: 4, id: "N7", name: "pro", event: "d", windowAnchor: nil, window: nil, targetMin: 0.04, targetMax: nil,
                        basis: .installs(observedPastDay: nil), chained: false),
        ]
        var f = FunnelAccumulator(stageCount: 4)
        f.add(reachedStages: [true, false, true, true], observedDays: 30, stages: stages)    // no N5, yet day 7 and Pro
        f.add(reachedStages: [true, true, false, false], observedDays: 30, stages: stages)
        f.add(reachedStages: [true, false, false, false], observedDays: 30, stages: stages)
        f.add(reachedStages: [true, false, false, false], observedDays: 5, stages: stages)     // not observed past day 7
        #expect(f.reached == [4, 1, 1, 1] && f.eligible == [4, 4, 3, 4])
        let rows = f.rows(keys, stages: stages).map { $0.map(\.rendered) }
        // N5 is a step conversion: 1 of 4.
        #expect(rows[1].suffix(9) == ["1", "0.250000", "0.250000", "0.50", "", "false", "previous_stage", "4", "0.250000"])
        // N6: 1 of the 3 observed past day 7 (0.333 ≥ 0.35 fails); no step conversion; 1 of 4 installs.
        #expect(rows[2].suffix(9) == ["1", "", "0.250000", "0.35", "", "false", "installs_observed_past_day_7", "3", "0.333333"])
        // N7: 1 of 4 installs, met.
        #expect(rows[3].suffix(9) == ["1", "", "0.250000", "0.04", "", "true", "installs", "4", "0.250000"])
        #expect(throws: Never.self) { try f.validate(AccumulatorBounds(people: 4, horizonDays: 30), at: "funnel", stages: stages) }
        // Read against a funnel whose N6 is chained on the previous stage, the same counts are impossible: refused.
        var chained = stages
        chained[2].basis = .previousStage
        chained[2].chained = true
        #expect(throws: AccumulatorInvalid.self) { try f.validate(AccumulatorBounds(people: 4, horizonDays: 30), at: "funnel", stages: chained) }
    }

    @Test func retentionCountsOnlyPeopleWhoseDayNIsInsideTheHorizon() {
        var r = RetentionAccumulator(maxDay: 3)
        let w2 = LocalDate(iso: "2026-01-05")!.isoWeek
        // Installed early: observable days 0…3; active on 0 and 2.
        r.add(cohort: w2, segments: ["student"], observedDays: 4, activity: .inUse, activeDays: [0, 2])
        // Installed late: observable days 0…1 only; active on 0 and 1 (an activity on day 3 is outside the horizon).
        r.add(cohort: w2, segments: ["worker"], observedDays: 2, activity: .inUse, activeDays: [0, 1, 3])
        #expect(r.retention(day: 0) == 1.0)
        #expect(r.retention(day: 1) == 0.5)
        #expect(r.retention(day: 2) == 1.0)           // only the early installer is observable
        #expect(r.retention(day: 3) == 0.0)
        #expect(r.retention(segment: "worker", day: 2) == nil)
        let rows = r.rows(keys).map { $0.map(\.rendered) }
        #expect(rows.first!.suffix(7) == ["2026-W02", "all", "in_use", "0", "2", "2", "1.000000"])
        #expect(rows.last!.suffix(7) == ["all", "worker", "in_use", "1", "1", "1", "1.000000"])
        var half = RetentionAccumulator(maxDay: 3)
        half.add(cohort: w2, segments: ["student"], observedDays: 4, activity: .inUse, activeDays: [0, 2])
        var other = RetentionAccumulator(maxDay: 3)
        other.add(cohort: w2, segments: ["worker"], observedDays: 2, activity: .inUse, activeDays: [0, 1, 3])
        half.merge(other)
        #expect(half == r)
    }

    @Test("each activity reading is its own row set: opening the app and the product in use (audit D2)")
    func retentionReportsBothActivityReadings() {
        var r = RetentionAccumulator(maxDay: 1)
        let w2 = LocalDate(iso: "2026-01-05")!.isoWeek
        // Met a shield on day 1 but never opened the app after install day.
        r.add(cohort: w2, segments: [], observedDays: 2, activity: .inUse, activeDays: [0, 1])
        r.add(cohort: w2, segments: [], observedDays: 2, activity: .appOpened, activeDays: [0])
        #expect(r.retention(activity: .inUse, day: 1) == 1.0)
        #expect(r.retention(activity: .appOpened, day: 1) == 0.0)
        let rows = r.rows(keys).map { Array($0.map(\.rendered).suffix(7)) }
        #expect(rows.map { $0[2] } == ["in_use", "in_use", "app_opened", "app_opened",
                                        "in_use", "in_use", "app_opened", "app_opened"])
        #expect(RetentionAccumulator.header.suffix(7) == ["cohort", "segment", "activity", "day", "cohort_size", "active", "retention"])
    }

    @Test("a share KPI is pooled with the log-odds interval, any other with Student-t (issue 40)")
    func kpisArePooledWithIntervalsForTheirKind() {
        var t = KPITable()
        let d = KPIDefinition("d1_retention", unit: "fraction", targetMin: 0.25)
        for v in [0.20, 0.22, 0.24, 0.26, 0.28] { t.record(d, v) }
        t.record(KPIDefinition("mrr_usd", unit: "usd"), 100)
        let opens = KPIDefinition("opens_per_day", unit: "count_per_day")
        for v in [0.20, 0.22, 0.24, 0.26, 0.28] { t.record(opens, v) }
        let rows = t.rows(keys, horizonDays: 30).map { $0.map(\.rendered) }
        // mean 0.24, sd 0.0316228, t(0.975, 4) = 2.776445 → Student-t half-width 0.0392649; on the log-odds scale
        // logit 0.24 = −1.152680 ± 0.0392649 / (0.24 · 0.76) = 0.215268 → expit: 0.202952 … 0.281423.
        #expect(rows[0].suffix(10) == ["d1_retention", "fraction", "0.240000", "0.202952", "0.281423", "5", "0.2500", "", "false", "yes"])
        let opensRow = rows.first { $0.contains("opens_per_day") }
        #expect(opensRow.map { Array($0.suffix(10).prefix(6)) } == ["opens_per_day", "count_per_day", "0.240000", "0.200735", "0.279265", "5"])
        #expect(rows[1].suffix(10) == ["mrr_usd", "usd", "100.000000", "", "", "1", "", "", "", "yes"])
    }

    /// Audit 2026-11-25 E9: a KPI the run cannot measure is empty with its reason, never 0 and "not met".
    @Test func anUnmeasurableKPIIsEmptyWithItsReason() {
        var t = KPITable()
        let windowed = KPIDefinition("milestone_30_share", unit: "fraction", targetMin: 0.10, population: "installs observed 46+ days", windowDays: 45)
        t.record(windowed, .nan)
        let empty = KPIDefinition("annual_mix", unit: "fraction", population: "subscribers")
        t.record(empty, .nan)
        let rows = t.rows(keys, horizonDays: 30).map { $0.map(\.rendered) }
        #expect(rows[0].suffix(10) == ["milestone_30_share", "fraction", "", "", "", "0", "0.1000", "", "", "needs 46 days; run has 30"])
        #expect(rows[1].suffix(10) == ["annual_mix", "fraction", "", "", "", "0", "", "", "", "no one in its population (subscribers)"])
        let long = t.rows(keys, horizonDays: 60).map { $0.map(\.rendered) }
        #expect(long[0].last == "no one in its population (installs observed 46+ days)")
    }
}

@Suite("Consumable share")
struct ConsumableShareTests {
    /// The neutral consumable figures (issue 42): consumable gross over all gross per month and in total, buyers per
    /// person-month, cap hits; Scroll Off's `token-revenue-share.csv` renders them (`TokenShareReportTests`).
    @Test func shareIsConsumableGrossOverAllGrossPerMonthAndInTotal() {
        let jan = MonthID(year: 2026, month: 1), feb = MonthID(year: 2026, month: 2)
        var a = ConsumableAccumulator()
        a.add(month: jan, consumableGross: Money(usd: 0.99) * 3, subscriptionGross: Money(usd: 4.99), sold: 3, capHits: 1)
        a.add(month: jan, subscriptionGross: Money(usd: 8.99))
        var b = ConsumableAccumulator()
        b.add(month: feb, consumableGross: Money(usd: 0.99) * 5, sold: 5, capHits: 2)
        a.merge(b)
        let m = a.months[jan]!
        #expect(m.consumableGross == Money(usd: 2.97) && m.totalGross == Money(usd: 16.95) && m.buyers == 1 && m.capHits == 1)
        #expect(abs(m.consumableShare! - 2.97 / 16.95) < 1e-12)
        #expect(a.months[feb]!.consumableShare == 1)
        #expect(a.total.sold == 8 && a.total.buyers == 2 && a.total.capHits == 3)
        #expect(ConsumableAccumulator().total.consumableShare == nil)
    }
}
