import RulesCore

/// Which wallet an earn award or spend went to. Seed 000 §7.3 `Wallet.id`: "global" or "app:bundleID".
public enum WalletID: Hashable, Sendable, CustomStringConvertible {
    case global
    case app(AppID)
    /// The labelled one-time starter credit (§4: "clearly labeled 'starter credit'", outside caps and rollover).
    case starterCredit
    public var description: String {
        switch self {
        case .global: return "global"
        case .app(let a): return "app:\(a.rawValue)"
        case .starterCredit: return "starter_credit"
        }
    }
}

/// Where an upgrade prompt was shown (`paywall_shown.context`). Seed 000 §6.1 "Paywall chips (contextual)".
///
/// The §6.1 tier-limit chips: the Free app limit ("Unlock unlimited apps → Premium"), the cooldown ("Get 1-hour
/// cooldown → Premium"; Premium is offered Pro's 30 min), the Free daily earn cap, Free's free peek used up, and a
/// locked insight (pattern insights Premium+, the 30-day trend Pro). Also the Pro-only controls and Free curfew
/// reminders. Never the token cap: §6.2 "Token limit reached — fresh start next month" is not an upsell.
public enum PaywallContext: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case blockedAppLimit, perAppWallets, dailySpendCap, curfewReminders
    case cooldown, dailyEarnCap, freePeekLimit, patternInsights, trend30Day
    /// The hard paywall (`paywall.mode` hard, an assumption-option: seed 000 has none — §5.1's Free tier is "Try-it"
    /// and §6.1's chips are its only paywalls). Not a chip: shown when onboarding finishes and at every opening of the
    /// app while the person has no plan, never switched off by a `paywall.chips.<context>` key.
    case hardPaywall
    public var description: String {
        ["blocked_app_limit", "per_app_wallets", "daily_spend_cap", "curfew_reminders",
         "cooldown", "daily_earn_cap", "free_peek_limit", "pattern_insights", "trend_30_day", "hard_paywall"][Int(rawValue)]
    }
    /// One of the two chips §6.1 names: "Unlock unlimited apps → Premium", "Get 1-hour cooldown → Premium".
    public var isChartersChip: Bool { self == .blockedAppLimit || self == .cooldown }
    /// The contextual chips of §6.1 (every context but the hard paywall): each has its `paywall.chips.<context>` key.
    public static let chips: [PaywallContext] = allCases.filter { $0 != .hardPaywall }
}

/// Why a shield ended without being a willpower win (`shield_abandoned.reason`; audit 2026-11 D8).
public enum ShieldAbandonReason: UInt8, Hashable, Sendable, CustomStringConvertible {
    /// The user left the shield by going home, switching apps or locking the phone.
    case backgrounded
    /// The user opened another app over the pending shield.
    case otherAppOpened
    /// The user closed the shield after the engine refused a request in the same encounter.
    case closedAfterRefusal
    /// The user closed a shield whose only button was Close (a curfew, §3.3): nothing could be spent, so it is no
    /// willpower win (audit 2026-11-25 E4).
    case forcedClose
    public var description: String { ["backgrounded", "other_app_opened", "closed_after_refusal", "forced_close"][Int(rawValue)] }
}

/// Where an empowerment message was shown (`self_efficacy_message_shown`). Seed 000 §3.5, §6.2.
public enum EfficacyContext: UInt8, Hashable, Sendable, CustomStringConvertible {
    case shield, willpowerWin, earnAward, milestone
    public var description: String { ["shield", "willpower_win", "earn_award", "milestone"][Int(rawValue)] }
}

/// A milestone badge. Seed 000 §6.1 (Milestones & self-efficacy), §8.2 A7.
public enum Milestone: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case streak7, warrior30, legend60, hours100
    public var description: String { ["streak_7_day", "warrior_30_day", "legend_60_day", "saved_100_hours"][Int(rawValue)] }
}

/// A personal-record metric. Seed 000 §8.1 `personal_record` ("most time saved in day, longest streak").
public enum RecordMetric: UInt8, Hashable, Sendable, CustomStringConvertible {
    case timeSavedInDay, longestStreak
    public var description: String { ["time_saved_day", "longest_streak"][Int(rawValue)] }
}

/// Why a reliability check failed (`reliability_check_fail.error`). Seed 000 §8.1 names the field but not its
/// values; these are the engine's own (assumption). An enum rather than text keeps every event a plain value.
public enum ReliabilityError: UInt8, Hashable, Sendable, CustomStringConvertible {
    /// The platform reported the check as failed.
    case checkFailed
    /// The user denied the permission.
    case denied
    public var description: String { ["check_failed", "denied"][Int(rawValue)] }
}

/// Every analytics event of the charter's taxonomy (seed 000 §8.1), with its fields, plus a few lifecycle
/// events the charter's own funnel and KPIs need but §8.1 does not list (`isCharterEvent == false`).
///
/// `name` is the exact snake_case name; `fields` renders the payload for traces and CSV. Durations are rendered
/// in seconds (with milliseconds when present), money in USD.
public enum ScrollOffEvent: Hashable, Sendable, AnalyticsEvent, SubscriptionEvents {
    // Blocking & shielding
    /// `app_blocked(bundleID, tier)` — user adds app to block list.
    case appBlocked(app: AppID, tier: Tier)
    /// `shield_shown(bundleID, credits_available)` — shield appeared on app open.
    case shieldShown(app: AppID, creditsAvailable: TimeSpan)
    /// `shield_dismissed_no_spend` — user closed the shield without spending (willpower win): the "Close" button (or
    /// a mindfulness exercise that avoided the bypass) with nothing refused in the encounter. Shields left or closed
    /// after a refusal are `shield_abandoned`.
    case shieldDismissedNoSpend
    // Earning & spending
    /// `earn_award(seconds, wallet_id, daily_cap_hit)` — +300 s after 60 min, or less/zero at the daily cap.
    case earnAward(amount: TimeSpan, wallet: WalletID, dailyCapHit: Bool)
    /// `spend_tick(seconds_spent, seconds_remaining, bundleID)` — credit deducted. The engine reports one tick per
    /// settled foreground stretch (pause, empty wallet, curfew, midnight), not one per second; sums are identical.
    case spendTick(spent: TimeSpan, remaining: TimeSpan, app: AppID)
    /// `wallet_empty(bundleID)` — credits depleted, shield re-applied.
    case walletEmpty(app: AppID)
    // Bypass
    /// `bypass_free_peek(bundleID, peeks_remaining)`.
    case bypassFreePeek(app: AppID, peeksRemaining: Int)
    /// `bypass_credit_peek(bundleID, cost_seconds)`.
    case bypassCreditPeek(app: AppID, cost: TimeSpan)
    /// `bypass_token_purchased(month_id, tokens_used_this_month)` — `tokensUsedThisMonth` counts the tokens used this
    /// month (included and purchased), this one included when it is bought at the shield to be used at once.
    case bypassTokenPurchased(month: MonthID, tokensUsedThisMonth: Int)
    /// `bypass_token_cap_hit` — tried to purchase but the monthly cap is reached.
    case bypassTokenCapHit
    /// `mindfulness_prompted(exercise_type)`.
    case mindfulnessPrompted(MindfulnessExercise)
    /// `mindfulness_completed(exercise_type, bypass_avoided)`.
    case mindfulnessCompleted(MindfulnessExercise, bypassAvoided: Bool)
    /// `mindfulness_skipped(exercise_type)`.
    case mindfulnessSkipped(MindfulnessExercise)
    // Cooldown & curfew
    /// `cooldown_start(bundleID, duration_seconds)`.
    case cooldownStart(app: AppID, duration: TimeSpan)
    /// `cooldown_unblock_attempted(time_remaining)`.
    case cooldownUnblockAttempted(timeRemaining: TimeSpan)
    /// `curfew_start(schedule_id, app_count)`.
    case curfewStart(schedule: CurfewID, appCount: Int)
    /// `curfew_edit_blocked(time_until_start)` — zero while the window is active.
    case curfewEditBlocked(timeUntilStart: TimeSpan)
    // Behavioural science
    /// `if_then_plan_created(trigger_hash, response_hash)` (FNV-1a 64 of the texts, hex).
    case ifThenPlanCreated(triggerHash: UInt64, responseHash: UInt64)
    /// `if_then_plan_viewed(plan_id)`.
    case ifThenPlanViewed(planID: Int)
    /// `self_efficacy_message_shown(context, message_type)` — `messageType` indexes the rotating copy of §6.2/§13.
    case selfEfficacyMessageShown(context: EfficacyContext, messageType: Int)
    /// `pattern_insight_shown(insight_type)`.
    case patternInsightShown(InsightType)
    // Billing
    /// `subscription_purchase_initiated(sku)`.
    case subscriptionPurchaseInitiated(Plan)
    /// `subscription_purchase_completed(sku, price)`.
    case subscriptionPurchaseCompleted(Plan, price: Money)
    /// `subscription_restored(sku)`.
    case subscriptionRestored(Plan)
    /// `paywall_shown(context, sku_shown)`.
    case paywallShown(context: PaywallContext, skuShown: Plan)
    // Reliability
    /// `reliability_check_pass(component)`.
    case reliabilityCheckPass(ReliabilityComponent)
    /// `reliability_check_fail(component, error)`.
    case reliabilityCheckFail(ReliabilityComponent, error: ReliabilityError)
    /// `authorization_revoked`.
    case authorizationRevoked
    // Milestones & insights
    /// `milestone_unlocked(milestone_id, value)`.
    case milestoneUnlocked(Milestone, value: Int)
    /// `personal_record(metric, value)` — value in seconds (time saved) or days (streak).
    case personalRecord(RecordMetric, value: Int64)
    /// `weekly_insight_shown(peak_hour, strongest_day, time_saved)`.
    case weeklyInsightShown(peakHour: Int, strongestDay: Weekday, timeSaved: TimeSpan)

    // Lifecycle extensions (not in §8.1; needed by §8.2 A0 and §8.3 retention and monetization KPIs)
    /// `app_opened` — Scroll Off itself launched (funnel A0; day-N activity).
    case appOpened
    /// `emergency_token_used(month_id, included)` — a token unlocked an app.
    case emergencyTokenUsed(month: MonthID, included: Bool)
    /// `subscription_renewed(sku, price)`.
    case subscriptionRenewed(Plan, price: Money)
    /// `subscription_cancelled(sku)` — auto-renew turned off.
    case subscriptionCancelled(Plan)
    /// `subscription_expired(sku)` — lapsed, refunded or cancelled plan ended; back to Free.
    case subscriptionExpired(Plan)
    /// `clock_rollback_detected(rollback_seconds)` — §7.7: earning frozen for the rest of the local day.
    case clockRollbackDetected(rollback: TimeSpan)
    /// `shield_abandoned(bundleID, reason)` — the shield ended without spending but not by a willpower win: left by
    /// backgrounding or by opening another app, or closed after a refusal. §8.1's `shield_dismissed_no_spend` is
    /// "user closed shield without spending (willpower win)"; these are not wins (audit 2026-11 D8).
    case shieldAbandoned(app: AppID, reason: ShieldAbandonReason)

    /// The exact snake_case event name.
    public var name: String {
        switch self {
        case .appBlocked: return "app_blocked"
        case .shieldShown: return "shield_shown"
        case .shieldDismissedNoSpend: return "shield_dismissed_no_spend"
        case .earnAward: return "earn_award"
        case .spendTick: return "spend_tick"
        case .walletEmpty: return "wallet_empty"
        case .bypassFreePeek: return "bypass_free_peek"
        case .bypassCreditPeek: return "bypass_credit_peek"
        case .bypassTokenPurchased: return "bypass_token_purchased"
        case .bypassTokenCapHit: return "bypass_token_cap_hit"
        case .mindfulnessPrompted: return "mindfulness_prompted"
        case .mindfulnessCompleted: return "mindfulness_completed"
        case .mindfulnessSkipped: return "mindfulness_skipped"
        case .cooldownStart: return "cooldown_start"
        case .cooldownUnblockAttempted: return "cooldown_unblock_attempted"
        case .curfewStart: return "curfew_start"
        case .curfewEditBlocked: return "curfew_edit_blocked"
        case .ifThenPlanCreated: return "if_then_plan_created"
        case .ifThenPlanViewed: return "if_then_plan_viewed"
        case .selfEfficacyMessageShown: return "self_efficacy_message_shown"
        case .patternInsightShown: return "pattern_insight_shown"
        case .subscriptionPurchaseInitiated: return "subscription_purchase_initiated"
        case .subscriptionPurchaseCompleted: return "subscription_purchase_completed"
        case .subscriptionRestored: return "subscription_restored"
        case .paywallShown: return "paywall_shown"
        case .reliabilityCheckPass: return "reliability_check_pass"
        case .reliabilityCheckFail: return "reliability_check_fail"
        case .authorizationRevoked: return "authorization_revoked"
        case .milestoneUnlocked: return "milestone_unlocked"
        case .personalRecord: return "personal_record"
        case .weeklyInsightShown: return "weekly_insight_shown"
        case .appOpened: return "app_opened"
        case .emergencyTokenUsed: return "emergency_token_used"
        case .subscriptionRenewed: return "subscription_renewed"
        case .subscriptionCancelled: return "subscription_cancelled"
        case .subscriptionExpired: return "subscription_expired"
        case .clockRollbackDetected: return "clock_rollback_detected"
        case .shieldAbandoned: return "shield_abandoned"
        }
    }

    /// True for events named in the charter's taxonomy (§8.1); false for the lifecycle extensions.
    public var isCharterEvent: Bool {
        switch self {
        case .appOpened, .emergencyTokenUsed, .subscriptionRenewed, .subscriptionCancelled, .subscriptionExpired,
             .clockRollbackDetected, .shieldAbandoned: return false
        default: return true
        }
    }

    /// Whether the event shows the product in use that local day — the "product in use" reading of §8.3 retention
    /// ("still using after 1 week"): a shield met, credits spent, an earn award (earning needs authorization), or the
    /// app opened. For a blocker the shield is the main surface (audit 2026-11 D2).
    public var marksProductInUse: Bool {
        switch self {
        case .shieldShown, .appOpened: return true
        case let .spendTick(s, _, _): return s > .zero
        case let .earnAward(a, w, _): return w != .starterCredit && a > .zero
        default: return false
        }
    }

    /// Whether the event shows the user opened Scroll Off itself (the "app opened" reading of §8.3 retention).
    public var marksAppOpened: Bool { if case .appOpened = self { return true }; return false }

    /// Every §8.1 event name, in the charter's order.
    public static let charterEventNames: [String] = [
        "app_blocked", "shield_shown", "shield_dismissed_no_spend",
        "earn_award", "spend_tick", "wallet_empty",
        "bypass_free_peek", "bypass_credit_peek", "bypass_token_purchased", "bypass_token_cap_hit",
        "mindfulness_prompted", "mindfulness_completed", "mindfulness_skipped",
        "cooldown_start", "cooldown_unblock_attempted", "curfew_start", "curfew_edit_blocked",
        "if_then_plan_created", "if_then_plan_viewed", "self_efficacy_message_shown", "pattern_insight_shown",
        "subscription_purchase_initiated", "subscription_purchase_completed", "subscription_restored", "paywall_shown",
        "reliability_check_pass", "reliability_check_fail", "authorization_revoked",
        "milestone_unlocked", "personal_record", "weekly_insight_shown",
    ]

    /// The payload as `(field, value)` pairs with the charter's field names.
    public var fields: [(String, String)] {
        switch self {
        case let .appBlocked(app, tier): return [("bundleID", "\(app)"), ("tier", "\(tier)")]
        case let .shieldShown(app, c): return [("bundleID", "\(app)"), ("credits_available", seconds(c))]
        case .shieldDismissedNoSpend, .bypassTokenCapHit, .authorizationRevoked, .appOpened: return []
        case let .earnAward(a, w, hit): return [("seconds", seconds(a)), ("wallet_id", "\(w)"), ("daily_cap_hit", "\(hit)")]
        case let .spendTick(s, r, app): return [("seconds_spent", seconds(s)), ("seconds_remaining", seconds(r)), ("bundleID", "\(app)")]
        case let .walletEmpty(app): return [("bundleID", "\(app)")]
        case let .bypassFreePeek(app, n): return [("bundleID", "\(app)"), ("peeks_remaining", "\(n)")]
        case let .bypassCreditPeek(app, c): return [("bundleID", "\(app)"), ("cost_seconds", seconds(c))]
        case let .bypassTokenPurchased(m, n): return [("month_id", "\(m)"), ("tokens_used_this_month", "\(n)")]
        case let .mindfulnessPrompted(e): return [("exercise_type", "\(e)")]
        case let .mindfulnessCompleted(e, a): return [("exercise_type", "\(e)"), ("bypass_avoided", "\(a)")]
        case let .mindfulnessSkipped(e): return [("exercise_type", "\(e)")]
        case let .cooldownStart(app, d): return [("bundleID", "\(app)"), ("duration_seconds", seconds(d))]
        case let .cooldownUnblockAttempted(r): return [("time_remaining", seconds(r))]
        case let .curfewStart(id, n): return [("schedule_id", "\(id)"), ("app_count", "\(n)")]
        case let .curfewEditBlocked(t): return [("time_until_start", seconds(t))]
        case let .ifThenPlanCreated(t, r): return [("trigger_hash", hex(t)), ("response_hash", hex(r))]
        case let .ifThenPlanViewed(id): return [("plan_id", "\(id)")]
        case let .selfEfficacyMessageShown(c, m): return [("context", "\(c)"), ("message_type", "\(m)")]
        case let .patternInsightShown(t): return [("insight_type", "\(t)")]
        case let .subscriptionPurchaseInitiated(p): return [("sku", p.sku)]
        case let .subscriptionPurchaseCompleted(p, price): return [("sku", p.sku), ("price", price.formatted())]
        case let .subscriptionRestored(p): return [("sku", p.sku)]
        case let .paywallShown(c, p): return [("context", "\(c)"), ("sku_shown", p.sku)]
        case let .reliabilityCheckPass(c): return [("component", "\(c)")]
        case let .reliabilityCheckFail(c, e): return [("component", "\(c)"), ("error", "\(e)")]
        case let .milestoneUnlocked(m, v): return [("milestone_id", "\(m)"), ("value", "\(v)")]
        case let .personalRecord(m, v): return [("metric", "\(m)"), ("value", "\(v)")]
        case let .weeklyInsightShown(h, d, t): return [("peak_hour", "\(h)"), ("strongest_day", "\(d)"), ("time_saved", seconds(t))]
        case let .emergencyTokenUsed(m, inc): return [("month_id", "\(m)"), ("included", "\(inc)")]
        case let .subscriptionRenewed(p, price): return [("sku", p.sku), ("price", price.formatted())]
        case let .subscriptionCancelled(p): return [("sku", p.sku)]
        case let .subscriptionExpired(p): return [("sku", p.sku)]
        case let .clockRollbackDetected(r): return [("rollback_seconds", seconds(r))]
        case let .shieldAbandoned(app, r): return [("bundleID", "\(app)"), ("reason", "\(r)")]
        }
    }
}

/// Seconds with milliseconds only when present: `300`, `12.5`.
func seconds(_ t: TimeSpan) -> String {
    let ms = t.milliseconds
    if ms % 1000 == 0 { return String(ms / 1000) }
    let sign = ms < 0 ? "-" : ""
    let m = ms.magnitude
    var frac = String(m % 1000)
    frac = String(repeating: "0", count: 3 - frac.count) + frac
    while frac.hasSuffix("0") { frac.removeLast() }
    return "\(sign)\(m / 1000).\(frac)"
}

func hex(_ v: UInt64) -> String {
    let s = String(v, radix: 16)
    return String(repeating: "0", count: 16 - s.count) + s
}

/// FNV-1a 64-bit hash of a text's UTF-8 bytes (stable across runs and platforms, unlike `Hasher`).
public func fnv1a64(_ text: String) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
    return h
}
