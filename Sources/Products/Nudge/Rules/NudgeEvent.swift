import RulesCore

/// Nudge's analytics events. Seed 001 names no taxonomy (§6 Stack "TelemetryDeck … or PostHog … Optional"); the names
/// are the inventory's §3 proposal, snake_case. Every event about an item carries the item id and the person's task
/// `ref`, so the simulator knows which of its tasks it is.
public enum NudgeEvent: Hashable, Sendable, AnalyticsEvent, TrialSubscriptionEvents {
    // Lifecycle and onboarding
    /// `day` = local days since the install's date (N6 "active on day 7").
    case appOpened(via: OpenVia, day: Int)
    case onboardingCompleted(panels: Int)
    case onboardingSkipped(panels: Int)
    case permissionRequested(PermissionKind)
    case permissionResult(PermissionKind, granted: Bool)
    // Capture
    case brainDumpCompleted(items: Int, seconds: Int, aiCalled: Bool)
    case brainDumpEmpty(seconds: Int)
    case brainDumpAutoStopped(cut: Int)
    case brainDumpQueuedOffline(thoughts: Int)
    case brainDumpLimitHit(dumpsToday: Int)
    case aiSplitCompleted(items: Int, usd: Money)
    case aiSplitFailed(usd: Money)
    case itemCreated(ItemID, source: ItemSource, action: ActionType?, ref: UInt64)
    case shareSaved(ItemID, preset: SnoozePreset, ref: UInt64)
    case shareLimitHit(count: Int)
    case shareIngested(ItemID, ref: UInt64)
    // The queue
    case cardShown(ItemID, color: CardColor, ref: UInt64)
    case itemDone(ItemID, ref: UInt64)
    case itemSkipped(ItemID, ref: UInt64)
    case itemSnoozed(ItemID, preset: SnoozePreset, ref: UInt64)
    case itemResurfaced(ItemID, ref: UInt64)
    case itemBecameStale(ItemID, ref: UInt64)
    case itemDropped(ItemID, ref: UInt64)
    case allClear
    // Actions and drafts
    case actionTapped(ItemID, type: ActionType, ref: UInt64)
    case contactAttached(ItemID, ref: UInt64)
    case draftGenerated(ItemID, usd: Money, ref: UInt64)
    case draftSent(ItemID, edited: Bool, ref: UInt64)
    case draftAbandoned(ItemID, ref: UInt64)
    // Nudges
    /// `merged` > 1 when several items resurfacing at the same instant (or flushed at the end of quiet hours) share
    /// one notification.
    case nudgeSent(NudgeKind, item: ItemID, ref: UInt64, buttons: Bool, merged: Int)
    /// A resurfacing in quiet hours, deferred to their end (inventory R27).
    case nudgeDeferred(NudgeKind, item: ItemID, ref: UInt64)
    case nudgeSuppressed(NudgeKind, item: ItemID?, reason: SuppressReason)
    case nudgeOpened(NudgeKind, item: ItemID?)
    case nudgeAction(NudgeKind, item: ItemID?, action: NotificationReply)
    case nudgesMutedToday
    case nudgeTypeDisabled(NudgeKind)
    case nudgeTypeEnabled(NudgeKind)
    case notificationsDisabled
    case notificationsEnabled
    // Live Activity
    case liveActivityPromptShown
    case liveActivityEnabled
    case liveActivityDisabled
    case liveActivityUpdated(cause: LiveActivityCause)
    // Money
    case paywallShown(PaywallTrigger)
    case paywallDismissed
    case trialStarted(NudgePlan)
    case subscriptionStarted(NudgePlan, price: Money)
    case subscriptionRenewed(NudgePlan, price: Money)
    case subscriptionCancelled(NudgePlan)
    case subscriptionExpired(NudgePlan)
    case subscriptionRefunded(NudgePlan)

    /// A paid period bought, in Nudge's words: `subscription_started` (seed 001 §7; `SubscriptionEvents`).
    public static func subscriptionPurchaseCompleted(_ plan: NudgePlan, price: Money) -> NudgeEvent {
        .subscriptionStarted(plan, price: price)
    }

    public var name: String {
        switch self {
        case .appOpened: "app_opened"
        case .onboardingCompleted: "onboarding_completed"
        case .onboardingSkipped: "onboarding_skipped"
        case .permissionRequested: "permission_requested"
        case .permissionResult: "permission_result"
        case .brainDumpCompleted: "brain_dump_completed"
        case .brainDumpEmpty: "brain_dump_empty"
        case .brainDumpAutoStopped: "brain_dump_auto_stopped"
        case .brainDumpQueuedOffline: "brain_dump_queued_offline"
        case .brainDumpLimitHit: "brain_dump_limit_hit"
        case .aiSplitCompleted: "ai_split_completed"
        case .aiSplitFailed: "ai_split_failed"
        case .itemCreated: "item_created"
        case .shareSaved: "share_saved"
        case .shareLimitHit: "share_limit_hit"
        case .shareIngested: "share_ingested"
        case .cardShown: "card_shown"
        case .itemDone: "item_done"
        case .itemSkipped: "item_skipped"
        case .itemSnoozed: "item_snoozed"
        case .itemResurfaced: "item_resurfaced"
        case .itemBecameStale: "item_became_stale"
        case .itemDropped: "item_dropped"
        case .allClear: "all_clear"
        case .actionTapped: "action_tapped"
        case .contactAttached: "contact_attached"
        case .draftGenerated: "draft_generated"
        case .draftSent: "draft_sent"
        case .draftAbandoned: "draft_abandoned"
        case .nudgeSent: "nudge_sent"
        case .nudgeDeferred: "nudge_deferred"
        case .nudgeSuppressed: "nudge_suppressed"
        case .nudgeOpened: "nudge_opened"
        case .nudgeAction: "nudge_action"
        case .nudgesMutedToday: "nudges_muted_today"
        case .nudgeTypeDisabled: "nudge_type_disabled"
        case .nudgeTypeEnabled: "nudge_type_enabled"
        case .notificationsDisabled: "notifications_disabled"
        case .notificationsEnabled: "notifications_enabled"
        case .liveActivityPromptShown: "live_activity_prompt_shown"
        case .liveActivityEnabled: "live_activity_enabled"
        case .liveActivityDisabled: "live_activity_disabled"
        case .liveActivityUpdated: "live_activity_updated"
        case .paywallShown: "paywall_shown"
        case .paywallDismissed: "paywall_dismissed"
        case .trialStarted: "trial_started"
        case .subscriptionStarted: "subscription_started"
        case .subscriptionRenewed: "subscription_renewed"
        case .subscriptionCancelled: "subscription_cancelled"
        case .subscriptionExpired: "subscription_expired"
        case .subscriptionRefunded: "subscription_refunded"
        }
    }

    public var fields: [(String, String)] {
        func id(_ i: ItemID) -> (String, String) { ("item", String(i)) }
        func ref(_ r: UInt64) -> (String, String) { ("ref", String(r)) }
        func opt(_ i: ItemID?) -> (String, String) { ("item", i.map { String($0) } ?? "") }
        func usd(_ m: Money) -> (String, String) { ("usd", m.formatted(decimals: 6)) }
        switch self {
        case let .appOpened(via, day): return [("via", via.rawValue), ("day", String(day))]
        case .onboardingCompleted(let n), .onboardingSkipped(let n): return [("panels", String(n))]
        case .permissionRequested(let k): return [("kind", k.rawValue)]
        case let .permissionResult(k, g): return [("kind", k.rawValue), ("granted", String(g))]
        case let .brainDumpCompleted(n, s, ai): return [("items", String(n)), ("seconds", String(s)), ("ai_called", String(ai))]
        case .brainDumpEmpty(let s): return [("seconds", String(s))]
        case .brainDumpAutoStopped(let c): return [("cut", String(c))]
        case .brainDumpQueuedOffline(let n): return [("thoughts", String(n))]
        case .brainDumpLimitHit(let n): return [("dumps_today", String(n))]
        case let .aiSplitCompleted(n, m): return [("items", String(n)), usd(m)]
        case .aiSplitFailed(let m): return [usd(m)]
        case let .itemCreated(i, s, a, r): return [id(i), ("source", s.rawValue), ("action", a?.rawValue ?? ""), ref(r)]
        case let .shareSaved(i, p, r): return [id(i), ("preset", p.rawValue), ref(r)]
        case .shareLimitHit(let n): return [("count", String(n))]
        case let .shareIngested(i, r), let .itemDone(i, r), let .itemSkipped(i, r), let .itemResurfaced(i, r),
             let .itemBecameStale(i, r), let .itemDropped(i, r), let .contactAttached(i, r), let .draftAbandoned(i, r):
            return [id(i), ref(r)]
        case let .cardShown(i, c, r): return [id(i), ("color", c.rawValue), ref(r)]
        case let .itemSnoozed(i, p, r): return [id(i), ("preset", p.rawValue), ref(r)]
        case .allClear, .nudgesMutedToday, .notificationsDisabled, .notificationsEnabled, .liveActivityPromptShown,
             .liveActivityEnabled, .liveActivityDisabled, .paywallDismissed:
            return []
        case let .actionTapped(i, t, r): return [id(i), ("type", t.rawValue), ref(r)]
        case let .draftGenerated(i, m, r): return [id(i), usd(m), ref(r)]
        case let .draftSent(i, e, r): return [id(i), ("edited", String(e)), ref(r)]
        case let .nudgeSent(k, i, r, b, m): return [("kind", k.rawValue), id(i), ref(r), ("buttons", String(b)), ("merged", String(m))]
        case let .nudgeDeferred(k, i, r): return [("kind", k.rawValue), id(i), ref(r)]
        case let .nudgeSuppressed(k, i, why): return [("kind", k.rawValue), opt(i), ("reason", why.rawValue)]
        case let .nudgeOpened(k, i): return [("kind", k.rawValue), opt(i)]
        case let .nudgeAction(k, i, a): return [("kind", k.rawValue), opt(i), ("action", a.rawValue)]
        case .nudgeTypeDisabled(let k), .nudgeTypeEnabled(let k): return [("kind", k.rawValue)]
        case .liveActivityUpdated(let c): return [("cause", c.rawValue)]
        case .paywallShown(let t): return [("trigger", t.rawValue)]
        case .trialStarted(let p), .subscriptionCancelled(let p), .subscriptionExpired(let p), .subscriptionRefunded(let p):
            return [("plan", p.rawValue)]
        case let .subscriptionStarted(p, m), let .subscriptionRenewed(p, m): return [("plan", p.rawValue), ("price", m.formatted())]
        }
    }
}
