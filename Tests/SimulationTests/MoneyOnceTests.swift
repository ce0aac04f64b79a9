import Foundation
import HabitatTestSupport
import LifeHarness
import NoAppLife
import NudgeRules
import ProductRegistry
import Reports
import RulesCore
import ScenarioFormat
import ScrollOffRules
import Testing
@testable import NudgeLife
@testable import ScrollOffLife
@testable import Simulation

/// Issue 42, item 4: the ledger is the one source of money (no adapter books money from the engine's events), the
/// plan segment and "ever subscribed" are derived from the engine's standing in the generic life, and a free
/// product writes no money files.
@Suite("Money once", .serialized)
struct MoneyOnceTests {
    /// Every person's `ai-cost.csv` money is their ledger's: the AI cost is the sum of the service-cost lines and
    /// Pro's gross the sum of the purchase and renewal lines — per person, so a figure booked from an event beside
    /// the ledger (or a line missed) fails here.
    @Test("Nudge's AI cost and Pro revenue are the ledger's lines, person by person")
    func nudgeMoneyIsTheLedgers() throws {
        let run = try RecordedRun(NudgeAdapter.self, installs: 120, days: 30)
        var cost: Int64 = 0, gross: Int64 = 0, requests = 0
        for l in run.lives {
            let cells = l.summary.tally.ai.values.flatMap { $0 }
            let ledgerCost = l.ledger.filter { $0.kind == .serviceCost }.reduce(Int64(0)) { $0 + $1.amount.micros }
            let ledgerGross = l.ledger.filter { $0.kind == .subscriptionPurchase || $0.kind == .subscriptionRenewal }.reduce(Int64(0)) { $0 + $1.amount.micros }
            #expect(cells.reduce(Int64(0)) { $0 + $1.costMicros } == ledgerCost)
            #expect(cells.reduce(Int64(0)) { $0 + $1.grossMicros } == ledgerGross)
            // Requests are counted from the events (not money): one a service-cost line here (prices > 0).
            let n = cells.reduce(0) { $0 + $1.splits + $1.drafts }
            #expect(n == l.ledger.filter { $0.kind == .serviceCost }.count)
            cost += ledgerCost; gross += ledgerGross; requests += n
        }
        #expect(cost > 0 && requests > 0, "the run made AI requests")
        // The run's ai-cost.csv total is revenue.csv's cost: one source, one figure.
        let ai = run.acc.product.ai.reduce(Int64(0)) { t, m in m.cells.reduce(t) { $0 + $1.costMicros } }
        #expect(ai == cost && run.acc.revenue.total.cost.micros == cost)
        _ = gross
    }

    /// The plan segment is the highest the engine's standing ever stated after a line of money (descriptor order),
    /// and "ever subscribed" a subscription purchase in the ledger — for Scroll Off's three segments, where an
    /// upgrade moves premium to pro and a later plan change never moves it down.
    @Test("plan segment and ever-subscribed follow the engine's standing and the ledger")
    func planSegmentFromStanding() throws {
        let s = try ScenarioLoader(catalogues: Products.catalogues).load(
            yaml: "name: t\nproduct: scroll-off\nhorizon_days: 40\npopulation: {installs: 150}\n\(MechanismBehavior.yaml())", fileName: "t.yaml")
        let world = try World<ScrollOffProduct>(scenario: s, arm: s.arms[0], replication: 1)
        var paying = 0
        for id in 0..<150 {
            var life = PersonLife(world: world, person: id)
            life.ledgerLog = []
            let summary = life.run()
            let ledger = life.ledgerLog ?? []
            let purchases = ledger.filter { $0.kind == .subscriptionPurchase }
            #expect(summary.everSubscribed == !purchases.isEmpty)
            // The highest tier bought: every Scroll Off plan's segment is its tier (`ScrollOffEngine.standing`).
            let bought = purchases.compactMap { e in Plan.allCases.first { $0.sku == e.productID }?.tier.description }
            let expected = ["free", "premium", "pro"].last { bought.contains($0) } ?? "free"
            #expect(summary.planSegment == expected, "person \(id): \(purchases)")
            if summary.everSubscribed { paying += 1 }
        }
        #expect(paying > 0, "someone paid")
    }

    static func scenario(_ products: String, acquisition: Bool) throws -> ResolvedScenario {
        try ScenarioLoader(catalogues: Products.catalogues).load(yaml: """
            name: money
            start: 2026-01-05
            horizon_days: 3
            replications: 2
            population:
              installs: 6
            \(acquisition ? "  acquisition:\n    per_day: 10\n" : "")\(products)
            """, fileName: "money.yaml")
    }

    /// The files a run writes, with each CSV's arm column (the second key).
    static func written(_ scenario: ResolvedScenario) throws -> [String: Set<String>] {
        try withTemporaryDirectory(prefix: "habitat-money-once") { root in
            var run = try Products.run(scenario, threads: 1)
            try run.simulate(progress: nil)
            let report = try ReportDirectory(destination: root.appendingPathComponent("run"))
            let files = try run.write(to: report, wallSeconds: 0, checkpoint: {}, extra: { _ in })
            try report.commit()
            var arms: [String: Set<String>] = [:]
            for file in files where file.hasSuffix(".csv") {
                let text = try String(contentsOf: report.destination.appendingPathComponent(file), encoding: .utf8)
                let rows = text.split(separator: "\r\n").dropFirst()
                arms[file] = Set(rows.map { String($0.split(separator: ",", omittingEmptySubsequences: false)[1]) })
            }
            return arms
        }
    }

    @Test("a free product writes no revenue.csv and no forecast.csv, even with an acquisition curve")
    func freeProductWritesNoMoneyFiles() throws {
        let none = try Self.written(try Self.scenario("product: none", acquisition: true))
        #expect(none["revenue.csv"] == nil && none["forecast.csv"] == nil)
        #expect(none["kpis.csv"] != nil && none["world-check.csv"] != nil)
        // A product that sells writes both under the same curve.
        let paid = try Self.written(try Self.scenario("product: scroll-off", acquisition: true))
        #expect(paid["revenue.csv"] != nil && paid["forecast.csv"] != nil)
        // A free product with an app (the toy): Habitat's app reports, but no money file.
        let names = SimulationRun<Toy.Adapter>.reportFiles.map(\.name)
        #expect(names.contains("retention.csv") && !names.contains("revenue.csv"))
        #expect(!RevenueModel.free.hasMoney && RevenueModel(planSegments: ["free"], costSource: "ai").hasMoney)
    }

    @Test("in a run of several products a free arm has no forecast rows; with no arm that sells, no forecast at all")
    func freeArmHasNoForecastRows() throws {
        let mixed = try Self.written(try Self.scenario("products: [scroll-off, none]", acquisition: true))
        #expect(mixed["forecast.csv"] == ["scroll-off"])
        #expect(mixed["revenue.csv"].map { $0.isSubset(of: ["scroll-off"]) } == true, "revenue.csv is written, with no free arm's rows")
        #expect(mixed["kpis.csv"] == ["scroll-off", "none"])
        let without = try Self.written(try Self.scenario("products: [scroll-off, none]", acquisition: false))
        #expect(without["forecast.csv"] == nil)
    }
}

/// Issue 42, item 5: a run's report files are a list of writers — Habitat's own and the product's alike — in the
/// order they are written, and no run switches over file names.
@Suite("Report writers")
struct ReportWriterTests {
    @Test("Habitat's writers come first in their order, then the product's own; none writes only the neutral reports")
    func registryOrder() {
        let habitat = ["activation-funnel.csv", "retention.csv", "battery-budget.csv", "kpis.csv", "revenue.csv",
                       "energy-by-effect.csv", "decisions.csv", "learning.csv"]
        // Scroll Off's report keeps its place after retention.csv (`MetricsReport.after`): manifest.json lists the
        // files in the order they were written, as before issue 42.
        var scrollOff = habitat
        scrollOff.insert("token-revenue-share.csv", at: 2)
        #expect(SimulationRun<ScrollOffProduct>.reportFiles.map(\.name) == scrollOff)
        #expect(SimulationRun<NudgeAdapter>.reportFiles.map(\.name) == habitat + ["ai-cost.csv", "tasks.csv"])
        #expect(SimulationRun<NoAppAdapter>.reportFiles.map(\.name) == ["kpis.csv", "learning.csv"])
        // A run of several products keeps every product's order, whichever comes first.
        let earned = habitat + ["unlocks.csv"], nudge = habitat + ["ai-cost.csv", "tasks.csv"], none = ["kpis.csv", "learning.csv"]
        let all = scrollOff + ["unlocks.csv", "ai-cost.csv", "tasks.csv"]
        #expect(ReportOrder.merge([scrollOff, earned, nudge, none]) == all)
        #expect(ReportOrder.merge([none, earned, scrollOff]) == scrollOff + ["unlocks.csv"])
        #expect(ReportOrder.merge([nudge, scrollOff]) == scrollOff + ["ai-cost.csv", "tasks.csv"])
        for names in [SimulationRun<ScrollOffProduct>.reportFiles.map(\.name), SimulationRun<NudgeAdapter>.reportFiles.map(\.name)] {
            #expect(Set(names).count == names.count, "one writer per file")
        }
        // Every product report is named in its descriptor's `reports`.
        #expect(ScrollOffMetrics.reports.allSatisfy { ScrollOffEngine.descriptor.reports.contains($0.name) })
        #expect(NudgeMetrics.reports.allSatisfy { NudgeEngine.descriptor.reports.contains($0.name) })
    }

    /// Scroll Off's `token-revenue-share.csv`, from the run's neutral consumable figures: the same rows the generic
    /// report wrote before issue 42.
    @Test("Scroll Off's token-revenue-share.csv renders the neutral consumable figures")
    func tokenShareRows() {
        let jan = MonthID(year: 2026, month: 1), feb = MonthID(year: 2026, month: 2)
        var a = ConsumableAccumulator()
        a.add(month: jan, consumableGross: Money(usd: 0.99) * 3, subscriptionGross: Money(usd: 4.99), sold: 3, capHits: 1)
        a.add(month: jan, subscriptionGross: Money(usd: 8.99))
        a.add(month: feb, consumableGross: Money(usd: 0.99) * 5, sold: 5, capHits: 2)
        let keys = ReportKeys(scenario: "s", arm: "control", replication: 1, product: "scroll-off")
        let rows = ScrollOffMetrics.tokenShareRows(a, keys, threshold: 0.20).map { Array($0.map(\.rendered).dropFirst(4)) }
        #expect(rows == [
            ["2026-01", "2.97", "13.98", "0.00", "16.95", "0.175221", "0.20", "true", "3", "1", "1"],
            ["2026-02", "4.95", "0.00", "0.00", "4.95", "1.000000", "0.20", "false", "5", "1", "2"],
            ["total", "7.92", "13.98", "0.00", "21.90", "0.361644", "0.20", "false", "8", "2", "3"],
        ])
        #expect(ScrollOffMetrics.reports.map(\.header) == [ScrollOffMetrics.tokenShareHeader])
    }
}
