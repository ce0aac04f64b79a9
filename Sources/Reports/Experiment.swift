import Foundation
import RulesCore
import Stochastics

/// One KPI of one experiment arm compared with the control arm (`experiment.csv`, CONTRACT.md report 8).
///
/// The arms ran on the same synthetic people with the same random streams (common random numbers), so the
/// replication-r values of the two arms are a pair: `diff` is the mean of the per-replication differences
/// arm − control, with a Student-t 95 % interval over those differences (n − 1 degrees of freedom). The
/// `unpaired` interval is what the same data would give if the arms had been run on independent people: Welch's
/// interval for the difference of two means (Welch–Satterthwaite degrees of freedom). Comparing the two widths
/// shows the precision pairing buys.
public struct ExperimentComparison: Hashable, Sendable {
    public var kpi: String
    public var unit: String
    public var controlArm: String
    public var arm: String
    /// Replications where both arms have a value.
    public var pairs: Int
    public var controlMean: Double?
    public var armMean: Double?
    /// Mean of the paired differences arm − control.
    public var diff: Double?
    /// 95 % interval of the paired difference (nil with fewer than two pairs).
    public var paired: ConfidenceInterval?
    /// `diff / |controlMean|` (nil when the control mean is 0 or missing).
    public var relativeDiff: Double?
    /// 95 % Welch interval of the difference of means, as if unpaired (nil with fewer than two values per arm).
    public var unpaired: ConfidenceInterval?

    /// Compares per-replication values (index = replication − 1; NaN = undefined in that replication).
    /// With `paired == false` the two value lists come from unrelated runs: no paired interval is formed and
    /// `diff` is the difference of the means.
    public init(kpi: String, unit: String, controlArm: String, arm: String, control: [Double], treatment: [Double], paired: Bool = true) {
        self.kpi = kpi
        self.unit = unit
        self.controlArm = controlArm
        self.arm = arm
        let c = Summary(control.filter(\.isFinite)), t = Summary(treatment.filter(\.isFinite))
        controlMean = c.count > 0 ? c.mean : nil
        armMean = t.count > 0 ? t.mean : nil
        var differences = Summary()
        if paired {
            for (a, b) in zip(treatment, control) where a.isFinite && b.isFinite { differences.add(a - b) }
        }
        pairs = differences.count
        if paired {
            diff = differences.count > 0 ? differences.mean : nil
            self.paired = differences.confidenceInterval95()
        } else if let a = armMean, let b = controlMean {
            diff = a - b
        }
        if let d = diff, let m = controlMean, m != 0 { relativeDiff = d / abs(m) }
        unpaired = Self.welch(t, c)
    }

    /// Welch's 95 % interval for mean(a) − mean(b); nil unless both have two values.
    public static func welch(_ a: Summary, _ b: Summary) -> ConfidenceInterval? {
        guard let va = a.variance, let vb = b.variance else { return nil }
        let qa = va / Double(a.count), qb = vb / Double(b.count)
        let se = (qa + qb).squareRoot()
        let center = a.mean - b.mean
        guard se > 0 else { return ConfidenceInterval(center: center, halfWidth: 0, level: 0.95) }
        let df = (qa + qb) * (qa + qb) / (qa * qa / Double(a.count - 1) + qb * qb / Double(b.count - 1))
        return ConfidenceInterval(center: center, halfWidth: InverseCDF.studentT(0.975, degreesOfFreedom: df) * se, level: 0.95)
    }

    /// Paired half-width over unpaired half-width (nil when either is missing or the unpaired one is 0).
    public var precisionGain: Double? {
        guard let p = paired, let u = unpaired, u.halfWidth > 0 else { return nil }
        return p.halfWidth / u.halfWidth
    }

    /// `experiment.csv` columns after the key columns.
    public static let header = ReportKeys.header + ["kpi", "unit", "control_arm", "control_mean", "arm_mean", "diff", "diff_ci_low",
                                                    "diff_ci_high", "rel_diff", "unpaired_ci_low", "unpaired_ci_high", "pairs"]

    /// The row, keyed by the arm (`keys.arm` should be `arm`).
    public func row(_ keys: ReportKeys) -> [CSVField] {
        keys.fields + [.text(kpi), .text(unit), .text(controlArm), .optional(controlMean, decimals: 6), .optional(armMean, decimals: 6),
                       .optional(diff, decimals: 6), .optional(paired?.lower, decimals: 6), .optional(paired?.upper, decimals: 6),
                       .optional(relativeDiff, decimals: 6), .optional(unpaired?.lower, decimals: 6),
                       .optional(unpaired?.upper, decimals: 6), .integer(Int64(pairs))]
    }
}

/// Per-replication KPI values of one arm, aligned by replication (NaN where undefined).
public struct ArmKPIValues: Sendable {
    public var arm: String
    /// KPI ids and units in report order.
    public var definitions: [KPIDefinition]
    /// values[kpi][r] for replication r + 1.
    public var values: [String: [Double]]

    public init(arm: String, definitions: [KPIDefinition] = [], values: [String: [Double]] = [:]) {
        self.arm = arm
        self.definitions = definitions
        self.values = values
    }

    /// Appends one replication's values (every replication must report the same KPIs; missing ones are NaN).
    public mutating func appendReplication(_ kpis: [(KPIDefinition, Double)]) {
        let n = values.values.first?.count ?? 0
        for (d, v) in kpis {
            if values[d.id] == nil {
                definitions.append(d)
                values[d.id] = Array(repeating: .nan, count: n)
            }
            values[d.id]!.append(v)
        }
        for k in values.keys where values[k]!.count == n { values[k]!.append(.nan) }
    }

    /// Every KPI of `arm` against `control`, in the control's KPI order.
    public static func compare(control: ArmKPIValues, arm: ArmKPIValues, paired: Bool = true) -> [ExperimentComparison] {
        control.definitions.compactMap { d in
            guard let t = arm.values[d.id] else { return nil }
            return ExperimentComparison(kpi: d.id, unit: d.unit, controlArm: control.arm, arm: arm.arm,
                                        control: control.values[d.id] ?? [], treatment: t, paired: paired)
        }
    }
}
