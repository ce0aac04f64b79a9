import RulesCore

/// Everything a person, the OS or a due timer can do to the Nudge engine (inventory §3 Inputs).
public enum NudgeInput: Hashable, Sendable, TimerDelivering {
    /// Nudge came to the foreground: ingests pending shares (seed 001 §4 Feature 2), asks a pending notification
    /// permission (inventory C17), shows a pending share-limit paywall (R40) and the One-Thing card (§4 Feature 3).
    case appOpened(via: OpenVia)
    case appClosed
    /// Seed 001 §5 Screen 7 "Maximum 3 screens, skippable" → "Get started".
    case onboarding(panelsViewed: Int, skipped: Bool)
    /// Seed 001 §4 Feature 1: tap mic → speak `seconds` → cards. See `NudgeEngine.brainDump`.
    case brainDump(thoughts: [Thought], seconds: Int, online: Bool, splitFails: Bool)
    /// The network came or went; online splits the queued transcripts (§4 Feature 1 "split later").
    case connectivity(online: Bool)
    /// A typed card (inventory C11): unlimited, no AI.
    case addManual(Thought)
    /// Share → Nudge → preset (seed 001 §4 Feature 2, §5 Screen 6).
    case share(Thought, preset: SnoozePreset)
    /// Swipe right (seed 001 §4 Feature 3).
    case done(ItemID)
    /// Swipe down: "push to end of queue".
    case skip(ItemID)
    /// Swipe left and a preset (§5 Screen 5); also a new time for a snoozed item.
    case snooze(ItemID, SnoozePreset)
    /// "Let it go" (inventory R19): the item is dropped.
    case letGo(ItemID)
    /// The card's 📞/💬/📧/🔗 button (seed 001 §4 Feature 6).
    case actionTapped(ItemID)
    /// A contact chosen in the picker (seed 001 §4 Feature 6 "Contact lookup").
    case contactPicked(ItemID)
    /// "Users can also manually add a phone number or contact name to any card" (seed 001 §4 Feature 6): the card
    /// gets this 📞/💬/📧 action with its contact.
    case addContact(ItemID, ActionType)
    /// A Pro draft sent (edited or as drafted) / abandoned (seed 001 §4 Feature 7).
    case draftSent(ItemID, edited: Bool)
    case draftAbandoned(ItemID)
    /// A nudge notification answered (seed 001 §4 Feature 5): buttons are Pro-only (inventory C4); `open` taps the
    /// banner and opens the app (send no separate `appOpened`).
    case notificationReply(ItemID?, NudgeKind, NotificationReply)
    /// The OS's answer to a permission prompt (or a change in Settings).
    case permission(PermissionKind, granted: Bool)
    /// The answer to the one-time Live Activity prompt (seed 001 §4 Feature 4b).
    case liveActivityPrompt(enable: Bool)
    /// Settings "Live Activity on Lock Screen" (seed 001 §5 Screen 4).
    case setLiveActivity(Bool)
    /// "Can mute nudges for today" (seed 001 §4 Feature 5 User control).
    case muteNudgesToday
    /// "Can disable specific nudge types in settings".
    case setNudgeType(NudgeKind, on: Bool)
    /// The OS notification switch for Nudge.
    case setNotificationsAllowed(Bool)
    /// Settings "Upgrade to Pro" (seed 001 §5 Screen 4): shows the paywall (trigger `settings`).
    case upgradeTapped
    /// The paywall's answer: nil = not now; else buy (seed 001 §7 Pricing Model).
    case paywallResponse(NudgePlan?)
    case cancelAutoRenew
    /// A store refund of the last charge: Free at once (assumption).
    case refund
    /// A due timer.
    case timer(NudgeTimer)
}

/// A timer the engine arms. A small fixed set of kinds without payloads (the simulator keeps one pending timer per
/// kind); each is re-validated when it fires and the next one re-armed (lazy: every happening due is applied at the
/// start of any call, so a late or missing timer never leaves the state wrong).
public typealias NudgeTimer = ArmedTimer<NudgeTimerKind>

/// What a Nudge timer is for (`NudgeTimer.Kind`).
public enum NudgeTimerKind: Int, Hashable, Sendable, CaseIterable {
    /// Local midnight: daily counters reset (inventory R20).
    case dayRollover
    /// The earliest `snoozedUntil` among snoozed and shared items (seed 001 §4 Feature 3 Snooze, Feature 2).
    case resurface
    /// The earliest moment an active item turns stale (inventory C6).
    case staleCheck
    /// The Pro stale check-in (`nudges.stale_hour`).
    case staleNudge
    /// The Pro end-of-day prompt (`nudges.end_of_day_hour`).
    case endOfDayNudge
    /// The end of quiet hours: deferred nudges go out (inventory R27).
    case quietEnd
    /// The next Live Activity transition (06/09/13/17/20) or 8-hour restart (seed 001 §4 Feature 4b).
    case liveActivity
    /// The paid period (or trial) ends: renew or become Free.
    case periodEnd

    /// The adapter's slot for this kind, 0..<8.
    public var slotIndex: Int { rawValue }
}

/// Why an input was refused.
public enum NudgeRefusal: String, Hashable, Sendable {
    /// No item with that id.
    case notFound = "not_found"
    /// The item is not in a state the input applies to (done, dropped, or snoozed where it must be active).
    case notActive = "not_active"
    /// Microphone permission denied: no brain dump (seed 001 §5 Screen 7).
    case micDenied = "mic_denied"
    /// The card has no action (or not that one).
    case noAction = "no_action"
    /// A Pro feature on Free that is no paywall moment (notification buttons, drafts).
    case proOnly = "pro_only"
    case noSubscription = "no_subscription"
    case alreadySubscribed = "already_subscribed"
    /// Nothing to answer (no prompt or paywall showing).
    case nothingPending = "nothing_pending"
    /// No draft was made for this card.
    case noDraft = "no_draft"
}

/// The engine's answer to one input, with a reason code.
public enum NudgeDecision: Hashable, Sendable, OutcomeDecision {
    case ok
    /// The One-Thing card now showing (after `appOpened`).
    case cardShown(ItemID)
    /// "Your brain is clear. Go enjoy something." (seed 001 §4 Feature 3 Empty state).
    case allClear
    case dumpSaved(cards: Int)
    case dumpIgnoredEmpty
    case dumpQueuedOffline
    /// The Free day's dumps are used: refused at the mic tap, paywall shown.
    case dumpLimitHit
    /// An OS prompt is up; the engine waits for `.permission(kind, granted:)` (a dump waits for the microphone; a
    /// snooze is already done when it asks for notifications; an action waits for contacts).
    case needsPermission(PermissionKind)
    case shareSaved(ItemID)
    case shareLimitHit
    case itemAdded(ItemID)
    /// An item or a setting changed.
    case updated
    /// A quick action opened its app (`tel:`, compose, `mailto:`, `https:`); `draft` = prefilled with the AI draft.
    case actionOpened(ActionType, draft: Bool)
    /// The contact picker is showing for the item.
    case contactPickerShown(ItemID)
    case paywallShown(PaywallTrigger)
    case purchased(NudgePlan)
    case trialStarted(NudgePlan)
    /// The paywall dismissed ("not now").
    case declined
    case cancelled
    case refunded
    case refused(NudgeRefusal)
    /// A due timer did something.
    case timerHandled
    /// A timer that found nothing due (superseded or already applied).
    case staleTimer

    /// True for refusals (the request was not carried out).
    public var isRefusal: Bool {
        switch self {
        case .refused, .dumpLimitHit, .shareLimitHit: true
        default: false
        }
    }
}

/// Device side effects, each priced by the simulator's energy model (inventory §5).
public enum NudgeEffect: Hashable, Sendable, EnergyPriced {
    /// On-device speech recognition for a dump (seed 001 §4 Feature 1, §6 Stack `SFSpeechRecognizer`).
    case speech(seconds: Int)
    /// One AI request (split or draft).
    case aiRequest(AIRequestKind)
    /// A nudge notification posted.
    case notification
    /// The app woken in the background: a Live Activity transition or restart (`BGAppRefreshTask`), a "Tomorrow" or
    /// "Let it go" button (seed 001 §4 Feature 5 "runs silently in the background").
    case backgroundWake
    /// An in-app push of the Live Activity (a task change).
    case liveActivityPush
    /// Seconds of Nudge's own UI in the foreground (share ingest).
    case foreground(seconds: Int)
    /// A batch of database writes.
    case databaseWrite
    /// An OS permission prompt.
    case askPermission(PermissionKind)
    /// The native app a quick action opens (dialer, compose sheet, Mail, Safari); not Nudge's energy.
    case openURL(ActionType)
    /// The native contact picker.
    case contactPicker

    public var energyCharge: EnergyCharge {
        switch self {
        case .speech(let s): EnergyCharge(.speechSecond, Double(s))
        case .aiRequest: EnergyCharge(.networkRequest)
        case .notification: EnergyCharge(.notification)
        case .backgroundWake: EnergyCharge(.backgroundWake)
        case .liveActivityPush, .databaseWrite: EnergyCharge(.databaseWrite)
        case .foreground(let s): EnergyCharge(.foregroundSecond, Double(s))
        case .askPermission, .openURL, .contactPicker: EnergyCharge(.foregroundSecond, 0)
        }
    }
}

/// What an AI request is for (ledger `productID` `nudge.ai.split` / `nudge.ai.draft`).
public enum AIRequestKind: String, Hashable, Sendable {
    case split, draft
    public var productID: String { "nudge.ai.\(rawValue)" }
}

/// Everything one input produced (the seam's standard buffer). Reuse one value with `handle(_:at:into:)`.
public typealias NudgeOutcome = StandardOutcome<NudgeDecision, NudgeEvent, NudgeEffect, NudgeTimer>
