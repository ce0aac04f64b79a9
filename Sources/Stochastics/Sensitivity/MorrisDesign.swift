import Foundation

/// Morris's elementary-effects design (Morris 1991, "Factorial sampling plans for preliminary computational
/// experiments", Technometrics 33; μ* from Campolongo, Cariboni & Saltelli 2007): r trajectories of D + 1 points on a
/// p-level grid of the unit hypercube, each moving one parameter at a time by Δ = p / (2(p − 1)), in a random order
/// and direction. r(D + 1) runs screen many parameters; it ranks, it does not apportion variance.
///
/// Rows are laid out as SALib's `morris.sample` lays them out (trajectory after trajectory), so SALib's
/// `morris.analyze` reads the same inputs and outputs.
public struct MorrisDesign: Sendable {
    public let dimension: Int
    public let trajectories: Int
    /// Grid levels p (even; 4 by default, SALib's default).
    public let levels: Int
    /// Δ = p / (2(p − 1)).
    public var delta: Double { Double(levels) / (2 * Double(levels - 1)) }
    /// Every design point in the unit hypercube: `trajectories` blocks of D + 1 rows.
    public let points: [[Double]]

    /// nil unless `dimension` ≥ 1, `trajectories` ≥ 2 and `levels` an even number ≥ 2. `seed` draws the starts,
    /// orders and directions.
    public init?(dimension: Int, trajectories: Int, levels: Int = 4, seed: UInt64) {
        guard dimension >= 1, trajectories >= 2, levels >= 2, levels % 2 == 0 else { return nil }
        self.dimension = dimension
        self.trajectories = trajectories
        self.levels = levels
        let stream = RandomStream(seed: seed)
        let step = Double(levels) / (2 * Double(levels - 1))
        var rows: [[Double]] = []
        for _ in 0..<trajectories {
            // A start on the grid {0, 1/(p−1), …, 1}; a parameter in the lower half moves up by Δ, one in the upper
            // half down, so every point stays on the grid inside the cube.
            var x = (0..<dimension).map { _ in Double(stream.uniformInt(below: levels)) / Double(levels - 1) }
            rows.append(x)
            var order = Array(0..<dimension)
            for i in stride(from: dimension - 1, to: 0, by: -1) { order.swapAt(i, stream.uniformInt(below: i + 1)) }
            for i in order {
                x[i] = x[i] + step <= 1 + 1e-12 ? x[i] + step : x[i] - step
                x[i] = min(max(x[i], 0), 1)
                rows.append(x)
            }
        }
        points = rows
    }
}

/// μ*, μ and σ of each parameter's elementary effects on one output.
public struct MorrisEffects: Sendable, Hashable {
    /// Mean absolute elementary effect (Campolongo et al. 2007): how much the parameter matters.
    public var muStar: [Double]
    /// Mean elementary effect: its direction (effects of both signs cancel here, not in μ*).
    public var mu: [Double]
    /// Standard deviation of the effects (n − 1): non-linearity or interaction.
    public var sigma: [Double]
    /// 95 % bootstrap percentile interval of μ* (resampling trajectories).
    public var muStarInterval: [ClosedRange<Double>]
    /// SALib's `mu_star_conf`: 1.96 × the bootstrap standard deviation of μ*.
    public var muStarConf: [Double]
    /// Elementary effects [trajectory][parameter]: (f(x + Δeᵢ) − f(x)) / Δ in the unit cube's scale, so effects of
    /// parameters with different ranges compare (SALib's convention).
    public var effects: [[Double]]

    public init(design: MorrisDesign, outputs: [Double], resamples: Int = 1000, seed: UInt64 = 1) {
        let d = design.dimension
        precondition(outputs.count == design.trajectories * (d + 1), "one output per design point")
        var ee: [[Double]] = []
        for t in 0..<design.trajectories {
            var row = [Double](repeating: 0, count: d)
            for s in 0..<d {
                let k = t * (d + 1) + s
                let before = design.points[k], after = design.points[k + 1]
                guard let i = (0..<d).first(where: { before[$0] != after[$0] }) else { continue }
                let up = after[i] > before[i]
                // The effect of raising parameter i by Δ: (higher point − lower point) / Δ.
                row[i] = (up ? outputs[k + 1] - outputs[k] : outputs[k] - outputs[k + 1]) / design.delta
            }
            ee.append(row)
        }
        effects = ee
        let r = Double(ee.count)
        mu = (0..<d).map { i in ee.reduce(0) { $0 + $1[i] } / r }
        muStar = (0..<d).map { i in ee.reduce(0) { $0 + abs($1[i]) } / r }
        sigma = (0..<d).map { i in Summary(ee.map { $0[i] }).standardDeviation ?? 0 }
        let stream = RandomStream(seed: seed)
        var boot = [[Double]](repeating: [], count: d)
        for _ in 0..<max(0, resamples) {
            let rows = (0..<ee.count).map { _ in stream.uniformInt(below: ee.count) }
            for i in 0..<d { boot[i].append(rows.reduce(0) { $0 + abs(ee[$1][i]) } / r) }
        }
        let star = muStar
        muStarInterval = (0..<d).map { SobolIndices.percentileInterval(boot[$0], fallback: star[$0]) }
        muStarConf = (0..<d).map { 1.959963984540054 * (Summary(boot[$0]).standardDeviation ?? 0) }
    }
}
