import RulesCore

/// Identifies an item (a card). Assigned by the engine, sequentially from 1, never reused (items are never deleted).
public typealias ItemID = UInt32

/// Where an item came from. Seed 001 §6 Data Model `sourceType: SourceType // .voiceDump, .share, .manual`.
public enum ItemSource: String, Hashable, Sendable, CaseIterable {
    case voiceDump = "voice_dump", share, manual
}

/// An item's quick action. Seed 001 §6 Data Model `actionType: ActionType? // .call, .text, .email, .openLink`; §4
/// Feature 6 (📞 💬 🔗), Feature 7 (📧; email in the MVP, inventory C9).
public enum ActionType: String, Hashable, Sendable, CaseIterable {
    case call, text, email, openLink = "open_link"
    /// 💬/📧: the actions AI drafts are written for (seed 001 §4 Feature 7 "When a card has a 💬 or 📧 action").
    public var isMessage: Bool { self == .text || self == .email }
    /// 📞/💬/📧: the actions that need a contact (seed 001 §4 Feature 6 "Contact lookup").
    public var needsContact: Bool { self != .openLink }
}

/// An item's status. Seed 001 §6 Data Model `status: ItemStatus // .active, .snoozed, .done, .dropped`.
public enum ItemStatus: String, Hashable, Sendable, CaseIterable {
    case active, snoozed, done, dropped
    /// Active or snoozed: still to do.
    public var isOpen: Bool { self == .active || self == .snoozed }
}

/// The snooze presets. Seed 001 §5 Screen 5 "Quick options: "Later today" (3 hours), "Tomorrow morning" (9am), "This
/// weekend" (Saturday 10am), "Next week" (Monday 9am)"; Screen 6 offers the same. Custom times are not modelled.
public enum SnoozePreset: String, Hashable, Sendable, CaseIterable {
    case laterToday = "later_today", tomorrowMorning = "tomorrow_morning", thisWeekend = "this_weekend", nextWeek = "next_week"
}

/// The three nudge types. Seed 001 §4 Feature 5 "(1) Snoozed item resurfacing, (2) Stale item check-in (3+ days
/// old), (3) End-of-day "one thing left" prompt".
public enum NudgeKind: String, Hashable, Sendable, CaseIterable {
    case resurfacing, stale, endOfDay = "end_of_day"
    var index: Int { switch self { case .resurfacing: 0; case .stale: 1; case .endOfDay: 2 } }
}

/// What a person does with a nudge notification. Seed 001 §4 Feature 5 "[ 📞 Call Now ] · [ 💬 Send Text ] · [ ⏰
/// Tomorrow ]"; the stale copy "Want to do it now or let it go?" (inventory R28: "Do it now / Let it go"); `open` is a
/// tap on the banner.
public enum NotificationReply: String, Hashable, Sendable, CaseIterable {
    case open, callNow = "call_now", sendText = "send_text", tomorrow, doItNow = "do_it_now", letItGo = "let_it_go"
    /// A button (Pro only: seed 001 §7 Pricing Model "Actionable notification buttons ❌ / ✅"); `open` is not.
    public var isButton: Bool { self != .open }
}

/// The OS permissions Nudge asks for. Seed 001 §5 Screen 7 "request mic on first brain dump, notifications on first
/// snooze"; §4 Feature 6 contact picker "one-time permission request".
public enum PermissionKind: String, Hashable, Sendable, CaseIterable {
    case microphone, notifications, contacts
}

/// A permission's state.
public enum PermissionState: String, Hashable, Sendable {
    case unasked, granted, denied
}

/// A Pro plan. Seed 001 §7 Pricing Model "$9.99/month or $59.99/year".
public enum NudgePlan: String, Hashable, Sendable, CaseIterable, StorePlan {
    case monthly, annual
    /// Store product id.
    public var sku: String { self == .monthly ? "nudge.pro.monthly" : "nudge.pro.annual" }
    /// Billing period, calendar months.
    public var periodMonths: Int { self == .monthly ? 1 : 12 }
}

/// Why a paywall appeared. Seed 001 §9 Week 4 "Paywall screen + Free tier limits enforcement (dump count, saved items
/// cap)", §5 Screen 4 "Upgrade to Pro"; the draft teaser is an assumption (inventory R40).
public enum PaywallTrigger: String, Hashable, Sendable, CaseIterable {
    case dumpLimit = "dump_limit", shareLimit = "share_limit", draftTeaser = "draft_teaser", settings
}

/// How the app came to the foreground.
public enum OpenVia: String, Hashable, Sendable, CaseIterable {
    case icon, notification, liveActivity = "live_activity"
}

/// A card's accent. Seed 001 §4 Feature 4 "🔵 Blue = active … 🟠 Amber = stale (3+ days untouched) · 🔴 Red = overdue";
/// red beats amber (inventory R18, assumption).
public enum CardColor: String, Hashable, Sendable {
    case blue, amber, red
}

/// Why a nudge was not sent (inventory §3 `nudge_suppressed(type, reason)`).
public enum SuppressReason: String, Hashable, Sendable, CaseIterable {
    /// The day's `nudges.max_per_day` is reached (seed 001 §4 Feature 5 "Max 3 nudges per day").
    case cap
    /// In quiet hours and not deferrable (seed 001 §4 Feature 5 "Never after 9pm. Never before 8am").
    case quiet
    /// "Can mute nudges for today" (seed 001 §4 Feature 5 User control).
    case muted
    /// "Can disable specific nudge types" (same).
    case typeOff = "type_off"
    /// A Pro-only nudge type on Free (seed 001 §7 Pricing Model).
    case tier
    /// Notifications not granted or switched off in the OS.
    case noPermission = "no_permission"
}

/// Why the Live Activity was updated (seed 001 §4 Feature 4b).
public enum LiveActivityCause: String, Hashable, Sendable {
    /// One of the 5 time-of-day transitions ("push updates via background task at 5 time transitions").
    case transition
    /// The 8-hour lifetime ran out ("auto-restart via `BGAppRefreshTask`").
    case restart
    /// "Task changes pushed immediately when user completes/skips/snoozes in-app".
    case taskChanged = "task_changed"
}

/// One thing the person says in a dump, types, or shares: `ref` is the person's own task id (the simulator's), stored
/// on the item and echoed in events so the simulator knows which of its tasks an item is; `action` the quick action
/// the AI detects (seed 001 §6 API Contract: Brain Dump Splitting "CALL|TEXT|EMAIL|null"; 🔗 for a shared URL);
/// `words` its length (a single thought of at most `capture.single_item_max_words` needs no AI call).
public struct Thought: Hashable, Sendable {
    public var ref: UInt64
    public var action: ActionType?
    public var words: Int
    public init(ref: UInt64, action: ActionType? = nil, words: Int = 4) {
        self.ref = ref
        self.action = action
        self.words = words
    }

    /// The thought as a card no AI saw (typed, or a single-item dump): seed 001 §4 Feature 6 "When AI splits a brain
    /// dump, it detects actionable items" — without the split, no call/text/email action (audit N13).
    public var withoutDetectedAction: Thought { Thought(ref: ref, action: nil, words: words) }
}

/// One card. Seed 001 §6 Data Model `NudgeItem` (`sourceType`, `status`, `snoozedUntil`, `createdAt`, `completedAt`,
/// `actionType`, `contactName`, `aiDraft`), plus what the rules need that the model lacks: the last touch (staleness,
/// inventory C6), the due time it resurfaced at (overdue, R18), the skip order (R14) and ingestion of shares (R12).
public struct NudgeItem: Hashable, Sendable {
    public var id: ItemID
    /// The person's task id (the thought's `ref`).
    public var ref: UInt64
    /// Further task refs a raw-text card holds when AI splitting failed (seed 001 §12 "Fallback to raw text as single
    /// card"); empty otherwise.
    public var otherRefs: [UInt64] = []
    public var source: ItemSource
    public var action: ActionType?
    public var status: ItemStatus
    public var createdAt: Instant
    /// max(created, resurfaced, edited): the stale clock's start (inventory C6, assumption).
    public var touchedAt: Instant
    /// When a snoozed item resurfaces; nil unless snoozed.
    public var snoozedUntil: Instant?
    /// The snoozedUntil it last resurfaced at: "due" today, overdue on a later local date (inventory R18, assumption).
    public var dueAt: Instant?
    public var completedAt: Instant?
    /// Set by a skip: skipped cards go to the end of the queue in skip order until 00:00 (inventory R14, assumption).
    public var skipSeq: Int?
    /// A phone number / contact is attached (seed 001 §4 Feature 6 "the number is saved to the card").
    public var hasContact = false
    /// The one AI draft of this card was requested (inventory R35 "1 per card", assumption).
    public var draftRequested = false
    /// The locked draft teaser was shown to a Free user for this card (once per card, inventory R40; only under
    /// `paywall.draft_teasers_per_day`).
    public var teaserShown = false
    /// `item_became_stale` was reported since the last touch.
    public var staleReported = false
    /// The last stale check-in nudge about this item (≤ 1 per item per `nudges.stale_hours`, inventory R26).
    public var lastStaleNudgeAt: Instant?
    /// A shared item is in the main app's store (false while it waits in the App Group: seed 001 §4 Feature 2 "main app
    /// ingests into SwiftData on next launch or via `NSNotification` if running").
    public var ingested = true

    /// True when `ref` is this item's or one it holds.
    public func holds(_ r: UInt64) -> Bool { ref == r || otherRefs.contains(r) }
}
