import RulesCore

/// The activation funnel C0–C7 (inventory §4, proposed: the spec names no funnel and no KPI target), each stage a step
/// conversion from the one before, windows counted from C0. Activated = C7, lock cycles started on three distinct
/// local days within a week: the tracker remembers the days (`LockDays`).
public enum ClavisFunnel: FunnelDefinition {
    public typealias Memory = LockDays

    static func stage(_ order: Int, _ id: String, _ name: String, _ event: String, _ window: TimeSpan?) -> FunnelStage {
        .fromStart("C0", order, id, name, event, window)
    }

    public static let stages: [FunnelStage] = [
        stage(1, "C0", "App opened", "app_opened", nil),
        stage(2, "C1", "First mode created", "mode_created", .days(1)),
        stage(3, "C2", "Main key enrolled", "enrollment_completed(role=main)", .days(1)),
        stage(4, "C3", "Focus configured", "focus_setup_validated(ok=true)", .days(1)),
        stage(5, "C4", "Onboarding done", "onboarding_step_completed(step=complete)", .days(1)),
        stage(6, "C5", "First lock", "mode_locked", .days(2)),
        stage(7, "C6", "First unlock with the key", "mode_unlocked", .days(3)),
        stage(8, "C7", "Three lock cycles on three days", "mode_locked on a third distinct local day", .days(7)),
    ]

    public static var initialMemory: LockDays { LockDays() }

    /// The per-person funnel tracker.
    public typealias Tracker = StageFunnel<ClavisFunnel>

    /// The stage an event marks.
    public static func stage(of e: ClavisEvent, memory: inout LockDays, firstAt: [Instant?]) -> Int? {
        switch e {
        case .appOpened: return 0
        case .modeCreated: return 1
        case .enrolmentCompleted(_, .main, _, _, _): return 2
        case .focusConfigured(true): return 3
        case .onboardingStepCompleted(.complete): return 4
        case .modeLocked(_, _, let day):
            memory.insert(day)
            return memory.count >= 3 && firstAt[5] != nil ? 7 : 5
        case .modeUnlocked: return 6
        default: return nil
        }
    }
}

/// The distinct local days (since install) on which a lock cycle started, up to three.
public struct LockDays: Hashable, Sendable {
    public private(set) var days: [Int] = []
    public init() {}
    public var count: Int { days.count }
    mutating func insert(_ d: Int) { if days.count < 3 && !days.contains(d) { days.append(d) } }
}

/// Clavis's product KPIs (no money: the spec has no pricing). The spec sets no target (§11 Milestone 5's feedback focus
/// is qualitative); the definitions are the inventory's §4, restricted to what the engine's events show: it cannot tell
/// a genuine key from a look-alike, so false accepts and false rejects are the simulator's to measure.
public enum ClavisKPIs {
    static func kpi(_ id: String, _ name: String, _ group: String, _ unit: String, _ population: String, _ window: String,
                    _ formula: String, _ section: String, windowDays: Int? = nil) -> KPIDefinition {
        KPIDefinition(id, unit: unit, name: name, group: group, population: population, window: window, formula: formula,
                      source: .seed(file: ClavisEngine.seedFile, section: section), windowDays: windowDays)
    }

    public static let definitions: [KPIDefinition] = [
        kpi("lock_cycles_per_week", "Lock cycles started per person-week", "engagement", "count",
            "person-weeks with the product installed", "per 7 local days", "mode_locked ÷ person-weeks",
            "§5.5 \"lock cycle\"; §6.3 Lock Flow"),
        kpi("lock_cycle_hours", "Hours locked per completed cycle", "engagement", "hours",
            "completed lock cycles", "whole run", "mean mode_unlocked.locked_minutes ÷ 60", "§6.4 Unlock Flow"),
        kpi("temp_unlocks_per_cycle", "Temporary unlocks per lock cycle", "engagement", "count",
            "lock cycles", "whole run", "temp_unlock_started ÷ mode_locked", "§6.5 \"one use per lock cycle per key\""),
        kpi("scans_per_lock_cycle", "Verification scans per lock cycle", "scanning", "count",
            "lock cycles", "whole run", "scan_started ÷ mode_locked", "§6.3–§6.5 scan flows; §7 Verification Process"),
        kpi("scan_match_share", "Scans that ended in a match", "scanning", "fraction",
            "scans started", "whole run", "scan_matched ÷ (scan_matched + scan_abandoned)",
            "§7 Match Decision \"require match in 3 consecutive frames\""),
        kpi("frames_to_match", "Frames processed per matched scan", "scanning", "count",
            "matched scans", "whole run", "mean scan_matched.frames", "§7 Match Decision; §7 Requirements \"Fast verification (<1 second per frame)\""),
        kpi("enrollment_completion_share", "Enrolments that stored a key", "setup", "fraction",
            "enrolments started", "whole run", "enrollment_completed ÷ enrollment_started", "§7 Enrollment Completion"),
        kpi("bypass_share", "Lock cycles ended without the main key", "engagement", "fraction",
            "lock cycles", "whole run", "ways round the key taken at the lock (the Focus switched off outside the app, \"Delete my key\", the key replaced) ÷ mode_locked (the simulator's: the engine sees only the last two)",
            "§2 Non-Goals \"Strong anti‑tampering enforcement\"; §10 Risk 2 \"User Bypass\""),
        kpi("time_to_match_p50", "Median seconds to a match (the real key)", "scanning", "seconds",
            "matched scans of the real key", "whole run", "median of scan start → match, positioning included (the simulator's frame model)",
            "§7 Requirements \"Fast verification (<1 second per frame)\""),
        kpi("false_reject_share", "False rejects: scans of the real key that ended without a match", "scanning", "fraction",
            "scans of the real key", "whole run", "genuine scans abandoned ÷ genuine scans (the simulator's ground truth: the engine cannot tell)",
            "§7 Match Decision; §11 Milestone 5 \"Matching reliability\""),
        kpi("false_accept_share", "False accepts: look-alike scans that matched", "scanning", "fraction",
            "scans of a look-alike object", "whole run", "look-alike scans matched ÷ look-alike scans (the simulator's ground truth)",
            "§7 Match Decision \"to reduce false positives (balanced policy)\""),
        kpi("camera_seconds_per_day", "Camera (AR session) seconds per person-day", "battery", "seconds",
            "person-days with the product installed", "whole run", "AR seconds of scans and enrolments ÷ person-days",
            "§7 \"Throttle frame processing to avoid excessive CPU/battery usage\""),
        kpi("onboarding_stalled_share", "Installs that stalled in onboarding", "setup", "fraction",
            "installs", "whole run", "people who never finished onboarding ÷ installs", "§6.1 Onboarding Flow; §10 Risk 3"),
        kpi("locked_retention_d7", "Day-7 lock retention (a mode locked at some time that day)", "retention", "fraction",
            "installs observed past day 7", "local day 7 after install", "locked at some time on local day 7 ÷ installs",
            "§5.5 \"lock cycle\"", windowDays: 7),
        kpi("engaged_retention_d7", "Day-7 retention (app opened)", "retention", "fraction",
            "installs observed past day 7", "local day 7 after install", "app_opened on local day 7 ÷ installs",
            "§11 Milestone 5 \"Overall concept delight\"", windowDays: 7),
    ]
}
