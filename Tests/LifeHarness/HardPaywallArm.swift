import Foundation
import HabitatTestSupport
import ProductRegistry
import RulesCore
import ScenarioFormat
import Simulation

/// Issue 26 item 5 on whole lives, for each product that has a hard paywall (`paywall.mode: hard`): what one arm's
/// lives show — every person's engine events with the plan in force after each (`LifeJournal`), read for the
/// product enforcing or earning for a person on Free after onboarding.
public struct HardPaywallArm {
    public var installs = 0
    /// Events that enforce or earn, met by a person on Free after onboarding (after the first hard wall, or anywhere
    /// for a person who never met it).
    public var freeEnforcement: [String] = []
    public var walls = 0
    /// People who never met the wall because they started a trial or bought at a paywall during onboarding.
    public var boughtBeforeWall = 0
    /// People who started a trial / were charged for a plan / met a shield on a plan or trial after the wall.
    public var trials = 0, paid = 0, unlockedShields = 0

    /// Both arms (`freemium`, `hard`) of `product` on the same people, with the mechanism behaviour (more purchases)
    /// so that people who pay, and unlock the product, occur in a population this small.
    public static func scenario(_ product: String, days: Int = 21, installs: Int = 300) throws -> ResolvedScenario {
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

    struct NoArm: Error { let name: String }

    /// Every person's journal in arm `name`, read for enforcement on Free: `enforcing` the names of the engine
    /// events that enforce or earn, `isWall` the hard paywall shown.
    public init<A: ProductAdapter>(_: A.Type, _ scenario: ResolvedScenario, _ name: String, enforcing: Set<String>,
                                   isWall: (A.Engine.Event) -> Bool) throws {
        guard let arm = scenario.arm(named: name) else { throw NoArm(name: name) }
        let world = try World<A>(scenario: scenario, arm: arm, replication: 1)
        installs = arm.population.installs
        for person in 0..<arm.population.installs {
            var life = PersonLife(world: world, person: person)
            let events = life.runRecorded().journal.events
            let named = { (i: Int, n: String) in events[i].event.name == n }
            let wall = events.firstIndex { isWall($0.event) }
            if wall != nil { walls += 1 }
            if wall == nil, events.indices.contains(where: { named($0, "trial_started") || named($0, "subscription_purchase_completed") }) {
                boughtBeforeWall += 1
            }
            // Onboarding happens before the wall; a person who never met it (every person under freemium) counts from
            // the start.
            let scope = wall.map { $0..<events.endIndex } ?? events.indices
            for i in scope where enforcing.contains(events[i].event.name) && events[i].standing.isFree {
                // A spend tick settles seconds already spent: one at the instant a plan lapses (the engine closes the
                // session in progress as the subscription expires) was spent on the plan the event before shows.
                if named(i, "spend_tick"), i > scope.lowerBound, !events[i - 1].standing.isFree { continue }
                freeEnforcement.append("person \(person) \(events[i].at): \(events[i].event)")
            }
            if events.indices.contains(where: { named($0, "trial_started") }) { trials += 1 }
            if events.indices.contains(where: { named($0, "subscription_purchase_completed") }) { paid += 1 }
            if let w = wall, events[w...].contains(where: { $0.event.name == "shield_shown" && !$0.standing.isFree }) { unlockedShields += 1 }
        }
    }

    /// Prints download→trial and download→paid in both arms (not asserted: the mechanism does not fix their direction).
    public static func report(_ product: String, _ free: HardPaywallArm, _ hard: HardPaywallArm) {
        func share(_ n: Int, _ d: Int) -> String { String(format: "%.4f", Double(n) / Double(max(d, 1))) }
        print("\(product) \(free.installs) installs: download→trial freemium \(share(free.trials, free.installs)) hard \(share(hard.trials, hard.installs)); "
              + "download→paid freemium \(share(free.paid, free.installs)) hard \(share(hard.paid, hard.installs)); "
              + "hard walls met by \(hard.walls), unlocked and shielded \(hard.unlockedShields)")
    }
}
