import RulesCore

/// The activation funnel N0–N7 (inventory §4, proposed; only N6's D7 and N7's 4 % have seed numbers: seed 001 §11
/// Supporting Metrics "Day-7 retention 35%", "Free → Pro conversion 4%"), windows measured from N0.
///
/// N0–N5 are a chain of step conversions. N6 and N7 are the seed's shares of installs, so they stand apart from the
/// chain (issue 38, audit N4): N6 is the app opened on local day 7 since install over the installs observed past day
/// 7 — the definition of the KPI `app_retention_d7` — and N7 is a Pro purchase at any time over all installs, the
/// definition of `free_to_pro_conversion` (the inventory's "≤ day 30" would make the funnel and the KPI differ on
/// runs longer than 30 days); like the KPI it counts `subscription_started`, not a trial (the seed offers none).
public enum NudgeFunnel: FunnelDefinition {
    /// What the tracker remembers: a snooze or share was made, notifications were granted (N4 needs both).
    public struct Memory: Hashable, Sendable {
        public var snoozedOrShared = false
        public var notificationsGranted = false
    }
    public static var initialMemory: Memory { Memory() }

    static func stage(_ order: Int, _ id: String, _ name: String, _ event: String, _ window: TimeSpan?, target: Double? = nil,
                      shareOfInstalls basis: FunnelBasis? = nil) -> FunnelStage {
        .fromStart("N0", order, id, name, event, window, target: target, shareOfInstalls: basis)
    }

    public static let stages: [FunnelStage] = [
        stage(1, "N0", "First open", "app_opened", nil),
        stage(2, "N1", "Onboarding completed or skipped", "onboarding_completed | onboarding_skipped", .days(1)),
        stage(3, "N2", "First capture (any source)", "item_created", .days(2)),
        stage(4, "N3", "First item done", "item_done", .days(3)),
        stage(5, "N4", "First snooze or share with notifications granted", "item_snoozed | share_saved, and permission_result(notifications, granted)", .days(8)),
        stage(6, "N5", "First nudge acted on", "nudge_opened | nudge_action", .days(8)),
        stage(7, "N6", "Active on day 7 (Day-7 retention)", "app_opened(day=7)", nil, target: 0.35,
              shareOfInstalls: .installs(observedPastDay: 7)),
        stage(8, "N7", "Pro purchase (Free → Pro conversion)", "subscription_started", nil, target: 0.04,
              shareOfInstalls: .installs(observedPastDay: nil)),
    ]

    /// The per-person funnel tracker.
    public typealias Tracker = StageFunnel<NudgeFunnel>

    /// The stage an event marks.
    public static func stage(of e: NudgeEvent, memory m: inout Memory, firstAt: [Instant?]) -> Int? {
        switch e {
        case .appOpened(_, let day): return day == 7 ? 6 : 0
        case .onboardingCompleted, .onboardingSkipped: return 1
        case .itemCreated: return 2
        case .itemDone: return 3
        case .itemSnoozed, .shareSaved:
            m.snoozedOrShared = true
            return m.notificationsGranted ? 4 : nil
        case .permissionResult(.notifications, true):
            m.notificationsGranted = true
            return m.snoozedOrShared ? 4 : nil
        case .nudgeOpened, .nudgeAction: return 5
        case .subscriptionStarted: return 7
        default: return nil
        }
    }
}

/// Nudge's product KPIs (seed 001 §11 Success Metrics, targets Month 1 → Month 6 as the range; inventory §4
/// definitions). The adapter computes the values; Habitat's own figures (`cost_per_dau_day`, `gross_margin`) are
/// listed only to set or show their targets.
public enum NudgeKPIs {
    static func kpi(_ id: String, _ name: String, _ group: String, _ unit: String, _ min: Double?, _ max: Double?,
                    _ population: String, _ window: String, _ formula: String, _ section: String, windowDays: Int? = nil,
                    assumption: String? = nil) -> KPIDefinition {
        let source: ParameterSource = assumption.map { .assumption($0) } ?? .seed(file: NudgeEngine.seedFile, section: section)
        return KPIDefinition(id, unit: unit, targetMin: min, targetMax: max, name: name, group: group, population: population,
                             window: window, formula: formula, source: source, windowDays: windowDays)
    }

    /// How soon after a nudge is sent an open or an action counts as acted on: "within 10 minutes", the formula of
    /// `nudges_acted_share` (inventory §4 for seed 001 §11 "Actions taken from notifications | 10% of nudges").
    public static let actedWindow: TimeSpan = .minutes(10)

    /// The seed's other price of a split request: §4 Feature 1 Tech "~$0.001/dump" and §6 Stack "~$0.001 per brain
    /// dump", ten times more than §6 API Contract: Brain Dump Splitting's "Cost per dump: ~$0.00004" the engine books
    /// by default (audit N11). Reported beside the booked cost, never booked.
    public static let featurePricePerSplit = Money(usd: 0.001)
    /// The seed's other price of a draft request: §4 Feature 7 Cost "~$0.0001 per draft", against §6 API Contract:
    /// AI Draft Generation's "Cost per draft: ~$0.00003" (audit N11).
    public static let featurePricePerDraft = Money(usd: 0.0001)

    /// The AI cost of `splits` and `drafts` requests at the features' prices (`featurePricePerSplit`, `…PerDraft`).
    public static func costAtFeaturePrices(splits: Int, drafts: Int) -> Money {
        Money(micros: featurePricePerSplit.micros * Int64(splits) + featurePricePerDraft.micros * Int64(drafts))
    }

    public static let definitions: [KPIDefinition] = [
        kpi("north_star_dau_completing", "Share of DAU who complete ≥ 1 item", "north_star", "fraction", nil, nil,
            "person-days with the app opened", "per local day",
            "person-days with app_opened and ≥ 1 item_done ÷ person-days with app_opened (DAU-days)", "§11 North Star Metric"),
        kpi("items_done_per_dau", "Items completed per user per day", "engagement", "count_per_day", 3, 5,
            "person-days with the app opened", "per local day", "item_done ÷ person-days with app_opened", "§11 Supporting Metrics"),
        kpi("brain_dumps_per_dau", "Brain dumps per user per day", "engagement", "count_per_day", 1.5, 2.0,
            "person-days with the app opened", "per local day", "dumps made (brain_dump_completed of a dump made online + brain_dump_queued_offline; an offline dump's later brain_dump_completed is the same dump) ÷ person-days with app_opened",
            "§11 Supporting Metrics"),
        kpi("shares_per_wau", "Share-to-Nudge uses per week", "engagement", "count", 2, 5,
            "person-weeks with the app opened", "per week", "share_saved ÷ person-weeks with app_opened", "§11 Supporting Metrics"),
        kpi("drafts_sent_per_pro_week", "AI drafts sent (Pro users)", "engagement", "count", 3, 8,
            "Pro person-weeks", "per week", "draft_sent ÷ Pro person-weeks", "§11 Supporting Metrics"),
        kpi("nudges_acted_share", "Actions taken from notifications", "engagement", "fraction", 0.10, 0.25,
            "nudges sent", "whole run", "nudges followed by nudge_opened or nudge_action within 10 minutes (NudgeKPIs.actedWindow) ÷ nudge_sent",
            "§11 Supporting Metrics"),
        kpi("nudges_acted_share_any_delay", "Nudges acted on at any delay", "engagement", "fraction", nil, nil,
            "nudges sent", "whole run", "nudges followed by nudge_opened or nudge_action at any delay ÷ nudge_sent (Habitat's figure, beside the 10-minute KPI)",
            "§11 Supporting Metrics"),
        kpi("free_to_pro_conversion", "Free → Pro conversion", "monetization", "fraction", 0.04, 0.08,
            "all installs", "whole run", "people with subscription_started ÷ installs (§7 Revenue projections: 80 / 2,000 = 4%)",
            "§11 Supporting Metrics"),
        kpi("dau_mau", "DAU/MAU ratio (stickiness)", "engagement", "fraction", 0.30, 0.40,
            "installs", "per 30 days", "mean daily actives ÷ 30-day actives", "§11 Supporting Metrics"),
        kpi("app_retention_d7", "Day-7 retention (app opened)", "retention", "fraction", 0.35, 0.45,
            "installs observed past day 7", "local day 7 after install", "app_opened on local day 7 ÷ installs (share-only days do not count); Habitat's shared retention_d7 is the product in use",
            "§11 Supporting Metrics", windowDays: 7),
        kpi("app_retention_d30", "Day-30 retention (app opened)", "retention", "fraction", 0.15, 0.25,
            "installs observed past day 30", "local day 30 after install", "app_opened on local day 30 ÷ installs",
            "§11 Supporting Metrics", windowDays: 30),
        kpi("live_activity_opt_in", "Live Activity opt-in", "engagement", "fraction", 0.05, nil,
            "all installs", "whole run", "people with live_activity_enabled ÷ installs",
            "§14 Open Questions 12", assumption: "§14 Open Questions 12 \"If <5% of users enable Live Activity … deprioritize\" read as a floor of 5%"),
        KPIDefinition("cost_per_dau_day", unit: "usd", targetMax: 0.00018, name: "AI cost per DAU-day", group: "costs",
                      population: "person-days with the product in use", window: "whole run",
                      formula: "Σ service_cost ÷ person-days with the product in use (Habitat's figure)",
                      source: .assumption("§6 API Contracts \"~$0.18/day for 1,000 users\" read as a ceiling of $0.00018 per DAU-day (inventory §4, C22)")),
        KPIDefinition("cost_per_dau_day_at_feature_prices", unit: "usd", targetMax: 0.00018, name: "AI cost per DAU-day at the features' prices",
                      group: "costs", population: "person-days with the product in use", window: "whole run",
                      formula: "(split requests × $0.001 + draft requests × $0.0001) ÷ person-days with the product in use: "
                      + "the same requests as cost_per_dau_day at the seed's other price (audit N11)",
                      source: .seed(file: NudgeEngine.seedFile, section: "§4 Feature 1 Tech \"~$0.001/dump\", §6 Stack \"~$0.001 per brain dump\", "
                                    + "§4 Feature 7 Cost \"~$0.0001 per draft\"; the ceiling as cost_per_dau_day's")),
        KPIDefinition("gross_margin", unit: "ratio", name: "Gross margin", group: "monetization", window: "whole run",
                      formula: "(net − AI cost) ÷ net (Habitat's figure)",
                      source: .assumption("§7 states no margin; the AI cost is set against net revenue (inventory R36)")),
    ]
}
