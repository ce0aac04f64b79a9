import Testing
import RulesCore
@testable import EarnedAccessRules

/// The inventory's acceptance examples §8 (1–10), each from the seed's words (seed 003).
@Suite("Earned Access acceptance examples (inventory §8)")
struct AcceptanceTests {
    /// 1. Seed 003 §6 Day boundary: "Day starts at 04:00 local time". 03:59:59 local on Tue 2026-03-10 → day_id
    /// 2026-03-09; 04:00:00 → 2026-03-10.
    @Test("1. day_id: 03:59:59 belongs to the previous day, 04:00:00 starts the new one")
    func dayBoundary() {
        var h = Harness(day0: LocalDate(year: 2026, month: 3, day: 9)!)
        h.onboard()
        let before = h.at(1, 3, 59, 59), boundary = h.at(1, 4)
        #expect(EarnedAccessEngine.computeDayID(before, zone: h.zone) == LocalDate(year: 2026, month: 3, day: 9)!)
        #expect(EarnedAccessEngine.computeDayID(boundary, zone: h.zone) == LocalDate(year: 2026, month: 3, day: 10)!)
        h.send(.view(.progress), at: before)
        #expect(h.engine.dayID == LocalDate(year: 2026, month: 3, day: 9)!)
        h.send(.view(.progress), at: boundary)
        #expect(h.engine.dayID == LocalDate(year: 2026, month: 3, day: 10)!)
        #expect(h.problems.isEmpty, "\(h.problems)")
    }

    /// 2. Seed 003 §6 Credits (Focus Bank): "Balance carryover at day rollover: min(10, balance)". Balance 23 at 03:59
    /// → 10 at 04:00 (expired = 13). Balance 7 → 7. Balance 0 → 0.
    @Test("2. carry-over min(10, balance): 23 → 10 (13 expired), 7 → 7, 0 → 0")
    func carryOver() {
        var h = Harness()
        h.onboard()
        h.focus(90, from: h.at(0, 9))           // 18 credits + streak bonus 5
        #expect(h.engine.balance == 23)
        h.run(until: h.at(1, 3, 59))
        #expect(h.engine.balance == 23)
        h.run(until: h.at(1, 4))
        #expect(h.engine.balance == 10)
        #expect(h.rendered("day_rolled_over").last == "day_rolled_over(day_id=2026-03-10,balance_before=23,balance_after=10,expired=13)")

        var seven = Harness(parameters: params(["streak.bonus_credits": .int(0)]))
        seven.onboard()
        seven.focus(35, from: seven.at(0, 9))   // 7 credits, no bonus
        #expect(seven.engine.balance == 7)
        seven.run(until: seven.at(1, 4))
        #expect(seven.engine.balance == 7)
        #expect(seven.rendered("day_rolled_over").last?.hasSuffix("balance_before=7,balance_after=7,expired=0)") == true)

        var zero = Harness()
        zero.onboard()
        zero.run(until: zero.at(1, 4))
        #expect(zero.engine.balance == 0)
        #expect(zero.rendered("day_rolled_over").last?.hasSuffix("balance_before=0,balance_after=0,expired=0)") == true)
        #expect((h.problems + seven.problems + zero.problems).isEmpty)
    }

    /// 3. Seed 003 §6 Streak: "First completed focus session ≥ 20 minutes, OR 2 valid habits completed (not suspended)"
    /// + "Bonus awarded once per day on first qualification". A 25-min session → qualified, one bonus. Two habits
    /// later that day → no second bonus. One valid habit plus one suspended habit → not qualified.
    @Test("3. streak: a 25-min session qualifies once; later habits give no second bonus; a suspended habit does not count")
    func streak() {
        var h = Harness()
        h.onboard()
        h.send(.createHabit, at: h.at(0, 9))
        h.send(.createHabit, at: h.at(0, 9))
        h.focus(25, from: h.at(0, 10))
        #expect(h.engine.qualifiedToday && h.engine.streak == 1)
        #expect(h.count("streak_bonus_awarded") == 1)
        h.send(.completeHabit(1), at: h.at(0, 12))
        h.send(.completeHabit(2), at: h.at(0, 13))
        #expect(h.count("streak_bonus_awarded") == 1)
        #expect(h.count("streak_qualified") == 1)

        var s = Harness()
        s.onboard()
        s.send(.createHabit, at: s.at(0, 9))
        s.send(.createHabit, at: s.at(0, 9))
        s.send(.suspendHabit(2, true), at: s.at(0, 9))
        s.send(.completeHabit(1), at: s.at(0, 10))
        #expect(s.send(.completeHabit(2), at: s.at(0, 11)).decision == .habitSuspended)
        #expect(!s.engine.qualifiedToday)
        #expect(s.count("streak_qualified") == 0)
        #expect((h.problems + s.problems).isEmpty)
    }

    /// 4. Seed 003 §6 Unlock methods: "EMERGENCY: 1/day global, 5 min unlock after 60s delay". Start at 10:00:00 for
    /// app A → grant at 10:01:00 until 10:06:00. A second emergency at 15:00 for app B → refused (`emergency_used`).
    /// At 04:00 the next day → allowed again.
    @Test("4. emergency: 60 s wait then 5 min; one per day_id across apps; allowed again at 04:00")
    func emergency() {
        var h = Harness()
        h.onboard(apps: [1, 2])
        let a = AppID(1), b = AppID(2)
        h.reachGate(a, at: h.at(0, 10))
        #expect(h.send(.unlock(a, .emergency), at: h.at(0, 10)).decision == .emergencyWaitStarted)
        #expect(h.engine.grants.isEmpty)
        h.run(until: h.at(0, 10, 1))
        let g = h.engine.grant(for: a, at: h.at(0, 10, 1))
        #expect(g?.start == h.at(0, 10, 1) && g?.end == h.at(0, 10, 6))
        #expect(h.rendered("unlock_granted") == ["unlock_granted(app=app:1,method=EMERGENCY,minutes=5,cost=0)"])
        h.reachGate(b, at: h.at(0, 15))
        #expect(h.engine.gateOffer(at: h.at(0, 15))?.option(.emergency)?.disabledReason == .emergencyUsed)
        #expect(h.send(.unlock(b, .emergency), at: h.at(0, 15)).decision == .emergencyUsed)
        #expect(h.rendered("unlock_denied") == ["unlock_denied(app=app:2,reason=emergencyUsed)"])
        h.reachGate(b, at: h.at(1, 4))
        #expect(h.send(.unlock(b, .emergency), at: h.at(1, 4)).decision == .emergencyWaitStarted)
        h.run(until: h.at(1, 4, 1))
        #expect(h.engine.grant(for: b, at: h.at(1, 4, 1)) != nil)
        #expect(h.problems.isEmpty, "\(h.problems)")
    }

    /// 5. Seed 003 §5 Free "Credits unlock (limited): 5 min only" + trigger "Choosing 15/30-minute unlocks". A Free
    /// user picks 15 → paywall shown (`trigger=long_unlock`), no credits spent, no grant.
    @Test("5. Free picks a 15-min unlock → paywall(long_unlock), nothing spent, no grant")
    func freeLongUnlock() {
        var h = Harness()
        h.onboard()
        h.focus(90, from: h.at(0, 9))
        let balance = h.engine.balance
        h.reachGate(AppID(1), at: h.at(0, 11))
        #expect(h.engine.gateOffer(at: h.at(0, 11))?.option(.credits(minutes: 15))?.disabledReason == .paywall)
        #expect(h.engine.gateOffer(at: h.at(0, 11))?.option(.credits(minutes: 5))?.isEnabled == true)
        let out = h.send(.unlock(AppID(1), .credits(minutes: 15)), at: h.at(0, 11))
        #expect(out.decision == .paywall)
        #expect(out.events.array.map(render) == ["paywall_shown(trigger=long_unlock)"])
        #expect(h.engine.balance == balance)
        #expect(h.engine.grants.isEmpty)
    }

    /// 6. Seed 003 §5 "Adding the 4th distracting app" / "Creating a 2nd mode". Free with 3 apps: `addApp` → refused
    /// with paywall, 3 apps remain. Free with 1 mode: `createMode` → paywall.
    @Test("6. Free: the 4th app and the 2nd mode are refused with the paywall")
    func freeLimits() {
        var h = Harness()
        h.onboard(apps: [1, 2, 3])
        let out = h.send(.addApp(AppID(4)), at: h.at(0, 9))
        #expect(out.decision == .paywall && out.events.array.map(render) == ["paywall_shown(trigger=fourth_app)"])
        #expect(h.engine.apps.count == 3)
        let m = h.send(.createMode(workMode(time(18), time(20))), at: h.at(0, 9))
        #expect(m.decision == .paywall && m.events.array.map(render) == ["paywall_shown(trigger=second_mode)"])
        #expect(h.engine.modes.count == 1)
    }

    /// Starts the annual trial at `t` (Monday 10:00 of day 0 by default).
    static func trialHarness() -> Harness {
        var h = Harness()
        h.onboard(apps: [])
        h.send(.paywallResponse(.startTrial(.annual)), at: h.at(0, 10))
        h.send(.cancelAutoRenew, at: h.at(0, 10))
        return h
    }

    /// 7. Seed 003 §5 Trial downgrade behavior: "Modes: keep the highest-priority mode (tie-breaker: most recently
    /// updated)". Trial ends with modes A (prio 2, updated Mon), B (prio 2, updated Wed) and C (prio 1) → B is
    /// enforced; A and C are locked and unenforced; none are deleted.
    @Test("7. downgrade keeps the highest-priority, most recently updated mode; the others are locked, not deleted")
    func downgradeModes() {
        var h = Self.trialHarness()
        // The onboarding mode (id 1) is deleted so only A, B, C remain.
        h.send(.deleteMode(1), at: h.at(0, 11))
        h.send(.createMode(workMode(time(9), time(12), priority: 2)), at: h.at(0, 11))      // A, Monday
        h.send(.createMode(workMode(time(13), time(15), priority: 1)), at: h.at(1, 11))     // C, Tuesday
        h.send(.createMode(workMode(time(16), time(18), priority: 2)), at: h.at(2, 11))     // B, Wednesday
        let (a, c, b) = (ModeID(2), ModeID(3), ModeID(4))
        h.run(until: h.at(7, 10))
        #expect(h.engine.tier == .free)
        #expect(h.engine.modes.count == 3)
        #expect(h.engine.modes.first { $0.id == b }?.locked == false)
        #expect(h.engine.modes.first { $0.id == a }?.locked == true)
        #expect(h.engine.modes.first { $0.id == c }?.locked == true)
        #expect(h.rendered("downgraded_to_free") == ["downgraded_to_free(modes_locked=2,apps_dropped=0)"])
        #expect(h.problems.isEmpty, "\(h.problems)")
    }

    /// 8. Same section: "auto-keep the 3 most recently added with a banner". Apps added a, b, c, d, e with no choice
    /// made → c, d, e are shielded.
    @Test("8. downgrade auto-keeps the 3 most recently added apps")
    func downgradeApps() {
        var h = Self.trialHarness()
        for a in 1...5 { h.send(.addApp(AppID(UInt16(a))), at: h.at(0, 11)) }
        h.run(until: h.at(7, 10))
        #expect(h.engine.tier == .free)
        #expect(h.engine.apps.filter(\.kept).map(\.app) == [AppID(3), AppID(4), AppID(5)])
        #expect(h.engine.shieldedApps == [AppID(3), AppID(4), AppID(5)])
        #expect(h.engine.keepAppsPromptPending)
        #expect(h.send(.appForeground(AppID(1)), at: h.at(7, 11)).decision == .notShielded)
        #expect(h.send(.appForeground(AppID(5)), at: h.at(7, 11)).decision == .shieldShown)
        // The prompt's answer replaces the automatic choice.
        #expect(h.send(.keepApps([AppID(1), AppID(2)]), at: h.at(7, 12)).decision == .appsKept)
        #expect(h.engine.shieldedApps == [AppID(1), AppID(2)])
        #expect(h.problems.isEmpty, "\(h.problems)")
    }

    /// 9. Same section: "Active grants: honor existing grants until they expire (no rug-pull)". A 30-min unlock at
    /// 09:50, trial ends at 10:00 → the app stays unshielded until 10:20. The next gate offers only 5 min.
    @Test("9. a 30-min grant made in the trial outlives the downgrade; the next gate offers 5 min only")
    func grantsHonoured() {
        var h = Self.trialHarness()
        h.send(.addApp(AppID(1)), at: h.at(0, 11))
        h.focus(150, from: h.at(7, 5))          // 30 credits + bonus 5, on top of the carry-over
        #expect(h.engine.balance >= 30)
        h.reachGate(AppID(1), at: h.at(7, 9, 50))
        #expect(h.send(.unlock(AppID(1), .credits(minutes: 30)), at: h.at(7, 9, 50)).decision == .granted)
        h.run(until: h.at(7, 10))
        #expect(h.engine.tier == .free)
        #expect(h.send(.appForeground(AppID(1)), at: h.at(7, 10, 19)).decision == .grantInForce)
        #expect(!h.engine.shieldedApps.contains(AppID(1)))
        h.run(until: h.at(7, 10, 20))
        #expect(h.rendered("unlock_expired") == ["unlock_expired(app=app:1,reapplied=true)"])
        #expect(h.send(.appForeground(AppID(1)), at: h.at(7, 10, 21)).decision == .shieldShown)
        h.send(.shieldClose(AppID(1)), at: h.at(7, 10, 21))
        h.send(.appOpened, at: h.at(7, 10, 21))
        let offer = h.engine.gateOffer(at: h.at(7, 10, 21))!
        let credits = offer.options.filter { if case .credits = $0.choice { return true }; return false }
        // §5 downgrade "Unlock durations: hide 15/30 in UI; keep only 5" (audit 2026-11-25 E12): not shown at all,
        // not even behind the paywall, and choosing them is no paywall moment.
        #expect(credits.map(\.minutes) == [5])
        let fifteen = h.send(.unlock(AppID(1), .credits(minutes: 15)), at: h.at(7, 10, 21))
        #expect(fifteen.decision == .invalidChoice)
        #expect(!fifteen.events.contains { $0.name == "paywall_shown" })
        #expect(h.problems.isEmpty, "\(h.problems)")
    }

    /// 10. Seed 003 §7 Key behaviors: "Unlock expired → reapply shield automatically". A 5-min grant at 12:00 inside a
    /// schedule running until 13:00 → shield back at 12:05 (`unlock_expired`). The same grant with the schedule
    /// ending at 12:03 → nothing to reapply at 12:05.
    @Test("10. grant expiry reapplies the shield only while a mode is active")
    func expiry() {
        for (end, reapplied) in [(time(13), true), (time(12, 3), false)] {
            var h = Harness()
            h.onboard(mode: workMode(time(11), end))
            h.focus(30, from: h.at(0, 9))
            h.reachGate(AppID(1), at: h.at(0, 12))
            #expect(h.send(.unlock(AppID(1), .credits(minutes: 5)), at: h.at(0, 12)).decision == .granted)
            h.run(until: h.at(0, 12, 5))
            #expect(h.rendered("unlock_expired") == ["unlock_expired(app=app:1,reapplied=\(reapplied))"])
            #expect(h.decisions.last?.2 == (reapplied ? .shieldReapplied : .grantExpired))
            #expect(h.engine.shieldedApps == (reapplied ? [AppID(1)] : []))
            #expect(h.send(.appForeground(AppID(1)), at: h.at(0, 12, 6)).decision == (reapplied ? .shieldShown : .notShielded))
            #expect(h.problems.isEmpty, "\(h.problems)")
        }
    }
}
