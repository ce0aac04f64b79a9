import RulesCore

/// Everything a person, the OS or a due timer can do to the Lazuri engine (the thesis names no inputs; the inventory's
/// §3 proposal, thesis identifiers in the doc comments).
public enum LazuriInput: Hashable, Sendable, TimerDelivering {
    /// The app came to the foreground (§4.1.8 restore monitoring; §4.1.2 the permission is re-checked at every open;
    /// §5.6.1 Game Center authenticates at launch).
    case appOpened
    case appClosed
    /// A tab shown (§4.2). Learn shows the current card (`onAppear`, §5.3.3); Focus asks Screen Time when undetermined
    /// (§5.2).
    case tabOpened(LazuriTab)
    /// The answer to the Screen Time prompt, or a grant in Settings (§5.2 `requestAuthorization(for: .individual)`).
    case screenTimeAuthorization(granted: Bool)
    /// Screen Time permission withdrawn in Settings (§4.2.2 "or revokes permission from the system settings").
    case screenTimeRevoked
    /// The answer to the notification prompt (assumption: inventory P2).
    case notificationPermission(granted: Bool)
    /// Game Center's sign-in result (§5.6.1 `authenticateUser()`; optional, §4.1.9).
    case gameCenterAuth(signedIn: Bool)
    /// The picker saved (§5.2 `saveFamilyActivitySelection`).
    case setSelection(BlockSelection)
    /// "+" → Create Schedule (§4.2.2).
    case createSchedule(ScheduleSpec)
    case editSchedule(ScheduleID, ScheduleSpec)
    /// The toggle (§3.2 "enable/disable via toggle"; §5.2 `startMonitoring`).
    case setScheduleEnabled(ScheduleID, Bool)
    case deleteSchedule(ScheduleID)
    /// The person opens something in the selection (an app, an app of a selected category, a selected web domain).
    case blockedTargetOpened(BlockTarget)
    /// "I won't break my promise!" (§5.4.3 `.primaryButtonPressed`).
    case shieldPrimaryPressed
    /// The person leaves the shield by the home gesture, pressing nothing (assumption: the OS allows it).
    case shieldDismissed
    /// A swipe on the Learn tab (§4.1.3, §5.3.2).
    case swipe(Swipe)
    /// A tap on the card: its link opens in the browser (§4.2.1).
    case cardLinkTapped
    /// The category filter (§4.2.1 "'All' in the filter"; nil = All).
    case setCategoryFilter(CardCategory?)
    /// Save in the promise sheet with the text's length in characters after trimming whitespace (§5.4.1).
    case savePromise(characters: Int)
    /// A Game Center view opened from the Compete tab (§3.2).
    case gameCenterViewOpened(GameCenterView)
    /// A due timer.
    case timer(LazuriTimer)
}

/// A timer the engine arms: the next window start and the next window end of the schedules (§4.1.2 the monitor
/// "applies a shield … immediately when the scheduled period starts"), each re-validated when it fires (every window
/// edge due is applied lazily at the start of any call).
public typealias LazuriTimer = ArmedTimer<LazuriTimerKind>

/// What a Lazuri timer is for.
public enum LazuriTimerKind: Int, Hashable, Sendable, CaseIterable {
    /// The earliest window start among enabled schedules (DeviceActivity's `intervalDidStart`).
    case windowStart
    /// The earliest end of a window blocking now (`intervalDidEnd`).
    case windowEnd
    /// The adapter's slot for this kind, 0..<2.
    public var slotIndex: Int { rawValue }
}

/// Why an input was refused.
public enum LazuriRefusal: String, Hashable, Sendable {
    /// The window is shorter than `schedules.min_window_minutes` (§5.2 `DeviceActivityError.intervalTooShort`).
    case intervalTooShort = "interval_too_short"
    /// The schedule is active (§4.2.2 "Users won't be able to edit an active schedule").
    case editWhileActive = "edit_while_active"
    /// The selection is locked while a schedule is active (§3.2).
    case selectionLocked = "selection_locked"
    /// Enabling would exceed `schedules.max_enabled` (§6.1.2).
    case anotherActive = "another_active"
    /// `schedules.max_saved` schedules are saved already.
    case tooManySchedules = "too_many_schedules"
    /// No schedule with that id.
    case notFound = "not_found"
    /// The Focus features are hidden until Screen Time is granted (§3.2 "Hide/disable Focus features until permission is
    /// granted").
    case noScreenTime = "no_screen_time"
    /// Save is disabled while the trimmed text is empty (§5.4.1 Figure 24 `.disabled(… .isEmpty)`).
    case emptyPromise = "empty_promise"
    /// No shield showing to answer.
    case noShield = "no_shield"
    /// The Learn tab is not showing.
    case notOnLearn = "not_on_learn"
    /// The app is not in the foreground.
    case appNotOpen = "app_not_open"
    /// Game Center's views need a signed-in player (§5.6.2 "When a user is logged in (authenticated), the Compete
    /// interface shows a ButtonsGameCenterView").
    case notSignedIn = "not_signed_in"
}

/// The engine's answer to one input, with a reason code.
public enum LazuriDecision: Hashable, Sendable, OutcomeDecision {
    case ok
    /// An OS permission prompt is showing; the engine waits for the answer input.
    case permissionPrompt(PermissionKind)
    /// Screen Time is missing: the Focus tab shows the Settings instructions (§4.2.2, §4.4.6).
    case settingsInstructions
    case scheduleCreated(ScheduleID)
    /// The schedule is switched on; `blocking` when it went up inside its window at once.
    case scheduleEnabled(ScheduleID, blocking: Bool)
    /// Something changed (selection, edit, switch-off, delete, promise, filter, sign-in).
    case updated
    /// The shield is shown instead of the app (§5.4.2), with the promise or the placeholder.
    case shieldShown(BlockTarget, promise: Bool)
    /// Not blocked now: the app opens as the person meant.
    case notBlocked
    /// The shield closed the app (`.close`, §5.4.3); `noteToSelf` when the "Note to self:" notification was posted.
    case shieldClosed(noteToSelf: Bool)
    /// A card is showing; `isNew` when it was never seen (§5.3.3).
    case cardShown(CardID, isNew: Bool)
    /// The share sheet opened (§4.2.1).
    case shared(CardID)
    /// The card's link opened in the browser, leaving the app.
    case linkOpened(CardID)
    case refused(LazuriRefusal)
    /// A due timer did something.
    case timerHandled
    /// A timer that found nothing due.
    case staleTimer

    public var isRefusal: Bool { if case .refused = self { true } else { false } }
}

/// Device side effects, each priced by the simulator's energy model (inventory §6).
public enum LazuriEffect: Hashable, Sendable, EnergyPriced {
    /// A DeviceActivity monitor or shield-action extension run (window start/end, the shield's button).
    case monitorCallback
    /// A shield rendered over a blocked app.
    case shieldRender
    /// A local notification posted.
    case notification
    /// A `synchronize()`d write to the App Group defaults.
    case databaseWrite
    /// A Game Center request (authenticate, report an achievement, submit a score).
    case gameCenterRequest
    /// An OS permission prompt.
    case askPermission(PermissionKind)
    /// The share sheet or the browser (another app's energy).
    case systemSheet

    public var energyCharge: EnergyCharge {
        switch self {
        case .monitorCallback: EnergyCharge(.monitorCallback)
        case .shieldRender: EnergyCharge(.shieldRender)
        case .notification: EnergyCharge(.notification)
        case .databaseWrite: EnergyCharge(.databaseWrite)
        case .gameCenterRequest: EnergyCharge(.networkRequest)
        case .askPermission, .systemSheet: EnergyCharge(.foregroundSecond, 0)
        }
    }
}

/// Everything one input produced (the seam's standard buffer). Reuse one value with `handle(_:at:into:)`.
public typealias LazuriOutcome = StandardOutcome<LazuriDecision, LazuriEvent, LazuriEffect, LazuriTimer>
