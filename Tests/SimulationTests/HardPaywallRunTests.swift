import EarnedAccessRules
import HabitatTestSupport
import Reports
import RulesCore
import ScenarioFormat
import ScrollOffRules
import Testing
@testable import Simulation
import ProductRegistry
@testable import ScrollOffLife
@testable import EarnedAccessLife

/// Issue 26 item 5 on whole lives: under `paywall.mode: hard` (an assumption-option, not in seed 000 or 003) nobody
/// without a paid plan or a trial meets the product after onboarding — no shield, no mode, no credit — while the
/// freemium default (the seeds' Free tiers) does enforce for Free people. Each test reads every person's trace (the
/// engine's own events with the plan after each) in both arms on the same people; the mechanism behaviour (more
/// purchases) so that people who pay, and unlock the product, occur in a population this small. Download→paid and
/// trial-start shares are printed, not asserted: the mechanism does not fix their direction (a wall at every opening
/// is more chances to buy, but the app gives no value to grow the willingness to pay on).
@Suite("Hard paywall on whole lives (issue 26 item 5)", .serialized)
struct HardPaywallRunTests {
    final class Rows: @unchecked Sendable { var rows: [TraceRow] = [] }

    /// What one arm's lives show.
    struct Arm {
        var installs = 0
        /// Engine rows that enforce or earn, met by a person on Free after onboarding (after the first hard wall, or
        /// anywhere for a person who never met it).
        var freeEnforcement: [String] = []
        var walls = 0
        /// People who never met the wall because they started a trial or bought at a paywall during onboarding.
        var boughtBeforeWall = 0
        /// People who started a trial / were charged for a plan / met a shield on a plan or trial after the wall.
        var trials = 0, paid = 0, unlockedShields = 0
    }

    static func scenario(_ product: String, days: Int = 21, installs: Int = 300) throws -> ResolvedScenario {
        try ScenarioLoader(catalogues: Products.catalogues).load(yaml: """
            name: hard-paywall-run
            product: \(product)
            start: 2026-01-05
            horizon_days: \(days)
            population:
              installs: \(installs)
            \(MechanismBehavior.yaml(indent: 0))arms:
              - name: freemium
              - name: hard
                rules: {paywall: {mode: hard}}
            """, fileName: "hard-paywall-run.yaml")
    }

    /// Every person's trace in one arm, read for enforcement on Free. `planColumn` is the index of the plan among the
    /// product's trace columns; `enforcing` the engine events that enforce or earn.
    static func arm<A: ProductAdapter>(_: A.Type, _ scenario: ResolvedScenario, _ name: String, planColumn: Int,
                                       enforcing: [String]) throws -> Arm {
        let arm = try #require(scenario.arm(named: name))
        let world = try World<A>(scenario: scenario, arm: arm, replication: 1)
        var result = Arm(installs: arm.population.installs)
        for person in 0..<arm.population.installs {
            let box = Rows()
            var life = PersonLife(world: world, person: person) { box.rows.append($0) }
            _ = life.run()
            let engine = box.rows.filter { $0.kind == "engine" }
            func named(_ row: TraceRow, _ n: String) -> Bool { row.detail == n || row.detail.hasPrefix(n + " ") }
            let wall = engine.firstIndex { named($0, "paywall_shown") && $0.detail.contains("=hard_paywall") }
            if wall != nil { result.walls += 1 }
            if wall == nil, engine.contains(where: { named($0, "trial_started") || named($0, "subscription_purchase_completed") }) {
                result.boughtBeforeWall += 1
            }
            let plan = { (row: TraceRow) in row.product[planColumn].rendered }
            // Onboarding happens before the wall; a person who never met it (every person under freemium) counts from
            // the start.
            let scope = wall.map { engine[$0...] } ?? engine[...]
            for i in scope.indices where enforcing.contains(where: { named(scope[i], $0) }) && plan(scope[i]) == "free" {
                // A spend tick settles seconds already spent: one at the instant a plan lapses (the engine closes the
                // session in progress as the subscription expires) was spent on the plan the row before shows.
                if named(scope[i], "spend_tick"), i > scope.startIndex, plan(scope[i - 1]) != "free" { continue }
                result.freeEnforcement.append("person \(person) \(scope[i].time): \(scope[i].detail)")
            }
            if engine.contains(where: { named($0, "trial_started") }) { result.trials += 1 }
            if engine.contains(where: { named($0, "subscription_purchase_completed") }) { result.paid += 1 }
            if let w = wall, engine[w...].contains(where: { named($0, "shield_shown") && plan($0) != "free" }) { result.unlockedShields += 1 }
        }
        return result
    }

    static func report(_ product: String, _ free: Arm, _ hard: Arm) {
        func share(_ n: Int, _ d: Int) -> String { String(format: "%.4f", Double(n) / Double(max(d, 1))) }
        print("\(product) \(free.installs) installs: download→trial freemium \(share(free.trials, free.installs)) hard \(share(hard.trials, hard.installs)); "
              + "download→paid freemium \(share(free.paid, free.installs)) hard \(share(hard.paid, hard.installs)); "
              + "hard walls met by \(hard.walls), unlocked and shielded \(hard.unlockedShields)")
    }

    @Test("Scroll Off: under hard, no Free person meets a shield, earns or spends after onboarding; under freemium Free people do")
    func scrollOff() throws {
        let s = try Self.scenario("scroll-off")
        let enforcing = ["shield_shown", "earn_award", "spend_tick"]
        let hard = try Self.arm(ScrollOffProduct.self, s, "hard", planColumn: 1, enforcing: enforcing)
        let free = try Self.arm(ScrollOffProduct.self, s, "freemium", planColumn: 1, enforcing: enforcing)
        #expect(hard.freeEnforcement.isEmpty, "\(hard.freeEnforcement.prefix(5))")
        #expect(free.freeEnforcement.count > 100, "the check has teeth: Free people enforce under freemium")
        #expect(hard.walls > hard.installs / 2, "most people finish onboarding and meet the wall: \(hard.walls)")
        #expect(hard.paid > 0 && hard.unlockedShields > 0, "some buy and are then shielded: \(hard.paid), \(hard.unlockedShields)")
        #expect(hard.trials == 0 && free.trials == 0, "seed 000 offers no trial")
        Self.report("scroll-off", free, hard)
    }

    @Test("Earned Access: under hard, no Free person meets a shield, a running mode or earns credits after onboarding; under freemium Free people do")
    func earnedAccess() throws {
        let s = try Self.scenario("earned-access")
        let enforcing = ["shield_shown", "mode_started", "credits_earned", "unlock_granted", "focus_session_started"]
        let hard = try Self.arm(EarnedAccessProduct.self, s, "hard", planColumn: 2, enforcing: enforcing)
        let free = try Self.arm(EarnedAccessProduct.self, s, "freemium", planColumn: 2, enforcing: enforcing)
        #expect(hard.freeEnforcement.isEmpty, "\(hard.freeEnforcement.prefix(5))")
        #expect(free.freeEnforcement.count > 100, "the check has teeth: Free people enforce under freemium")
        #expect(hard.walls + hard.boughtBeforeWall > hard.installs / 2,
                "most people finish onboarding and meet the wall, or bought before it: \(hard.walls) + \(hard.boughtBeforeWall)")
        #expect(hard.trials + hard.paid > 0 && hard.unlockedShields > 0, "some start the trial or buy and are then shielded: \(hard.trials), \(hard.paid), \(hard.unlockedShields)")
        Self.report("earned-access", free, hard)
    }
}
