import Testing
import RulesCore
@testable import EarnedAccessRules

/// Audit 2026-11-25 E11. Seed 003 §5 Pro: "Credit durations 5/15/30 & configurable pricing (within safe caps)",
/// "Advanced limits & cooldown controls per mode", "Weekly review + insights"; Free: "Credits unlock (limited): 5 min
/// only + fixed pricing", "Basic Progress (today + streak)"; downgrade: "App does not delete user data", "App
/// enforces Free limits".
@Suite("Earned Access Pro's controls (seed 003 §5; audit 2026-11-25 E11)")
struct ProControlsTests {
    /// A Pro subscriber (annual, bought outright) with one all-day mode over app 1, and `credits` in the bank.
    func pro(mode: ModeSpec = allDayMode, credits: Int = 0) -> Harness {
        var h = Harness()
        h.onboard(apps: [1], mode: mode)
        h.send(.paywallResponse(.buy(.annual)), at: h.at(0, 9))
        if credits > 0 { h.focus(credits * 5, from: h.at(0, 10)) }
        return h
    }

    @Test("configurable pricing: Pro sets a credit price within the safe caps, and the gate charges it; Free keeps the fixed price")
    func configurablePricing() {
        var free = Harness()
        free.onboard(apps: [1])
        #expect(free.send(.setCreditPrice(perMinute: 2), at: free.at(0, 9)).decision == .proOnly)
        var h = pro(credits: 40)
        #expect(h.send(.setCreditPrice(perMinute: 5), at: h.at(0, 13)).decision == .outOfRange)
        #expect(h.send(.setCreditPrice(perMinute: 0.1), at: h.at(0, 13)).decision == .outOfRange)
        let set = h.send(.setCreditPrice(perMinute: 2), at: h.at(0, 13))
        #expect(set.decision == .priceSet && set.events.array.map(render) == ["credit_price_set(credits_per_minute=2.00)"])
        h.reachGate(AppID(1), at: h.at(0, 14))
        #expect(h.engine.gateOffer(at: h.at(0, 14))?.option(.credits(minutes: 5))?.cost == 10)
        let before = h.engine.balance
        #expect(h.send(.unlock(AppID(1), .credits(minutes: 5)), at: h.at(0, 14)).decision == .granted)
        #expect(before - h.engine.balance == 10)
        #expect(h.send(.setCreditPrice(perMinute: nil), at: h.at(0, 15)).decision == .priceSet)
        #expect(h.engine.creditCost(minutes: 15) == 15)
    }

    @Test("per-mode daily unlock limit: the mode's own limit refuses the next unlock that day_id; the emergency still works; the limit resets at 04:00")
    func perModeLimit() {
        var mode = allDayMode
        mode.dailyUnlockLimit = 1
        var free = Harness()
        free.onboard(apps: [1], mode: workMode(time(9), time(17)))
        #expect(free.send(.createMode(mode), at: free.at(0, 9)).decision != .modeCreated)
        var h = pro(credits: 40)
        #expect(h.send(.editMode(1, mode), at: h.at(0, 13)).decision == .modeUpdated)
        h.reachGate(AppID(1), at: h.at(0, 14))
        #expect(h.send(.unlock(AppID(1), .credits(minutes: 5)), at: h.at(0, 14)).decision == .granted)
        h.run(until: h.at(0, 14, 6))
        h.reachGate(AppID(1), at: h.at(0, 14, 6))
        let second = h.send(.unlock(AppID(1), .credits(minutes: 5)), at: h.at(0, 14, 6))
        #expect(second.decision == .modeLimitReached)
        #expect(h.engine.gateOffer(at: h.at(0, 14, 6))?.option(.credits(minutes: 5))?.disabledReason == .modeLimitReached)
        #expect(h.engine.gateOffer(at: h.at(0, 14, 6))?.option(.emergency)?.disabledReason == nil)
        h.run(until: h.at(1, 4, 1))
        h.reachGate(AppID(1), at: h.at(1, 9))
        #expect(h.engine.gateOffer(at: h.at(1, 9))?.option(.credits(minutes: 5))?.disabledReason == nil)
    }

    @Test("per-mode cooldown: no unlock until the mode's cooldown after the last grant has passed; capped by modes.max_cooldown_minutes")
    func perModeCooldown() {
        var h = pro(credits: 40)
        var tooLong = allDayMode
        tooLong.cooldownMinutes = 241
        #expect(h.send(.editMode(1, tooLong), at: h.at(0, 13)).decision == .outOfRange)
        var mode = allDayMode
        mode.cooldownMinutes = 30
        #expect(h.send(.editMode(1, mode), at: h.at(0, 13)).decision == .modeUpdated)
        h.reachGate(AppID(1), at: h.at(0, 14))
        #expect(h.send(.unlock(AppID(1), .credits(minutes: 5)), at: h.at(0, 14)).decision == .granted)
        h.run(until: h.at(0, 14, 10))
        h.reachGate(AppID(1), at: h.at(0, 14, 10))
        #expect(h.send(.unlock(AppID(1), .breathingQuest), at: h.at(0, 14, 10)).decision == .cooldownActive)
        #expect(h.engine.gateOffer(at: h.at(0, 14, 10))?.cooldownEndsAt == h.at(0, 14, 35))
        h.run(until: h.at(0, 14, 36))
        h.reachGate(AppID(1), at: h.at(0, 14, 36))
        #expect(h.send(.unlock(AppID(1), .credits(minutes: 5)), at: h.at(0, 14, 36)).decision == .granted)
    }

    @Test("weekly review: Pro's; on Free only today + streak (the review is locked without an upsell)")
    func weeklyReview() {
        var free = Harness()
        free.onboard(apps: [1])
        let locked = free.send(.view(.weeklyReview), at: free.at(0, 9))
        #expect(locked.decision == .proOnly && locked.events.array.isEmpty)
        #expect(free.send(.view(.progress), at: free.at(0, 9)).events.array.map(render) == ["progress_viewed"])
        var h = pro()
        #expect(h.send(.view(.weeklyReview), at: h.at(0, 13)).events.array.map(render) == ["weekly_review_viewed"])
    }

    @Test("after a downgrade the Pro controls are kept but not applied: fixed price, no per-mode limit")
    func downgradeStopsApplying() {
        var h = Harness()
        h.onboard(apps: [1])
        h.send(.paywallResponse(.startTrial(.annual)), at: h.at(0, 9))
        h.send(.cancelAutoRenew, at: h.at(0, 9))
        var mode = allDayMode
        mode.dailyUnlockLimit = 0
        #expect(h.send(.editMode(1, mode), at: h.at(0, 10)).decision == .modeUpdated)
        #expect(h.send(.setCreditPrice(perMinute: 3), at: h.at(0, 10)).decision == .priceSet)
        h.run(until: h.at(8, 12))
        #expect(h.engine.tier == .free)
        #expect(h.engine.proCreditCostPerMinute == 3 && h.engine.modes[0].spec.dailyUnlockLimit == 0)
        #expect(h.engine.creditCost(minutes: 5) == 5)
        h.reachGate(AppID(1), at: h.at(8, 12))
        #expect(h.engine.gateOffer(at: h.at(8, 12))?.option(.breathingQuest)?.disabledReason == nil)
    }
}
