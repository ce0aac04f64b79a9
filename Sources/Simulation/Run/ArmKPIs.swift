import Reports
import RulesCore
import ScenarioFormat

/// What a run computes from its arms' per-replication KPI values, whatever product each arm is: the pooled table,
/// the paired comparison with the first arm (`experiment.csv`) and the precision target's half-widths. One piece of
/// code for a run of one product (`SimulationRun`) and of several (`MultiProductRun`).
enum ArmKPIs {
    /// An arm's KPI values pooled over replications (one list per replication).
    static func table(_ perReplication: [[(KPIDefinition, Double)]]) -> KPITable {
        var t = KPITable()
        for values in perReplication { for (d, v) in values { t.record(d, v) } }
        return t
    }

    /// Every arm after the first against the first (control) arm, paired by replication, on the KPIs both report.
    static func experiment(_ arms: [(name: String, kpiValues: [[(KPIDefinition, Double)]])]) -> [ExperimentComparison] {
        let values = arms.map { arm -> ArmKPIValues in
            var v = ArmKPIValues(arm: arm.name)
            for values in arm.kpiValues { v.appendReplication(values) }
            return v
        }
        guard let control = values.first else { return [] }
        return values.dropFirst().flatMap { ArmKPIValues.compare(control: control, arm: $0) }
    }

    /// The 95 % half-width of each targeted KPI, per arm (nil while undefined, e.g. with one replication).
    static func halfWidths(_ target: PrecisionTarget, _ arms: [(name: String, kpiValues: [[(KPIDefinition, Double)]])])
        -> [(arm: String, kpi: String, halfWidth: Double?)] {
        arms.flatMap { arm in
            let table = table(arm.kpiValues)
            return target.halfWidths.keys.sorted().map { (arm.name, $0, table.summary($0).confidenceInterval95()?.halfWidth) }
        }
    }

    /// Whether every targeted KPI is known to its half-width in every arm.
    static func reached(_ target: PrecisionTarget, _ widths: [(arm: String, kpi: String, halfWidth: Double?)]) -> Bool {
        widths.allSatisfy { h in h.halfWidth.map { $0 <= target.halfWidths[h.kpi]! } ?? false }
    }
}
