import Foundation
import Reports
import Stochastics

/// One output a sensitivity analysis attributes to the parameters: a KPI's mean in one arm, a world-check figure's
/// mean in one arm, or one arm's paired difference against the control arm on a KPI (what an experiment concludes).
public struct SensitivityOutput: Hashable, Sendable, Comparable {
    /// What is measured.
    public enum Quantity: String, Sendable, CaseIterable {
        /// A KPI's mean over the replications, in `arm`.
        case armMean = "arm_mean"
        /// A world-check figure's mean (the world's definition, e.g. retention = the app opened on day N), in `arm`.
        case worldFigure = "world_figure"
        /// `arm` − `controlArm`, the mean of the per-replication paired differences (experiment.csv's `diff`).
        case pairedDiff = "paired_diff"
        /// A product comparison's `arm` − `none` (product-comparison.csv's `vs_none_diff`, everyone).
        case versusNone = "vs_none_diff"
    }
    public var quantity: Quantity
    public var arm: String
    /// The KPI id or world-check figure id.
    public var kpi: String
    public var unit: String
    /// The control arm of a paired difference (empty otherwise).
    public var controlArm: String

    public init(_ quantity: Quantity, arm: String, kpi: String, unit: String, controlArm: String = "") {
        self.quantity = quantity
        self.arm = arm
        self.kpi = kpi
        self.unit = unit
        self.controlArm = controlArm
    }

    /// The output's column name in `sensitivity-design.csv`: `<quantity>:<arm>:<kpi> (<unit>)`.
    public var column: String { "\(quantity.rawValue):\(arm):\(kpi) (\(unit))" }

    /// The output a `column` names (nil if it is not one); a paired difference's control arm is `controlArm`.
    public init?(column: String, controlArm: String, noneArm: String = "none") {
        guard let first = column.firstIndex(of: ":"), let q = Quantity(rawValue: String(column[..<first])),
              column.hasSuffix(")"), let open = column.range(of: " (", options: .backwards),
              let last = column[..<open.lowerBound].lastIndex(of: ":"), last > first else { return nil }
        self.init(q, arm: String(column[column.index(after: first)..<last]), kpi: String(column[column.index(after: last)..<open.lowerBound]),
                  unit: String(column[open.upperBound..<column.index(before: column.endIndex)]), controlArm: q == .pairedDiff ? controlArm : (q == .versusNone ? noneArm : ""))
    }

    public static func < (a: Self, b: Self) -> Bool { (a.arm, a.quantity.rawValue, a.kpi) < (b.arm, b.quantity.rawValue, b.kpi) }
}

/// Every output of one simulated design point.
public struct SensitivityReading: Sendable {
    /// Output → value (NaN where undefined in this run, e.g. a share of no one).
    public var values: [SensitivityOutput: Double]

    public init(values: [SensitivityOutput: Double]) { self.values = values }

    /// Reads a finished run: each arm's KPI means and world-check figure means, and each experiment arm's paired
    /// difference against the control on every KPI. `kpis` (KPI or figure ids) keeps only those; nil keeps all.
    public static func read(_ run: any ProductRun, kpis: Set<String>?) -> SensitivityReading {
        var values: [SensitivityOutput: Double] = [:]
        func wanted(_ id: String) -> Bool { kpis.map { $0.contains(id) } ?? true }
        for (arm, table) in run.kpiSummary() {
            for d in table.definitions where wanted(d.id) {
                let s = table.summary(d.id)
                values[SensitivityOutput(.armMean, arm: arm, kpi: d.id, unit: d.unit)] = s.count > 0 ? s.mean : .nan
            }
        }
        for (arm, rows) in run.worldCheck() {
            for row in rows where wanted(row.figure.id) {
                let v = row.applies == WorldCheckRow.applicable ? (row.mean ?? .nan) : .nan
                values[SensitivityOutput(.worldFigure, arm: arm, kpi: row.figure.id, unit: row.figure.unit)] = v
            }
        }
        for c in run.experiment() where wanted(c.kpi) {
            values[SensitivityOutput(.pairedDiff, arm: c.arm, kpi: c.kpi, unit: c.unit, controlArm: c.controlArm)] = c.diff ?? .nan
        }
        for c in run.versusNone() where wanted(c.kpi) {
            values[SensitivityOutput(.versusNone, arm: c.arm, kpi: c.kpi, unit: c.unit, controlArm: c.controlArm)] = c.diff ?? .nan
        }
        return SensitivityReading(values: values)
    }
}

extension ProductRun {
    /// In a run whose arms are different products, each product's paired difference against `none`
    /// (`ProductComparison.versusNone`); nothing in a run of one product.
    public func versusNone() -> [ExperimentComparison] {
        Set(armReadings.map(\.product)).count > 1 ? ProductComparison.versusNone(armReadings) : []
    }
}
