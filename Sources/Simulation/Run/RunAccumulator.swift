import Behavior
import Reports
import RulesCore
import Stochastics

/// Everything the reports of one arm and replication need, for any product, folded from people in id order
/// (Mergeable, so the person-parallel runner gives bit-identical results for any thread count). The product's own
/// figures are in `product`.
public struct RunAccumulator<Adapter: ProductAdapter>: Mergeable, Sendable, Codable {
    public var funnel: FunnelAccumulator
    public var retention: RetentionAccumulator
    public var tokens = TokenShareAccumulator()
    public var revenue = RevenueAccumulator()
    public var battery: BatteryBudgetAccumulator
    public var forecast: ForecastAccumulator
    public var trueSavedPerDay = LogHistogram()
    public var common = CommonCounters()
    public var mrrAtEnd = Money.zero
    public var churned: [String: Int] = [:]
    /// The invariant violation of the lowest person id, if any person's life broke one.
    public var violation: InvariantViolation?
    /// The product's own figures.
    public var product = Adapter.Metrics()
    /// The world check's own counters (`world-check.csv`).
    public var world: WorldAccumulator
    /// Opportunities, decisions and outcomes per kind (`decisions.csv`).
    public var decisions = DecisionCounts()
    /// Urges, shields and opens of the target apps per week since install (`learning.csv`).
    public var learning: LearningAccumulator

    /// What a shard file holds (`ShardState`): every figure but `violation` — a shard whose people broke an invariant
    /// fails instead of writing a shard.
    enum CodingKeys: String, CodingKey {
        case funnel, retention, tokens, revenue, battery, forecast, common, product, world, churned, decisions, learning
        case trueSavedPerDay = "true_saved_per_day", mrrAtEnd = "mrr_at_end"
    }

    public init(horizonDays: Int) {
        let d = Adapter.Engine.descriptor
        funnel = FunnelAccumulator(stageCount: d.funnel.count)
        retention = RetentionAccumulator(maxDay: horizonDays)
        battery = BatteryBudgetAccumulator(budgets: d.batteryBudgets)
        forecast = ForecastAccumulator(paidSegments: d.revenue.paidSegments)
        world = WorldAccumulator(trialDays: d.revenue.trialDays)
        learning = LearningAccumulator(horizonDays: horizonDays)
    }

    /// People folded in.
    public var people: Int { common[.people] }
    public var personDays: Int { common[.personDays] }
    public var events: Int { common[.events] }

    /// Folds one person's life in.
    public mutating func add(_ o: LifeSummary<Adapter>) {
        var c = o.common
        c[.people] = 1
        c[.personDays] = o.personDays
        c[.events] = o.eventsSimulated
        c[.activeDays] = o.activeDays.count
        c[.inUseDays] = o.inUseDays.count
        c.flag(.subscribers, o.everSubscribed)
        common.merge(c)
        funnel.add(reachedStages: o.funnel.reached)
        let segments = [o.persona, o.planSegment]
        retention.add(cohort: o.cohort, segments: segments, observedDays: o.observedDays, activity: .productInUse, activeDays: o.inUseDays)
        retention.add(cohort: o.cohort, segments: segments, observedDays: o.observedDays, activity: .appOpened, activeDays: o.activeDays)
        for (month, m) in o.consumableMonths.sorted(by: { $0.key < $1.key }) {
            tokens.add(month: month, tokenGross: m.consumables, subscriptionGross: m.subscriptions, tokensSold: m.sold, capHits: m.capHits)
        }
        revenue.add(o.revenue)
        forecast.add(o.months)
        keepFirstViolation(o.violation)
        for d in o.batteryDays { battery.add(d.day, deviceID: d.device) }
        battery.addEnergy(o.energyByActivity)
        product.add(o.tally)
        for v in o.trueMinutesSavedPerDay { trueSavedPerDay.add(v) }
        mrrAtEnd += o.mrrAtEnd
        if let c = o.churn { churned[c, default: 0] += 1 }
        world.add(o.world, observedDays: max(0, o.observedDays), trialDays: world.trialDays)
        decisions.merge(o.decisions)
        learning.merge(o.learning)
    }

    public mutating func merge(_ o: RunAccumulator) {
        funnel.merge(o.funnel); retention.merge(o.retention); tokens.merge(o.tokens); revenue.merge(o.revenue)
        keepFirstViolation(o.violation)
        battery.merge(o.battery); forecast.merge(o.forecast); product.merge(o.product); trueSavedPerDay.merge(o.trueSavedPerDay)
        common.merge(o.common)
        mrrAtEnd += o.mrrAtEnd
        for (k, v) in o.churned { churned[k, default: 0] += v }
        world.merge(o.world)
        decisions.merge(o.decisions)
        learning.merge(o.learning)
    }

    /// Keeps the violation of the lowest person id (the one a sequential run would have met first).
    mutating func keepFirstViolation(_ v: InvariantViolation?) {
        if let v, violation.map({ v.person < $0.person }) ?? true { violation = v }
    }

    /// Habitat's own figures, the same for every product (no targets), in report order after the product's KPIs.
    public static var commonKPIs: [KPIDefinition] {
        [KPIDefinition("true_time_saved_per_day_median", unit: "minutes"), KPIDefinition("true_time_saved_per_day_mean", unit: "minutes"),
         KPIDefinition("pickups_per_day", unit: "count_per_day"), KPIDefinition("sessions_under_30s_share", unit: "fraction"),
         KPIDefinition("notification_session_share", unit: "fraction"), KPIDefinition("mrr_usd_at_horizon", unit: "usd"),
         KPIDefinition("gross_revenue_usd", unit: "usd"), KPIDefinition("net_revenue_usd", unit: "usd"),
         KPIDefinition("subscriber_share", unit: "fraction")]
            + BatteryMetric.allCases.map { KPIDefinition("battery_\($0.rawValue)_p90", unit: "pct") }
    }

    /// The KPI values of this replication: the product's KPIs first (its descriptor's order), then Habitat's own
    /// figures (true time saved, phone-use calibration, MRR, revenue, battery). NaN where a KPI's population is empty.
    public func kpiValues() -> [(KPIDefinition, Double)] {
        var v = product.kpiValues(RunFigures(common: common, revenue: revenue, consumables: tokens))
        let own = Self.commonKPIs
        var i = 0
        func add(_ value: Double) { v.append((own[i], value)); i += 1 }
        add(trueSavedPerDay.quantile(0.5) ?? .nan)
        add(trueSavedPerDay.mean ?? .nan)
        add(common.ratio(.pickups, .personDays))
        add(common.ratio(.sessionsUnder30s, .sessions))
        add(common.ratio(.notificationSessions, .sessions))
        add(mrrAtEnd.usd)
        add(revenue.cells.values.reduce(Money.zero) { $0 + $1.gross }.usd)
        add(revenue.cells.values.reduce(Money.zero) { $0 + $1.net }.usd)
        add(common.ratio(.subscribers, .people))
        for metric in BatteryMetric.allCases {
            add(battery.histogram(device: BatteryBudgetAccumulator.allDevices, metric: metric).quantile(0.9) ?? .nan)
        }
        return v
    }

    /// Every KPI id a run of this product reports (for `precision.kpis`).
    public static var kpiIDs: [String] { Adapter.Engine.descriptor.kpis.map(\.id) + commonKPIs.map(\.id) }
}
