import Foundation

/// A keyed source of random numbers for one purpose of one person, and the samplers Habitat draws from it.
///
/// A stream is a GSL `taus2` generator (L'Ecuyer's combined Tausworthe, period 2^88) whose 96-bit state is set
/// from `StreamKey.derivedSeed` (see `KeyMixing.taus2State`). taus2 was chosen over mt19937 because creating a
/// stream must be cheap — a simulation creates several per person, for hundreds of thousands of people — and
/// taus2 has 24 bytes of state against mt19937's 2.5 KB, while drawing at least as fast. Its state is set directly
/// rather than through `gsl_rng_set`, whose 32-bit seed would make collisions between a million streams likely.
///
/// Validation: the samplers check their parameters with `precondition` (a violated one is a programming error —
/// scenario validation rejects bad values before a run starts). Types built from scenario data
/// (`CategoricalTable`, `LognormalParameters`, `NonHomogeneousPoissonSampler`) throw `StochasticsError` instead.
///
/// Not `Sendable`: a stream's state changes with every draw. Create streams on the worker that uses them.
public final class RandomStream {
    /// The key this stream was derived from, or `nil` for a stream made from a raw seed.
    public let key: StreamKey?
    /// The underlying GSL generator.
    @usableFromInline let generator: GSLGenerator

    /// The stream for `key`.
    public init(key: StreamKey) {
        self.key = key
        let (a, b, c) = KeyMixing.taus2State(key.derivedSeed)
        self.generator = GSLGenerator(taus2State: a, b, c)
    }

    /// A stream seeded from a raw 64-bit value (benchmarks, tests). Simulation code uses `init(key:)`.
    public init(seed: UInt64) {
        self.key = nil
        let (a, b, c) = KeyMixing.taus2State(seed)
        self.generator = GSLGenerator(taus2State: a, b, c)
    }

    private init(key: StreamKey?, generator: GSLGenerator) {
        self.key = key
        self.generator = generator
    }

    /// An independent copy in the same state: it will produce the numbers this stream would produce next.
    public func copy() -> RandomStream { RandomStream(key: key, generator: generator.clone()) }

    // MARK: Raw and uniform

    /// The generator's next raw 32-bit output (`gsl_rng_get`).
    @inlinable public func nextUInt32() -> UInt32 { UInt32(truncatingIfNeeded: generator.nextRaw()) }

    /// Uniform on [0, 1) (`gsl_rng_uniform`).
    @inlinable public func uniform() -> Double { generator.uniform() }

    /// Uniform on (0, 1), never 0 (`gsl_rng_uniform_pos`).
    @inlinable public func uniformPositive() -> Double { generator.uniformPositive() }

    /// Uniform on [a, b) computed as `gsl_ran_flat` does: `a·(1−u) + b·u`. Requires finite a ≤ b.
    @inlinable public func uniform(from a: Double, to b: Double) -> Double {
        precondition(a.isFinite && b.isFinite && a <= b, "uniform(from: \(a), to: \(b)): need finite a <= b")
        let u = generator.uniform()
        return a * (1 - u) + b * u
    }

    /// A uniform integer in 0..<n, unbiased (`gsl_rng_uniform_int`). Requires 1 ≤ n ≤ 2^32.
    @inlinable public func uniformInt(below n: Int) -> Int {
        precondition(n >= 1 && n <= 1 << 32, "uniformInt(below: \(n)): need 1...2^32")
        return Int(generator.uniformInt(below: UInt(n)))
    }

    // MARK: Continuous and count distributions

    /// `true` with probability `p` (`gsl_ran_bernoulli`). Requires 0 ≤ p ≤ 1.
    @inlinable public func bernoulli(_ p: Double) -> Bool {
        precondition(p >= 0 && p <= 1, "bernoulli(\(p)): need 0 <= p <= 1")
        return generator.bernoulli(p) == 1
    }

    /// Exponential with the given rate (mean 1/rate) (`gsl_ran_exponential`). Requires a finite rate > 0.
    @inlinable public func exponential(rate: Double) -> Double {
        precondition(rate > 0 && rate.isFinite, "exponential(rate: \(rate)): need a finite rate > 0")
        return generator.exponential(mean: 1 / rate)
    }

    /// Exponential with the given mean (`gsl_ran_exponential`). Requires a finite mean > 0.
    @inlinable @inline(__always) public func exponential(mean: Double) -> Double {
        precondition(mean > 0 && mean.isFinite, "exponential(mean: \(mean)): need a finite mean > 0")
        return generator.exponential(mean: mean)
    }

    /// Poisson with the given mean (`gsl_ran_poisson`). Requires a finite mean ≥ 0 (mean 0 gives 0).
    @inlinable public func poisson(mean: Double) -> Int {
        precondition(mean >= 0 && mean.isFinite, "poisson(mean: \(mean)): need a finite mean >= 0")
        return mean == 0 ? 0 : Int(generator.poisson(mean: mean))
    }

    /// Normal (`gsl_ran_gaussian_ziggurat`). Requires a finite mean and a finite standard deviation ≥ 0.
    @inlinable public func normal(mean: Double, standardDeviation sd: Double) -> Double {
        precondition(mean.isFinite && sd >= 0 && sd.isFinite, "normal(mean: \(mean), standardDeviation: \(sd)): need finite mean, sd >= 0")
        return mean + generator.gaussianZiggurat(sigma: sd)
    }

    /// Log-normal: `exp(N(mu, sigma²))`, the normal drawn by `gsl_ran_gaussian_ziggurat` (about half the cost of
    /// `gsl_ran_lognormal`'s polar Box–Muller, which draws two normals and keeps one). Requires finite mu and
    /// finite sigma ≥ 0.
    @inlinable @inline(__always) public func lognormal(mu: Double, sigma: Double) -> Double {
        precondition(mu.isFinite && sigma >= 0 && sigma.isFinite, "lognormal(mu: \(mu), sigma: \(sigma)): need finite mu, sigma >= 0")
        return exp(mu + generator.gaussianZiggurat(sigma: sigma))
    }

    /// Log-normal with validated parameters (ziggurat normal, as `lognormal(mu:sigma:)`).
    @inlinable public func lognormal(_ parameters: LognormalParameters) -> Double {
        exp(parameters.mu + generator.gaussianZiggurat(sigma: parameters.sigma))
    }

    /// Gamma with the given shape k and scale θ (mean kθ, variance kθ²) (`gsl_ran_gamma`). Requires finite k, θ > 0.
    @inlinable public func gamma(shape: Double, scale: Double) -> Double {
        precondition(shape > 0 && shape.isFinite && scale > 0 && scale.isFinite, "gamma(shape: \(shape), scale: \(scale)): need finite shape, scale > 0")
        return generator.gamma(shape: shape, scale: scale)
    }

    /// Beta(a, b) on [0, 1] (`gsl_ran_beta`). Requires finite a, b > 0.
    @inlinable public func beta(_ a: Double, _ b: Double) -> Double {
        precondition(a > 0 && a.isFinite && b > 0 && b.isFinite, "beta(\(a), \(b)): need finite a, b > 0")
        return generator.beta(a, b)
    }

    // MARK: Discrete choice

    /// An index drawn with probability proportional to `weights[i]`, by one uniform and a linear scan
    /// (the cumulative sum is compared with `u · total`). Zero-weight entries are never chosen.
    /// Requires a non-empty array of finite, non-negative weights with a positive sum.
    /// For repeated draws from the same weights, build a `CategoricalTable` (O(1) per draw).
    public func categorical(weights: [Double]) -> Int {
        var total = 0.0
        for w in weights {
            precondition(w >= 0 && w.isFinite, "categorical(weights:): weight \(w) is not a finite non-negative number")
            total += w
        }
        precondition(total > 0, "categorical(weights:): the weights must have a positive sum")
        return Self.scan(weights, target: generator.uniform() * total)
    }

    /// `categorical(weights:)` with the weights checked and summed once by the caller (`Self.total(of:)`): the same
    /// uniform and the same scan, so the same index, without re-checking and re-summing the weights at every draw
    /// (issue 41: 230 instructions a draw for five fixed weights). `total` must be `Self.total(of: weights)`.
    @inlinable public func categorical(weights: [Double], total: Double) -> Int {
        Self.scan(weights, target: generator.uniform() * total)
    }

    /// The checked sum of categorical weights, in order, as `categorical(weights:)` computes it.
    public static func total(of weights: [Double]) -> Double {
        var total = 0.0
        for w in weights {
            precondition(w >= 0 && w.isFinite, "categorical(weights:): weight \(w) is not a finite non-negative number")
            total += w
        }
        precondition(total > 0, "categorical(weights:): the weights must have a positive sum")
        return total
    }

    /// An index drawn from a preprocessed table (`gsl_ran_discrete`, Walker's alias method, O(1)).
    public func categorical(_ table: CategoricalTable) -> Int { generator.discrete(table.storage) }

    /// A multinomial-logit choice: index i with probability `exp(uᵢ/T) / Σⱼ exp(uⱼ/T)` (see `Choice.logitProbabilities`).
    /// Utilities of `-infinity` mark unavailable options. Requires at least one finite utility, no NaN or +∞,
    /// and a finite temperature T > 0. One uniform per call.
    public func logitChoice(utilities: [Double], temperature: Double = 1) -> Int {
        let (weights, total) = Choice.logitWeights(utilities, temperature: temperature)
        return Self.scan(weights, target: generator.uniform() * total)
    }

    /// The first index whose cumulative weight exceeds `target`; the last positive-weight index if rounding
    /// leaves `target` at or beyond the total.
    @usableFromInline static func scan(_ weights: [Double], target: Double) -> Int {
        var cumulative = 0.0
        var lastPositive = 0
        for (i, w) in weights.enumerated() where w > 0 {
            cumulative += w
            lastPositive = i
            if target < cumulative { return i }
        }
        return lastPositive
    }
}

@available(*, unavailable, message: "a random stream's state changes with every draw; create it on the worker that uses it")
extension RandomStream: Sendable {}
