import RulesCore

extension ScrollOffEngine {
    /// Seed 000 §6.1 onboarding flow and acceptance.
    mutating func onboarding(_ step: OnboardingStep, _ now: Instant, _ out: inout ScrollOffOutcome) {
        out.decision = .ok
        switch step {
        case .appOpened:
            out.events.append(.appOpened)
            // The hard paywall (`paywall.mode` hard): every opening of the locked app shows it.
            if hardPaywallLocks { showHardPaywall(&out) }
        case .demoBlockCompleted:
            // §4 "After permissions, run a 10-second demo block and award a one-time starter credit" (assumption
            // `earn.starter_credit_requires_authorization`: §6.1's flow lists the demo before permission).
            guard authorized || !parameters.starterCreditRequiresAuthorization else { out.decision = .authorizationRequired; return }
            awardStarterCredit(&out)
        case .permissionGranted:
            out.events.append(.reliabilityCheckPass(.screenTimeAuthorization))
            authorized = true
            refreshEarning(now, &out)
        case .permissionDenied:
            out.events.append(.reliabilityCheckFail(.screenTimeAuthorization, error: .denied))
        case .finished:
            // §6.1 step 4 "User must create at least 1 plan"; §9 "At least 1 plan required to proceed"; §6.1
            // acceptance "At least 1 blocked app selected".
            guard !ifThenPlans.isEmpty else { out.decision = .ifThenPlanRequired; return }
            guard !blocked.isEmpty else { out.decision = .blockedAppRequired; return }
            if !onboardingFinished {
                onboardingFinished = true
                plansCreatedAtOnboarding = ifThenPlans.count
                // The hard paywall (`paywall.mode` hard): a person without a plan lands on the paywall, not the
                // Dashboard, and the app does nothing for them until they buy.
                if hardPaywallLocks {
                    lockBehindHardPaywall(now, &out)
                    showHardPaywall(&out)
                }
            }
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
            if b && tier == .free { showChip(.curfewReminders, skuShown: .premiumMonthly, &out) }
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

    /// The time the app let the person spend in their blocked apps today: credits spent (spend and credit peeks), free
    /// peeks and token unlocks at their length (what DeviceActivity would count, read as the access granted).
    public var usedInBlockedAppsToday: TimeSpan {
        creditSpentToday + parameters.peekLength * Int64(freePeeksUsedToday) + parameters.tokenUnlockLength * Int64(tokensUsedToday)
    }

    /// Today's time saved under usage_baseline: last week's daily usage − today's allowed use, at least 0.
    var usageSavedToday: TimeSpan { max(.zero, usageBaselinePerDay - usedInBlockedAppsToday) }

    /// The app's "time saved today" as the dashboard shows it (`insights.time_saved_method`): under usage_baseline
    /// the day's figure so far (credited to the totals when the day closes), else the wins' minutes.
    public var timeSavedEstimateToday: TimeSpan {
        parameters.timeSavedMethod == .usageBaseline ? (enforcing && !blocked.isEmpty ? usageSavedToday : .zero) : timeSavedToday
    }

    /// Time saved as the app estimates it (`insights.time_saved_method`), and the "100-hour champion" milestone (§6.1).
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
        // §6.5 "Milestone achievements (on by default, can disable)".
        if milestoneNotifications { out.effects.append(.notification(.milestone)) }
    }

    /// Closes the local day: streaks, streak milestones 7 / 30 / 60, and personal records (§8.1 `personal_record`).
    /// What makes a streak day is the assumption `milestones.streak_day_rule` (the charter never defines one).
    mutating func closeDay(_ out: inout ScrollOffOutcome) {
        if isStreakDay { streakDays += 1 } else { streakDays = 0 }
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

    /// Does the day being closed count toward a streak (`StreakDayRule`; audit 2026-11 D5)?
    var isStreakDay: Bool {
        switch parameters.streakDayRule {
        case .willpowerWinNoToken: return willpowerWinsToday > 0 && tokensUsedToday == 0
        case .spendWithinEarnedNoToken: return awardsToday > 0 && creditSpentToday <= earnedToday && tokensUsedToday == 0
        case .earnAward: return awardsToday >= parameters.streakMinAwardsPerDay
        }
    }

    /// The tier an insight needs: seed 000 §5.1 Free "Basic stats", Premium "7-day trends + pattern insights", Pro
    /// "30-day trend analytics"; §6.1 "30-day line graph (Pro) or 7-day (Premium/Free)" — so the 7-day trend is
    /// everyone's, the pattern insights (peak hours, strongest day, app breakdown, week-over-week) Premium's, the
    /// 30-day trend Pro's (audit 2026-11 D10).
    static func tierNeeded(for t: InsightType) -> Tier {
        switch t {
        case .trend7Day: return .free
        case .trend30Day: return .pro
        case .peakHours, .strongestDay, .appBreakdown, .weekOverWeek: return .premium
        }
    }

    /// Shows an insight, or — locked on this tier — the §6.1 paywall chip for it ("always contextual to action
    /// attempted").
    mutating func viewInsight(_ t: InsightType, _ out: inout ScrollOffOutcome) {
        let needed = Self.tierNeeded(for: t)
        guard tier >= needed else { insightLocked(t == .trend30Day ? .trend30Day : .patternInsights, needed, &out); return }
        out.events.append(.patternInsightShown(t))
        out.decision = .ok
    }

    mutating func insightLocked(_ context: PaywallContext, _ needed: Tier, _ out: inout ScrollOffOutcome) {
        showChip(context, skuShown: needed == .pro ? .proMonthly : .premiumMonthly, &out)
        out.decision = .insightLocked
    }

    /// Seed 000 §8.1 `weekly_insight_shown(peak_hour, strongest_day, time_saved)` for the current week: the pattern
    /// insight card (§6.1 "Peak blocks … Strongest day"), a Premium pattern insight (§5.1).
    mutating func weeklyInsight(_ out: inout ScrollOffOutcome) {
        guard tier >= .premium else { insightLocked(.patternInsights, .premium, &out); return }
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
