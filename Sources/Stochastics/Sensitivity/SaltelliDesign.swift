import Foundation

/// Saltelli's design for first-order and total Sobol indices (Saltelli et al. 2010, "Variance based sensitivity
/// analysis of model output", Comput. Phys. Commun. 181): two independent N × D matrices A and B from one 2D-
/// dimensional scrambled Sobol sequence (A its first D coordinates, B the rest), and for each parameter i the matrix
/// AB⁽ⁱ⁾ — A with column i taken from B. N(D + 2) model runs.
///
/// Rows are laid out as SALib's `sobol.sample(calc_second_order=False)` lays them out, so SALib's `sobol.analyze`
/// reads the same outputs: for each base row j, A_j, AB⁽¹⁾_j … AB⁽ᴰ⁾_j, B_j.
public struct SaltelliDesign: Sendable {
    /// Parameters (columns).
    public let dimension: Int
    /// Base rows (N).
    public let baseRows: Int
    /// Every design point in the unit hypercube, in SALib's order: N blocks of D + 2 rows.
    public let points: [[Double]]

    /// The most parameters a Saltelli design takes here (GSL's Sobol sequence has 40 dimensions, the design 2D).
    public static let maxDimension = GSLSobolGenerator.maxDimension / 2

    /// nil when `dimension` is outside 1…20 or `baseRows` < 2. `seed` scrambles the sequence (`SobolSequence`).
    public init?(dimension: Int, baseRows: Int, seed: UInt64) {
        guard (1...Self.maxDimension).contains(dimension), baseRows >= 2,
              var sequence = SobolSequence(dimension: 2 * dimension, seed: seed) else { return nil }
        self.dimension = dimension
        self.baseRows = baseRows
        var rows: [[Double]] = []
        rows.reserveCapacity(baseRows * (dimension + 2))
        for _ in 0..<baseRows {
            let x = sequence.next()
            let a = Array(x[0..<dimension]), b = Array(x[dimension...])
            rows.append(a)
            for i in 0..<dimension {
                var ab = a
                ab[i] = b[i]
                rows.append(ab)
            }
            rows.append(b)
        }
        points = rows
    }
}

/// First-order and total Sobol indices of one output, with bootstrap intervals.
public struct SobolIndices: Sendable, Hashable {
    /// First-order index Sᵢ (Saltelli et al. 2010, eq. (b) of table 2): mean(f(B)·(f(AB⁽ⁱ⁾) − f(A))) / V, f centred on
    /// the mean of every output (SALib's convention).
    public var firstOrder: [Double]
    /// Total index Sᴛᵢ (Jansen 1999): mean((f(A) − f(AB⁽ⁱ⁾))²) / 2V.
    public var total: [Double]
    /// 95 % bootstrap percentile intervals (resampling the base rows).
    public var firstOrderInterval: [ClosedRange<Double>]
    public var totalInterval: [ClosedRange<Double>]
    /// SALib's `S1_conf` and `ST_conf`: 1.96 × the bootstrap standard deviation.
    public var firstOrderConf: [Double]
    public var totalConf: [Double]
    /// V: the variance of f over A and B together (population variance, as SALib).
    public var variance: Double
    public var mean: Double

    /// The indices of `outputs` (one per design point, in `design`'s order), with `resamples` bootstrap resamples
    /// drawn from `seed`. A constant output (V = 0: nothing the parameters do moves it) has every index 0.
    public init(design: SaltelliDesign, outputs: [Double], resamples: Int = 1000, seed: UInt64 = 1) {
        let d = design.dimension, n = design.baseRows
        precondition(outputs.count == n * (d + 2), "one output per design point")
        // Centred on the mean of every output, as SALib's `sobol.analyze` does (it standardises Y): Saltelli's
        // first-order estimator is not shift-invariant, and on an uncentred output its variance grows with the mean².
        let centre = outputs.reduce(0, +) / Double(outputs.count)
        var a = [Double](), b = [Double](), ab = [[Double]](repeating: [], count: d)
        for j in 0..<n {
            let block = j * (d + 2)
            a.append(outputs[block] - centre)
            for i in 0..<d { ab[i].append(outputs[block + 1 + i] - centre) }
            b.append(outputs[block + d + 1] - centre)
        }
        let all = a + b
        mean = all.reduce(0, +) / Double(all.count) + centre
        variance = Summary(all).populationVariance ?? 0
        func estimate(_ rows: [Int]) -> (first: [Double], total: [Double]) {
            let v = Summary(rows.map { a[$0] } + rows.map { b[$0] }).populationVariance ?? 0
            guard v > 0 else { return (Array(repeating: 0, count: d), Array(repeating: 0, count: d)) }
            var first = [Double](), total = [Double]()
            let m = Double(rows.count)
            for i in 0..<d {
                var s1 = 0.0, st = 0.0
                for r in rows {
                    s1 += b[r] * (ab[i][r] - a[r])
                    st += (a[r] - ab[i][r]) * (a[r] - ab[i][r])
                }
                first.append(s1 / m / v)
                total.append(0.5 * st / m / v)
            }
            return (first, total)
        }
        let point = estimate(Array(0..<n))
        firstOrder = point.first
        total = point.total
        let stream = RandomStream(seed: seed)
        var boot1 = [[Double]](repeating: [], count: d), bootT = [[Double]](repeating: [], count: d)
        for _ in 0..<max(0, resamples) {
            let rows = (0..<n).map { _ in stream.uniformInt(below: n) }
            let e = estimate(rows)
            for i in 0..<d { boot1[i].append(e.first[i]); bootT[i].append(e.total[i]) }
        }
        firstOrderInterval = (0..<d).map { Self.percentileInterval(boot1[$0], fallback: point.first[$0]) }
        totalInterval = (0..<d).map { Self.percentileInterval(bootT[$0], fallback: point.total[$0]) }
        firstOrderConf = (0..<d).map { 1.959963984540054 * (Summary(boot1[$0]).standardDeviation ?? 0) }
        totalConf = (0..<d).map { 1.959963984540054 * (Summary(bootT[$0]).standardDeviation ?? 0) }
    }

    /// The 2.5 % and 97.5 % quantiles (type 7, `SampleQuantiles`, as numpy's default) of `x`; `fallback` twice when
    /// `x` is empty.
    public static func percentileInterval(_ x: [Double], fallback: Double) -> ClosedRange<Double> {
        guard let q = SampleQuantiles(x).quantiles([0.025, 0.975]) else { return fallback...fallback }
        return q[0]...q[1]
    }
}
