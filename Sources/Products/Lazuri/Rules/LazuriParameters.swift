import RulesCore

/// What "active" means where the thesis locks editing (§3.2 "edit only when inactive"; "Lock the selection UI while any
/// schedule is active"; §4.2.2 "Users won't be able to edit an active schedule and the app selection").
public enum ActiveMeaning: String, Hashable, Sendable, CaseIterable {
    /// Toggled on (the prose's toggle, §3.2 "enable/disable via toggle"; inventory Q3): the default.
    case enabled
    /// Inside a blocking window now (DeviceActivity's own notion of an active interval, the code's `intervalDidStart`
    /// … `intervalDidEnd`, §5.2).
    case inWindow = "in_window"
}

/// What switching a schedule off (or deleting it) in the middle of its window does.
public enum MidWindowSwitchOff: String, Hashable, Sendable, CaseIterable {
    /// The prose (§4.2.4 "Users are never forced to block; instead, they can choose when to start or stop it"): the
    /// shield lifts at once and the window earns no minutes (inventory S8, Q4). The default.
    case lift
    /// The code's behaviour as far as the thesis shows it: monitoring stops (`stopMonitoring`) but nothing clears the
    /// `ManagedSettingsStore` shield, which the monitor extension only clears at `intervalDidEnd` (§5.2 "The
    /// DeviceActivityMonitor extension automatically applies the restrictions"); the shield stays until the window's
    /// scheduled end, and no session is recorded.
    case keepUntilEnd = "keep_until_end"
}

/// When the Screen Time permission is first asked.
public enum ScreenTimeAsk: String, Hashable, Sendable, CaseIterable {
    /// When the Focus tab is opened and the status is not determined (§4.1.2 "When users go to the Focus tab,
    /// Lazuri/System automatically asks them for Screen Time permission"; §5.2 "The app checks the authorisation status
    /// when users open the Focus tab"): the default, as the code does.
    case focusTab = "focus_tab"
    /// At the first launch (§3.2 "Request Screen Time permission on first launch"; §4.2.2 "When the user first installs
    /// the application").
    case firstLaunch = "first_launch"
}

/// Every rule parameter of the Lazuri engine (seed `002_80c8c6af1a4e5690.txt`, MSc thesis "Mobile App: Educate & Manage
/// Screen Time"), built from a complete set of `rules:` values. Numbers the thesis states cite its section; every
/// silent or self-contradicting spot is an `.assumption(...)`; where the thesis's code and its prose disagree the prose
/// is the default and the code's behaviour a value of the parameter (each marked "code:").
public struct LazuriParameters: Hashable, Sendable, EngineParameters {
    // MARK: Schedules (§3.2, §4.2.2, §5.2, §6.1.2)
    public var minWindowMinutes: Int
    public var maxEnabledSchedules: Int
    public var maxSavedSchedules: Int
    public var honourWeekdays: Bool
    public var activeMeaning: ActiveMeaning
    public var midWindowSwitchOff: MidWindowSwitchOff
    // MARK: Permissions (§4.1.2, §5.2)
    public var screenTimeAsk: ScreenTimeAsk
    public var askNotificationsAtFirstEnable: Bool
    // MARK: Shield and promise (§5.4)
    public var promiseMaxCharacters: Int
    // MARK: Focus time (§4.1.8, §5.5)
    public var duplicateWindowSeconds: Int
    // MARK: Flashcards (§4.1.3, §5.3)
    public var deckSize: Int
    public var wrapAtEnds: Bool
    // MARK: Achievements (§4.1.4, §5.6.2)
    /// Unique cards viewed that unlock each achievement, in tier order.
    public var achievementCards: [Int]
    /// Points each achievement is worth, in tier order.
    public var achievementPoints: [Int]

    /// The thesis's defaults.
    public static let defaults = LazuriParameters(values: ParameterValues(defaultsOf: catalogue))

    /// The achievement tiers' defaults (§4.1.4 "six thresholds for viewing 5, 10, 25, 50, 75, and 100 cards" … "(10, 15,
    /// 25, 40, 60, and 80 points)").
    public static let defaultAchievementCards = [5, 10, 25, 50, 75, 100]
    public static let defaultAchievementPoints = [10, 15, 25, 40, 60, 80]
    /// Largest deck the engine keeps a seen-bit for (fixed-size state).
    public static let maxDeckSize = 1024

    public init(values v: ParameterValues) {
        minWindowMinutes = v.int("schedules.min_window_minutes")
        maxEnabledSchedules = v.int("schedules.max_enabled")
        maxSavedSchedules = v.int("schedules.max_saved")
        honourWeekdays = v.bool("schedules.honour_weekdays")
        activeMeaning = ActiveMeaning(rawValue: v.text("schedules.active_means")) ?? .enabled
        midWindowSwitchOff = MidWindowSwitchOff(rawValue: v.text("schedules.switch_off_mid_window")) ?? .lift
        screenTimeAsk = ScreenTimeAsk(rawValue: v.text("permissions.screen_time_ask")) ?? .focusTab
        askNotificationsAtFirstEnable = v.bool("permissions.notifications_at_first_enable")
        promiseMaxCharacters = v.int("promise.max_characters")
        duplicateWindowSeconds = v.int("focus.duplicate_window_seconds")
        deckSize = v.int("cards.deck_size")
        wrapAtEnds = v.bool("cards.wrap_at_ends")
        achievementCards = (1...6).map { v.int("achievements.tier\($0).cards") }
        achievementPoints = (1...6).map { v.int("achievements.tier\($0).points") }
    }

    /// Every parameter under its `rules:` key path, with kind, default, summary and source.
    public static let catalogue: [RuleParameter] = {
        let file = LazuriEngine.seedFile
        func seed(_ s: String) -> ParameterSource { .seed(file: file, section: s) }
        func choice<C: RawRepresentable & CaseIterable>(_ key: String, _ d: C, _ summary: String, _ source: ParameterSource) -> RuleParameter
        where C.RawValue == String {
            RuleParameter(key, .choice(C.allCases.map(\.rawValue)), default: .text(d.rawValue), summary, source: source)
        }
        let int = RuleParameter.int, bool = RuleParameter.bool
        var list: [RuleParameter] = [
            int("schedules.min_window_minutes", 1...1440, 15, "shortest blocking window a schedule may have, minutes (by the thesis's duration formula; shorter is refused)",
                seed("§3.2 \"Minimum duration is 15 minutes (platform constraint)\"; §4.1.5; §5.2 Figure 17 `if duration < 15 { throw DeviceActivityError.intervalTooShort }`")),
            int("schedules.max_enabled", 1...10, 1, "schedules that may be toggled on at once; enabling one more is refused",
                seed("§6.1.2 \"Users can only have one schedule active at a time\" (against §3.2 \"Create multiple blocking schedules\": any number saved, one enabled; inventory Q2)")),
            int("schedules.max_saved", 1...50, 10, "schedules a person may keep saved",
                .assumption("the thesis sets no limit on saved schedules (§3.2 \"multiple\"); 10 keeps the engine's state small")),
            bool("schedules.honour_weekdays", true, "windows start only on the schedule's chosen days (false: every day, as the code does)",
                 .assumption("prose §4.2.2 \"The user can choose which days it will work\" vs code §5.2 Figure 17: `DeviceActivitySchedule` gets only hour and minute with `repeats: true` (\"iOS will handle the selected days automatically\"), which runs every day (inventory Q5); prose by default, code: false")),
            choice("schedules.active_means", ActiveMeaning.enabled, "what \"active\" means where editing a schedule and the selection is locked: toggled on, or inside a window now",
                   .assumption("§3.2 \"edit only when inactive\", \"Lock the selection UI while any schedule is active\", §4.2.2 \"Users won't be able to edit an active schedule and the app selection\" name no meaning; the toggle by default (inventory Q3), DeviceActivity's interval (code §5.2) as in_window")),
            choice("schedules.switch_off_mid_window", MidWindowSwitchOff.lift, "what switching a schedule off or deleting it inside its window does: the shield lifts at once, or stays until the window's end (no minutes either way)",
                   .assumption("prose §4.2.4 \"Users are never forced to block; instead, they can choose when to start or stop it\" (lift, the default; inventory S8, Q4) vs the code §5.2, where only the monitor's intervalDidEnd clears the shield (keep_until_end)")),
            choice("permissions.screen_time_ask", ScreenTimeAsk.focusTab, "when Screen Time permission is first asked: on opening the Focus tab, or at first launch",
                   .assumption("§4.1.2 and code §5.2 \"checks the authorisation status when users open the Focus tab\" vs §3.2 \"Request Screen Time permission on first launch\" (inventory Q6)")),
            bool("permissions.notifications_at_first_enable", true, "the notification permission is asked when a schedule is first switched on",
                 .assumption("the thesis never describes the notification prompt (App. 2 lists only \"Notification popula\"); its start and end notifications (§4.3) need it (inventory P2)")),
            int("promise.max_characters", 1...10_000, 900, "the promise is cut to this many characters",
                seed("§5.4.1 \"limits input to 900 characters by cutting off anything longer than that using String(newValue.prefix(900))\"; §4.2.3 \"up to about 900 characters\"")),
            int("focus.duplicate_window_seconds", 0...60, 1, "a focus session ending within this many seconds of the last one recorded is a duplicate and dropped",
                seed("§4.1.8 \"The system stops duplicate focus sessions by looking at timestamps in one-second windows\"")),
            int("cards.deck_size", 1...maxDeckSize, 100, "flashcards in the deck",
                seed("§4.1.3 \"In the learning tab there are 100 flashcards (there is no limit)\" (against \"3/25\" in §3.2 and \"two cards containing actual content\": inventory Q1)")),
            bool("cards.wrap_at_ends", true, "a swipe past the last card goes to the first (and back from the first to the last)",
                 .assumption("§4.1.3 and §5.3.2 Figure 52 (swipe left: next, right: previous) say nothing of the deck's ends (inventory L3): wrap round")),
        ]
        let ordinals = ["first", "second", "third", "fourth", "fifth", "sixth"]
        for k in 0..<6 {
            list.append(int("achievements.tier\(k + 1).cards", 1...maxDeckSize, defaultAchievementCards[k],
                            "unique cards viewed that unlock the \(ordinals[k]) achievement (com.emrekulaber.lazuri.cards\(defaultAchievementCards[k]))",
                            seed("§4.1.4 \"six thresholds for viewing 5, 10, 25, 50, 75, and 100 cards\"; §5.6.2 `flashcardThresholds`")))
            list.append(int("achievements.tier\(k + 1).points", 0...1000, defaultAchievementPoints[k],
                            "leaderboard points the \(ordinals[k]) achievement is worth",
                            seed("§4.1.4 \"all achievements have different point values assigned (10, 15, 25, 40, 60, and 80 points)\"; §5.6.2 `calculateTotalScore()`")))
        }
        return list
    }()
}
