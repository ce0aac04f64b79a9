import Testing
import RulesCore
@testable import EarnedAccessRules

/// The Unlock Gate, the shield, strictness, quests, authorization, the trial and the funnel (seed 003 §3, §5, §6, §7).
@Suite("Earned Access gate, shield and plans")
struct GateTests {
    /// Seed 003 §3 B) 2–3: the shield writes the last blocked app; opening Earned Access auto-navigates to its gate.
    @Test("shield → Close & unlock → app opened lands in the gate for the last blocked app")
    func lastBlocked() {
        var h = Harness()
        h.onboard(apps: [1, 2])
        #expect(h.send(.appForeground(AppID(2)), at: h.at(0, 9)).decision == .shieldShown)
        #expect(h.send(.shieldClose(AppID(2)), at: h.at(0, 9)).decision == .shieldClosed)
        let out = h.send(.appOpened, at: h.at(0, 9, 1))
        #expect(out.decision == .gateOpened)
        #expect(out.events.array.map(render) == ["app_opened", "unlock_gate_opened(app=app:2,source=last_blocked)"])
        let offer = h.engine.gateOffer(at: h.at(0, 9, 1))!
        #expect(offer.app == AppID(2) && offer.options.map(\.choice) == [.credits(minutes: 5), .credits(minutes: 15), .credits(minutes: 30),
                                                                        .breathingQuest, .copyTextQuest, .emergency])
        #expect(offer.option(.credits(minutes: 5))?.disabledReason == .insufficientCredits)
        // §5's paywall moments do not include copy-text: on Free it is locked without an upsell (audit 2026-11-25 E14).
        #expect(offer.option(.copyTextQuest)?.disabledReason == .proOnly)
        #expect(offer.enabled.map(\.choice) == [.breathingQuest, .emergency])
    }

    /// Inventory row 39 (assumption): breathing 60 s → 5-min unlock, at most 3 per day_id.
    @Test("breathing quest: 60 s → 5 min, three per day_id; abandoning grants nothing")
    func breathing() {
        var h = Harness()
        h.onboard()
        let a = AppID(1)
        h.reachGate(a, at: h.at(0, 9))
        h.send(.unlock(a, .breathingQuest), at: h.at(0, 9))
        #expect(h.send(.abandonQuest, at: h.at(0, 9, 0, 30)).decision == .questAbandoned)
        #expect(h.engine.grants.isEmpty)
        for k in 0..<3 {
            let t = h.at(0, 10 + k)
            h.reachGate(a, at: t)
            h.send(.unlock(a, .breathingQuest), at: t)
            h.run(until: t + .seconds(60))
            #expect(h.engine.grant(for: a, at: t + .seconds(60))?.minutes == 5)
        }
        h.reachGate(a, at: h.at(0, 14))
        #expect(h.send(.unlock(a, .breathingQuest), at: h.at(0, 14)).decision == .questLimitReached)
        #expect(h.problems.isEmpty, "\(h.problems)")
    }

    /// Inventory row 42: leaving the emergency wait cancels it without using up the day's emergency.
    @Test("leaving the emergency wait does not use up the day's emergency")
    func emergencyLeft() {
        var h = Harness()
        h.onboard()
        h.reachGate(AppID(1), at: h.at(0, 9))
        h.send(.unlock(AppID(1), .emergency), at: h.at(0, 9))
        #expect(h.send(.leaveGate, at: h.at(0, 9, 0, 30)).decision == .emergencyWaitAbandoned)
        h.run(until: h.at(0, 9, 2))
        #expect(h.engine.grants.isEmpty && h.engine.emergenciesToday == 0)
        h.reachGate(AppID(1), at: h.at(0, 9, 5))
        #expect(h.engine.gateOffer(at: h.at(0, 9, 5))?.option(.emergency)?.isEnabled == true)
    }

    /// Inventory row 42: the wait happens in the foreground; opening another app leaves it without using it.
    @Test("opening an app during the emergency wait abandons it; the day's emergency is kept")
    func waitLeftByForeground() {
        var h = Harness()
        h.onboard(apps: [1, 2])
        h.reachGate(AppID(1), at: h.at(0, 9))
        h.send(.unlock(AppID(1), .emergency), at: h.at(0, 9))
        let out = h.send(.appForeground(AppID(2)), at: h.at(0, 9, 0, 30))
        #expect(out.events.array.map(render) == ["emergency_wait_abandoned(app=app:1)", "shield_shown(app=app:2,mode=1,strictness=standard)"])
        h.run(until: h.at(0, 9, 2))
        #expect(h.engine.grants.isEmpty && h.engine.pending == nil && h.engine.gateApp == nil)
        h.reachGate(AppID(1), at: h.at(0, 9, 5))
        #expect(h.engine.gateOffer(at: h.at(0, 9, 5))?.emergenciesLeftToday == 1)
        #expect(h.engine.gateOffer(at: h.at(0, 9, 5))?.questsLeftToday == 3)
    }

    /// Inventory row 33 (assumption): Strict = no quests + cooldown; Hard = emergency only. Pro only (§5).
    @Test("strictness: Free is refused with the paywall; Strict has no quests and a cooldown; Hard offers only the emergency")
    func strictness() {
        var h = Harness()
        h.onboard()
        #expect(h.send(.setStrictness(1, .strict), at: h.at(0, 9)).decision == .paywall)
        h.send(.paywallResponse(.startTrial(.annual)), at: h.at(0, 9))
        #expect(h.send(.setStrictness(1, .strict), at: h.at(0, 9)).decision == .modeUpdated)
        h.focus(150, from: h.at(0, 9))
        h.reachGate(AppID(1), at: h.at(0, 12))
        var offer = h.engine.gateOffer(at: h.at(0, 12))!
        #expect(offer.strictness == .strict && offer.option(.breathingQuest)?.disabledReason == .strictnessForbids)
        #expect(h.send(.unlock(AppID(1), .credits(minutes: 5)), at: h.at(0, 12)).decision == .granted)
        h.run(until: h.at(0, 12, 5))
        h.reachGate(AppID(1), at: h.at(0, 12, 10))
        #expect(h.engine.gateOffer(at: h.at(0, 12, 10))?.option(.credits(minutes: 5))?.disabledReason == .cooldownActive)
        #expect(h.engine.gateOffer(at: h.at(0, 12, 10))?.cooldownEndsAt == h.at(0, 12, 20))
        #expect(h.engine.gateOffer(at: h.at(0, 12, 20))?.option(.credits(minutes: 5))?.isEnabled == true)
        h.send(.setStrictness(1, .hard), at: h.at(0, 12, 20))
        offer = h.engine.gateOffer(at: h.at(0, 12, 20))!
        #expect(offer.enabled.map(\.choice) == [.emergency])
        #expect(h.problems.isEmpty, "\(h.problems)")
    }

    /// Inventory row 45 (assumption): if authorization is denied, nothing is enforced.
    @Test("denied or revoked Screen Time authorization: nothing is enforced")
    func authorization() {
        var h = Harness()
        h.onboard()
        h.send(.authorization(.revoked), at: h.at(0, 9))
        #expect(h.send(.appForeground(AppID(1)), at: h.at(0, 9)).decision == .notEnforced)
        #expect(h.engine.shieldedApps.isEmpty)
        h.send(.authorization(.granted), at: h.at(0, 10))
        #expect(h.send(.appForeground(AppID(1)), at: h.at(0, 10)).decision == .shieldShown)
    }

    /// Seed 003 §5: "Annual subscription (auto-renew, includes free trial)"; the trial renews into paid unless
    /// cancelled (inventory row 3); one trial per person; ledger lines as Scroll Off books them.
    @Test("trial: zero-amount trial_start, first charge at day 7, renewal a year later; one trial per person; refund lapses")
    func trial() {
        var h = Harness()
        h.onboard()
        #expect(h.send(.paywallResponse(.startTrial(.monthly)), at: h.at(0, 9)).decision == .trialNotOffered)
        #expect(h.send(.paywallResponse(.startTrial(.annual)), at: h.at(0, 9)).decision == .trialStarted)
        #expect(h.engine.tier == .pro && h.engine.inTrial)
        h.run(until: h.at(7, 9))
        #expect(h.engine.tier == .pro && !h.engine.inTrial)
        #expect(h.ledger.map(\.kind) == [.trialStart, .subscriptionPurchase])
        #expect(h.ledger.map(\.amount) == [.zero, Money(usd: 49.99)])
        #expect(h.send(.refund, at: h.at(8, 9)).decision == .refunded)
        #expect(h.engine.tier == .free && h.ledger.last?.amount == Money(usd: -49.99))
        #expect(h.send(.paywallResponse(.startTrial(.annual)), at: h.at(8, 10)).decision == .trialUsed)
        #expect(h.send(.paywallResponse(.buy(.lifetime)), at: h.at(8, 10)).decision == .lifetimeNotOffered)
        #expect(h.send(.paywallResponse(.buy(.monthly)), at: h.at(8, 10)).decision == .subscribed)
        h.run(until: h.at(8, 10) + .days(32))
        #expect(h.ledger.filter { $0.kind == .subscriptionRenewal }.count == 1)
        #expect(h.problems.isEmpty, "\(h.problems)")
    }

    /// Seed 003 §7 Key behaviors: mode start and end are reported with one monitor callback each (inventory §5).
    @Test("mode schedule: mode_started / mode_ended at the edges, shields only inside")
    func modeEdges() {
        var h = Harness()
        h.onboard(mode: workMode(time(9), time(17)))
        #expect(h.send(.appForeground(AppID(1)), at: h.at(0, 8, 30)).decision == .notShielded)
        #expect(h.send(.appForeground(AppID(1)), at: h.at(0, 12)).decision == .shieldShown)
        h.run(until: h.at(0, 17))
        #expect(h.log.filter { $0.1.name.hasPrefix("mode_") && $0.1.name != "mode_created" }.map { render($0.1) } == ["mode_started(mode=1)", "mode_ended(mode=1)"])
        #expect(h.log.first { $0.1.name == "mode_started" }?.0 == h.at(0, 9))
        #expect(h.send(.appForeground(AppID(1)), at: h.at(0, 17, 1)).decision == .notShielded)
        #expect(h.send(.createMode(workMode(time(9), time(9, 10))), at: h.at(0, 18)).decision == .scheduleTooShort)
    }

    @Test("funnel E0–E9 from a day in the life")
    func funnel() {
        var h = Harness()
        h.onboard()
        h.send(.createHabit, at: h.at(0, 9))
        for d in Int64(0)...2 { h.focus(30, from: h.at(d, 9)) }
        h.reachGate(AppID(1), at: h.at(2, 12))
        h.send(.unlock(AppID(1), .credits(minutes: 5)), at: h.at(2, 12))
        #expect(EarnedAccessFunnel.Tracker.reached(h.log) == Array(repeating: true, count: 10))
    }
}
