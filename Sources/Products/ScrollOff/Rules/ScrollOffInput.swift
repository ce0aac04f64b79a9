import RulesCore

/// Everything a user or the OS can do to Scroll Off, plus the engine's own timers coming back due.
///
/// The engine is driven by `ScrollOffEngine.handle(_:at:into:)`; `now` is always passed alongside.
public enum ScrollOffInput: Hashable, Sendable, TimerDelivering {
    // Onboarding and behavioural science
    /// An onboarding step (seed 000 §6.1). `.appOpened` is also every later launch (activity, funnel A0).
    case onboarding(OnboardingStep)
    /// Create an if-then plan (seed 000 §3.6): "When [trigger], I will [response]".
    case createIfThenPlan(trigger: String, response: String)
    /// The user reviewed plan `index` (0-based creation order) in Settings (seed 000 §8.1 `if_then_plan_viewed`).
    case viewIfThenPlan(index: Int)

    /// The person's usage of their blocked apps per day over the week before install, as Screen Time reports it to the
    /// app (DeviceActivity, seed 000 §4): the baseline of `insights.time_saved_method` usage_baseline (audit
    /// 2026-11-25 E5).
    case usageBaseline(perDay: TimeSpan)

    // Blocking
    /// Add an app to Blocked (seed 000 §3.1); starts its cooldown lock (§3.3). Needs an if-then plan first (§9).
    case blockApp(AppID)
    /// Remove an app from Blocked; refused during its cooldown (§3.3, §7.4).
    case unblockApp(AppID)
    /// An app came to the foreground (opened or returned to). Blocked apps without access meet the shield.
    case appForeground(AppID)
    /// An app left the foreground (home, app switch, lock). Leaving a pending shield abandons it (no willpower win).
    case appBackground(AppID)
    /// A button on the pending shield (§6.1 Blocked Shield, §3.4 ladder).
    case shield(ShieldChoice)
    /// The user's answer to the mindfulness step (§3.4 step 4): which exercise and how it ended.
    case mindfulness(MindfulnessExercise, MindfulnessResponse)

    // Wallets (Pro advanced controls, §3.2)
    /// Move credit from the global wallet to an app's wallet (Pro).
    case earmark(AppID, TimeSpan)
    /// Set or clear an app's daily spend cap (Pro anti-binge guard).
    case setDailySpendCap(AppID, TimeSpan?)

    // Curfew (§3.3, §7.4)
    /// Create (`id == nil`) or edit a curfew schedule.
    case setCurfew(id: CurfewID?, CurfewSpec)
    /// Delete a curfew schedule (an edit: locked near and during the window).
    case deleteCurfew(CurfewID)

    // Settings
    /// Change a preference.
    case setPreference(Preference)

    // Billing (§5)
    /// The user tapped an upgrade button (`subscription_purchase_initiated`).
    case upgradeTapped(Plan)
    /// The store completed a purchase of a plan: new subscription, upgrade (instant, prorated) or a change that
    /// applies at renewal (downgrade, monthly↔annual).
    case buyPlan(Plan)
    /// Turn off auto-renew: the plan lapses to Free at period end.
    case cancelSubscription
    /// The store refunded the current period: back to Free at once.
    case refundSubscription
    /// "Restore Purchases" with the store's current entitlement (nil when the store has none).
    case restorePurchases(StoreEntitlement?)
    /// Buy an emergency token ($0.99) outside the shield (within the monthly cap); refused (`tokenOnlyAtShield`)
    /// unless `tokens.purchasable_outside_shield` (§5.2 "show as last resort only").
    case buyToken

    // OS and integrity
    /// The system clock was changed by `delta` (negative = rolled back). §7.7.
    case systemClockChanged(by: TimeSpan)
    /// A Reliability-screen health check ran (§6.1, §7.7).
    case reliabilityCheck(ReliabilityComponent, passed: Bool)
    /// The user revoked ScreenTime authorization in Settings (§7.5).
    case authorizationRevoked

    // Insights (§6.1 Stats & Insights)
    /// The user looked at a pattern insight (funnel A6); insights above the tier show a paywall chip (§5.1, §6.1).
    case viewInsight(InsightType)
    /// The weekly insight card was displayed.
    case viewWeeklyInsight

    /// A timer the engine armed earlier has come due (possibly stale: it is re-validated).
    case timer(ScrollOffTimer)
}

/// A timer the engine asks its host to arm.
///
/// Contract (lazy cancellation): a timer's `kind` is its slot — arming a timer of a kind supersedes any earlier
/// timer of the same kind, and the host may drop superseded ones. Delivering a superseded, duplicate or early timer
/// is always safe: the engine re-checks the state it guards and does nothing when it is no longer due (decision
/// `.staleTimer`). Every armed timer lies strictly after the `now` of the call that armed it.
public typealias ScrollOffTimer = ArmedTimer<ScrollOffTimerKind>

/// What comes due (`ScrollOffTimer.Kind`).
public enum ScrollOffTimerKind: Hashable, Sendable {
    /// 60 consecutive abstinent minutes complete: award +5:00 (§3.2, §7.4).
    case earnAward
    /// Local midnight: day counters reset, rollover expiry, streak bookkeeping (§3.2, §7.4).
    case localMidnight
    /// Start of the next local calendar month: token counters reset, Pro tokens replenish (§5.2, §7.4).
    case monthStart
    /// The subscription period ends: renew or lapse to Free (§5.1, §9).
    case renewal
    /// An app's cooldown lock ends (§3.3).
    case cooldownEnd(AppID)
    /// A peek or token unlock of an app ends: the shield returns (§3.4).
    case unlockEnd(AppID)
    /// The wallet (or the daily spend cap) runs out while an app is in the foreground (§3.2).
    case walletEmpty(AppID)
    /// A paused credit session times out (assumption `spend.paused_session_timeout_minutes`).
    case pausedSessionEnd(AppID)
    /// A curfew window opens (§3.3).
    case curfewStart(CurfewID)
    /// A curfew window closes.
    case curfewEnd(CurfewID)
    /// "Curfew starts in 10 minutes" (§6.5).
    case curfewReminder(CurfewID)
}
