import Reports
import RulesCore

/// One report file a run writes from its accumulators (issue 42): its name, its header and how its rows come from
/// a replication or from the pool of an arm's replications. Habitat's own reports (`HabitatReports`) and a product's
/// (`ProductMetrics.reports`) are writers of the same shape, listed in the order they are written
/// (`SimulationRun.reportFiles`); nothing in the run switches over file names.
public struct ReportWriter<Adapter: ProductAdapter> {
    /// When an arm's pooled rows follow its replications' rows.
    public enum Pooling: Sendable {
        /// Rows of the arm's replications merged, when there is more than one (most reports).
        case whenReplicated
        /// Never (`energy-by-effect.csv`: per replication only).
        case never
        /// Always, even after one replication (`kpis.csv`: the KPIs pooled over replications with intervals).
        case always
    }

    /// The file name, e.g. `retention.csv`.
    public let name: String
    /// The header; the first four columns are the report keys (`ReportKeys.header`).
    public let header: [String]
    public let pooling: Pooling
    /// The rows for one replication or for an arm's pool (`ReportInput.pooled`).
    public let rows: (ReportInput<Adapter>, ReportKeys) -> [[CSVField]]

    public init(_ name: String, header: [String], pooling: Pooling = .whenReplicated,
                rows: @escaping (ReportInput<Adapter>, ReportKeys) -> [[CSVField]]) {
        self.name = name
        self.header = header
        self.pooling = pooling
        self.rows = rows
    }

    /// A product's report (`ProductMetrics.reports`) as a run's writer: its rows from the product's figures and the
    /// run's shared ones.
    public init(_ report: MetricsReport<Adapter.Metrics>) {
        self.init(report.name, header: report.header) { input, keys in report.rows(input.run.product, input.run.figures, keys) }
    }

    /// Whether an arm's pool of `replications` gets rows of its own.
    func pools(replications: Int) -> Bool {
        switch pooling {
        case .whenReplicated: replications > 1
        case .never: false
        case .always: true
        }
    }
}

/// What a report's rows are made from: one replication's accumulator, or the merge of an arm's replications.
public struct ReportInput<Adapter: ProductAdapter> {
    /// The replication's accumulator, or the arm's replications merged.
    public let run: RunAccumulator<Adapter>
    /// The KPI values of each replication in `run` (one list for a replication), in replication order.
    public let kpiValues: [[(KPIDefinition, Double)]]
    public let horizonDays: Int
    /// True for the pool of an arm's replications.
    public let pooled: Bool
}

/// One report a product's figures make (`ProductMetrics.reports`): its file name, header and rows from the
/// product's metrics and the run's shared figures (`RunFigures`: common counters, money, consumables). Each is also
/// named in the descriptor's `reports`; its first four columns are the report keys (`ReportKeys.fields`).
public struct MetricsReport<Metrics: ProductMetrics>: Sendable {
    public let name: String
    public let header: [String]
    /// The Habitat report this one is written right after (its place in the run's files and in `manifest.json`'s
    /// list), nil for after all of Habitat's — Scroll Off's `token-revenue-share.csv` keeps its place after
    /// `retention.csv`, where Habitat wrote it before issue 42.
    public let after: String?
    /// The rows for one replication, or for the pool of an arm's replications.
    public let rows: @Sendable (Metrics, RunFigures, ReportKeys) -> [[CSVField]]

    public init(_ name: String, header: [String], after: String? = nil,
                rows: @escaping @Sendable (Metrics, RunFigures, ReportKeys) -> [[CSVField]]) {
        self.name = name
        self.header = header
        self.after = after
        self.rows = rows
    }
}

/// The order of report files across lists that each have their own (a run of several products: each product's run
/// lists its files in the order it writes them). Every list's order is kept; files no list orders between them come
/// in the order they first appear (the first list's, then each later list's new files) — so Habitat's files keep
/// their order and a product's own keep their place among them, with no list of names here (issue 42).
enum ReportOrder {
    static func merge(_ lists: [[String]]) -> [String] {
        var union: [String] = []
        var before: [String: Set<String>] = [:]   // file → files some list puts before it
        for list in lists {
            for (i, f) in list.enumerated() {
                if !union.contains(f) { union.append(f) }
                before[f, default: []].formUnion(list[..<i])
            }
        }
        var out: [String] = [], left = union
        while !left.isEmpty {
            // The first file whose predecessors are all placed (the first left, should lists disagree).
            let k = left.firstIndex { f in before[f, default: []].allSatisfy { out.contains($0) } } ?? 0
            out.append(left.remove(at: k))
        }
        return out
    }
}
