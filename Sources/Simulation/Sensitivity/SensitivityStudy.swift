import Foundation
import Reports
import Stochastics

/// The method of a sensitivity analysis and its size.
public enum SensitivityMethod: Sendable, Hashable, CustomStringConvertible {
    /// Morris screening: `trajectories` trajectories on a `levels`-level grid; r(D + 1) runs.
    case morris(trajectories: Int, levels: Int)
    /// Saltelli's design for Sobol indices from `baseRows` scrambled Sobol points; N(D + 2) runs.
    case sobol(baseRows: Int)

    public var name: String {
        switch self {
        case .morris: "morris"
        case .sobol: "sobol"
        }
    }

    public var description: String {
        switch self {
        case let .morris(r, p): "Morris, \(r) trajectories on \(p) levels"
        case let .sobol(n): "Sobol (Saltelli's design), \(n) base rows"
        }
    }

}

/// A parameter a sensitivity analysis varies: its key and the range it is varied over.
public struct SensitivityParameter: Sendable, Hashable {
    /// The scenario key (`behavior.churn.base_hazard`) or a test function's name (`x1`).
    public var key: String
    public var lower: Double
    public var upper: Double
    /// Where the range came from: `validated` (the catalogue's range), `plausible` (a plausible set's), `given`.
    public var rangeSource: String

    public init(key: String, lower: Double, upper: Double, rangeSource: String) {
        self.key = key
        self.lower = lower
        self.upper = upper
        self.rangeSource = rangeSource
    }

    /// The catalogue key without the `behavior.` prefix (what `ResolvedScenario.withBehavior` takes).
    public var catalogueKey: String { String(key.dropFirst(Calibration.behaviorPrefix.count)) }

    /// The value at `u` ∈ [0, 1] of the range.
    public func value(at u: Double) -> Double { lower + u * (upper - lower) }
}

/// A sensitivity design: the parameters, the method and the points in the unit cube (`habitat sensitivity`).
///
/// Every point is simulated with the scenario's own seed — the same people, urges and draws at every point (common
/// random numbers) — so a difference between two points is the parameters', not noise. A parameter the outputs do
/// not read then gets an index of exactly 0.
public struct SensitivityDesign: Sendable {
    public let parameters: [SensitivityParameter]
    public let method: SensitivityMethod
    /// The design's own seed (trajectories, scrambling, bootstrap), not the people's.
    public let seed: UInt64
    /// Points in the unit cube, in the method's order.
    public let unitPoints: [[Double]]
    let morris: MorrisDesign?
    let saltelli: SaltelliDesign?

    /// A design, or nil when the method cannot take this many parameters (Sobol: at most 20).
    public init?(parameters: [SensitivityParameter], method: SensitivityMethod, seed: UInt64) {
        self.parameters = parameters
        self.method = method
        self.seed = seed
        switch method {
        case let .morris(r, p):
            guard let m = MorrisDesign(dimension: parameters.count, trajectories: r, levels: p, seed: seed) else { return nil }
            morris = m
            saltelli = nil
            unitPoints = m.points
        case let .sobol(n):
            guard let s = SaltelliDesign(dimension: parameters.count, baseRows: n, seed: seed) else { return nil }
            saltelli = s
            morris = nil
            unitPoints = s.points
        }
    }

    /// The parameter values of point `i`, aligned with `parameters`.
    public func values(ofPoint i: Int) -> [Double] { zip(parameters, unitPoints[i]).map { $0.value(at: $1) } }

    /// Point `i` as a scenario's behaviour overrides (catalogue key → value).
    public func behavior(ofPoint i: Int) -> [String: Double] {
        Dictionary(uniqueKeysWithValues: zip(parameters.map(\.catalogueKey), values(ofPoint: i)))
    }

    /// The role of point `i` in the design: `trajectory t step s` (Morris) or `A`, `AB<k>`, `B` of base row j (Sobol).
    public func role(ofPoint i: Int) -> String {
        let d = parameters.count
        switch method {
        case .morris: return "t\(i / (d + 1) + 1)s\(i % (d + 1))"
        case .sobol:
            let k = i % (d + 2), row = i / (d + 2) + 1
            return k == 0 ? "A\(row)" : (k == d + 1 ? "B\(row)" : "AB\(k)_\(row)")
        }
    }

    /// The analysis of one output's values at every point (in order). Undefined values (NaN) leave it unanalysed.
    public func analyse(_ output: [Double], resamples: Int = 1000) -> SensitivityAnalysis {
        let undefined = output.filter { !$0.isFinite }.count
        let finite = output.filter(\.isFinite)
        let mean = finite.isEmpty ? Double.nan : finite.reduce(0, +) / Double(finite.count)
        let sd = Summary(finite).standardDeviation ?? 0
        guard undefined == 0 else { return SensitivityAnalysis(undefinedPoints: undefined, mean: mean, sd: sd) }
        var a = SensitivityAnalysis(undefinedPoints: 0, mean: mean, sd: sd)
        if let m = morris { a.morris = MorrisEffects(design: m, outputs: output, resamples: resamples, seed: seed &+ 1) }
        if let s = saltelli { a.sobol = SobolIndices(design: s, outputs: output, resamples: resamples, seed: seed &+ 1) }
        return a
    }
}

/// What a design says about one output.
public struct SensitivityAnalysis: Sendable {
    /// Points where the output was undefined (then nothing is estimated).
    public var undefinedPoints: Int
    /// The output's mean and standard deviation over the design's points.
    public var mean: Double
    public var sd: Double
    public var morris: MorrisEffects?
    public var sobol: SobolIndices?

    init(undefinedPoints: Int, mean: Double, sd: Double) {
        self.undefinedPoints = undefinedPoints
        self.mean = mean
        self.sd = sd
    }

    /// The parameters' importance for ranking: μ* (Morris) or the total index (Sobol); nil when not estimated.
    public var importance: [Double]? { morris?.muStar ?? sobol?.total }

    /// Parameter positions from most to least important (ties kept in parameter order).
    public var ranking: [Int]? {
        importance.map { imp in imp.indices.sorted { imp[$0] > imp[$1] || (imp[$0] == imp[$1] && $0 < $1) } }
    }
}

/// `sensitivity.csv` and `sensitivity-design.csv` (docs/report-spec.json, outputs `sensitivity` and
/// `sensitivity-design`).
public enum SensitivityTables {
    /// `sensitivity.csv`'s columns.
    public static let header = ReportKeys.header + [
        "quantity", "kpi", "unit", "control_arm", "parameter", "low", "high", "range_source", "method", "points", "undefined_points",
        "output_mean", "output_sd", "rank", "mu_star", "mu_star_ci_low", "mu_star_ci_high", "mu", "sigma",
        "s1", "s1_ci_low", "s1_ci_high", "st", "st_ci_low", "st_ci_high",
    ]

    /// One row per output and parameter.
    public static func analysisTable(_ design: SensitivityDesign, outputs: [SensitivityOutput], values: [[Double]],
                                     keys: (SensitivityOutput) -> ReportKeys, resamples: Int = 1000) -> CSVTable {
        var t = CSVTable(header: header)
        for (o, column) in zip(outputs, values) {
            let a = design.analyse(column, resamples: resamples)
            var rank = [Int](repeating: 0, count: design.parameters.count)
            if let r = a.ranking { for (place, i) in r.enumerated() { rank[i] = place + 1 } }
            for (i, p) in design.parameters.enumerated() {
                var row: [CSVField] = keys(o).fields + [
                    .text(o.quantity.rawValue), .text(o.kpi), .text(o.unit), .text(o.controlArm), .text(p.key),
                    .number(p.lower, decimals: 6), .number(p.upper, decimals: 6), .text(p.rangeSource), .text(design.method.name),
                    .integer(Int64(column.count)), .integer(Int64(a.undefinedPoints)),
                    a.mean.isFinite ? .number(a.mean, decimals: 6) : .empty, .number(a.sd, decimals: 6),
                    a.ranking == nil ? .empty : .integer(Int64(rank[i])),
                ]
                if let m = a.morris {
                    row += [.number(m.muStar[i], decimals: 6), .number(m.muStarInterval[i].lowerBound, decimals: 6),
                            .number(m.muStarInterval[i].upperBound, decimals: 6), .number(m.mu[i], decimals: 6), .number(m.sigma[i], decimals: 6)]
                } else {
                    row += Array(repeating: .empty, count: 5)
                }
                if let s = a.sobol {
                    row += [.number(s.firstOrder[i], decimals: 6), .number(s.firstOrderInterval[i].lowerBound, decimals: 6),
                            .number(s.firstOrderInterval[i].upperBound, decimals: 6), .number(s.total[i], decimals: 6),
                            .number(s.totalInterval[i].lowerBound, decimals: 6), .number(s.totalInterval[i].upperBound, decimals: 6)]
                } else {
                    row += Array(repeating: .empty, count: 6)
                }
                t.append(row)
            }
        }
        return t
    }

    /// A value as `sensitivity-design.csv` writes it and a merge reads it back (9 decimals; NaN stays NaN).
    public static func asWritten(_ v: Double) -> Double {
        guard v.isFinite else { return .nan }
        return Double(CSVField.number(v, decimals: 9).rendered) ?? v
    }

    /// `sensitivity-design.csv`'s fixed columns, before the parameters' and the outputs'.
    public static let designFixedHeader = ["point", "role"]

    /// Every design point: its number, role, parameter values and output values (blank where not simulated —
    /// a shard's folder holds only its own points).
    /// `simulated`: point index → its outputs, aligned with `outputs`.
    public static func designTable(_ design: SensitivityDesign, outputs: [SensitivityOutput], simulated: [Int: [Double]]) -> CSVTable {
        var t = CSVTable(header: designFixedHeader + design.parameters.map(\.key) + outputs.map(\.column))
        for i in design.unitPoints.indices {
            var row: [CSVField] = [.integer(Int64(i + 1)), .text(design.role(ofPoint: i))]
            row += design.values(ofPoint: i).map { .number($0, decimals: 9) }
            if let v = simulated[i] {
                row += v.map { $0.isFinite ? CSVField.number($0, decimals: 9) : .text("nan") }
            } else {
                row += Array(repeating: CSVField.empty, count: outputs.count)
            }
            t.append(row)
        }
        return t
    }
}
