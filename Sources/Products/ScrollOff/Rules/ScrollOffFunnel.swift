import RulesCore

/// The activation funnel A0–A7 of seed 000 §8.2, computed from a user's event stream exactly as the product
/// team would: a stage is reached when its event occurs within its window of its anchor stage and every earlier
/// stage was reached (events need not be in stage order: the charter's own onboarding puts plans before permission).
public enum ScrollOffFunnel: FunnelDefinition {
    /// Seed 000 §8.2 stages, windows and targets. "Target conversion rates (Day 1 for actives)": A1–A4 within
    /// 24 h of install (A0); "A4 → A5 (within 24 hours)"; "A5 → A6 (within 7 days)"; "A6 → A7 (within 30 days)".
    public static let stages: [FunnelStage] = [
        FunnelStage(order: 1, id: "A0", name: "App opened", event: "app_opened", windowAnchor: nil, window: nil, targetMin: nil, targetMax: nil),
        FunnelStage(order: 2, id: "A1", name: "Permissions granted", event: "reliability_check_pass(component=screentime_authorization)",
                    windowAnchor: "A0", window: .hours(24), targetMin: 0.75, targetMax: nil),
        FunnelStage(order: 3, id: "A1.5", name: "Implementation intention created", event: "if_then_plan_created",
                    windowAnchor: "A0", window: .hours(24), targetMin: 0.65, targetMax: nil),
        FunnelStage(order: 4, id: "A2", name: "≥1 app blocked", event: "app_blocked", windowAnchor: "A0", window: .hours(24), targetMin: 0.85, targetMax: nil),
        FunnelStage(order: 5, id: "A3", name: "First shield shown", event: "shield_shown", windowAnchor: "A0", window: .hours(24), targetMin: 0.90, targetMax: nil),
        FunnelStage(order: 6, id: "A3.5", name: "Shield dismissed without spending", event: "shield_dismissed_no_spend (a willpower win; not shield_abandoned)",
                    windowAnchor: "A0", window: .hours(24), targetMin: 0.50, targetMax: nil),
        FunnelStage(order: 7, id: "A4", name: "First spend (≥30 s of credits)", event: "spend_tick (cumulative seconds_spent ≥ 30)",
                    windowAnchor: "A0", window: .hours(24), targetMin: 0.40, targetMax: 0.50),
        FunnelStage(order: 8, id: "A5", name: "First earn", event: "earn_award (wallet_id ≠ starter_credit, seconds > 0)",
                    windowAnchor: "A4", window: .hours(24), targetMin: 0.30, targetMax: nil),
        // §8.2 A6 "user saw their 7-day trend/peak hours".
        FunnelStage(order: 9, id: "A6", name: "Pattern insight viewed", event: "pattern_insight_shown (insight_type ∈ {trend_7_day, peak_hours})",
                    windowAnchor: "A5", window: .days(7), targetMin: 0.40, targetMax: nil),
        FunnelStage(order: 10, id: "A7", name: "Milestone unlocked", event: "milestone_unlocked", windowAnchor: "A6", window: .days(30), targetMin: 0.20, targetMax: nil),
    ]

    /// Seed 000 §8.2 A4: "used credits for ≥ 30s".
    public static let firstSpendThreshold = TimeSpan(milliseconds: 30_000)

    /// The per-user funnel tracker: feed every event with its instant, then ask `reached`.
    public typealias Tracker = StageFunnel<ScrollOffFunnel>

    /// The credit spent so far, for A4's "≥ 30s" (§8.2).
    public static var initialMemory: TimeSpan { .zero }

    /// The stage an event marks: A0 an open, A1 authorization, A1.5 a plan, A2 a block, A3 a shield, A3.5 a shield
    /// dismissed without spending, A4 30 s of credit spent in all, A5 a first earned award (not the starter credit),
    /// A6 a 7-day trend or peak-hours insight, A7 a milestone.
    public static func stage(of e: ScrollOffEvent, memory spent: inout TimeSpan, firstAt: [Instant?]) -> Int? {
        switch e {
        case .appOpened: return 0
        case .reliabilityCheckPass(.screenTimeAuthorization): return 1
        case .ifThenPlanCreated: return 2
        case .appBlocked: return 3
        case .shieldShown: return 4
        case .shieldDismissedNoSpend: return 5
        case .spendTick(let s, _, _):
            guard firstAt[6] == nil else { return nil }
            spent += s
            return spent >= ScrollOffFunnel.firstSpendThreshold ? 6 : nil
        case let .earnAward(a, w, _):
            return w != .starterCredit && a > .zero ? 7 : nil
        case .patternInsightShown(let t):
            return t == .trend7Day || t == .peakHours ? 8 : nil
        case .milestoneUnlocked: return 9
        default: return nil
        }
    }
}

/// Seed 000 §8.3 north-star KPIs.
public enum ScrollOffKPIs {
    /// One §8.3 KPI, in the charter's order of words.
    static func kpi(id: String, name: String, group: String, unit: String, population: String, window: String, formula: String,
                    targetMin: Double?, targetMax: Double?, windowDays: Int? = nil) -> KPIDefinition {
        KPIDefinition(id, unit: unit, targetMin: targetMin, targetMax: targetMax, name: name, group: group, population: population,
                      window: window, formula: formula, source: .seed(file: ScrollOffEngine.seedFile, section: "§8.3"), windowDays: windowDays)
    }

    /// A local day with the product in use (`ScrollOffEvent.marksProductInUse`), the reading of "active" in the
    /// retention, shields-per-day and time-saved KPIs.
    static let productInUseDay = "a local day with ≥1 shield_shown, spend_tick (seconds_spent > 0), earn_award (wallet_id ≠ starter_credit, "
        + "seconds > 0) or app_opened"

    /// Seed 000 §8.3 in the charter's order, except that each charter retention KPI comes in two readings.
    ///
    /// The charter ids `d1_retention`, `d7_retention_actives`, `d30_retention_paid` read "return" / "still using" as
    /// the **product in use** (`productInUseDay`): for a blocker the shield is the main surface — the user meets it
    /// every time they reach for a blocked app, and earns while they stay away — so a day with a shield met, credits
    /// spent or an earn award is a day the product is used even if Scroll Off itself was never opened (§8.3 "still
    /// using after 1 week"; audit 2026-11 D2). The `_app_opened` ids keep the narrower reading (Scroll Off itself
    /// opened) for comparison; they carry no targets, because the charter's targets belong to its own KPIs and one
    /// target on two readings would be judged twice.
    public static let definitions: [KPIDefinition] = [
        kpi(id: "d1_retention", name: "D1 retention (all users)", group: "retention", unit: "fraction", population: "all installs",
            window: "local day 1 after install", formula: "share with the product in use on local day 1 (\(productInUseDay))", targetMin: 0.55, targetMax: nil, windowDays: 1),
        kpi(id: "d7_retention_actives", name: "D7 retention (actives)", group: "retention", unit: "fraction", population: "users who reached A2",
            window: "local day 7 after install", formula: "share with the product in use on local day 7 (\(productInUseDay))", targetMin: 0.40, targetMax: nil, windowDays: 7),
        kpi(id: "d30_retention_paid", name: "D30 retention (Premium/Pro)", group: "retention", unit: "fraction",
            population: "users with a subscription at day 30", window: "local day 30 after install",
            formula: "share with the product in use on local day 30 (\(productInUseDay))", targetMin: 0.30, targetMax: nil, windowDays: 30),
        kpi(id: "d1_retention_app_opened", name: "D1 retention (all users), app opened", group: "retention", unit: "fraction", population: "all installs",
            window: "local day 1 after install", formula: "share with app_opened on local day 1", targetMin: nil, targetMax: nil, windowDays: 1),
        kpi(id: "d7_retention_actives_app_opened", name: "D7 retention (actives), app opened", group: "retention", unit: "fraction",
            population: "users who reached A2", window: "local day 7 after install", formula: "share with app_opened on local day 7",
            targetMin: nil, targetMax: nil, windowDays: 7),
        kpi(id: "d30_retention_paid_app_opened", name: "D30 retention (Premium/Pro), app opened", group: "retention", unit: "fraction",
            population: "users with a subscription at day 30", window: "local day 30 after install", formula: "share with app_opened on local day 30",
            targetMin: nil, targetMax: nil, windowDays: 30),
        kpi(id: "median_time_saved_per_day", name: "Median time saved per day (actives)", group: "engagement", unit: "minutes",
            population: "person-days with the product in use", window: "per local day",
            formula: "median over product-in-use days of the app's time saved that day (insights.time_saved_method: usage_baseline = "
                + "last week's daily use of the blocked apps − today's credits spent, peeks and token unlocks, at least 0; per_resisted_urge = "
                + "count(shield_dismissed_no_spend) × insights.minutes_saved_per_resisted_urge); the simulator's true time saved against "
                + "the person's intended use is true_time_saved_per_day_median",
            targetMin: 45, targetMax: nil),
        kpi(id: "shields_per_day", name: "Shields encountered per day", group: "engagement", unit: "count_per_day",
            population: "person-days with the product in use", window: "per local day",
            formula: "count of shield_shown (on opening a blocked app or returning when access runs out) per product-in-use day", targetMin: 8, targetMax: 15),
        kpi(id: "willpower_win_share", name: "Willpower wins (dismiss without spending)", group: "engagement", unit: "fraction",
                      population: "shield encounters", window: "whole run", formula: "shield_dismissed_no_spend / shield_shown (shields left by backgrounding or another app, or closed after a refusal, are shield_abandoned: not wins)", targetMin: 0.30, targetMax: nil),
        kpi(id: "intentions_per_user", name: "Implementation intentions created", group: "engagement", unit: "count", population: "all installs",
                      window: "whole run", formula: "mean count of if_then_plan_created per user", targetMin: 2.5, targetMax: nil),
        kpi(id: "streak_7_share", name: "7-day streak achievement", group: "behavioral_outcomes", unit: "fraction", population: "installs observed 15+ days",
                      window: "first 14 days", formula: "share with milestone_unlocked(streak_7_day) within 14 days of install", targetMin: 0.25, targetMax: nil, windowDays: 14),
        kpi(id: "milestone_30_share", name: "30-day milestone", group: "behavioral_outcomes", unit: "fraction", population: "installs observed 46+ days",
                      window: "first 45 days", formula: "share with milestone_unlocked(warrior_30_day) within 45 days of install", targetMin: 0.10, targetMax: nil, windowDays: 45),
        kpi(id: "pattern_insight_engagement", name: "Pattern insight engagement", group: "behavioral_outcomes", unit: "fraction", population: "installs observed 8+ days",
                      window: "first 7 days", formula: "share with pattern_insight_shown(insight_type=trend_7_day) within 7 days of install (§8.3 \"tap on trend card\")", targetMin: 0.40, targetMax: nil, windowDays: 7),
        kpi(id: "self_efficacy_views", name: "Self-efficacy message views", group: "behavioral_outcomes", unit: "fraction", population: "all installs",
                      window: "whole run", formula: "share with ≥1 self_efficacy_message_shown", targetMin: 0.80, targetMax: nil),
        kpi(id: "free_to_paid_14d", name: "Free → paid conversion", group: "monetization", unit: "fraction", population: "installs observed 15+ days",
                      window: "first 14 days", formula: "share with subscription_purchase_completed within 14 days of install", targetMin: 0.05, targetMax: 0.08, windowDays: 14),
        kpi(id: "annual_mix", name: "Annual subscription mix", group: "monetization", unit: "fraction", population: "Premium/Pro subscribers",
                      window: "whole run", formula: "subscribers whose latest plan is annual / all subscribers", targetMin: 0.50, targetMax: nil),
        kpi(id: "token_revenue_share", name: "Bypass token revenue", group: "monetization", unit: "fraction", population: "all revenue",
                      window: "per month and total", formula: "consumable_purchase gross / all gross (ledger)", targetMin: nil, targetMax: 0.20),
        kpi(id: "authorization_retention", name: "Authorization retention", group: "product_integrity", unit: "fraction",
                      population: "users who reached A1", window: "whole run", formula: "1 − share with authorization_revoked", targetMin: 0.92, targetMax: nil),
    ]
}
