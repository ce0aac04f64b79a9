import Foundation
import Reports
import Stochastics

/// One plausible world: a parameter vector the published figures cannot rule out (a row of `plausible-set.csv`).
public struct PlausibleWorld: Sendable, Hashable {
    /// The world's number in its set (0: the defaults).
    public var id: Int
    /// `behavior.<key>` → value.
    public var values: [String: Double]

    public init(id: Int, values: [String: Double]) {
        self.id = id
        self.values = values
    }

    /// The values as `ResolvedScenario.withBehavior` takes them (catalogue keys, no `behavior.` prefix).
    public var catalogueValues: [String: Double] {
        Dictionary(uniqueKeysWithValues: values.map { (String($0.key.dropFirst(Calibration.behaviorPrefix.count)), $0.value) })
    }

    /// The worlds of a `plausible-set.csv` (its `world` column and every `behavior.*` column).
    public static func read(csv text: String) -> [PlausibleWorld]? {
        let (header, rows) = CSVTable.parse(text)
        guard let w = header.firstIndex(of: "world") else { return nil }
        let params = header.indices.filter { header[$0].hasPrefix(Calibration.behaviorPrefix) }
        guard !params.isEmpty else { return nil }
        var out: [PlausibleWorld] = []
        for row in rows where row.count == header.count {
            guard let id = Int(row[w]) else { return nil }
            var values: [String: Double] = [:]
            for p in params {
                guard let v = Double(row[p]), v.isFinite else { return nil }
                values[header[p]] = v
            }
            out.append(PlausibleWorld(id: id, values: values))
        }
        return out
    }
}

/// Whether an experiment's conclusion holds across plausible worlds (`habitat run --robustness`).
///
/// Each world re-runs every arm on the same people (common random numbers), so each world's paired difference is
/// the experiment's answer had the people been that world's. The verdict on a difference:
/// * `no difference` — the defaults' own 95 % paired interval contains 0: there is no conclusion to hold;
/// * `robust` — its sign holds in at least `robustShare` (95 %) of the plausible worlds;
/// * `depends on P, Q` — otherwise, naming the parameters whose values separate the worlds where it flips from
///   those where it holds (|point-biserial correlation| ≥ 0.3, the strongest three), or `depends on the world`
///   when no single parameter does.
public struct RobustnessVerdict: Sendable {
    public var arm: String
    public var kpi: String
    public var controlArm: String
    /// Worlds with a defined difference.
    public var worlds: Int
    /// Share of them whose difference has the defaults' sign.
    public var signShare: Double?
    public var low: Double?
    public var high: Double?
    public var verdict: String

    public static let robustShare = 0.95
    public static let separatingCorrelation = 0.3

    /// `experiment.csv`'s columns with `--robustness`, after its usual ones.
    public static let columns = ["robust_worlds", "sign_share", "robust_diff_low", "robust_diff_high", "robustness"]

    public var fields: [CSVField] {
        [.integer(Int64(worlds)), .optional(signShare, decimals: 4), .optional(low, decimals: 6), .optional(high, decimals: 6), .text(verdict)]
    }

    /// The verdict on `base` (the defaults' comparison) given each world's comparison of the same arm and KPI.
    public init(base: ExperimentComparison, worlds: [(world: PlausibleWorld, comparison: ExperimentComparison?)]) {
        arm = base.arm
        kpi = base.kpi
        controlArm = base.controlArm
        let defined = worlds.compactMap { w in w.comparison?.diff.map { (w.world, $0) } }
        self.worlds = defined.count
        // The range over the worlds, the defaults' included (docs/report-spec.json).
        let range = defined.map(\.1) + (base.diff.map { [$0] } ?? [])
        low = range.min()
        high = range.max()
        guard let d0 = base.diff else { verdict = "undefined"; signShare = nil; return }
        let sign0 = d0 > 0 ? 1.0 : (d0 < 0 ? -1.0 : 0.0)
        let holds = defined.map { ($0.1 > 0 ? 1.0 : ($0.1 < 0 ? -1.0 : 0.0)) == sign0 }
        signShare = defined.isEmpty ? nil : Double(holds.filter { $0 }.count) / Double(defined.count)
        if let ci = base.paired, ci.lower <= 0, ci.upper >= 0 {
            verdict = "no difference"
        } else if sign0 == 0 {
            verdict = "no difference"
        } else if let s = signShare, s >= Self.robustShare {
            verdict = "robust"
        } else if defined.isEmpty {
            verdict = "undefined"
        } else {
            let separating = Self.separatingParameters(defined.map(\.0), flipped: holds.map { !$0 })
            verdict = separating.isEmpty ? "depends on the world" : "depends on " + separating.joined(separator: ", ")
        }
    }

    /// Parameters whose values correlate with the flip (|r| ≥ 0.3), strongest first, at most three.
    static func separatingParameters(_ worlds: [PlausibleWorld], flipped: [Bool]) -> [String] {
        let keys = Set(worlds.flatMap(\.values.keys)).sorted()
        let y = flipped.map { $0 ? 1.0 : 0.0 }
        var scored: [(String, Double)] = []
        for k in keys {
            let x = worlds.map { $0.values[k] ?? .nan }
            guard x.allSatisfy(\.isFinite), let r = correlation(x, y), abs(r) >= separatingCorrelation else { continue }
            scored.append((k, abs(r)))
        }
        return scored.sorted { $0.1 > $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }.prefix(3).map(\.0)
    }

    static func correlation(_ x: [Double], _ y: [Double]) -> Double? {
        let n = Double(x.count)
        guard x.count > 2 else { return nil }
        let mx = x.reduce(0, +) / n, my = y.reduce(0, +) / n
        var sxy = 0.0, sxx = 0.0, syy = 0.0
        for (a, b) in zip(x, y) { sxy += (a - mx) * (b - my); sxx += (a - mx) * (a - mx); syy += (b - my) * (b - my) }
        guard sxx > 0, syy > 0 else { return nil }
        return sxy / (sxx * syy).squareRoot()
    }
}

/// `robustness.csv`: every world's paired difference, arm and KPI, beside the defaults'.
public enum RobustnessTable {
    public static let header = ReportKeys.header + ["world", "kpi", "unit", "control_arm", "diff", "diff_ci_low", "diff_ci_high", "default_diff", "same_sign"]

    public static func rows(world: Int, comparisons: [ExperimentComparison], base: [String: ExperimentComparison],
                            keys: (String) -> ReportKeys) -> [[CSVField]] {
        comparisons.map { c in
            let d0 = base[key(c)]?.diff
            let same: CSVField = (c.diff).flatMap { d in d0.map { d0 in .flag((d > 0 && d0 > 0) || (d < 0 && d0 < 0) || (d == 0 && d0 == 0)) } } ?? .empty
            return keys(c.arm).fields + [.integer(Int64(world)), .text(c.kpi), .text(c.unit), .text(c.controlArm), .optional(c.diff, decimals: 6),
                                         .optional(c.paired?.lower, decimals: 6), .optional(c.paired?.upper, decimals: 6), .optional(d0, decimals: 6), same]
        }
    }

    /// The key of a comparison in `base`.
    public static func key(_ c: ExperimentComparison) -> String { key(arm: c.arm, control: c.controlArm, kpi: c.kpi) }

    /// The key of arm − control on `kpi`.
    public static func key(arm: String, control: String, kpi: String) -> String { "\(arm)\u{1F}\(control)\u{1F}\(kpi)" }
}
