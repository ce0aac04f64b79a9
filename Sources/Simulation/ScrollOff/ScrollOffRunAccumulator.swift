import RulesCore
import Reports
import ScrollOffRules
import Stochastics

/// Everything the reports of one arm and replication need, folded from people in id order (Mergeable, so the
/// person-parallel runner gives bit-identical results for any thread count).
public struct ScrollOffRunAccumulator: Mergeable, Sendable {
    public var funnel = FunnelAccumulator(stageCount: ScrollOffFunnel.stages.count)
    public var retention: RetentionAccumulator
    public var tokens = TokenShareAccumulator()
    public var revenue = RevenueAccumulator()
    public var battery = BatteryBudgetAccumulator(budgets: .scrollOff)
    public var forecast = ForecastAccumulator()
    public var appSavedPerActiveDay = LogHistogram()
    public var trueSavedPerDay = LogHistogram()
    public var people = 0, personDays = 0, events = 0
    public var pickups = 0, sessions = 0, sessionsUnder30s = 0, notificationSessions = 0
    public var activeDays = 0, shieldsOnActiveDays = 0, shields = 0, willpowerWins = 0, intentions = 0
    public var d1Active = 0, d1Eligible = 0, d7ActivesActive = 0, d7ActivesEligible = 0, d30PaidActive = 0, d30PaidEligible = 0
    public var streak7 = 0, warrior30 = 0, insight7 = 0, efficacyViewers = 0, paid14 = 0
    public var subscribers = 0, annualSubscribers = 0, a1Reachers = 0, a1Revoked = 0
    public var mrrAtEnd = Money.zero
    public var churned: [String: Int] = [:]
    /// The invariant violation of the lowest person id, if any person's life broke one.
    public var violation: InvariantViolation?

    public init(horizonDays: Int) { retention = RetentionAccumulator(maxDay: horizonDays) }

    /// Folds one person's outcome in.
    public mutating func add(_ o: ScrollOffPersonOutcome) {
        people += 1
        personDays += o.personDays
        events += o.eventsSimulated
        funnel.add(reachedStages: o.funnel.reached)
        retention.add(cohort: o.cohort, segments: [o.persona, o.planSegment], observedDays: o.observedDays, activeDays: o.activeDays)
        for (month, m) in o.tokenMonths.sorted(by: { $0.key < $1.key }) {
            tokens.add(month: month, tokenGross: m.tokens, subscriptionGross: m.subscriptions, tokensSold: m.sold, capHits: m.capHits)
        }
        revenue.add(o.revenue)
        forecast.add(o.months)
        keepFirstViolation(o.violation)
        for d in o.batteryDays { battery.add(d.day, deviceID: d.device) }
        battery.addEnergy(o.energyByActivity)
        for v in o.appMinutesSavedPerActiveDay { appSavedPerActiveDay.add(v) }
        for v in o.trueMinutesSavedPerDay { trueSavedPerDay.add(v) }
        pickups += o.pickups
        sessions += o.sessions
        sessionsUnder30s += o.sessionsUnder30s
        notificationSessions += o.notificationSessions
        activeDays += o.activeDays.count
        shieldsOnActiveDays += o.shieldsOnActiveDays
        shields += o.shields
        willpowerWins += o.willpowerWins
        intentions += o.intentions
        let active = o.activeDays   // ascending day indices, a few dozen at most
        if o.observedDays > 1 { d1Eligible += 1; if active.contains(1) { d1Active += 1 } }
        if o.observedDays > 7, o.reachedA2 { d7ActivesEligible += 1; if active.contains(7) { d7ActivesActive += 1 } }
        if o.observedDays > 30, o.subscribedAtDay30 { d30PaidEligible += 1; if active.contains(30) { d30PaidActive += 1 } }
        if o.streak7Within14Days { streak7 += 1 }
        if o.warrior30Within45Days { warrior30 += 1 }
        if o.insightWithin7Days { insight7 += 1 }
        if o.sawSelfEfficacyMessage { efficacyViewers += 1 }
        if o.paidWithin14Days { paid14 += 1 }
        if o.everSubscribed { subscribers += 1; if o.latestPlanAnnual { annualSubscribers += 1 } }
        if o.reachedA1 { a1Reachers += 1; if o.revokedAuthorization { a1Revoked += 1 } }
        mrrAtEnd += o.mrrAtEnd
        if let c = o.churn { churned[c, default: 0] += 1 }
    }

    public mutating func merge(_ o: ScrollOffRunAccumulator) {
        funnel.merge(o.funnel); retention.merge(o.retention); tokens.merge(o.tokens); revenue.merge(o.revenue)
        keepFirstViolation(o.violation)
        battery.merge(o.battery); forecast.merge(o.forecast); appSavedPerActiveDay.merge(o.appSavedPerActiveDay); trueSavedPerDay.merge(o.trueSavedPerDay)
        people += o.people; personDays += o.personDays; events += o.events
        pickups += o.pickups; sessions += o.sessions; sessionsUnder30s += o.sessionsUnder30s; notificationSessions += o.notificationSessions
        activeDays += o.activeDays; shieldsOnActiveDays += o.shieldsOnActiveDays; shields += o.shields
        willpowerWins += o.willpowerWins; intentions += o.intentions
        d1Active += o.d1Active; d1Eligible += o.d1Eligible; d7ActivesActive += o.d7ActivesActive; d7ActivesEligible += o.d7ActivesEligible
        d30PaidActive += o.d30PaidActive; d30PaidEligible += o.d30PaidEligible
        streak7 += o.streak7; warrior30 += o.warrior30; insight7 += o.insight7; efficacyViewers += o.efficacyViewers; paid14 += o.paid14
        subscribers += o.subscribers; annualSubscribers += o.annualSubscribers; a1Reachers += o.a1Reachers; a1Revoked += o.a1Revoked
        mrrAtEnd += o.mrrAtEnd
        for (k, v) in o.churned { churned[k, default: 0] += v }
    }

    /// Keeps the violation of the lowest person id (the one a sequential run would have met first).
    mutating func keepFirstViolation(_ v: InvariantViolation?) {
        if let v, violation.map({ v.person < $0.person }) ?? true { violation = v }
    }

    static func ratio(_ a: Int, _ b: Int) -> Double { b > 0 ? Double(a) / Double(b) : .nan }

    /// The KPI values of this replication: the charter's §8.3 definitions first, then Habitat's own figures
    /// (true time saved, phone-use calibration, MRR, battery). NaN where a KPI's population is empty.
    public func kpiValues() -> [(Reports.KPIDefinition, Double)] {
        var v: [(Reports.KPIDefinition, Double)] = []
        func charter(_ id: String, _ value: Double) {
            let d = ScrollOffKPIs.definitions.first { $0.id == id }!
            v.append((Reports.KPIDefinition(id, unit: d.unit, targetMin: d.targetMin, targetMax: d.targetMax), value))
        }
        charter("d1_retention", Self.ratio(d1Active, d1Eligible))
        charter("d7_retention_actives", Self.ratio(d7ActivesActive, d7ActivesEligible))
        charter("d30_retention_paid", Self.ratio(d30PaidActive, d30PaidEligible))
        charter("median_time_saved_per_day", appSavedPerActiveDay.quantile(0.5) ?? .nan)
        charter("shields_per_day", Self.ratio(shieldsOnActiveDays, activeDays))
        charter("willpower_win_share", Self.ratio(willpowerWins, shields))
        charter("intentions_per_user", Self.ratio(intentions, people))
        charter("streak_7_share", Self.ratio(streak7, people))
        charter("milestone_30_share", Self.ratio(warrior30, people))
        charter("pattern_insight_engagement", Self.ratio(insight7, people))
        charter("self_efficacy_views", Self.ratio(efficacyViewers, people))
        charter("free_to_paid_14d", Self.ratio(paid14, people))
        charter("annual_mix", Self.ratio(annualSubscribers, subscribers))
        let total = tokens.total
        charter("token_revenue_share", total.tokenShare ?? .nan)
        charter("authorization_retention", a1Reachers > 0 ? 1 - Self.ratio(a1Revoked, a1Reachers) : .nan)
        func own(_ id: String, _ unit: String, _ value: Double) { v.append((Reports.KPIDefinition(id, unit: unit), value)) }
        own("true_time_saved_per_day_median", "minutes", trueSavedPerDay.quantile(0.5) ?? .nan)
        own("true_time_saved_per_day_mean", "minutes", trueSavedPerDay.mean ?? .nan)
        own("pickups_per_day", "count_per_day", Self.ratio(pickups, personDays))
        own("sessions_under_30s_share", "fraction", Self.ratio(sessionsUnder30s, sessions))
        own("notification_session_share", "fraction", Self.ratio(notificationSessions, sessions))
        own("mrr_usd_at_horizon", "usd", mrrAtEnd.usd)
        own("gross_revenue_usd", "usd", revenue.cells.values.reduce(Money.zero) { $0 + $1.gross }.usd)
        own("net_revenue_usd", "usd", revenue.cells.values.reduce(Money.zero) { $0 + $1.net }.usd)
        own("subscriber_share", "fraction", Self.ratio(subscribers, people))
        for metric in BatteryMetric.allCases {
            own("battery_\(metric.rawValue)_p90", "pct", battery.histogram(device: BatteryBudgetAccumulator.allDevices, metric: metric).quantile(0.9) ?? .nan)
        }
        return v
    }
}
