import RulesCore
import Stochastics

/// One simulated person's standing in one calendar month, for `forecast.csv`.
public struct PersonMonth: Hashable, Sendable {
    /// The person installed in this month.
    public var installed = false
    /// The person opened the app on at least one day of the month (monthly active).
    public var active = false
    /// Plan segment in force at the month's end (or at the horizon, for the last month), one of the product's
    /// `RevenueModel.planSegments` (Scroll Off: `free`, `premium` or `pro`).
    public var plan = "free"
    /// Monthly-equivalent price of that plan (MRR contribution; zero on Free).
    public var mrr = Money.zero
    public init() {}
}

/// Month-by-month counts of one arm and replication, folded from people (Mergeable): the stock and flow
/// figures `forecast.csv` scales to the real population.
public struct ForecastAccumulator: Mergeable, Sendable, Hashable, Codable {
    /// Sums over the simulated people of one month.
    public struct Month: Hashable, Sendable, Codable {
        public var installs = 0, active = 0
        /// People paying at the month's end, per paid segment (in the product's order).
        public var paying: [Int]
        public var mrr = Money.zero
        public init(segments: Int) { paying = Array(repeating: 0, count: segments) }
    }
    /// The product's paid plan segments, in order.
    public let paidSegments: [String]
    public private(set) var months: [MonthID: Month] = [:]
    public init(paidSegments: [String]) { self.paidSegments = paidSegments }

    /// An empty month of this product.
    public var emptyMonth: Month { Month(segments: paidSegments.count) }

    /// Adds one person's months.
    public mutating func add(_ personMonths: [MonthID: PersonMonth]) {
        for (id, m) in personMonths {
            var c = months[id] ?? emptyMonth
            if m.installed { c.installs += 1 }
            if m.active { c.active += 1 }
            if let i = paidSegments.firstIndex(of: m.plan) { c.paying[i] += 1 }
            c.mrr += m.mrr
            months[id] = c
        }
    }

    public mutating func merge(_ o: ForecastAccumulator) {
        for (id, m) in o.months {
            var c = months[id] ?? emptyMonth
            c.installs += m.installs; c.active += m.active
            for i in c.paying.indices { c.paying[i] += m.paying[i] }
            c.mrr += m.mrr
            months[id] = c
        }
    }
}

/// `forecast.csv` (CONTRACT.md report 9): per month, each metric's mean over replications with a 95 % interval,
/// scaled from the simulated sample to the real population (`peoplePerPerson`). Flow metrics (installs, revenue)
/// also get a `total` row, the sum of their months; stock metrics (active and paying people, MRR) are month-end
/// figures and have none. The consumables' share (a product's own metric name, e.g. Scroll Off's `token_share`) is a
/// ratio and is not scaled.
public struct ForecastTable: Sendable {
    /// Metric names in report order, and whether each is a flow (summed into `total`): `paying_people_<segment>`
    /// for each of the product's paid segments, and the consumables' share where the product names one.
    public let metrics: [(name: String, flow: Bool)]
    /// The metric of consumables' share of gross revenue per month, as the product names it (nil: none).
    public let consumableShareMetric: String?
    public static let header = ReportKeys.header + ["month", "metric", "mean", "ci_low", "ci_high"]

    /// values[month][metric] = one value per replication.
    public private(set) var values: [MonthID: [String: [Double]]] = [:]

    /// A table for a product with these paid plan segments, with the consumables' share under the product's name
    /// for it, or without (nil).
    public init(paidSegments: [String], consumableShareMetric: String?) {
        self.consumableShareMetric = consumableShareMetric
        metrics = [("installs", true), ("active_people", false), ("paying_people", false)]
            + paidSegments.map { ("paying_people_\($0)", false) }
            + [("mrr_usd", false), ("gross_revenue_usd", true), ("net_revenue_usd", true)]
            + (consumableShareMetric.map { [($0, false)] } ?? [])
    }

    /// Records one replication's months.
    public mutating func record(forecast: ForecastAccumulator, revenue: RevenueAccumulator, consumables: ConsumableAccumulator, peoplePerPerson w: Double) {
        let monthIDs = Set(forecast.months.keys).union(revenue.cells.keys.map(\.month))
        for id in monthIDs {
            let f = forecast.months[id] ?? forecast.emptyMonth
            let lines = revenue.cells.filter { $0.key.month == id }.map(\.value)
            let gross = lines.reduce(Money.zero) { $0 + $1.gross }, net = lines.reduce(Money.zero) { $0 + $1.net }
            var row: [String: Double] = [
                "installs": Double(f.installs) * w, "active_people": Double(f.active) * w,
                "paying_people": Double(f.paying.reduce(0, +)) * w, "mrr_usd": f.mrr.usd * w,
                "gross_revenue_usd": gross.usd * w, "net_revenue_usd": net.usd * w,
            ]
            if let share = consumableShareMetric { row[share] = consumables.months[id]?.consumableShare ?? .nan }
            for (i, segment) in forecast.paidSegments.enumerated() { row["paying_people_\(segment)"] = Double(f.paying[i]) * w }
            for (k, _) in metrics { values[id, default: [:]][k, default: []].append(row[k] ?? .nan) }
        }
    }

    /// The rows: months in order, each metric; then `total` rows of the flow metrics (per replication, the sum of
    /// its months; then pooled).
    public func rows(_ keys: ReportKeys) -> [[CSVField]] {
        var out: [[CSVField]] = []
        let months = values.keys.sorted()
        func row(_ label: String, _ metric: String, _ xs: [Double]) -> [CSVField] {
            let s = Summary(xs.filter(\.isFinite))
            let isShare = metric == consumableShareMetric
            let ci = ShareInterval.interval95(s, isShare: isShare)   // a share's interval inside 0…1 (issue 40)
            let decimals = isShare ? 6 : 2
            return keys.fields + [.text(label), .text(metric), s.count > 0 ? .number(s.mean, decimals: decimals) : .empty,
                                  .optional(ci?.lower, decimals: decimals), .optional(ci?.upper, decimals: decimals)]
        }
        for id in months {
            for (metric, _) in metrics { out.append(row(id.description, metric, values[id]?[metric] ?? [])) }
        }
        for (metric, flow) in metrics where flow {
            let replications = months.compactMap { values[$0]?[metric]?.count }.max() ?? 0
            let totals = (0..<replications).map { r in months.reduce(0.0) { $0 + (values[$1]?[metric].flatMap { r < $0.count ? $0[r] : nil } ?? 0) } }
            out.append(row("total", metric, totals))
        }
        return out
    }
}
