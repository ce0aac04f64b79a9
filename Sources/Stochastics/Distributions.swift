#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A preprocessed categorical distribution for repeated draws: GSL's Walker alias table
/// (`gsl_ran_discrete_preproc`), O(K) to build and O(1) per draw via `RandomStream.categorical(_:)`.
///
/// An immutable value; share it freely across threads.
public struct CategoricalTable: Sendable {
    let storage: GSLDiscreteTable

    /// Builds a table from weights (normalised internally).
    /// - Throws: `StochasticsError.invalidParameter` if `weights` is empty, holds a negative or non-finite weight,
    ///   or sums to zero; `.gsl` if GSL rejects the table.
    public init(weights: [Double]) throws(StochasticsError) {
        guard !weights.isEmpty else {
            throw .invalidParameter(parameter: "weights", value: "[]", requirement: "at least one category is needed")
        }
        for (i, w) in weights.enumerated() where !(w >= 0 && w.isFinite) {
            throw .invalidParameter(parameter: "weights[\(i)]", value: "\(w)", requirement: "weights must be finite and >= 0")
        }
        guard weights.reduce(0, +) > 0 else {
            throw .invalidParameter(parameter: "weights", value: "\(weights)", requirement: "weights must have a positive sum")
        }
        do { storage = try GSLDiscreteTable(weights: weights) } catch { throw .gsl(error) }
    }

    /// The number of categories.
    public var count: Int { storage.count }

    /// The normalised probability of category `index` (`gsl_ran_discrete_pdf`); 0 outside `0..<count`.
    public func probability(of index: Int) -> Double {
        (0..<count).contains(index) ? storage.probability(index) : 0
    }
}

/// Validated parameters of a log-normal distribution: `X = exp(N(mu, sigma²))`.
///
/// Behavioural quantities (session lengths, willingness to pay) are often published as a median and a mean,
/// or a mean and a standard deviation; the initialisers convert.
public struct LognormalParameters: Hashable, Sendable {
    /// Mean of log X.
    public let mu: Double
    /// Standard deviation of log X.
    public let sigma: Double

    /// From the parameters of log X. Throws unless mu is finite and sigma finite and ≥ 0.
    public init(mu: Double, sigma: Double) throws(StochasticsError) {
        guard mu.isFinite else { throw .invalidParameter(parameter: "mu", value: "\(mu)", requirement: "must be finite") }
        guard sigma >= 0 && sigma.isFinite else {
            throw .invalidParameter(parameter: "sigma", value: "\(sigma)", requirement: "must be finite and >= 0")
        }
        self.mu = mu
        self.sigma = sigma
    }

    /// From the median and mean of X: `mu = ln(median)`, `sigma² = 2·ln(mean/median)`.
    /// Throws unless 0 < median ≤ mean (a log-normal's mean is never below its median), both finite.
    public init(median: Double, mean: Double) throws(StochasticsError) {
        guard median > 0 && median.isFinite else {
            throw .invalidParameter(parameter: "median", value: "\(median)", requirement: "must be finite and > 0")
        }
        guard mean >= median && mean.isFinite else {
            throw .invalidParameter(parameter: "mean", value: "\(mean)", requirement: "must be finite and >= the median (\(median))")
        }
        try self.init(mu: log(median), sigma: (2 * log(mean / median)).squareRoot())
    }

    /// From the mean and standard deviation of X: `sigma² = ln(1 + sd²/mean²)`, `mu = ln(mean) − sigma²/2`.
    /// Throws unless mean > 0 and sd ≥ 0, both finite.
    public init(mean: Double, standardDeviation sd: Double) throws(StochasticsError) {
        guard mean > 0 && mean.isFinite else {
            throw .invalidParameter(parameter: "mean", value: "\(mean)", requirement: "must be finite and > 0")
        }
        guard sd >= 0 && sd.isFinite else {
            throw .invalidParameter(parameter: "standard_deviation", value: "\(sd)", requirement: "must be finite and >= 0")
        }
        let s2 = log1p((sd / mean) * (sd / mean))
        try self.init(mu: log(mean) - s2 / 2, sigma: s2.squareRoot())
    }

    /// Median of X: `exp(mu)`.
    public var median: Double { exp(mu) }
    /// Mean of X: `exp(mu + sigma²/2)`.
    public var mean: Double { exp(mu + sigma * sigma / 2) }
}

/// Quantile functions (inverse CDFs) from GSL's `gsl_cdf_*_Pinv`.
///
/// Out-of-domain arguments do not abort (GSL's abort handler is off): they return `NaN`
/// (or ±infinity at p = 0 and p = 1, as GSL defines).
public enum InverseCDF {
    /// The p-quantile of Student's t with ν degrees of freedom, e.g. `studentT(0.975, degreesOfFreedom: 9)` ≈ 2.262157.
    public static func studentT(_ p: Double, degreesOfFreedom nu: Double) -> Double {
        GSL.studentTQuantile(p, degreesOfFreedom: nu)
    }

    /// The p-quantile of the standard normal distribution, e.g. `standardNormal(0.975)` ≈ 1.959964.
    public static func standardNormal(_ p: Double) -> Double { GSL.standardNormalQuantile(p) }

    /// The p-quantile of the chi-squared distribution with ν degrees of freedom.
    public static func chiSquared(_ p: Double, degreesOfFreedom nu: Double) -> Double {
        GSL.chiSquaredQuantile(p, degreesOfFreedom: nu)
    }
}
