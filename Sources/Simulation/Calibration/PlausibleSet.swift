import Foundation
import Reports
import Stochastics

/// History matching (Craig et al. 1997; Vernon, Goldstein & Bower 2010, "Galaxy formation: a Bayesian uncertainty
/// analysis", Bayesian Analysis 5): instead of one best point, every parameter vector the published figures cannot
/// rule out (`habitat calibrate … --plausible N`).
///
/// A world x is *implausible* for figure j when
///
///     I_j(x) = |z_j − f_j(x)| / √(V_obs,j + V_md,j + V_sim,j(x))  >  cutoff (3: Pukelsheim's three-sigma rule)
///
/// * z_j, V_obs,j — the published range's midpoint; the range read as ±2 standard deviations: sd = width / 4.
/// * V_md,j — the model discrepancy, stated: `discrepancy` × the range's half-width, as a standard deviation
///   (Habitat's people are a model; a figure it cannot meet exactly is not a reason to rule a world out).
/// * V_sim,j(x) — the simulator's own noise at x: its replicate variance of the mean, from the run's 95 % interval.
///
/// A world is ruled out when its `criterion`-th largest implausibility (the second by default, Vernon et al.: one
/// figure the model misses structurally does not rule out every world) exceeds the cutoff. Waves refine the search:
/// wave 1 covers the prior with a scrambled Sobol sequence (and the defaults), each later wave moves worlds not ruled
/// out by normal steps as wide as their spread (a sequential Monte Carlo step, as in ABC-SMC: Beaumont et al. 2009),
/// so the search concentrates where plausible worlds are without assuming the space is a box. Every world is
/// simulated (no emulator: at a second or two a world on common random numbers, direct runs are cheaper than an
/// emulator's fitting and validation at the sizes used here). The widths reported are the extents of the worlds
/// found not ruled out: a lower bound on the true extent, tighter with more worlds.
public struct PlausibleSet {
    public let parameters: [SensitivityParameter]
    public let targets: [CalibrationTarget]
    public var cutoff = 3.0
    /// Model discrepancy as a share of each target range's half-width (a standard deviation). Assumption: 0.5.
    public var discrepancy = 0.5
    /// 1: every figure must be within the cutoff; 2: all but the worst one (default); 3: all but the worst two.
    public var criterion = 2
    public var seed: UInt64 = 20_261_129
    /// Simulates a world: the parameters' values, aligned with `parameters` (as `Calibration.evaluate` takes them).
    let simulate: ([Double]) throws -> [WorldCheckRow]

    public init(parameters: [SensitivityParameter], targets: [CalibrationTarget], simulate: @escaping ([Double]) throws -> [WorldCheckRow]) {
        self.parameters = parameters
        self.targets = targets
        self.simulate = simulate
    }

    /// One simulated world.
    public struct World: Sendable {
        public var wave: Int
        public var values: [Double]
        /// Each target's simulated mean (nil: not measured in this run).
        public var figures: [Double?]
        /// Each target's implausibility (nil: not measured).
        public var implausibility: [Double?]
        /// The largest and second-largest implausibility over the measured targets.
        public var maxImplausibility: Double
        public var secondImplausibility: Double
        public var criterionImplausibility: Double
        public var plausible: Bool
    }

    /// One wave's summary.
    public struct Wave: Sendable {
        public var number: Int
        public var points: Int
        public var nonImplausible: Int
    }

    /// The implausibility of `row`'s mean against `target`.
    public func implausibility(_ target: CalibrationTarget, _ row: WorldCheckRow) -> Double? {
        guard row.applies == WorldCheckRow.applicable, let m = row.mean, m.isFinite else { return nil }
        let z = (target.low + target.high) / 2
        let half = max((target.high - target.low) / 2, 1e-9)
        let vObs = pow((target.high - target.low) / 4, 2)
        let vMd = pow(discrepancy * half, 2)
        var vSim = 0.0
        if let lo = row.ciLow, let hi = row.ciHigh, hi > lo { vSim = pow((hi - lo) / (2 * 1.959963984540054), 2) }
        return abs(z - m) / max((vObs + vMd + vSim).squareRoot(), 1e-12)
    }

    /// Runs up to `waves` waves, stopping early once `wanted` worlds are not ruled out in a wave that found no new
    /// region (every parameter's extent grew by under 5 %); `onWorld` sees every world. `start` (the defaults) is the
    /// first world of wave 1.
    public func run(wanted: Int, waves: Int, pointsPerWave: Int, start: [Double]? = nil,
                    onWorld: (World, Int) -> Void) throws -> (worlds: [World], waves: [Wave]) {
        let prior = parameters.map { $0.lower...$0.upper }
        var all: [World] = []
        var summaries: [Wave] = []
        guard var sequence = SobolSequence(dimension: parameters.count, seed: seed) else {
            throw NelderMead.Failure(description: "a plausible set takes at most \(GSLSobolGenerator.maxDimension) parameters")
        }
        for w in 1...max(1, waves) {
            // Wave 1: the prior, through a scrambled Sobol sequence (and the defaults). Later waves: each point a world
            // not ruled out so far (taken in turn), moved by a normal step as wide as those worlds spread along each
            // parameter — at least a tenth of the prior — kept inside the prior: the space not ruled out is explored
            // where it was found, not collapsed to a box around the few worlds that first landed in it.
            let kept = all.filter(\.plausible)
            let basis = kept.isEmpty ? Array(all.sorted { $0.criterionImplausibility < $1.criterionImplausibility }.prefix(max(2, all.count / 10))) : kept
            let steps = parameters.indices.map { i -> Double in
                let x = basis.map { $0.values[i] }
                let width = prior[i].upperBound - prior[i].lowerBound
                return max(Summary(x).standardDeviation ?? 0, 0.1 * width)
            }
            let noise = RandomStream(seed: seed &+ UInt64(w) &* 0x9E37_79B9)
            var plausibleHere = 0
            let before = extents(kept)
            for k in 0..<pointsPerWave {
                try StopRequest.checkpoint()
                var values: [Double]
                if w == 1 {
                    if k == 0, let start { values = zip(prior, start).map { min(max($1, $0.lowerBound), $0.upperBound) } } else {
                        values = zip(prior, sequence.next()).map { $0.lowerBound + $1 * ($0.upperBound - $0.lowerBound) }
                    }
                } else {
                    let origin = basis[k % basis.count].values
                    values = parameters.indices.map { i in
                        min(max(origin[i] + noise.normal(mean: 0, standardDeviation: steps[i]), prior[i].lowerBound), prior[i].upperBound)
                    }
                }
                let rows = try simulate(values)
                var figures: [Double?] = [], imp: [Double?] = []
                for t in targets {
                    let row = rows.first { $0.figure.id == t.figure }
                    figures.append(row.flatMap { $0.applies == WorldCheckRow.applicable ? $0.mean : nil })
                    imp.append(row.flatMap { implausibility(t, $0) })
                }
                let sorted = imp.compactMap { $0 }.sorted(by: >)
                let maxI = sorted.first ?? .infinity
                let second = sorted.count > 1 ? sorted[1] : maxI
                let crit = sorted.isEmpty ? Double.infinity : sorted[min(criterion, sorted.count) - 1]
                let world = World(wave: w, values: values, figures: figures, implausibility: imp, maxImplausibility: maxI,
                                  secondImplausibility: second, criterionImplausibility: crit, plausible: crit <= cutoff)
                if world.plausible { plausibleHere += 1 }
                all.append(world)
                onWorld(world, all.count)
            }
            summaries.append(Wave(number: w, points: pointsPerWave, nonImplausible: plausibleHere))
            // Converged: enough worlds, and this wave widened no parameter's extent by 5 % of the prior.
            let kept2 = all.filter(\.plausible)
            if kept2.count >= wanted, let b = before, let a = extents(kept2),
               !zip(zip(a, b), prior).contains(where: { pair, p in
                   (pair.0.upperBound - pair.0.lowerBound) - (pair.1.upperBound - pair.1.lowerBound) > 0.05 * (p.upperBound - p.lowerBound) }) {
                break
            }
        }
        return (all, summaries)
    }

    /// Each parameter's extent over `worlds` (nil for none).
    func extents(_ worlds: [World]) -> [ClosedRange<Double>]? {
        guard !worlds.isEmpty else { return nil }
        return parameters.indices.map { i in worlds.map { $0.values[i] }.min()!...worlds.map { $0.values[i] }.max()! }
    }

    /// How wide the worlds not ruled out among `worlds` are along each parameter; `defaults` aligned with `parameters`.
    public func widths(_ worlds: [World], defaults: [Double]) -> [PlausibleWidth] {
        let extent = extents(worlds.filter(\.plausible))
        return parameters.indices.map { PlausibleWidth(parameter: parameters[$0], defaultValue: defaults[$0], extent: extent?[$0]) }
    }
}

/// How wide the plausible set is along one parameter (`plausible-widths.csv`).
public struct PlausibleWidth: Sendable {
    public var parameter: SensitivityParameter
    public var defaultValue: Double
    public var low: Double?
    public var high: Double?
    /// (high − low) / the prior's width.
    public var share: Double? { low.flatMap { l in high.map { ($0 - l) / (parameter.upper - parameter.lower) } } }
    /// `pinned` (under a quarter of the prior), `narrowed` (under three quarters) or `wide`.
    public var verdict: String {
        guard let s = share else { return "no plausible world" }
        return s < 0.25 ? "pinned" : (s < 0.75 ? "narrowed" : "wide")
    }

    /// `extent`: the plausible worlds' extent along the parameter (nil: no world is plausible).
    public init(parameter: SensitivityParameter, defaultValue: Double, extent: ClosedRange<Double>?) {
        self.parameter = parameter
        self.defaultValue = defaultValue
        low = extent?.lowerBound
        high = extent?.upperBound
    }
}

extension PlausibleSet {
    /// At most `n` of the worlds not ruled out, spread evenly over them in the order they were simulated (later waves,
    /// sampled near earlier plausible worlds, are as valid as the first: a world is plausible or not on its own figures).
    public static func select(_ worlds: [World], count n: Int) -> [World] {
        let kept = worlds.filter(\.plausible)
        guard kept.count > n else { return kept }
        return (0..<n).map { kept[$0 * kept.count / n] }
    }
}
