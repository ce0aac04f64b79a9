import RulesCore

/// Focus Bank earning and the streak. Seed 003 §6 Credits (Focus Bank): "Earned by focus sessions and habits",
/// whole credits (assumption); §6 Streak.
extension EarnedAccessEngine {
    /// Seed 003 §3 Tab structure "Focus"; §6 Credits "Earned by focus sessions": starts a session of `minutes` (1…240,
    /// assumption); one at a time; it shields the enforced apps while it runs (`focus.shields_apps`, inventory row 23).
    /// Refused without the trial or Pro under the hard paywall (`paywall.mode` hard, `hardPaywallWithholdsEarning`).
    mutating func startFocus(_ minutes: Int, _ now: Instant, _ out: inout EarnedAccessOutcome) {
        guard !hardPaywallWithholdsEarning else { out.decision = .hardPaywall; return }
        guard focus == nil else { out.decision = .focusRunning; return }
        guard (1...240).contains(minutes) else { out.decision = .invalidChoice; return }
        let f = FocusSession(start: now, minutes: minutes)
        focus = f
        out.events.append(.focusSessionStarted(minutes: minutes))
        out.timers.append(EarnedAccessTimer(.focusEnd, at: f.end))
        out.decision = .focusStarted
    }

    /// An abandoned session earns nothing (inventory row 23: "A session earns only if completed").
    mutating func cancelFocus(_ now: Instant, _ out: inout EarnedAccessOutcome) {
        guard let f = focus else { out.decision = .noFocus; return }
        focus = nil
        out.events.append(.focusSessionAbandoned(minutesDone: Int((now - f.start).wholeSeconds / 60)))
        out.decision = .focusAbandoned
    }

    /// The session's planned length is over: it completes and earns `minutes / focus.minutes_per_credit` whole
    /// credits when at least `focus.min_minutes` long (assumptions, inventory rows 22–23). Seed 003 §6 Streak: "First
    /// completed focus session ≥ 20 minutes" qualifies the day (any such session unless `streak.first_session_only`).
    mutating func focusDue(_ now: Instant, _ out: inout EarnedAccessOutcome) {
        guard let f = focus, f.end <= now else { return }
        focus = nil
        let credits = f.minutes >= parameters.focusMinMinutes ? f.minutes / parameters.focusMinutesPerCredit : 0
        completedSessionsToday += 1
        out.events.append(.focusSessionCompleted(minutes: f.minutes, credits: credits))
        out.effects.append(.notification)
        earn(.focus, credits, &out)
        if f.minutes >= parameters.streakFocusMinutes && (!parameters.streakFirstSessionOnly || completedSessionsToday == 1) {
            qualify(.focus, &out)
        }
        out.decision = .focusCompleted
    }

    /// Habits are user-defined (inventory row 24, assumption; seed 003 §6 names "valid habits" only).
    mutating func createHabit(_ out: inout EarnedAccessOutcome) {
        let id = nextHabitID
        nextHabitID &+= 1
        habits.append(AccessHabit(id: id, suspended: false, lastCompleted: nil))
        out.events.append(.habitCreated(id))
        out.decision = .habitCreated
    }

    /// Habits (undefined in the seed; inventory row 24, assumption): daily check-ins, once per day_id; a suspended
    /// one neither earns nor counts. Seed 003 §6 Streak: "2 valid habits completed (not suspended)". Refused without the
    /// trial or Pro under the hard paywall (`paywall.mode` hard, `hardPaywallWithholdsEarning`).
    mutating func completeHabit(_ h: HabitID, _ out: inout EarnedAccessOutcome) {
        guard !hardPaywallWithholdsEarning else { out.decision = .hardPaywall; return }
        guard let i = habits.firstIndex(where: { $0.id == h }) else { out.decision = .notFound; return }
        guard !habits[i].suspended else { out.decision = .habitSuspended; return }
        guard habits[i].lastCompleted != dayID else { out.decision = .alreadyCompleted; return }
        habits[i].lastCompleted = dayID
        validHabitsToday += 1
        out.events.append(.habitCompleted(h))
        if habitsCreditedToday < parameters.habitCreditedPerDay {
            habitsCreditedToday += 1
            earn(.habit, parameters.habitCredits, &out)
        }
        if validHabitsToday >= parameters.streakHabits { qualify(.habits, &out) }
        out.decision = .habitCompleted
    }

    /// Seed 003 §6 Streak "(not suspended)": a suspended habit neither earns nor counts toward the streak.
    mutating func suspendHabit(_ h: HabitID, _ s: Bool, _ out: inout EarnedAccessOutcome) {
        guard let i = habits.firstIndex(where: { $0.id == h }) else { out.decision = .notFound; return }
        habits[i].suspended = s
        out.events.append(.habitSuspended(h, s))
        out.decision = .habitUpdated
    }

    /// Seed 003 §6 Credits (Focus Bank): whole credits into the balance (no daily earn cap: inventory row 25).
    mutating func earn(_ source: CreditSource, _ amount: Int, _ out: inout EarnedAccessOutcome) {
        guard amount > 0 else { return }
        balance += amount
        out.events.append(.creditsEarned(source, amount: amount))
    }

    /// Seed 003 §6 Streak: "Bonus awarded once per day on first qualification".
    mutating func qualify(_ via: StreakVia, _ out: inout EarnedAccessOutcome) {
        guard !qualifiedToday else { return }
        qualifiedToday = true
        streak += 1
        out.events.append(.streakQualified(via, length: streak))
        guard bonusesToday == 0 else { return }
        bonusesToday += 1
        out.events.append(.streakBonusAwarded(amount: parameters.streakBonusCredits))
        earn(.bonus, parameters.streakBonusCredits, &out)
    }
}
