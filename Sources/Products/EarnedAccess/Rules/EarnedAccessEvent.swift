import RulesCore

/// Earned Access's analytics events. Seed 003 §9 Phase 1 keeps an "event log (local-first)" but names no events;
/// the names are the inventory's §3 proposal (snake_case, as Scroll Off's taxonomy).
public enum EarnedAccessEvent: Hashable, Sendable, AnalyticsEvent, TrialSubscriptionEvents {
    // Lifecycle and onboarding
    case appOpened
    case onboardingStepCompleted(AccessOnboardingStep)
    case screenTimeAuthorization(ScreenTimeAuthorization)
    case appSelected(AppID, count: Int)
    case appRemoved(AppID, count: Int)
    case appsKept(count: Int)
    // Modes
    case modeCreated(ModeID, ModeTemplate, Strictness)
    case modeEdited(ModeID)
    case modeDeleted(ModeID)
    case modeStarted(ModeID)
    case modeEnded(ModeID)
    case strictnessChanged(ModeID, Strictness)
    case priorityChanged(ModeID, Int)
    // Shield
    /// Seed 003 §3 UX principle 1 "Always explain why blocked (active mode name + strictness)"; mode nil = a focus session.
    case shieldShown(AppID, mode: ModeID?, Strictness)
    case shieldClosed(AppID)
    // Gate
    case unlockGateOpened(AppID, GateSource)
    /// Seed 003 §11 `createUnlockAttempt`.
    case unlockAttemptCreated(AppID, UnlockMethod)
    case unlockGranted(AppID, UnlockMethod, minutes: Int, cost: Int)
    case unlockDenied(AppID, reason: EarnedAccessDecision)
    case unlockExpired(AppID, reapplied: Bool)
    // Quests and emergency
    case questStarted(QuestKind)
    case questCompleted(QuestKind)
    case questAbandoned(QuestKind)
    case emergencyWaitStarted(AppID)
    case emergencyWaitAbandoned(AppID)
    // Earning
    case focusSessionStarted(minutes: Int)
    case focusSessionCompleted(minutes: Int, credits: Int)
    case focusSessionAbandoned(minutesDone: Int)
    case habitCreated(HabitID)
    case habitCompleted(HabitID)
    case habitSuspended(HabitID, Bool)
    case creditsEarned(CreditSource, amount: Int)
    case creditsSpent(amount: Int)
    // Day and streak
    case dayRolledOver(dayID: LocalDate, balanceBefore: Int, balanceAfter: Int, expired: Int)
    case streakQualified(StreakVia, length: Int)
    case streakBonusAwarded(amount: Int)
    case streakBroken(length: Int)
    // Money
    case paywallShown(PaywallTrigger)
    case paywallDismissed
    case trialStarted(ProPlan)
    case subscriptionPurchaseCompleted(ProPlan, price: Money)
    case subscriptionRenewed(ProPlan, price: Money)
    case subscriptionCancelled(ProPlan)
    case subscriptionExpired(ProPlan)
    case subscriptionRefunded(ProPlan)
    case subscriptionRestored(ProPlan)
    case downgradedToFree(modesLocked: Int, appsDropped: Int)
    // Views
    case progressViewed
    case weeklyReviewViewed
    /// Pro set their credit price (credits per minute; nil: back to the fixed price).
    case creditPriceSet(perMinute: Double?)

    public var name: String {
        switch self {
        case .appOpened: "app_opened"
        case .onboardingStepCompleted: "onboarding_step_completed"
        case .screenTimeAuthorization: "screen_time_authorization"
        case .appSelected: "app_selected"
        case .appRemoved: "app_removed"
        case .appsKept: "apps_kept"
        case .modeCreated: "mode_created"
        case .modeEdited: "mode_edited"
        case .modeDeleted: "mode_deleted"
        case .modeStarted: "mode_started"
        case .modeEnded: "mode_ended"
        case .strictnessChanged: "strictness_changed"
        case .priorityChanged: "priority_changed"
        case .shieldShown: "shield_shown"
        case .shieldClosed: "shield_closed"
        case .unlockGateOpened: "unlock_gate_opened"
        case .unlockAttemptCreated: "unlock_attempt_created"
        case .unlockGranted: "unlock_granted"
        case .unlockDenied: "unlock_denied"
        case .unlockExpired: "unlock_expired"
        case .questStarted: "quest_started"
        case .questCompleted: "quest_completed"
        case .questAbandoned: "quest_abandoned"
        case .emergencyWaitStarted: "emergency_wait_started"
        case .emergencyWaitAbandoned: "emergency_wait_abandoned"
        case .focusSessionStarted: "focus_session_started"
        case .focusSessionCompleted: "focus_session_completed"
        case .focusSessionAbandoned: "focus_session_abandoned"
        case .habitCreated: "habit_created"
        case .habitCompleted: "habit_completed"
        case .habitSuspended: "habit_suspended"
        case .creditsEarned: "credits_earned"
        case .creditsSpent: "credits_spent"
        case .dayRolledOver: "day_rolled_over"
        case .streakQualified: "streak_qualified"
        case .streakBonusAwarded: "streak_bonus_awarded"
        case .streakBroken: "streak_broken"
        case .paywallShown: "paywall_shown"
        case .paywallDismissed: "paywall_dismissed"
        case .trialStarted: "trial_started"
        case .subscriptionPurchaseCompleted: "subscription_purchase_completed"
        case .subscriptionRenewed: "subscription_renewed"
        case .subscriptionCancelled: "subscription_cancelled"
        case .subscriptionExpired: "subscription_expired"
        case .subscriptionRefunded: "subscription_refunded"
        case .subscriptionRestored: "subscription_restored"
        case .downgradedToFree: "downgraded_to_free"
        case .progressViewed: "progress_viewed"
        case .weeklyReviewViewed: "weekly_review_viewed"
        case .creditPriceSet: "credit_price_set"
        }
    }

    public var fields: [(String, String)] {
        switch self {
        case .appOpened, .paywallDismissed, .progressViewed, .weeklyReviewViewed: []
        case .creditPriceSet(let p): [("credits_per_minute", p.map { String(format: "%.2f", $0) } ?? "fixed")]
        case .onboardingStepCompleted(let s): [("step", s.description)]
        case .screenTimeAuthorization(let r): [("result", r.description)]
        case let .appSelected(a, n), let .appRemoved(a, n): [("app", a.description), ("count", String(n))]
        case .appsKept(let n): [("count", String(n))]
        case let .modeCreated(id, t, s): [("mode", String(id)), ("template", t.description), ("strictness", s.description)]
        case .modeEdited(let id), .modeDeleted(let id), .modeStarted(let id), .modeEnded(let id): [("mode", String(id))]
        case let .strictnessChanged(id, s): [("mode", String(id)), ("strictness", s.description)]
        case let .priorityChanged(id, p): [("mode", String(id)), ("priority", String(p))]
        case let .shieldShown(a, m, s): [("app", a.description), ("mode", m.map { String($0) } ?? "focus"), ("strictness", s.description)]
        case .shieldClosed(let a): [("app", a.description)]
        case let .unlockGateOpened(a, s): [("app", a.description), ("source", s.description)]
        case let .unlockAttemptCreated(a, m): [("app", a.description), ("method", m.description)]
        case let .unlockGranted(a, m, mins, c): [("app", a.description), ("method", m.description), ("minutes", String(mins)), ("cost", String(c))]
        case let .unlockDenied(a, r): [("app", a.description), ("reason", "\(r)")]
        case let .unlockExpired(a, r): [("app", a.description), ("reapplied", String(r))]
        case .questStarted(let k), .questCompleted(let k), .questAbandoned(let k): [("kind", k.description)]
        case .emergencyWaitStarted(let a), .emergencyWaitAbandoned(let a): [("app", a.description)]
        case .focusSessionStarted(let m): [("minutes", String(m))]
        case let .focusSessionCompleted(m, c): [("minutes", String(m)), ("credits", String(c))]
        case .focusSessionAbandoned(let m): [("minutes_done", String(m))]
        case .habitCreated(let h), .habitCompleted(let h): [("habit", String(h))]
        case let .habitSuspended(h, s): [("habit", String(h)), ("suspended", String(s))]
        case let .creditsEarned(s, n): [("source", s.description), ("amount", String(n))]
        case .creditsSpent(let n): [("amount", String(n))]
        case let .dayRolledOver(d, b, a, e): [("day_id", d.description), ("balance_before", String(b)), ("balance_after", String(a)), ("expired", String(e))]
        case let .streakQualified(v, n): [("via", v.description), ("length", String(n))]
        case .streakBonusAwarded(let n): [("amount", String(n))]
        case .streakBroken(let n): [("length", String(n))]
        case .paywallShown(let t): [("trigger", t.description)]
        case .trialStarted(let p), .subscriptionCancelled(let p), .subscriptionExpired(let p), .subscriptionRefunded(let p),
             .subscriptionRestored(let p): [("plan", p.name)]
        case let .subscriptionPurchaseCompleted(p, m), let .subscriptionRenewed(p, m): [("plan", p.name), ("price", m.formatted())]
        case let .downgradedToFree(m, a): [("modes_locked", String(m)), ("apps_dropped", String(a))]
        }
    }
}
