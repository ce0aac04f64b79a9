import RulesCore
import Stochastics

/// `kpis.csv` (CONTRACT.md, report 5): every headline number pooled over replications — the mean of the
/// per-replication values with a 95 % Student-t interval (empty bounds with one replication).
public struct KPITable: Sendable {
    public private(set) var definitions: [KPIDefinition] = []
    public private(set) var values: [String: [Double]] = [:]

    public init() {}

    /// Records one replication's value of a KPI (NaN values — undefined in that replication — are skipped).
    public mutating func record(_ definition: KPIDefinition, _ value: Double) {
        if !definitions.contains(where: { $0.id == definition.id }) { definitions.append(definition) }
        if value.isFinite { values[definition.id, default: []].append(value) }
    }

    /// The pooled summary of a KPI.
    public func summary(_ kpi: String) -> Summary { Summary(values[kpi] ?? []) }

    public static let header = ReportKeys.header + ["kpi", "unit", "mean", "ci_low", "ci_high", "replications", "target_min", "target_max", "meets_target", "applies"]

    /// One row per KPI for a single replication (`keys.replication` set): its value as `mean`, no interval,
    /// `replications` 1 (0 when the KPI is undefined in that replication). These rows let `habitat compare` pair
    /// two finished runs replication by replication.
    public static func replicationRows(_ values: [(KPIDefinition, Double)], _ keys: ReportKeys, horizonDays: Int) -> [[CSVField]] {
        values.map { d, v in
            let value: Double? = v.isFinite ? v : nil
            let meets: CSVField = d.isMet(by: value).map { .flag($0) } ?? .empty
            return keys.fields + [.text(d.id), .text(d.unit), .optional(value, decimals: 6), .empty, .empty, .integer(value == nil ? 0 : 1),
                                  .optional(d.targetMin, decimals: 4), .optional(d.targetMax, decimals: 4), meets,
                                  .text(d.applies(measured: value != nil, horizonDays: horizonDays))]
        }
    }

    /// One row per KPI in recording order; `meets_target` judges the mean; `applies` says why a KPI is empty.
    public func rows(_ keys: ReportKeys, horizonDays: Int) -> [[CSVField]] {
        definitions.map { d in
            let s = summary(d.id)
            let ci = s.confidenceInterval95()
            let mean: Double? = s.count > 0 ? s.mean : nil
            let meets: CSVField = d.isMet(by: mean).map { .flag($0) } ?? .empty
            return keys.fields + [.text(d.id), .text(d.unit), .optional(mean, decimals: 6), .optional(ci?.lower, decimals: 6),
                                  .optional(ci?.upper, decimals: 6), .integer(Int64(s.count)),
                                  .optional(d.targetMin, decimals: 4), .optional(d.targetMax, decimals: 4), meets,
                                  .text(d.applies(measured: mean != nil, horizonDays: horizonDays))]
        }
    }
}
