// The one door to C: the only Swift file in Habitat that imports CGSL (docs/DESIGN.md, "Style").
// Everything GSL-specific — generator handles, status codes, the error handler — stays in this file;
// the rest of Stochastics speaks Swift.
import CGSL

// MARK: - Error handling

/// A failure reported by the GNU Scientific Library through a status code.
///
/// GSL's default error handler aborts the process. Habitat turns that handler off once, before the first
/// GSL call it makes, so that functions returning a status report it here instead. Functions that return
/// a value rather than a status (most `gsl_cdf_*`) return `NaN` for invalid arguments once the handler is off;
/// the Swift wrappers document where that happens.
public struct GSLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The GSL status code (`GSL_EDOM`, `GSL_EINVAL`, …; see `gsl_errno.h`).
    public let code: Int32
    /// GSL's own text for the code (`gsl_strerror`).
    public let reason: String
    /// The GSL function that reported the status.
    public let function: String

    /// `GSL_EDOM`: input domain error, e.g. sqrt(-1).
    public static let domainErrorCode: Int32 = Int32(GSL_EDOM)
    /// `GSL_EINVAL`: invalid argument supplied by user.
    public static let invalidArgumentCode: Int32 = Int32(GSL_EINVAL)

    /// Wraps a non-success GSL status code reported by `function`.
    public init(code: Int32, function: String) {
        GSL.configure()
        self.code = code
        self.function = function
        if let text = gsl_strerror(code) { self.reason = String(cString: text) } else { self.reason = "unknown GSL status \(code)" }
    }

    public var description: String { "\(function) failed: \(reason) (GSL status \(code))" }
}

/// Process-wide GSL set-up and the value-returning GSL functions Stochastics uses.
enum GSL {
    /// Runs exactly once per process, thread-safely (Swift's lazy global initialisation):
    /// turns GSL's abort-on-error handler off and checks the shim's taus2 state-layout assumption.
    private static let setUp: Void = {
        habitat_gsl_error_handler_off()
        precondition(taus2LayoutMatchesGSL(), "GSL's taus2 state layout differs from CGSL/shim.h's habitat_taus_state_t")
    }()

    /// Makes sure `setUp` has run. Cheap after the first call.
    @inline(__always) static func configure() { _ = setUp }

    /// Throws `GSLError` for any status other than `GSL_SUCCESS`.
    @inline(__always)
    static func check(_ status: Int32, _ function: String) throws(GSLError) {
        if status != Int32(GSL_SUCCESS) { throw GSLError(code: status, function: function) }
    }

    /// Quantile of Student's t distribution (`gsl_cdf_tdist_Pinv`). `NaN` for invalid arguments.
    static func studentTQuantile(_ p: Double, degreesOfFreedom nu: Double) -> Double {
        configure()
        return gsl_cdf_tdist_Pinv(p, nu)
    }

    /// Quantile of the standard normal distribution (`gsl_cdf_ugaussian_Pinv`). `NaN` for invalid arguments.
    static func standardNormalQuantile(_ p: Double) -> Double {
        configure()
        return gsl_cdf_ugaussian_Pinv(p)
    }

    /// Quantile of the chi-squared distribution (`gsl_cdf_chisq_Pinv`). `NaN` for invalid arguments.
    static func chiSquaredQuantile(_ p: Double, degreesOfFreedom nu: Double) -> Double {
        configure()
        return gsl_cdf_chisq_Pinv(p, nu)
    }

    /// Type-7 quantile of ascending data (`gsl_stats_quantile_from_sorted_data`); `NaN` when empty.
    static func quantileOfSorted(_ sorted: UnsafeBufferPointer<Double>, _ p: Double) -> Double {
        guard let base = sorted.baseAddress, sorted.count > 0 else { return .nan }
        return gsl_stats_quantile_from_sorted_data(base, 1, sorted.count, p)
    }

    /// Whether `habitat_taus2_set_state` reproduces `gsl_rng_set` when given the seeds GSL's taus2 seeding
    /// derives (three chained LCG steps) — i.e. whether the shim's view of the private taus state is right.
    static func taus2LayoutMatchesGSL() -> Bool {
        guard let a = gsl_rng_alloc(habitat_rng_type_taus2()), let b = gsl_rng_alloc(habitat_rng_type_taus2()) else { return false }
        defer { gsl_rng_free(a); gsl_rng_free(b) }
        let seed: UInt = 20261122
        gsl_rng_set(a, seed)
        func lcg(_ n: UInt) -> UInt { (69069 &* n) & 0xffff_ffff }
        var s1 = lcg(seed); if s1 < 2 { s1 += 2 }
        var s2 = lcg(s1); if s2 < 8 { s2 += 8 }
        var s3 = lcg(s2); if s3 < 16 { s3 += 16 }
        guard habitat_taus2_set_state(b, UInt32(s1), UInt32(s2), UInt32(s3)) == Int32(GSL_SUCCESS) else { return false }
        for _ in 0..<16 where habitat_rng_get(a) != habitat_rng_get(b) { return false }
        return true
    }
}

// MARK: - Generator

/// An owned GSL random number generator (`gsl_rng *`) and the GSL samplers Stochastics draws from it.
///
/// Not thread-safe and deliberately not `Sendable`: a generator's state changes on every draw, so it belongs
/// to one person's simulation on one worker at a time. Create generators where they are used (they are cheap;
/// see `RandomStream`). Parameters are not validated here — callers (`RandomStream`) check them.
public final class GSLGenerator {
    /// The GSL generator algorithms Habitat may use.
    public enum Kind: String, Sendable, CaseIterable {
        /// `gsl_rng_taus2`: L'Ecuyer's maximally equidistributed combined Tausworthe, period 2^88, 24 bytes of state.
        /// Fast to draw and to seed; the generator behind every `RandomStream`.
        case taus2
        /// `gsl_rng_mt19937`: Mersenne Twister, period 2^19937−1, 2.5 KB of state (slow to seed).
        case mt19937
        /// `gsl_rng_ranlxd2`: RANLUX double precision, luxury level 2 — high quality, slow.
        case ranlxd2
    }

    @usableFromInline let rng: UnsafeMutablePointer<gsl_rng>
    /// The algorithm.
    public let kind: Kind
    /// `kind == .taus2`: draws take the inlined taus2 step (`habitat_taus2_get`) instead of GSL's function pointer.
    @usableFromInline let isTaus2: Bool

    private init(kind: Kind) {
        GSL.configure()
        let type: UnsafePointer<gsl_rng_type>
        switch kind {
        case .taus2: type = habitat_rng_type_taus2()
        case .mt19937: type = habitat_rng_type_mt19937()
        case .ranlxd2: type = habitat_rng_type_ranlxd2()
        }
        guard let r = gsl_rng_alloc(type) else { fatalError("gsl_rng_alloc failed: out of memory") }
        self.rng = r
        self.kind = kind
        self.isTaus2 = kind == .taus2
    }

    /// A generator seeded through `gsl_rng_set`. GSL's generators take at most 32 bits of seed, so the 64-bit
    /// `seed` is folded to 32 bits (`hi ^ lo`); prefer `init(taus2State:_:_:)` when distinct seeds must stay distinct.
    public convenience init(kind: Kind, seed: UInt64) {
        self.init(kind: kind)
        gsl_rng_set(rng, UInt(truncatingIfNeeded: (seed >> 32) ^ (seed & 0xffff_ffff)))
    }

    /// A taus2 generator whose three 32-bit state components are set directly (96 bits of seed), with GSL's
    /// validity fix-ups (s1 ≥ 2, s2 ≥ 8, s3 ≥ 16) and six warm-up steps.
    public convenience init(taus2State a: UInt32, _ b: UInt32, _ c: UInt32) {
        self.init(kind: .taus2)
        let status = habitat_taus2_set_state(rng, a, b, c)
        precondition(status == Int32(GSL_SUCCESS), "habitat_taus2_set_state: not a taus2 generator")
    }

    deinit { gsl_rng_free(rng) }

    /// An independent copy with the same state (`gsl_rng_memcpy` into a fresh generator).
    public func clone() -> GSLGenerator {
        let copy = GSLGenerator(kind: kind)
        _ = gsl_rng_memcpy(copy.rng, rng)  // same type: cannot fail
        return copy
    }

    /// Overwrites this generator's state with `other`'s (`gsl_rng_memcpy`).
    /// - Throws: `GSLError` with `GSL_EINVAL` when the two generators are of different kinds.
    public func copyState(from other: GSLGenerator) throws(GSLError) {
        try GSL.check(gsl_rng_memcpy(rng, other.rng), "gsl_rng_memcpy")
    }

    /// GSL's name for the algorithm (`gsl_rng_name`), e.g. `"taus2"`.
    public var name: String { String(cString: gsl_rng_name(rng)) }

    // MARK: Draws (thin wrappers; no validation)
    //
    // The draws on every pickup's path (uniform, exponential, the ziggurat normal, gamma, beta) are `@inlinable`: their
    // callers in other modules (the pickup process, the task process) inline them instead of calling through a
    // function that only forwards to the C shim (issue 41). `RandomStream.exponential(mean:)` and
    // `lognormal(mu:sigma:)` are `@inline(__always)` with them: with these bodies inside, the optimiser otherwise left
    // those two out of line, their checks no longer folded (+2.6 % instructions for an untreated day, measured).

    /// Raw output (`gsl_rng_get`); in [0, 2^32) for taus2 and mt19937.
    @inline(__always) public func nextRaw() -> UInt64 { UInt64(isTaus2 ? habitat_taus2_get(rng) : habitat_rng_get(rng)) }
    /// Uniform on [0, 1) (`gsl_rng_uniform`).
    @inlinable @inline(__always) public func uniform() -> Double { isTaus2 ? habitat_taus2_uniform(rng) : habitat_rng_uniform(rng) }
    /// Raw output through GSL's own generator function (`gsl_rng_get`), bypassing the inlined taus2 step; for tests.
    public func nextRawThroughGSL() -> UInt64 { UInt64(gsl_rng_get(rng)) }
    /// Uniform on (0, 1) (`gsl_rng_uniform_pos`).
    @inline(__always) public func uniformPositive() -> Double { gsl_rng_uniform_pos(rng) }
    /// Uniform integer in [0, n), 1 ≤ n ≤ 2^32 (`gsl_rng_uniform_int`).
    @inline(__always) public func uniformInt(below n: UInt) -> UInt { gsl_rng_uniform_int(rng, n) }
    /// Exponential with the given mean: GSL's inverse transform as `-mean·log(1 − u)` (`habitat_ran_exponential`),
    /// equal to `gsl_ran_exponential` up to rounding and twice as fast.
    @inlinable @inline(__always) public func exponential(mean: Double) -> Double { isTaus2 ? habitat_taus2_exponential(rng, mean) : habitat_ran_exponential(rng, mean) }
    /// Exponential with the given mean, through `gsl_ran_exponential` itself (`-mean·log1p(−u)`).
    @inline(__always) public func exponentialGSL(mean: Double) -> Double { gsl_ran_exponential(rng, mean) }
    /// Poisson with the given mean (`gsl_ran_poisson`).
    @inline(__always) public func poisson(mean: Double) -> UInt32 { gsl_ran_poisson(rng, mean) }
    /// Normal with mean 0 and standard deviation `sigma` (`gsl_ran_gaussian_ziggurat`).
    @inlinable @inline(__always) public func gaussianZiggurat(sigma: Double) -> Double { gsl_ran_gaussian_ziggurat(rng, sigma) }
    /// Log-normal with log-mean `zeta` and log-sd `sigma` (`gsl_ran_lognormal`).
    @inline(__always) public func lognormal(zeta: Double, sigma: Double) -> Double { gsl_ran_lognormal(rng, zeta, sigma) }
    /// Gamma with shape `a` and scale `b` (`gsl_ran_gamma`).
    @inlinable @inline(__always) public func gamma(shape a: Double, scale b: Double) -> Double { gsl_ran_gamma(rng, a, b) }
    /// Beta(a, b) (`gsl_ran_beta`).
    @inlinable @inline(__always) public func beta(_ a: Double, _ b: Double) -> Double { gsl_ran_beta(rng, a, b) }
    /// 1 with probability p, else 0 (`gsl_ran_bernoulli`).
    @inline(__always) public func bernoulli(_ p: Double) -> UInt32 { gsl_ran_bernoulli(rng, p) }
    /// An index drawn from a preprocessed discrete table (`gsl_ran_discrete`).
    @inline(__always) func discrete(_ table: GSLDiscreteTable) -> Int { Int(gsl_ran_discrete(rng, table.table)) }
}

@available(*, unavailable, message: "a GSL generator's state is mutated by every draw; keep it on one thread")
extension GSLGenerator: Sendable {}

// MARK: - Discrete table

/// An owned `gsl_ran_discrete_t` (Walker's alias table).
///
/// `@unchecked Sendable` is justified: the table is written once by `gsl_ran_discrete_preproc` and afterwards
/// only read by `gsl_ran_discrete` and `gsl_ran_discrete_pdf`; nothing mutates it until `deinit`.
final class GSLDiscreteTable: @unchecked Sendable {
    let table: UnsafeMutablePointer<gsl_ran_discrete_t>
    /// Number of categories.
    let count: Int

    /// Builds the table. Callers check the weights first (finite, non-negative, positive sum).
    /// - Throws: `GSLError` (`GSL_EINVAL`) if GSL nevertheless rejects them.
    init(weights: [Double]) throws(GSLError) {
        GSL.configure()
        let made = weights.withUnsafeBufferPointer { gsl_ran_discrete_preproc($0.count, $0.baseAddress) }
        guard let made else { throw GSLError(code: Int32(GSL_EINVAL), function: "gsl_ran_discrete_preproc") }
        table = made
        count = weights.count
    }

    deinit { gsl_ran_discrete_free(table) }

    /// The normalised probability of `index` (`gsl_ran_discrete_pdf`).
    func probability(_ index: Int) -> Double { gsl_ran_discrete_pdf(index, table) }
}

// MARK: - Minimisation (Nelder–Mead simplex)

/// GSL's derivative-free minimiser `gsl_multimin_fminimizer_nmsimplex2` (Nelder & Mead 1965, with GSL's O(n)
/// size update), driven by a Swift objective. Used through `NelderMead.minimize`.
enum GSLSimplex {
    /// Holds the Swift objective for the C callback (reached through the `params` pointer).
    final class Objective {
        let call: (UnsafePointer<gsl_vector>) -> Double
        init(_ call: @escaping (UnsafePointer<gsl_vector>) -> Double) { self.call = call }
    }

    /// Minimises `objective` from `start` with initial step sizes `steps`: calls `iteration` after every simplex
    /// iteration with (iteration, the simplex's characteristic size); stops when `iteration` returns false or GSL
    /// reports an error (returned as the GSL status, `GSL_SUCCESS` otherwise).
    static func run(start: [Double], steps: [Double], objective: @escaping ([Double]) -> Double,
                    iteration: (Int, Double) -> Bool) -> Int32 {
        GSL.configure()
        let n = start.count
        guard n > 0, steps.count == n,
              let x = gsl_vector_alloc(n), let ss = gsl_vector_alloc(n),
              let s = gsl_multimin_fminimizer_alloc(habitat_multimin_nmsimplex2(), n) else { return Int32(GSL_ENOMEM) }
        defer { gsl_vector_free(x); gsl_vector_free(ss); gsl_multimin_fminimizer_free(s) }
        for i in 0..<n {
            gsl_vector_set(x, i, start[i])
            gsl_vector_set(ss, i, steps[i])
        }
        let box = Objective { v in
            var point = [Double](repeating: 0, count: n)
            for i in 0..<n { point[i] = gsl_vector_get(v, i) }
            return objective(point)
        }
        let context = Unmanaged.passRetained(box)
        defer { context.release() }
        var function = gsl_multimin_function(
            f: { v, params in
                guard let v, let params else { return .nan }
                return Unmanaged<Objective>.fromOpaque(params).takeUnretainedValue().call(v)
            },
            n: n, params: context.toOpaque())
        var status = gsl_multimin_fminimizer_set(s, &function, x, ss)
        guard status == Int32(GSL_SUCCESS) else { return status }
        var k = 0
        while true {
            k += 1
            status = gsl_multimin_fminimizer_iterate(s)
            if status != Int32(GSL_SUCCESS) { return status }
            if !iteration(k, gsl_multimin_fminimizer_size(s)) { return Int32(GSL_SUCCESS) }
        }
    }
}

/// GSL's Sobol quasi-random sequence (`gsl_qrng_sobol`: Antonov–Saleev's Gray-code construction, dimensions 1…40,
/// 30 bits a coordinate), the points of a Saltelli design (`SobolSequence` scrambles them).
///
/// Not `Sendable`: its state advances on every point.
public final class GSLSobolGenerator {
    private let q: UnsafeMutablePointer<gsl_qrng>
    /// Coordinates per point.
    public let dimension: Int
    /// GSL's largest Sobol dimension.
    public static let maxDimension = 40

    /// A fresh sequence in `dimension` dimensions (1…40); nil outside that range.
    public init?(dimension: Int) {
        guard (1...Self.maxDimension).contains(dimension) else { return nil }
        GSL.configure()
        guard let q = gsl_qrng_alloc(habitat_qrng_type_sobol(), UInt32(dimension)) else { return nil }
        self.q = q
        self.dimension = dimension
    }

    deinit { gsl_qrng_free(q) }

    /// The next point, each coordinate in [0, 1) (the first point is the origin).
    public func next() -> [Double] {
        var x = [Double](repeating: 0, count: dimension)
        x.withUnsafeMutableBufferPointer { _ = gsl_qrng_get(q, $0.baseAddress!) }
        return x
    }
}
