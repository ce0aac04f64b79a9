import Testing
import RulesCore
@testable import ScrollOffRules

/// Seed 000 §3.4 Step 4 "'Try this first' → 2-minute guided mindfulness exercise … → user can skip or complete →
/// then proceed to bypass"; §4 "Breath awareness (2 min) … 5-4-3-2-1 grounding (2 min) … Body scan (3 min)"; §9
/// "User can skip immediately or complete", "Can be disabled entirely in Settings" (audit 2026-11 D6).
@Suite("The mindfulness step takes its time; a skip is not a completion (§3.4, §4)")
struct MindfulnessTests {
    let app = AppID(1)

    /// A Free user at 0 credits pressing the token button: the mindfulness step comes first.
    func prompted() -> (Harness, Instant) {
        var h = Harness()
        h.onboard()
        let t = h.at(0, 7, 30)
        h.meetShield(at: t)
        #expect(h.send(.shield(.emergencyToken), at: t).decision == .mindfulnessPrompted)
        return (h, t)
    }

    @Test("The step is on by default (§9 'Can be disabled entirely in Settings'), an explicit assumption")
    func defaultIsAnAssumption() {
        let p = ScrollOffParameters.catalogue.first { $0.keyPath == "bypass.mindfulness_enabled_by_default" }!
        #expect(p.defaultValue == .bool(true))
        #expect(p.source.isAssumption)
    }

    @Test("A skip emits mindfulness_skipped only: no completion, no bypass avoided, the shield stays")
    func skip() {
        var (h, t) = prompted()
        let o = h.send(.mindfulness(.breath, .skip), at: t)
        #expect(o.events == [.mindfulnessSkipped(.breath)])
        #expect(o.decision != .bypassAvoided && o.decision != .willpowerWin)
        #expect(h.engine.shieldOffer()?.app == app)
        #expect(h.count("mindfulness_completed") == 0 && h.count("shield_dismissed_no_spend") == 0)
    }

    @Test("The exercise takes its length: a completion before prompt + length is refused (breath 2 min, body scan 3 min)")
    func length() {
        var (h, t) = prompted()
        #expect(h.engine.pendingExerciseEndsAt == t + .minutes(Int64(2)))       // breath first
        #expect(h.engine.mindfulnessLength(.bodyScan) == .minutes(Int64(3)))
        let early = h.send(.mindfulness(.breath, .complete(bypassAvoided: true)), at: t + .seconds(Int64(119)))
        #expect(early.decision == .exerciseUnfinished)
        #expect(early.events.isEmpty)
        // The user may pick another exercise: its own length counts.
        #expect(h.send(.mindfulness(.bodyScan, .complete(bypassAvoided: true)), at: t + .minutes(Int64(2))).decision == .exerciseUnfinished)
        let done = h.send(.mindfulness(.bodyScan, .complete(bypassAvoided: true)), at: t + .minutes(Int64(3)))
        #expect(done.decision == .bypassAvoided)
        #expect(done.events.first == .mindfulnessCompleted(.bodyScan, bypassAvoided: true))
        #expect(h.engine.pendingExerciseEndsAt == nil)
    }

    @Test("A skip needs no time")
    func skipAtOnce() {
        var (h, t) = prompted()
        #expect(h.send(.mindfulness(.breath, .skip), at: t).decision == .ok)
    }
}

/// Seed 000 §8.1 `shield_dismissed_no_spend` — "user closed shield without spending (willpower win)"; §8.2 A3.5
/// "Shield dismissed without spending (first willpower win)"; §8.3 "Willpower wins (dismiss without spending)".
/// Only the close button with nothing refused is a win (audit 2026-11 D8).
@Suite("Honest willpower wins (§8.1, §8.3)")
struct HonestWinTests {
    let app = AppID(1)

    @Test("Closing the shield is a willpower win with time saved (per_resisted_urge: 10 min a win)")
    func close() {
        var h = Harness(parameters: params(["insights.time_saved_method": .text("per_resisted_urge")]))
        h.onboard()
        h.meetShield(at: h.at(0, 8, 10))
        let o = h.send(.shield(.close), at: h.at(0, 8, 10))
        #expect(o.decision == .willpowerWin)
        #expect(o.events.first == .shieldDismissedNoSpend)
        #expect(h.engine.timeSavedToday == .minutes(Int64(10)))
    }

    @Test("A shield left by backgrounding is abandoned: no win, no time saved")
    func backgrounded() {
        var h = Harness()
        h.onboard()
        h.meetShield(at: h.at(0, 8, 10))
        let o = h.send(.appBackground(app), at: h.at(0, 8, 11))
        #expect(o.decision == .shieldAbandoned)
        #expect(o.events == [.shieldAbandoned(app: app, reason: .backgrounded)])
        #expect(!o.events[0].isCharterEvent)
        #expect(h.engine.timeSavedToday == .zero)
        #expect(h.engine.pendingShield == nil)
        #expect(ScrollOffFunnel.Tracker.reached(h.log)[5] == false)          // not A3.5
    }

    @Test("A shield left by opening another app is abandoned")
    func otherApp() {
        var h = Harness()
        h.onboard(blocking: [1, 2])
        h.meetShield(at: h.at(0, 8, 10))
        let o = h.send(.appForeground(AppID(2)), at: h.at(0, 8, 11))
        #expect(o.events.first == .shieldAbandoned(app: app, reason: .otherAppOpened))
        #expect(h.count("shield_dismissed_no_spend") == 0)
        #expect(h.engine.timeSavedToday == .zero)
    }

    @Test("Closing after a refusal in the same encounter is not a win (curfew, no credits)")
    func closeAfterRefusal() {
        var h = Harness()
        h.onboard()
        h.meetShield(at: h.at(0, 7, 30))                                 // 0 credits
        #expect(h.send(.shield(.useCredits), at: h.at(0, 7, 30)).decision == .noCredits)
        let o = h.send(.shield(.close), at: h.at(0, 7, 30))
        #expect(o.decision == .shieldClosedAfterRefusal)
        #expect(o.events == [.shieldAbandoned(app: app, reason: .closedAfterRefusal)])
        #expect(h.engine.timeSavedToday == .zero)
        // The next encounter starts clean.
        h.meetShield(at: h.at(0, 7, 40))
        #expect(h.send(.shield(.close), at: h.at(0, 7, 40)).decision == .willpowerWin)
    }

    @Test("The KPIs say what a win is")
    func kpiText() {
        let k = ScrollOffKPIs.definitions.first { $0.id == "willpower_win_share" }!
        #expect(k.formula.contains("shield_abandoned"))
    }
}
