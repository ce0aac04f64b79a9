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
    /// Consumables against the rest of gross revenue by month (a product's own report judges their share).
    public var consumables = ConsumableAccumulator()
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
    public var decisions = DecisionCounts(layout: .of(Adapter.self))
    /// Urges, shields and opens of the target apps per week since install (`learning.csv`).
    public var learning: LearningAccumulator
    /// Product-neutral outcomes and shared product figures per persona (`product-comparison.csv`, neutral KPIs).
    public var comparison = ComparisonAccumulator()

    /// What a shard file holds (`ShardState`): every figure but `violation` — a shard whose people broke an invariant
    /// fails instead of writing a shard.
    enum CodingKeys: String, CodingKey {
        case funnel, retention, revenue, battery, forecast, common, product, world, churned, decisions, learning, comparison
        case trueSavedPerDay = "true_saved_per_day", mrrAtEnd = "mrr_at_end"
        case consumables = "tokens"   // the shard's name, unchanged (issue 42 renames the Swift side only)
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
    /// Person-days lived, from install to the horizon, treated or not (the product's own per-day figures use
    /// `common[.personDays]`, the days it was installed).
    public var personDays: Int { comparison.all.personDays }
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
        funnel.add(reachedStages: o.funnel.reached, observedDays: o.observedDays, stages: Adapter.Engine.descriptor.funnel)
        let segments = [o.persona, o.planSegment]
        retention.add(cohort: o.cohort, segments: segments, observedDays: o.observedDays, activity: .inUse, activeDays: o.inUseDays)
        retention.add(cohort: o.cohort, segments: segments, observedDays: o.observedDays, activity: .appOpened, activeDays: o.activeDays)
        for (month, m) in o.consumableMonths.sorted(by: { $0.key < $1.key }) {
            consumables.add(month: month, consumableGross: m.consumables, subscriptionGross: m.subscriptions, sold: m.sold, capHits: m.capHits)
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
        comparison.add(persona: o.persona, Self.comparisonSums(o))
    }

    /// One person's comparison sums: their neutral days, pickups and sessions and — with an app — whether the
    /// product was in use, and whether they opened its app, on days 1, 7 and 30 (of those they were observed past),
    /// their days in use and with the app opened, their net revenue and whether they paid.
    static func comparisonSums(_ o: LifeSummary<Adapter>) -> ComparisonSums {
        var s = o.neutral
        s.people = 1
        s.pickups = o.common[.pickups]
        s.sessions = o.common[.sessions]
        s.sessionsUnder30s = o.common[.sessionsUnder30s]
        guard Adapter.hasApp else { return s }
        for (i, day) in ComparisonSums.retentionDays.enumerated() where o.observedDays > day {
            s.retentionEligible[i] = 1
            if o.inUseDays.contains(day) { s.inUse[i] = 1 }
            if o.activeDays.contains(day) { s.appOpened[i] = 1 }
        }
        s.inUseDays = o.inUseDays.count
        s.appOpenedDays = o.activeDays.count
        s.netRevenueMicros = o.revenue.lines.reduce(0) { $0 + ($1.gross - $1.refunds - $1.storeFee).micros }
        s.paying = o.everSubscribed ? 1 : 0
        return s
    }

    public mutating func merge(_ o: RunAccumulator) {
        funnel.merge(o.funnel); retention.merge(o.retention); consumables.merge(o.consumables); revenue.merge(o.revenue)
        keepFirstViolation(o.violation)
        battery.merge(o.battery); forecast.merge(o.forecast); product.merge(o.product); trueSavedPerDay.merge(o.trueSavedPerDay)
        common.merge(o.common)
        mrrAtEnd += o.mrrAtEnd
        for (k, v) in o.churned { churned[k, default: 0] += v }
        world.merge(o.world)
        decisions.merge(o.decisions)
        learning.merge(o.learning)
        comparison.merge(o.comparison)
    }

    /// Keeps the violation of the lowest person id (the one a sequential run would have met first).
    mutating func keepFirstViolation(_ v: InvariantViolation?) {
        if let v, violation.map({ v.person < $0.person }) ?? true { violation = v }
    }

    /// Habitat's own figures, in report order after the product's KPIs: true time saved (a product that restricts
    /// apps), phone use (every product); money — MRR, gross and net revenue, subscriber share, gross margin — only for a product that sells
    /// something (`RevenueModel.sellsAnything`); cost per DAU-day only for one that pays for serving its people
    /// (`RevenueModel.incursCosts`); battery. None has a target of its own: a product sets one by listing a KPI of
    /// the same id in its descriptor's `kpis` (a per-user cost ceiling is `cost_per_dau_day`'s `targetMax`, like any
    /// KPI's), whose definition is then reported here, in Habitat's place, and not among the product's own.
    public static var commonKPIs: [KPIDefinition] {
        let d = Adapter.Engine.descriptor
        var own = Adapter.hasApp && Adapter.restrictsApps ? trueTimeSavedKPIs : []
        own += [KPIDefinition("pickups_per_day", unit: "count_per_day"), KPIDefinition("sessions_under_30s_share", unit: "fraction"),
                KPIDefinition("notification_session_share", unit: "fraction")]
        own += neutralOnlyKPIs
        if d.revenue.sellsAnything { own += moneyKPIs }
        if d.revenue.incursCosts { own.append(costPerDAUDay) }
        if Adapter.hasApp { own += BatteryMetric.allCases.map { KPIDefinition("battery_\($0.rawValue)_p90", unit: "pct") } }
        return own.map { d.kpi($0.id) ?? $0 }
    }

    /// True time saved (minutes a day the person meant to spend in the restricted apps and did not), a blocker's
    /// figure: reported only for a product that restricts apps (`PersonLife.blocker`; issue 42 item 3).
    static var trueTimeSavedKPIs: [KPIDefinition] {
        [KPIDefinition("true_time_saved_per_day_median", unit: "minutes"), KPIDefinition("true_time_saved_per_day_mean", unit: "minutes")]
    }

    /// The product-neutral KPIs (`ComparisonKPIs.neutral`) besides pickups and short sessions, which Habitat
    /// reported before: minutes in the target apps, urges acted on, the app's battery drain over every day.
    static var neutralOnlyKPIs: [KPIDefinition] {
        ComparisonKPIs.neutral.filter { !["pickups_per_day", "sessions_under_30s_share"].contains($0.id) }
    }

    /// The money KPIs of a product that sells something (revenue.csv's figures over the run).
    static var moneyKPIs: [KPIDefinition] {
        [KPIDefinition("mrr_usd_at_horizon", unit: "usd"), KPIDefinition("gross_revenue_usd", unit: "usd"), KPIDefinition("net_revenue_usd", unit: "usd"),
         KPIDefinition("subscriber_share", unit: "fraction"),
         KPIDefinition("gross_margin", unit: "ratio", window: "whole run",
                       formula: "(net − cost) ÷ net over every month and source of revenue.csv: net = gross − refunds − store fees (net_usd), "
                           + "cost = service costs (cost_usd); empty when net ≤ 0")]
    }

    /// The service cost per person-day with the product in use, of a product that pays for serving its people.
    static var costPerDAUDay: KPIDefinition {
        KPIDefinition("cost_per_dau_day", unit: "usd", population: "person-days with the product in use", window: "whole run",
                      formula: "Σ service_cost (revenue.csv cost_usd) ÷ person-days with the product in use (retention.csv's in_use reading)")
    }

    /// Every id Habitat reports as its own, whatever the product sells: a product's descriptor lists one of them only
    /// to set its target, and its `Metrics` gives no value for it.
    public static var habitatKPIIDs: Set<String> {
        Set(["true_time_saved_per_day_median", "true_time_saved_per_day_mean", "pickups_per_day", "sessions_under_30s_share",
             "notification_session_share", costPerDAUDay.id] + neutralOnlyKPIs.map(\.id) + moneyKPIs.map(\.id) + BatteryMetric.allCases.map { "battery_\($0.rawValue)_p90" })
    }

    /// The KPI values of this replication: the product's KPIs first (its descriptor's order), then Habitat's own
    /// figures (`commonKPIs`: true time saved, phone-use calibration, money, costs, battery). NaN where a KPI's
    /// population is empty.
    public func kpiValues() -> [(KPIDefinition, Double)] {
        let habitat = Self.habitatKPIIDs
        var v = product.kpiValues(figures).filter { !habitat.contains($0.0.id) }
        let total = revenue.total
        var own: [String: Double] = [
            "true_time_saved_per_day_median": trueSavedPerDay.quantile(0.5) ?? .nan,
            "true_time_saved_per_day_mean": trueSavedPerDay.mean ?? .nan,
            "notification_session_share": common.ratio(.notificationSessions, .sessions),
            "mrr_usd_at_horizon": mrrAtEnd.usd,
            "gross_revenue_usd": total.gross.usd,
            "net_revenue_usd": total.net.usd,
            "subscriber_share": common.ratio(.subscribers, .people),
            "gross_margin": revenue.grossMargin ?? .nan,
            "cost_per_dau_day": common[.inUseDays] > 0 ? total.cost.usd / Double(common[.inUseDays]) : .nan,
        ]
        // The product-neutral figures over every person-day to the horizon, its last day included (pickups per day
        // and short sessions too: the same measure for every product and none).
        for (d, value) in ComparisonKPIs.values(comparison.all, hasApp: false) { own[d.id] = value }
        for metric in BatteryMetric.allCases {
            own["battery_\(metric.rawValue)_p90"] = battery.histogram(device: BatteryBudgetAccumulator.allDevices, metric: metric).quantile(0.9) ?? .nan
        }
        for d in Self.commonKPIs {
            guard let value = own[d.id] else { preconditionFailure("Habitat KPI \(d.id) has no value") }
            v.append((d, value))
        }
        return v
    }

    /// The run's product-independent figures, as a product's KPIs and reports read them.
    public var figures: RunFigures { RunFigures(common: common, revenue: revenue, consumables: consumables) }

    /// Every KPI id a run of this product reports (for `precision.kpis`).
    public static var kpiIDs: [String] {
        Adapter.Engine.descriptor.kpis.map(\.id).filter { !habitatKPIIDs.contains($0) } + commonKPIs.map(\.id)
    }
}
