import RulesCore

/// The activation funnel E0–E9 (inventory §4, proposed: seed 003 states no funnel or targets), windows measured from
/// E0; a stage counts only when every earlier one was reached within its window.
public enum EarnedAccessFunnel: FunnelDefinition {
    static func stage(_ order: Int, _ id: String, _ name: String, _ event: String, _ window: TimeSpan?) -> FunnelStage {
        .fromStart("E0", order, id, name, event, window)
    }

    public static let stages: [FunnelStage] = [
        stage(1, "E0", "Installed, app opened", "app_opened", nil),
        stage(2, "E1", "Screen Time granted", "screen_time_authorization(result=granted)", .hours(24)),
        stage(3, "E2", "≥ 1 distracting app", "app_selected", .hours(24)),
        stage(4, "E3", "First mode scheduled", "mode_created", .hours(24)),
        stage(5, "E4", "Onboarding done", "onboarding_step_completed(step=home)", .hours(24)),
        stage(6, "E5", "First shield met", "shield_shown", .hours(72)),
        stage(7, "E6", "Came back through the gate", "unlock_gate_opened(source=last_blocked)", .hours(72)),
        stage(8, "E7", "First earned credit", "credits_earned(source≠bonus)", .days(7)),
        stage(9, "E8", "First earned unlock", "unlock_granted(method=CREDITS)", .days(7)),
        stage(10, "E9", "Streak of 3", "streak_qualified(length≥3)", .days(14)),
    ]

    /// The per-person funnel tracker.
    public typealias Tracker = StageFunnel<EarnedAccessFunnel>

    /// The stage an event marks (E0–E9, in the table's order).
    public static func stage(of e: EarnedAccessEvent, memory: inout NoFunnelMemory, firstAt: [Instant?]) -> Int? {
        switch e {
        case .appOpened: 0
        case .screenTimeAuthorization(.granted): 1
        case .appSelected: 2
        case .modeCreated: 3
        case .onboardingStepCompleted(.home): 4
        case .shieldShown: 5
        case .unlockGateOpened(_, .lastBlocked): 6
        case .creditsEarned(let s, let n) where s != .bonus && n > 0: 7
        case .unlockGranted(_, .credits, _, _): 8
        case .streakQualified(_, let n) where n >= 3: 9
        default: nil
        }
    }
}

/// Earned Access's product KPIs (inventory §4, proposed; seed 003 states no KPI or target, so every target is nil).
/// Each is labelled an assumption — Habitat's own definition — citing the seed section of the rule it measures.
public enum EarnedAccessKPIs {
    static func kpi(_ id: String, _ name: String, _ group: String, _ unit: String, _ population: String, _ window: String,
                    _ formula: String, _ section: String, windowDays: Int? = nil) -> KPIDefinition {
        // Seed 003 defines no KPI, funnel or target: each is Habitat's own definition (its formula in CONTRACT.md),
        // measuring the rule of the cited section (charter audit 2026-11-25 §3).
        KPIDefinition(id, unit: unit, name: name, group: group, population: population, window: window, formula: formula,
                      source: .assumption("seed 003 defines no KPI; Habitat's definition, measuring \(EarnedAccessEngine.seedFile) \(section)"),
                      windowDays: windowDays)
    }

    public static let definitions: [KPIDefinition] = [
        kpi("unlocks_per_day_credits", "Credit unlocks per day", "engagement", "count_per_day", "person-days with the product enforced",
            "per day_id", "count of unlock_granted(method=CREDITS) per day_id", "§6 Unlock methods"),
        kpi("unlocks_per_day_quest", "Quest unlocks per day", "engagement", "count_per_day", "person-days with the product enforced",
            "per day_id", "count of unlock_granted(method=QUEST) per day_id", "§6 Unlock methods"),
        kpi("unlocks_per_day_emergency", "Emergency unlocks per day", "engagement", "count_per_day", "person-days with the product enforced",
            "per day_id", "count of unlock_granted(method=EMERGENCY) per day_id", "§6 Unlock methods"),
        kpi("willpower_share", "Willpower share", "engagement", "fraction", "shields met", "whole run",
            "shields the person gave up at (closed, and did not go through the Unlock Gate) ÷ shield_shown (charter audit 2026-11-25: the "
                + "earlier text, no unlock_granted within 10 minutes, was not what was counted)", "§1 Product positioning"),
        kpi("credits_earned_per_day", "Credits earned per day", "focus_bank", "count_per_day", "person-days", "per day_id",
            "sum of credits_earned.amount per day_id", "§6 Credits (Focus Bank)"),
        kpi("credits_spent_per_day", "Credits spent per day", "focus_bank", "count_per_day", "person-days", "per day_id",
            "sum of credits_spent.amount per day_id", "§6 Credits (Focus Bank)"),
        kpi("credits_expired_per_day", "Credits expired at 04:00", "focus_bank", "count_per_day", "person-days", "per day_id",
            "sum of day_rolled_over.expired per day_id", "§6 Credits (Focus Bank)"),
        kpi("emergency_day_share", "Days with an emergency unlock", "guardrails", "fraction", "person-days with the product enforced",
            "per day_id", "share of day_ids with unlock_granted(method=EMERGENCY)", "§6 Unlock methods"),
        kpi("mean_streak_length", "Streak length", "behavioral_outcomes", "count", "all installs", "whole run",
            "mean of the longest streak_qualified.length per person", "§6 Streak"),
        kpi("streak_3_share", "Streak of 3 reached", "behavioral_outcomes", "fraction", "installs observed 15+ days", "first 14 days",
            "share with streak_qualified(length≥3) within 14 days of install", "§6 Streak", windowDays: 14),
        kpi("downgrades", "Downgrades to Free", "monetization", "count", "all installs", "whole run",
            "count of downgraded_to_free", "§5 Trial downgrade behavior (v1.2)"),
        kpi("trial_to_paid", "Trial → paid", "monetization", "fraction", "people who started a trial", "whole run",
            "share of trial_started followed by a subscription_purchase_completed", "§5 Purchase options (Pro)"),
        kpi("paywall_to_trial", "Paywall → trial", "monetization", "fraction", "people shown a paywall", "whole run",
            "share of people with paywall_shown who then trial_started", "§5 Best paywall / trial trigger moments"),
        kpi("annual_mix", "Annual mix", "monetization", "fraction", "paying subscribers", "whole run",
            "subscribers whose latest plan is annual / all subscribers", "§5 Purchase options (Pro)"),
        kpi("enforced_retention_d7", "Enforced retention D7", "retention", "fraction", "all installs", "day_id 7 after install",
            "share with authorization granted and ≥ 1 mode_started or shield_shown on day_id 7 (day_id 0 = the install's; the product enforcing something that day)", "§7 iOS enforcement architecture", windowDays: 7),
    ]
}
