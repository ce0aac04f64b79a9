import RulesCore
import Stochastics

/// `kpis.csv` (CONTRACT.md, report 5): every headline number pooled over replications — the mean of the
/// per-replication values with a 95 % interval (empty bounds with one replication): Student-t, or for a share (unit
/// `fraction`) the log-odds interval made for proportions, inside 0…1 (`ShareInterval`, issue 40).
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

    /// A KPI's 95 % interval over replications: `ShareInterval.interval95` (for proportions when its unit is a share).
    public func interval95(_ definition: KPIDefinition) -> (lower: Double, upper: Double)? {
        ShareInterval.interval95(summary(definition.id), isShare: ShareInterval.isShare(unit: definition.unit))
    }

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
            let ci = interval95(d)
            let mean: Double? = s.count > 0 ? s.mean : nil
            let meets: CSVField = d.isMet(by: mean).map { .flag($0) } ?? .empty
            return keys.fields + [.text(d.id), .text(d.unit), .optional(mean, decimals: 6), .optional(ci?.lower, decimals: 6),
                                  .optional(ci?.upper, decimals: 6), .integer(Int64(s.count)),
                                  .optional(d.targetMin, decimals: 4), .optional(d.targetMax, decimals: 4), meets,
                                  .text(d.applies(measured: mean != nil, horizonDays: horizonDays))]
        }
    }
}
