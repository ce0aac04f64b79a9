import Simulation
import Reports
import RulesCore
import ScrollOffRules
import Stochastics

/// What Scroll Off's reports count, per person and (summed) per run.
public enum ScrollOffCount: Int, CounterKey {
    case shields, willpowerWins, shieldsOnActiveDays, intentions, urgesForBlockedApps
    // Per-person flags (0 or 1), summed to counts of people.
    case streak7Within14Days, warrior30Within45Days, insightWithin7Days, sawSelfEfficacyMessage, paidWithin14Days
    case annualSubscribers, reachedA1, a1Revoked
    // Retention's two readings (audit D2): the product in use (the charter ids) and the app opened.
    case d1Active, d1Eligible, d7ActivesActive, d7ActivesEligible, d30PaidActive, d30PaidEligible
    case d1Opened, d7ActivesOpened, d30PaidOpened
    /// People observed long enough for a windowed KPI (audit 2026-11-25 E9): 15, 46, 8 and 15 local days.
    case streak7Eligible, warrior30Eligible, insightEligible, paid14Eligible

    /// Flags count people; a flag "within N days" only a person observed the window (`flag(_:withinWindowObserved:eligible:)`),
    /// a retention reading only an eligible person.
    public var bound: CounterBound<ScrollOffCount> {
        switch self {
        case .shields, .willpowerWins, .shieldsOnActiveDays, .intentions, .urgesForBlockedApps: .perPersonDay
        case .streak7Within14Days: .atMost(.streak7Eligible)
        case .warrior30Within45Days: .atMost(.warrior30Eligible)
        case .insightWithin7Days: .atMost(.insightEligible)
        case .paidWithin14Days: .atMost(.paid14Eligible)
        case .a1Revoked: .atMost(.reachedA1)
        case .d1Active, .d1Opened: .atMost(.d1Eligible)
        case .d7ActivesActive, .d7ActivesOpened: .atMost(.d7ActivesEligible)
        case .d30PaidActive, .d30PaidOpened: .atMost(.d30PaidEligible)
        default: .people
        }
    }
}

/// One person's Scroll Off figures.
public struct ScrollOffTally: Sendable {
    public var counts = Counters<ScrollOffCount>()
    /// The app's own time-saved estimate per day with the product in use (minutes).
    public var appMinutesSavedPerActiveDay: [Double] = []
    /// Per-person facts the retention figures need at the end of the life.
    public var reachedA2 = false, subscribedAtDay30 = false, revokedAuthorization = false, latestPlanAnnual = false
    public init() {}
}

/// Scroll Off's figures over many people and its §8.3 KPIs.
public struct ScrollOffMetrics: ProductMetrics {
    public var counts = Counters<ScrollOffCount>()
    public var appSavedPerActiveDay = LogHistogram()

    public init() {}

    public mutating func add(_ t: ScrollOffTally) {
        counts.merge(t.counts)
        for v in t.appMinutesSavedPerActiveDay { appSavedPerActiveDay.add(v) }
    }

    public mutating func merge(_ o: ScrollOffMetrics) {
        counts.merge(o.counts)
        appSavedPerActiveDay.merge(o.appSavedPerActiveDay)
    }

    public func validate(_ b: AccumulatorBounds, at path: String) throws(AccumulatorInvalid) {
        try counts.validate(b, at: "\(path).counts")
        try appSavedPerActiveDay.validate(b, at: "\(path).app_saved_per_active_day")
    }

    /// Seed 000 §8.3, each KPI's value by id (its definition is in `ScrollOffKPIs.definitions`).
    public func kpiValues(_ run: RunFigures) -> [(KPIDefinition, Double)] {
        let common = run.common
        let c = counts
        let people = common[.people]
        let values: [String: Double] = [
            "d1_retention": c.ratio(.d1Active, .d1Eligible),
            "d7_retention_actives": c.ratio(.d7ActivesActive, .d7ActivesEligible),
            "d30_retention_paid": c.ratio(.d30PaidActive, .d30PaidEligible),
            "d1_retention_app_opened": c.ratio(.d1Opened, .d1Eligible),
            "d7_retention_actives_app_opened": c.ratio(.d7ActivesOpened, .d7ActivesEligible),
            "d30_retention_paid_app_opened": c.ratio(.d30PaidOpened, .d30PaidEligible),
            "median_time_saved_per_day": appSavedPerActiveDay.quantile(0.5) ?? .nan,
            "shields_per_day": Counters<ScrollOffCount>.ratio(c[.shieldsOnActiveDays], common[.inUseDays]),
            "willpower_win_share": c.ratio(.willpowerWins, .shields),
            "intentions_per_user": Counters<ScrollOffCount>.ratio(c[.intentions], people),
            "streak_7_share": c.ratio(.streak7Within14Days, .streak7Eligible),
            "milestone_30_share": c.ratio(.warrior30Within45Days, .warrior30Eligible),
            "pattern_insight_engagement": c.ratio(.insightWithin7Days, .insightEligible),
            "self_efficacy_views": Counters<ScrollOffCount>.ratio(c[.sawSelfEfficacyMessage], people),
            "free_to_paid_14d": c.ratio(.paidWithin14Days, .paid14Eligible),
            "annual_mix": Counters<ScrollOffCount>.ratio(c[.annualSubscribers], common[.subscribers]),
            "token_revenue_share": run.consumables.total.consumableShare ?? .nan,
            "authorization_retention": c[.reachedA1] > 0 ? 1 - c.ratio(.a1Revoked, .reachedA1) : .nan,
        ]
        return ScrollOffKPIs.definitions.map { d in
            guard let v = values[d.id] else { preconditionFailure("Scroll Off KPI \(d.id) has no value") }
            return (d, v)
        }
    }
}
