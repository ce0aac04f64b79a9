import RulesCore

/// The activation funnel L0–L6 (inventory §5, proposed: the thesis measured no funnel, §6.2.2 "I will not be observing
/// or monitoring your usage"), each stage a step conversion from the one before, windows counted from L0. Activated =
/// L6, the first completed window.
public enum LazuriFunnel: FunnelDefinition {
    public typealias Memory = NoFunnelMemory

    static func stage(_ order: Int, _ id: String, _ name: String, _ event: String, _ window: TimeSpan?) -> FunnelStage {
        .fromStart("L0", order, id, name, event, window)
    }

    public static let stages: [FunnelStage] = [
        stage(1, "L0", "App opened", "app_opened", nil),
        stage(2, "L1", "Screen Time granted", "screentime_permission_result(granted=true)", .days(1)),
        stage(3, "L2", "Apps or categories selected", "selection_updated(n_apps + n_categories ≥ 1)", .days(1)),
        stage(4, "L3", "Schedule created", "schedule_created", .days(1)),
        stage(5, "L4", "Schedule enabled", "schedule_enabled", .days(1)),
        stage(6, "L5", "First block", "block_started", .days(2)),
        stage(7, "L6", "First completed window", "block_ended(outcome=completed)", .days(2)),
    ]

    /// The per-person funnel tracker.
    public typealias Tracker = StageFunnel<LazuriFunnel>

    /// The stage an event marks.
    public static func stage(of e: LazuriEvent, memory: inout NoFunnelMemory, firstAt: [Instant?]) -> Int? {
        switch e {
        case .appOpened: 0
        case .screenTimePermissionResult(true): 1
        case let .selectionUpdated(apps, categories, _) where apps + categories >= 1: 2
        case .scheduleCreated: 3
        case .scheduleEnabled: 4
        case .blockStarted: 5
        case .blockEnded(_, .completed, _): 6
        default: nil
        }
    }
}

/// Lazuri's product KPIs (no money: §4.3 "App is free with no in-app purchases"). The thesis sets no target: its user
/// study logged no usage (§6.2.2); the definitions are the inventory's §5.
public enum LazuriKPIs {
    static func kpi(_ id: String, _ name: String, _ group: String, _ unit: String, _ population: String, _ window: String,
                    _ formula: String, _ section: String, windowDays: Int? = nil) -> KPIDefinition {
        KPIDefinition(id, unit: unit, name: name, group: group, population: population, window: window, formula: formula,
                      source: .seed(file: LazuriEngine.seedFile, section: section), windowDays: windowDays)
    }

    public static let definitions: [KPIDefinition] = [
        kpi("focus_minutes_per_day", "Minutes that served you, per person-day", "engagement", "minutes",
            "person-days with the product installed", "per local day", "Σ focus_session_recorded.minutes ÷ person-days",
            "§4.3 \"Minutes that served you\"; §5.5.2 totalFocusMinutes"),
        kpi("blocked_attempts_per_day", "Blocked attempts per person-day", "engagement", "count_per_day",
            "person-days with the product installed", "per local day", "shield_shown ÷ person-days", "§5.4.2 the shield"),
        kpi("promise_kept_share", "Shields answered with \"I won't break my promise!\"", "engagement", "fraction",
            "shields shown", "whole run", "promise_kept_pressed ÷ shield_shown", "§5.4.3 Shield Button Actions"),
        kpi("windows_interrupted_share", "Windows switched off before their end", "engagement", "fraction",
            "windows blocked", "whole run", "block_ended(interrupted) ÷ block_started", "§4.2.4 \"choose when to start or stop it\""),
        kpi("unique_cards_per_person", "Unique flashcards viewed per person", "learning", "count",
            "all installs", "whole run", "final card_viewed.unique_total per person, averaged", "§3.2 \"Track unique views per card\""),
        kpi("leaderboard_score", "Leaderboard score per person", "compete", "count",
            "all installs", "whole run", "Σ achievement_unlocked.points per person, averaged (0 … 230)", "§4.1.4, §5.6.2 calculateTotalScore()"),
        kpi("engaged_retention_d7", "Day-7 retention (app opened)", "retention", "fraction",
            "installs observed past day 7", "local day 7 after install", "app_opened on local day 7 ÷ installs",
            "§6.2.3 \"Daily use intention: 8/8\"", windowDays: 7),
        kpi("protected_retention_d7", "Day-7 protection (a window completed)", "retention", "fraction",
            "installs observed past day 7", "local day 7 after install", "block_ended(completed) on local day 7 ÷ installs",
            "§4.2.2 \"the schedule will remain functional unless the toggle is deactivated\"", windowDays: 7),
        // What the thesis's own user study (§6.2, 8 people, a week) could observe, per run (`lazuri-user-study.yaml`
        // runs many replications of 8): the week kept, every checklist feature used, an achievement, onboarding stalled.
        kpi("week_kept_share", "Kept the app through day 7", "study", "fraction",
            "installs observed past day 7", "install day to local day 7", "installed at the end of local day 7 ÷ installs",
            "§6.2.2 \"independently over a week\"; §6.2.3 \"All feature checkmarks were completed\"", windowDays: 7),
        kpi("checklist_completed_share", "Used every checklist feature in the first week", "study", "fraction",
            "installs observed past day 7", "install day to local day 7",
            "installs that by day 7 granted Screen Time, selected apps, switched a schedule on, met a shield, completed a window, wrote a promise, read a card and opened Compete ÷ installs",
            "§6.2.3 \"All feature checkmarks were completed\"; App. 1–2 the checklist", windowDays: 7),
        kpi("achievement_week_share", "Reached an achievement in the first week", "study", "fraction",
            "installs observed past day 7", "install day to local day 7", "installs with an achievement_unlocked by day 7 ÷ installs",
            "§5.6.2 achievements; §6.2.4 \"Game Center/Dashboard (3)\"", windowDays: 7),
        kpi("onboarding_stalled_share", "Stalled before a schedule was on (no tutorial)", "study", "fraction",
            "all installs", "install", "installs that refused Screen Time or did not find the picker or the schedule ÷ installs",
            "§6.1.2 no onboarding; §6.2.4 \"Lack of onboarding tutorial (2)\""),
    ]
}
