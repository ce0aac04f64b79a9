import HabitatTestSupport
import Testing
import RulesCore
import ScenarioFormat
import ScrollOffRules
@testable import Simulation
import ProductRegistry
@testable import ScrollOffLife

/// Issue 13: what the simulated people do with Scroll Off, checked on whole lives against the charter's words
/// (seed 000). Each test reads the engine's own analytics events from every person's trace.
@Suite("Scroll Off adapter against the charter (issue 13)", .serialized)
struct ScrollOffAdapterTests {
    final class Rows: @unchecked Sendable { var rows: [TraceRow] = [] }

    /// Every person's trace rows over a small population (cached: one simulation for the whole suite).
    static let lives: [[TraceRow]] = {
        let scenario = try! ScenarioLoader(catalogues: Products.catalogues).load(yaml: """
            name: adapter
            start: 2026-01-05
            horizon_days: 75
            population:
              installs: 160
              personas: [{name: student, share: 0.3}, {name: worker, share: 0.3}, {name: late-night-scroller, share: 0.25},
                         {name: adhd-adult, share: 0.15}]
            """ + "\n" + MechanismBehavior.yaml(), fileName: "adapter.yaml")
        let world = try! World<ScrollOffProduct>(scenario: scenario, arm: scenario.arms[0], replication: 1)
        return (0..<scenario.arms[0].population.installs).map { person in
            let box = Rows()
            var life = PersonLife(world: world, person: person) { box.rows.append($0) }
            _ = life.run()
            return box.rows
        }
    }()

    static func events(_ rows: [TraceRow], _ name: String) -> [TraceRow] {
        rows.filter { $0.kind == "engine" && ($0.detail == name || $0.detail.hasPrefix(name + " ")) }
    }

    @Test("D1: a plan is bought only where the engine shows a paywall (§6.1 chips 'always contextual to action attempted') or on Plan & Billing when the app is opened (§5 Settings, audit E7), never as an upsell at the token cap (§6.2)")
    func purchasesOnlyAtPaywalls() {
        var purchases = 0
        for rows in Self.lives {
            let chips = Self.events(rows, "paywall_shown"), opens = Self.events(rows, "app_opened")
            for buy in Self.events(rows, "subscription_purchase_initiated") {
                purchases += 1
                // At the chip; or, the app just opened, on the dashboard for a chip raised while nobody looked (the earn
                // cap) or on Plan & Billing's "Upgrade" (issue 26, audit E7) — never at a shield without a chip.
                let atChip = chips.contains { $0.time == buy.time }
                let onDashboard = opens.contains { $0.time == buy.time }
                    && chips.contains { $0.detail.contains("context=daily_earn_cap") && $0.time < buy.time && buy.time - $0.time < .days(1) }
                let onPlans = opens.contains { $0.time == buy.time } && rows.contains { $0.time == buy.time && $0.kind == "plans" }
                #expect(atChip || onDashboard || onPlans, "purchase at \(buy.time) without a paywall")
            }
        }
        #expect(purchases >= 5, "too few purchases to test (\(purchases))")
    }

    @Test("D3: when credits reach 0 or a peek or token ends in the app, the shield is back and the person chooses again (§3.2 'At 0s, shield reappears instantly')")
    func theShieldReturns() {
        var returns = 0
        for rows in Self.lives {
            for (i, row) in rows.enumerated() where row.kind == "engine" && row.detail.hasPrefix("wallet_empty") {
                // A person leaving at that instant (revoking access ends the session) no longer meets the shield.
                if rows[..<i].reversed().prefix(while: { $0.time == row.time }).contains(where: { $0.kind == "churn" }) { continue }
                let choiceFollows = rows[(i + 1)...].prefix { $0.time == row.time }.contains { $0.kind == "choice" }
                #expect(choiceFollows, "wallet empty at \(row.time) without the person meeting the shield: \(rows[max(0, i - 3)...min(rows.count - 1, i + 3)].map { "\($0.time) \($0.kind) \($0.detail)" })")
                returns += 1
            }
        }
        #expect(returns >= 5, "too few empty wallets to test (\(returns))")
    }

    @Test("D4: no app is blocked before an if-then plan (§9 'At least 1 plan required to proceed'); people write 1–5 plans (§4 'encourage 3-5')")
    func plansComeFirst() {
        var counts: [Int] = []
        for rows in Self.lives {
            let plans = Self.events(rows, "if_then_plan_created")
            if let firstBlock = Self.events(rows, "app_blocked").first {
                #expect(plans.first.map { $0.time <= firstBlock.time } ?? false, "an app blocked without a plan")
            }
            if !plans.isEmpty { counts.append(plans.count) }
        }
        #expect(counts.allSatisfy { (1...5).contains($0) })
        #expect(counts.contains { $0 >= 4 }, "nobody writes the 3–5 plans the charter encourages")
    }

    @Test("D6: a completed exercise takes its length (§4 breath 2 min, grounding 2 min, body scan 3 min); a skip is not a completion")
    func exercisesTakeTheirLength() {
        let minutes = ["breath": 2.0, "grounding": 2.0, "bodyScan": 3.0]
        var completed = 0, skipped = 0
        for rows in Self.lives {
            var prompted: Instant?
            for row in rows where row.kind == "engine" {
                if row.detail.hasPrefix("mindfulness_prompted") { prompted = row.time }
                if row.detail.hasPrefix("mindfulness_skipped") { skipped += 1; prompted = nil }
                if row.detail.hasPrefix("mindfulness_completed"), let start = prompted {
                    let type = minutes.keys.first { row.detail.contains("exercise_type=\($0)") } ?? "breath"
                    #expect((row.time - start).minutes >= minutes[type]! - 1e-9, "\(type) completed in \((row.time - start).minutes) min")
                    completed += 1
                    prompted = nil
                }
            }
        }
        #expect(completed >= 3 && skipped >= 1, "completed \(completed), skipped \(skipped)")
    }

    @Test("D7: all three SKUs of §5.1 sell — Premium monthly, Pro monthly, Pro annual")
    func everySKUSells() {
        var skus = Set<String>()
        for rows in Self.lives {
            for buy in Self.events(rows, "subscription_purchase_completed") {
                for plan in Plan.allCases where buy.detail.contains("sku=\(plan.sku)") { skus.insert(plan.sku) }
            }
        }
        #expect(skus == Set(Plan.allCases.map(\.sku)), "sold: \(skus.sorted())")
    }

    @Test("D11: optional mechanics happen — bedtime curfews start (§3.3), clock tricks are caught (§7.7)")
    func optionalMechanicsAreDriven() {
        let all = Self.lives.joined()
        #expect(all.contains { $0.kind == "engine" && $0.detail.hasPrefix("curfew_start") })
        #expect(all.contains { $0.kind == "engine" && $0.detail.hasPrefix("clock_rollback_detected") })
    }
}

/// Audit 2026-11-25 E6 (D8's abandon path never ran). Seed 000 §8.1: `shield_dismissed_no_spend` — "user closed shield
/// without spending (willpower win)"; leaving a shield without closing it is no such event (the engine's
/// `shield_abandoned`, reason backgrounded). People who do not act on an urge sometimes just leave the shield.
@Suite("Scroll Off: walking away from a shield (audit 2026-11-25 E6)", .serialized)
struct ScrollOffWalkAwayTests {
    @Test("every walk-away leaves the shield abandoned (backgrounded) with no win; there are walk-aways, and none without the share")
    func walkAwayIsAbandoned() {
        var walks = 0
        for rows in ScrollOffAdapterTests.lives {
            for (i, row) in rows.enumerated() where row.kind == "choice" && row.detail.hasPrefix("walk away") {
                walks += 1
                let same = rows[max(0, i - 4)...i].filter { $0.time == row.time && $0.kind == "engine" }.map(\.detail)
                #expect(same.contains { $0.hasPrefix("shield_abandoned") && $0.contains("reason=backgrounded") }, "\(same)")
                #expect(!same.contains("shield_dismissed_no_spend"))
            }
        }
        #expect(walks >= 20, "walk-aways: \(walks)")
        // With the share at 0, the same people never walk away.
        let scenario = try! ScenarioLoader(catalogues: Products.catalogues).load(yaml: """
            name: no-walk
            start: 2026-01-05
            horizon_days: 10
            population:
              installs: 40
            behavior: {shield.walk_away_share: 0}
            """, fileName: "no-walk.yaml")
        let world = try! World<ScrollOffProduct>(scenario: scenario, arm: scenario.arms[0], replication: 1)
        for person in 0..<40 {
            var life = PersonLife(world: world, person: person)
            let s = life.run()
            #expect(s.decisions.count(.shieldChoice, .walkAway) == 0)
            #expect(s.decisions.decisions(.shieldChoice) > 0 || s.decisions.opportunities(.shieldChoice) == 0)
        }
    }
}
