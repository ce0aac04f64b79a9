import Testing
import RulesCore
@testable import ScrollOffRules

/// Streak milestones (seed 000 §6.1 "7-day streak", "30-day warrior"; §6.2 "7 days strong — you're proving you can do
/// this"; §8.3 "7-day streak achievement ≥ 25 % of users"). The charter never defines a streak day; it is the
/// parameter `milestones.streak_day_rule` (audit 2026-11 D5).
@Suite("Streak days are behaviour, not installation (§6.1, §8.3)")
struct StreakTests {
    let app = AppID(1)

    @Test("Default: days with only earn awards (earned while asleep) are not streak days")
    func earnAloneIsNoStreak() {
        var h = Harness()
        h.onboard()
        h.run(until: h.at(8, 12))
        #expect(h.count("earn_award") > 40)
        #expect(h.engine.streakDays == 0)
        #expect(!h.engine.hasUnlocked(.streak7))
    }

    @Test("Default: 7 local days each with a willpower win and no token unlock streak_7_day")
    func sevenBehaviouralDays() {
        var h = Harness()
        h.onboard()
        for d in Int64(0)..<7 {
            h.meetShield(at: h.at(d, 12))
            #expect(h.send(.shield(.close), at: h.at(d, 12)).decision == .willpowerWin)
        }
        h.run(until: h.at(6, 23, 59))
        #expect(!h.engine.hasUnlocked(.streak7))
        h.run(until: h.at(7, 0))
        #expect(h.engine.hasUnlocked(.streak7))
        #expect(h.log.filter { $0.1 == .milestoneUnlocked(.streak7, value: 7) }.count == 1)
    }

    @Test("Default: an emergency token that day breaks the streak, a win notwithstanding")
    func tokenBreaksStreak() {
        var h = Harness(parameters: params(straightToTokens))
        h.onboard()
        for d in Int64(0)..<7 {
            h.meetShield(at: h.at(d, 12))
            h.send(.shield(.close), at: h.at(d, 12))
            if d == 3 {
                h.meetShield(at: h.at(d, 13))
                #expect(h.send(.shield(.emergencyToken), at: h.at(d, 13)).decision == .tokenUsed)
            }
        }
        h.run(until: h.at(7, 1))
        #expect(!h.engine.hasUnlocked(.streak7))
        #expect(h.engine.streakDays == 3)
    }

    @Test("Default: a shield left by backgrounding is no willpower win, so no streak day")
    func abandonedIsNoStreakDay() {
        var h = Harness()
        h.onboard()
        for d in Int64(0)..<7 {
            h.meetShield(at: h.at(d, 12))
            h.send(.appBackground(app), at: h.at(d, 12))
        }
        h.run(until: h.at(7, 1))
        #expect(h.engine.streakDays == 0)
    }

    @Test("'spend_within_earned_no_token': a day spending more credit than it earned is no streak day (§5.3 read per day)")
    func spendWithinEarned() {
        var h = Harness(parameters: params(["milestones.streak_day_rule": .text("spend_within_earned_no_token"),
                                            "earn.daily_cap_minutes.free": .int(5)]), at: 0)
        h.onboard(at: 0)
        h.send(.onboarding(.demoBlockCompleted), at: h.at(0, 0))     // +120 s starter: day 0 can spend 420 s, earns 300 s
        h.meetShield(at: h.at(0, 23))
        h.send(.shield(.useCredits), at: h.at(0, 23))
        h.run(until: h.at(0, 23, 10))
        h.run(until: h.at(7, 0, 30))
        #expect(h.engine.streakDays == 6)
        #expect(!h.engine.hasUnlocked(.streak7))
        h.run(until: h.at(8, 0, 30))
        #expect(h.engine.hasUnlocked(.streak7))
    }

    @Test("'earn_award' (the earlier reading, for comparison): 7 earning days unlock the streak")
    func earnAwardRule() {
        var h = Harness(parameters: params(["milestones.streak_day_rule": .text("earn_award")]))
        h.onboard()
        h.run(until: h.at(6, 23, 59))
        #expect(!h.engine.hasUnlocked(.streak7))
        h.run(until: h.at(7, 0))
        #expect(h.engine.hasUnlocked(.streak7))
    }

    @Test("Milestone notifications are on by default and can be disabled (§6.5)")
    func milestoneNotifications() {
        for enabled in [true, false] {
            var h = Harness(parameters: params(["milestones.streak_day_rule": .text("earn_award")]))
            h.onboard()
            if !enabled { h.send(.setPreference(.milestoneNotifications(false)), at: h.at(0, 8)) }
            h.run(until: h.at(7, 1))
            #expect(h.engine.hasUnlocked(.streak7))
            #expect(h.effectsLog.contains { $0.1 == .notification(.milestone) } == enabled)
        }
    }
}

/// Audit 2026-11-25 E4: a curfew shield offers only "Close" (seed 000 §3.3 "Hard-curfew": no spending, no bypass;
/// §6.1 the shield's buttons). Closing it is no choice, so it is not a willpower win (§8.1 `shield_dismissed_no_spend`
/// — "user closed shield *without spending*": there was nothing to spend) and earns no streak day (§6.1 "7-day streak").
@Suite("A forced close is no willpower win (audit 2026-11-25 E4)")
struct ForcedCloseTests {
    let app = AppID(1)

    @Test("Closing a curfew shield whose only button is Close: shield_abandoned (forced_close), no win, no time saved")
    func curfewCloseIsNoWin() {
        var h = Harness()
        h.onboard()
        let spec = CurfewSpec(window: DailyWindow(start: LocalTimeOfDay(hour: 23, minute: 0)!, end: LocalTimeOfDay(hour: 7, minute: 0)!),
                              apps: [app], blockSafari: false)
        #expect(h.send(.setCurfew(id: nil, spec), at: h.at(0, 12)).decision == .curfewSaved)
        h.run(until: h.at(0, 23, 30))
        #expect(h.send(.appForeground(app), at: h.at(0, 23, 30)).decision == .curfewShieldShown)
        #expect(h.engine.shieldOffer()?.choices == [.close])
        let saved = h.engine.timeSavedToday
        let closed = h.send(.shield(.close), at: h.at(0, 23, 30))
        #expect(closed.decision == .shieldAbandoned)
        #expect(closed.events.contains(.shieldAbandoned(app: app, reason: .forcedClose)))
        #expect(!closed.events.contains(.shieldDismissedNoSpend))
        #expect(h.engine.willpowerWinsToday == 0)
        #expect(h.engine.timeSavedToday == saved)
    }

    @Test("Seven days of only curfew closes earn no streak day; a real choice (credits offered) still does")
    func curfewClosesEarnNoStreak() {
        var h = Harness()
        h.onboard()
        let spec = CurfewSpec(window: DailyWindow(start: LocalTimeOfDay(hour: 23, minute: 0)!, end: LocalTimeOfDay(hour: 7, minute: 0)!),
                              apps: [app], blockSafari: false)
        h.send(.setCurfew(id: nil, spec), at: h.at(0, 12))
        for d in Int64(0)..<7 {
            h.run(until: h.at(d, 23, 30))
            h.send(.appForeground(app), at: h.at(d, 23, 30))
            h.send(.shield(.close), at: h.at(d, 23, 30))
        }
        h.run(until: h.at(7, 12))
        #expect(h.engine.streakDays == 0)
        #expect(!h.engine.hasUnlocked(.streak7))
        h.meetShield(at: h.at(7, 12))
        #expect(h.send(.shield(.close), at: h.at(7, 12)).decision == .willpowerWin)
    }
}

/// Audit 2026-11-25 E5. Seed 000 shows time saved as usage — §6.1 "Today: 2h 15m saved today", "This week: 12h 48m
/// total • 6 urges resisted", "Instagram: 22h saved (32% of total)"; §4 reads usage with DeviceActivity — not as a
/// count of wins. `insights.time_saved_method` usage_baseline: last week's daily use of the blocked apps − what the
/// app let the person spend there today; the "100 hours saved" milestone follows from it.
@Suite("Time saved as usage (audit 2026-11-25 E5)")
struct TimeSavedTests {
    let app = AppID(1)

    @Test("a day's time saved = baseline − credits spent, peeks and token unlocks, credited when the day closes; wins add nothing")
    func baselineMinusUse() {
        var h = Harness()
        h.onboard()
        h.send(.usageBaseline(perDay: .minutes(90)), at: h.at(0, 6, 30))
        h.send(.onboarding(.demoBlockCompleted), at: h.at(0, 7))     // 120 s starter credit
        h.meetShield(at: h.at(0, 7, 10))
        #expect(h.send(.shield(.close), at: h.at(0, 7, 10)).decision == .willpowerWin)
        #expect(h.engine.timeSavedToday == .zero)
        h.meetShield(at: h.at(0, 7, 20))
        #expect(h.send(.shield(.peek), at: h.at(0, 7, 20)).decision == .freePeek)     // 60 s
        #expect(h.engine.timeSavedEstimateToday == .minutes(89))
        h.run(until: h.at(1, 0, 1))
        #expect(h.engine.totalTimeSaved == .minutes(89))
        #expect(!h.engine.hasUnlocked(.hours100))
    }

    @Test("100 hours saved needs the hours: a 3-hour baseline reaches it after 34 days, not after a few dozen wins")
    func hundredHours() {
        var h = Harness()
        h.onboard()
        h.send(.usageBaseline(perDay: .hours(3)), at: h.at(0, 6, 30))
        for d in Int64(0)..<30 {
            h.meetShield(at: h.at(d, 12))
            h.send(.shield(.close), at: h.at(d, 12))
        }
        h.run(until: h.at(33, 12))
        #expect(!h.engine.hasUnlocked(.hours100))
        h.run(until: h.at(34, 0, 1))
        #expect(h.engine.hasUnlocked(.hours100))
    }

    @Test("per_resisted_urge keeps the earlier estimate: 10 minutes a win, at the win")
    func perWin() {
        var h = Harness(parameters: params(["insights.time_saved_method": .text("per_resisted_urge")]))
        h.onboard()
        h.send(.usageBaseline(perDay: .minutes(90)), at: h.at(0, 6, 30))
        h.meetShield(at: h.at(0, 7, 10))
        h.send(.shield(.close), at: h.at(0, 7, 10))
        #expect(h.engine.timeSavedEstimateToday == .minutes(10))
    }
}
