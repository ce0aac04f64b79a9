import RulesCore

extension ScrollOffEngine {
    /// Seed 000 §6.1 onboarding flow and acceptance.
    mutating func onboarding(_ step: OnboardingStep, _ now: Instant, _ out: inout ScrollOffOutcome) {
        out.decision = .ok
        switch step {
        case .appOpened:
            out.events.append(.appOpened)
        case .demoBlockCompleted:
            awardStarterCredit(&out)
        case .permissionGranted:
            out.events.append(.reliabilityCheckPass(.screenTimeAuthorization))
            authorized = true
            refreshEarning(now, &out)
        case .permissionDenied:
            out.events.append(.reliabilityCheckFail(.screenTimeAuthorization, error: .denied))
        case .finished:
            if !onboardingFinished { onboardingFinished = true; plansCreatedAtOnboarding = ifThenPlans.count }
        }
    }

    /// Seed 000 §3.6: implementation intentions "When [trigger situation], I will [alternative behavior]".
    mutating func createPlan(_ trigger: String, _ response: String, _ now: Instant, _ out: inout ScrollOffOutcome) {
        let p = IfThenPlan(id: ifThenPlans.count, triggerHash: fnv1a64(trigger), responseHash: fnv1a64(response), createdAt: now, timesReferenced: 0)
        ifThenPlans.append(p)
        out.events.append(.ifThenPlanCreated(triggerHash: p.triggerHash, responseHash: p.responseHash))
        out.effects.append(.databaseWrite)
        out.decision = .ok
    }

    /// Seed 000 §3.6 `times_referenced`; §8.1 `if_then_plan_viewed(plan_id)`.
    mutating func viewPlan(_ index: Int, _ out: inout ScrollOffOutcome) {
        guard ifThenPlans.indices.contains(index) else { out.decision = .notFound; return }
        ifThenPlans[index].timesReferenced += 1
        out.events.append(.ifThenPlanViewed(planID: index))
        out.decision = .ok
    }

    mutating func setPreference(_ p: Preference, _ out: inout ScrollOffOutcome) {
        switch p {
        case .mindfulnessAtBypasses(let b): mindfulnessAtBypasses = b
        case .earnNotifications(let b): earnNotifications = b
        case .curfewReminders(let b):
            if b && tier == .free { out.events.append(.paywallShown(context: .curfewReminders, skuShown: .premiumMonthly)) }
            curfewReminders = b
        case .milestoneNotifications(let b): milestoneNotifications = b
        }
        out.decision = .ok
    }

    /// Seed 000 §7.5: authorization revoked — shields cannot be applied; earning stops until re-authorized.
    mutating func revokeAuthorization(_ now: Instant, _ out: inout ScrollOffOutcome) {
        out.events.append(.authorizationRevoked)
        settleSpend(at: now, &out)
        authorized = false
        accesses.removeAll()
        foreground = nil
        pendingShield = nil
        refreshEarning(now, &out)
        out.decision = .ok
    }

    /// Time saved as the app estimates it (assumption `insights.minutes_saved_per_resisted_urge`), and the
    /// "100-hour champion" milestone (§6.1).
    mutating func addTimeSaved(_ t: TimeSpan, _ out: inout ScrollOffOutcome) {
        timeSavedToday += t
        totalTimeSaved += t
        savedByWeekdayThisWeek[today.weekday.rawValue - 1] &+= t.milliseconds
        if totalTimeSaved >= .hours(Int64(parameters.hoursSavedMilestone)) {
            unlock(.hours100, value: parameters.hoursSavedMilestone, &out)
        }
    }

    /// Seed 000 §8.1 `milestone_unlocked(milestone_id, value)` — each badge once.
    mutating func unlock(_ m: Milestone, value: Int, _ out: inout ScrollOffOutcome) {
        guard !hasUnlocked(m) else { return }
        milestonesUnlocked |= 1 << m.rawValue
        out.events.append(.milestoneUnlocked(m, value: value))
        out.events.append(.selfEfficacyMessageShown(context: .milestone, messageType: Int(m.rawValue)))
        out.effects.append(.notification(.milestone))
    }

    /// Closes the local day: streaks (assumption: a streak day has ≥ `milestones.streak_min_awards_per_day`
    /// earn awards), streak milestones 7 / 30 / 60, and personal records (§8.1 `personal_record`).
    mutating func closeDay(_ out: inout ScrollOffOutcome) {
        if awardsToday >= parameters.streakMinAwardsPerDay {
            streakDays += 1
        } else {
            streakDays = 0
        }
        if streakDays >= parameters.streakMilestoneDays { unlock(.streak7, value: parameters.streakMilestoneDays, &out) }
        if streakDays >= parameters.warriorMilestoneDays { unlock(.warrior30, value: parameters.warriorMilestoneDays, &out) }
        if streakDays >= parameters.legendMilestoneDays { unlock(.legend60, value: parameters.legendMilestoneDays, &out) }
        if streakDays > bestStreakDays {
            if bestStreakDays >= parameters.streakMilestoneDays {
                out.events.append(.personalRecord(.longestStreak, value: Int64(streakDays)))
            }
            bestStreakDays = streakDays
        }
        if timeSavedToday > bestDayTimeSaved {
            if bestDayTimeSaved > .zero {
                out.events.append(.personalRecord(.timeSavedInDay, value: timeSavedToday.wholeSeconds))
            }
            bestDayTimeSaved = timeSavedToday
        }
    }

    /// Seed 000 §8.1 `weekly_insight_shown(peak_hour, strongest_day, time_saved)` for the current week.
    mutating func weeklyInsight(_ out: inout ScrollOffOutcome) {
        var peak = 0
        for h in 1..<24 where shieldsByHourThisWeek[h] > shieldsByHourThisWeek[peak] { peak = h }
        var best = 0
        var total: Int64 = 0
        for d in 0..<7 {
            total += savedByWeekdayThisWeek[d]
            if savedByWeekdayThisWeek[d] > savedByWeekdayThisWeek[best] { best = d }
        }
        out.events.append(.weeklyInsightShown(peakHour: peak, strongestDay: Weekday(rawValue: best + 1)!, timeSaved: TimeSpan(milliseconds: total)))
        out.decision = .ok
    }
}
