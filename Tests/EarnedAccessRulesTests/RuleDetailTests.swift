import Testing
import RulesCore
@testable import EarnedAccessRules

/// Rule details beyond the acceptance examples: earning, streak readings, paywall triggers and placement, lifetime,
/// re-upgrade, stacking (seed 003 §5, §6; inventory rows 11–12, 22–29, 43).
@Suite("Earned Access rule details")
struct RuleDetailTests {
    /// Inventory rows 22–23 (assumptions): completed sessions ≥ 10 min earn 1 credit per 5 min; shorter or abandoned
    /// ones earn nothing.
    @Test("focus: 1 credit per 5 completed minutes from 10 min; short or abandoned sessions earn nothing")
    func focusEarning() {
        var h = Harness(parameters: params(["streak.bonus_credits": .int(0)]))
        h.onboard()
        h.focus(9, from: h.at(0, 9))
        #expect(h.engine.balance == 0)
        h.focus(12, from: h.at(0, 10))
        #expect(h.engine.balance == 2)
        h.send(.startFocus(minutes: 60), at: h.at(0, 11))
        #expect(h.send(.startFocus(minutes: 30), at: h.at(0, 11, 5)).decision == .focusRunning)
        #expect(h.send(.cancelFocus, at: h.at(0, 11, 50)).decision == .focusAbandoned)
        h.run(until: h.at(0, 13))
        #expect(h.engine.balance == 2)
        #expect(h.rendered("focus_session_abandoned") == ["focus_session_abandoned(minutes_done=50)"])
    }

    /// Seed 003 §6 Streak "First completed focus session ≥ 20 minutes": the literal reading as a switch (row 27).
    @Test("streak.first_session_only: a 25-min session after a 10-min one qualifies only when the switch is off")
    func firstSessionOnly() {
        for (literal, qualified) in [(false, true), (true, false)] {
            var h = Harness(parameters: params(["streak.first_session_only": .bool(literal)]))
            h.onboard()
            h.focus(10, from: h.at(0, 9))
            h.focus(25, from: h.at(0, 10))
            #expect(h.engine.qualifiedToday == qualified)
        }
    }

    /// Inventory rows 24 and 29 (assumptions): habits earn 2 credits, the first 3 per day_id; an unqualified day resets
    /// the streak at 04:00.
    @Test("habits: 2 credits each for the first 3 a day, once per habit per day_id; an unqualified day breaks the streak")
    func habits() {
        var h = Harness()
        h.onboard()
        for _ in 0..<4 { h.send(.createHabit, at: h.at(0, 9)) }
        for id in 1...4 { h.send(.completeHabit(HabitID(id)), at: h.at(0, 10)) }
        #expect(h.send(.completeHabit(1), at: h.at(0, 11)).decision == .alreadyCompleted)
        #expect(h.engine.balance == 3 * 2 + 5)
        #expect(h.engine.streak == 1)
        h.send(.completeHabit(1), at: h.at(1, 10))
        #expect(h.send(.completeHabit(1), at: h.at(1, 11)).decision == .alreadyCompleted)
        h.run(until: h.at(2, 4))
        #expect(h.engine.streak == 0)
        #expect(h.rendered("streak_broken") == ["streak_broken(length=1)"])
    }

    /// Seed 003 §5 Best paywall / trial trigger moments: "Enabling Strict or Hard mode"; Pro "Quest variants
    /// (Breathing + optional Copy-text)".
    @Test("paywall triggers: strictness on a new mode; copy-text on Free only where paywall.copy_text_trigger says so (E14)")
    func triggers() {
        var h = Harness()
        h.onboard(apps: [1])
        h.send(.deleteMode(1), at: h.at(0, 9))
        #expect(h.send(.createMode(workMode(time(0), time(0), strictness: .hard)), at: h.at(0, 9)).events.array.map(render)
                == ["paywall_shown(trigger=strictness)"])
        h.send(.createMode(allDayMode), at: h.at(0, 9))
        h.reachGate(AppID(1), at: h.at(0, 10))
        let locked = h.send(.unlock(AppID(1), .copyTextQuest), at: h.at(0, 10))
        #expect(locked.decision == .proOnly && !locked.events.array.contains { $0.name == "paywall_shown" })
        var upsell = Harness(parameters: params(["paywall.copy_text_trigger": .bool(true)]))
        upsell.onboard(apps: [1])
        upsell.reachGate(AppID(1), at: upsell.at(0, 10))
        #expect(upsell.send(.unlock(AppID(1), .copyTextQuest), at: upsell.at(0, 10)).events.array.map(render) == ["paywall_shown(trigger=copy_text)"])
    }

    /// Seed 003 §9 Phase 3 "Paywall placement (after onboarding or after first 'blocked app' moment)".
    @Test("paywall.placement: after onboarding, or once at the first Close & unlock, or never")
    func placement() {
        var a = Harness()
        a.onboard()
        #expect(a.rendered("paywall_shown") == ["paywall_shown(trigger=placement)"])
        var b = Harness(parameters: params(["paywall.placement": .text("after_first_blocked")]))
        b.onboard()
        #expect(b.count("paywall_shown") == 0)
        b.reachGate(AppID(1), at: b.at(0, 9))
        b.reachGate(AppID(1), at: b.at(0, 10))
        #expect(b.rendered("paywall_shown") == ["paywall_shown(trigger=placement)"])
        var c = Harness(parameters: params(["paywall.placement": .text("none")]))
        c.onboard()
        c.reachGate(AppID(1), at: c.at(0, 9))
        #expect(c.count("paywall_shown") == 0)
    }

    /// Seed 003 §5 "Lifetime (one-time non-consumable purchase)", off by default (inventory row 7).
    @Test("lifetime when sold: one charge, never renews, cannot be cancelled")
    func lifetime() {
        var h = Harness(parameters: params(["prices.lifetime_enabled": .bool(true)]))
        h.onboard()
        #expect(h.send(.paywallResponse(.buy(.lifetime)), at: h.at(0, 9)).decision == .subscribed)
        #expect(h.send(.cancelAutoRenew, at: h.at(0, 9)).decision == .noSubscription)
        h.run(until: h.at(400, 9))
        #expect(h.engine.tier == .pro)
        #expect(h.ledger.map(\.amount) == [Money(usd: 99.99)])
        #expect(h.ledger.map(\.productID) == ["earnedaccess.pro.lifetime"])
    }

    /// Inventory row 18 (assumption): going Pro again brings back locked modes and dropped apps.
    @Test("re-upgrade after a downgrade unlocks the modes and apps again")
    func reUpgrade() {
        var h = AcceptanceTests.trialHarness()
        for a in 1...5 { h.send(.addApp(AppID(UInt16(a))), at: h.at(0, 11)) }
        h.send(.createMode(workMode(time(9), time(12), priority: 5)), at: h.at(0, 11))
        h.run(until: h.at(7, 10))
        #expect(h.engine.modes.filter(\.locked).count == 1 && h.engine.apps.filter(\.kept).count == 3)
        h.send(.paywallResponse(.buy(.monthly)), at: h.at(8, 9))
        #expect(h.engine.modes.allSatisfy { !$0.locked } && h.engine.apps.allSatisfy(\.kept))
        #expect(h.engine.shieldedApps.count == 5)
    }

    /// Inventory row 43 (assumption): no stacking — an app that already has a grant cannot get another.
    @Test("no stacking: a second unlock for an app with a live grant is refused")
    func noStacking() {
        var h = Harness()
        h.onboard()
        h.focus(60, from: h.at(0, 9))
        h.reachGate(AppID(1), at: h.at(0, 11))
        #expect(h.send(.unlock(AppID(1), .credits(minutes: 5)), at: h.at(0, 11)).decision == .granted)
        #expect(h.engine.gateOffer(at: h.at(0, 11, 1))?.enabled.isEmpty == true)
        #expect(h.send(.unlock(AppID(1), .emergency), at: h.at(0, 11, 1)).decision == .alreadyGranted)
        #expect(h.send(.unlock(AppID(1), .credits(minutes: 10)), at: h.at(0, 11, 1)).decision == .invalidChoice)
    }
}
