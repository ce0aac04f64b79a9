/// A two-sided confidence interval `center ± halfWidth` at a stated level.
public struct ConfidenceInterval: Hashable, Sendable, CustomStringConvertible {
    /// The point estimate.
    public let center: Double
    /// Half the width of the interval.
    public let halfWidth: Double
    /// The coverage level, e.g. 0.95.
    public let level: Double

    public init(center: Double, halfWidth: Double, level: Double) {
        self.center = center
        self.halfWidth = halfWidth
        self.level = level
    }

    /// `center − halfWidth`.
    public var lower: Double { center - halfWidth }
    /// `center + halfWidth`.
    public var upper: Double { center + halfWidth }
    /// Whether `value` lies in the closed interval.
    public func contains(_ value: Double) -> Bool { lower <= value && value <= upper }

    public var description: String { "\(center) ± \(halfWidth) (\(level * 100)%)" }
}

/// A mergeable accumulator of count, mean, sum of squared deviations (M2), minimum and maximum.
///
/// Values are added with Welford's update; two summaries are merged with Chan et al.'s parallel formula.
/// Merging is deterministic: the same parts merged in the same order give bit-identical results, so a run
/// that folds per-person summaries in person order is reproducible whatever the thread count.
/// (Different merge orders agree to rounding, ~1e-15 relative.)
public struct Summary: Hashable, Sendable {
    /// Number of values.
    public private(set) var count: Int = 0
    /// Arithmetic mean; 0 when empty.
    public private(set) var mean: Double = 0
    /// Sum of squared deviations from the mean (M2).
    public private(set) var sumOfSquaredDeviations: Double = 0
    /// Smallest value; +infinity when empty.
    public private(set) var min: Double = .infinity
    /// Largest value; −infinity when empty.
    public private(set) var max: Double = -.infinity

    /// An empty summary.
    public init() {}

    /// A summary of `values`, added in order.
    public init<S: Sequence>(_ values: S) where S.Element == Double {
        for v in values { add(v) }
    }

    /// Adds one value (Welford). NaN is a programming error.
    public mutating func add(_ x: Double) {
        precondition(!x.isNaN, "Summary.add: NaN")
        count += 1
        let delta = x - mean
        mean += delta / Double(count)
        sumOfSquaredDeviations += delta * (x - mean)
        if x < min { min = x }
        if x > max { max = x }
    }

    /// Folds `other` into this summary (Chan et al. 1979).
    public mutating func merge(_ other: Summary) {
        guard other.count > 0 else { return }
        guard count > 0 else { self = other; return }
        let na = Double(count), nb = Double(other.count)
        let n = na + nb
        let delta = other.mean - mean
        mean += delta * (nb / n)
        sumOfSquaredDeviations += other.sumOfSquaredDeviations + delta * delta * (na * nb / n)
        count += other.count
        if other.min < min { min = other.min }
        if other.max > max { max = other.max }
    }

    /// This summary merged with `other`.
    public func merged(with other: Summary) -> Summary {
        var copy = self
        copy.merge(other)
        return copy
    }

    /// Sample variance (divisor n − 1); `nil` with fewer than 2 values.
    public var variance: Double? { count < 2 ? nil : sumOfSquaredDeviations / Double(count - 1) }
    /// Population variance (divisor n); `nil` when empty.
    public var populationVariance: Double? { count < 1 ? nil : sumOfSquaredDeviations / Double(count) }
    /// Sample standard deviation; `nil` with fewer than 2 values.
    public var standardDeviation: Double? { variance.map { $0.squareRoot() } }
    /// Standard error of the mean, s/√n; `nil` with fewer than 2 values.
    public var standardError: Double? { variance.map { ($0 / Double(count)).squareRoot() } }
    /// `mean · count`.
    public var sum: Double { mean * Double(count) }

    /// The Student-t confidence interval for the mean, `mean ± t_{(1+level)/2, n−1} · s/√n`
    /// (quantile from `gsl_cdf_tdist_Pinv`); `nil` with fewer than 2 values.
    /// - Precondition: 0 < level < 1.
    public func confidenceInterval(level: Double) -> ConfidenceInterval? {
        precondition(level > 0 && level < 1, "confidenceInterval(level: \(level)): need 0 < level < 1")
        guard let se = standardError else { return nil }
        let t = InverseCDF.studentT((1 + level) / 2, degreesOfFreedom: Double(count - 1))
        return ConfidenceInterval(center: mean, halfWidth: t * se, level: level)
    }

    /// The 95% Student-t confidence interval for the mean; `nil` with fewer than 2 values.
    public func confidenceInterval95() -> ConfidenceInterval? { confidenceInterval(level: 0.95) }
}

/// Sample quantiles of all values seen, mergeable by concatenation.
///
/// Keeps every value (memory O(n)); use for per-run or per-replication KPIs, not per event. Quantiles are
/// computed on a sorted copy — sorted by IEEE total order, so the result does not depend on the order the
/// parts were merged in — with type-7 linear interpolation (numpy's default, R's default,
/// `gsl_stats_quantile_from_sorted_data`): for n values x₍₀₎ ≤ … ≤ x₍ₙ₋₁₎ and h = (n−1)·p,
/// Q(p) = x₍⌊h⌋₎ + (h − ⌊h⌋)·(x₍⌊h⌋+1₎ − x₍⌊h⌋₎).
public struct SampleQuantiles: Hashable, Sendable {
    /// The values, in the order they were added or merged.
    public private(set) var values: [Double]

    /// An empty sample.
    public init() { values = [] }
    /// A sample holding `values`.
    public init<S: Sequence>(_ values: S) where S.Element == Double {
        self.values = Array(values)
        precondition(!self.values.contains(where: \.isNaN), "SampleQuantiles: NaN")
    }

    /// Number of values.
    public var count: Int { values.count }

    /// Adds one value. NaN is a programming error.
    public mutating func add(_ x: Double) {
        precondition(!x.isNaN, "SampleQuantiles.add: NaN")
        values.append(x)
    }

    /// Appends `other`'s values.
    public mutating func merge(_ other: SampleQuantiles) { values.append(contentsOf: other.values) }

    /// The values in ascending IEEE total order.
    public func sortedValues() -> [Double] {
        values.sorted { $0.isTotallyOrdered(belowOrEqualTo: $1) && $0.bitPattern != $1.bitPattern }
    }

    /// The type-7 p-quantile; `nil` when empty. Requires 0 ≤ p ≤ 1.
    public func quantile(_ p: Double) -> Double? { quantiles([p])?.first }

    /// Several type-7 quantiles from one sort; `nil` when empty. Requires every p in [0, 1].
    public func quantiles(_ ps: [Double]) -> [Double]? {
        for p in ps { precondition(p >= 0 && p <= 1, "quantile(\(p)): need 0 <= p <= 1") }
        guard !values.isEmpty else { return nil }
        let sorted = sortedValues()
        return sorted.withUnsafeBufferPointer { buf in ps.map { GSL.quantileOfSorted(buf, $0) } }
    }

    /// The median (type 7); `nil` when empty.
    public var median: Double? { quantile(0.5) }
}

/// The result of a batch-means analysis of one long, autocorrelated series.
public struct BatchMeansEstimate: Hashable, Sendable {
    /// Number of batches k.
    public let batchCount: Int
    /// Values per batch.
    public let batchSize: Int
    /// Values skipped: the warm-up plus the remainder that did not fill a batch (taken from the end).
    public let discarded: Int
    /// Summary of the k batch means.
    public let batchMeans: Summary
    /// The Student-t interval with k − 1 degrees of freedom around the grand mean.
    public let interval: ConfidenceInterval

    /// The grand mean (mean of batch means).
    public var mean: Double { interval.center }
}

/// Batch means: the standard confidence interval for a steady-state mean from one autocorrelated run
/// (e.g. waiting times in an M/M/1 queue). The series after the warm-up is cut into k equal consecutive
/// batches (the remainder at the end is dropped); the batch means are treated as approximately independent
/// normal observations, giving `grand mean ± t_{(1+level)/2, k−1} · s_batch / √k`.
public enum BatchMeans {
    /// - Parameters:
    ///   - series: the observations in time order.
    ///   - batches: k ≥ 2 (10–30 is usual).
    ///   - level: coverage, 0 < level < 1.
    ///   - warmUp: leading observations to discard.
    /// - Throws: `StochasticsError.invalidParameter` if k < 2, the level is outside (0, 1), the warm-up is
    ///   negative, or fewer than k observations remain.
    public static func estimate(
        _ series: [Double], batches k: Int, level: Double = 0.95, warmUp: Int = 0
    ) throws(StochasticsError) -> BatchMeansEstimate {
        guard k >= 2 else { throw .invalidParameter(parameter: "batches", value: "\(k)", requirement: "need at least 2 batches") }
        guard level > 0 && level < 1 else { throw .invalidParameter(parameter: "level", value: "\(level)", requirement: "need 0 < level < 1") }
        guard warmUp >= 0 && warmUp <= series.count else {
            throw .invalidParameter(parameter: "warm_up", value: "\(warmUp)", requirement: "need 0...\(series.count) (the series length)")
        }
        let usable = series.count - warmUp
        guard usable >= k else {
            throw .invalidParameter(parameter: "series", value: "\(usable) observations after warm-up", requirement: "need at least \(k) (one per batch)")
        }
        let size = usable / k
        var means = Summary()
        for b in 0..<k {
            let start = warmUp + b * size
            var batch = Summary()
            for i in start..<(start + size) { batch.add(series[i]) }
            means.add(batch.mean)
        }
        let t = InverseCDF.studentT((1 + level) / 2, degreesOfFreedom: Double(k - 1))
        let interval = ConfidenceInterval(center: means.mean, halfWidth: t * (means.standardError ?? 0), level: level)
        return BatchMeansEstimate(batchCount: k, batchSize: size, discarded: series.count - k * size, batchMeans: means, interval: interval)
    }
}
