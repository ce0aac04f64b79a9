import Testing
import RulesCore
import ScenarioFormat
@testable import Simulation

/// Issue 13, audit D12: a subscriber's keep-or-cancel decision falls a day before the engine's own period end —
/// calendar months (seed 000 §5.1, §9 renewal) — never on a 30-day month.
@Suite("Scroll Off renewal decisions follow the engine's calendar periods")
struct ScrollOffRenewalTests {
    /// Collects trace rows from many lives (single-threaded test code).
    final class Rows: @unchecked Sendable { var rows: [TraceRow] = [] }

    @Test("every renewal charge comes exactly one day after a decision to keep, across February and 30- and 31-day months")
    func decisionsPrecedeRenewalsByOneDay() throws {
        // Cheap monthly plans (and a dear annual one) so that people subscribe monthly and renew through February
        // and the months after.
        let scenario = try ScenarioLoader(catalogues: Products.catalogues).load(yaml: """
            name: renewals
            start: 2026-01-05
            horizon_days: 160
            population:
              installs: 40
            rules:
              prices: {premium_monthly: 0.49, pro_monthly: 0.99, pro_annual: 500}
            """, fileName: "renewals.yaml")
        let world = try World<ScrollOffProduct>(scenario: scenario, arm: scenario.arms[0], replication: 1)
        var renewals = 0, checked = 0
        for person in 0..<scenario.arms[0].population.installs {
            let box = Rows()
            var life = PersonLife(world: world, person: person) { box.rows.append($0) }
            _ = life.run()
            let keeps = Set(box.rows.filter { $0.kind == "renewal-decision" && $0.detail.hasPrefix("keep") }.map(\.time))
            for row in box.rows where row.kind == "engine" && row.detail.hasPrefix("subscription_renewed") {
                renewals += 1
                #expect(keeps.contains(row.time - .days(1)), "person \(person): renewed at \(row.time) without a decision a day before")
                checked += 1
            }
        }
        #expect(renewals >= 10, "the scenario must renew often enough to test anything (\(renewals))")
        #expect(checked == renewals)
    }
}
