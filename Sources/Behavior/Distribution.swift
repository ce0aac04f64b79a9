import Foundation
import Stochastics

/// A univariate distribution for one behavioural parameter of a persona, as a scenario writes it.
///
/// Draws are made from a person's `population` stream once, when the person is created.
public enum Distribution: Hashable, Sendable, CustomStringConvertible {
    /// Always `value`.
    case fixed(Double)
    /// Normal with the given mean and standard deviation.
    case normal(mean: Double, sd: Double)
    /// Log-normal with the given median (`exp(mu)`) and log-scale standard deviation `sigma`.
    case lognormal(median: Double, sigma: Double)
    /// Uniform on `[low, high)`.
    case uniform(low: Double, high: Double)
    /// Beta(a, b) on [0, 1].
    case beta(a: Double, b: Double)
    /// Gamma with shape k and scale θ (mean kθ).
    case gamma(shape: Double, scale: Double)

    /// One draw.
    @inlinable public func draw(_ rng: RandomStream) -> Double {
        switch self {
        case let .fixed(v): return v
        case let .normal(m, sd): return rng.normal(mean: m, standardDeviation: sd)
        case let .lognormal(median, sigma): return rng.lognormal(mu: log(median), sigma: sigma)
        case let .uniform(lo, hi): return rng.uniform(from: lo, to: hi)
        case let .beta(a, b): return rng.beta(a, b)
        case let .gamma(k, theta): return rng.gamma(shape: k, scale: theta)
        }
    }

    /// The distribution's mean (for documentation and quick checks).
    public var mean: Double {
        switch self {
        case let .fixed(v): return v
        case let .normal(m, _): return m
        case let .lognormal(median, sigma): return median * exp(sigma * sigma / 2)
        case let .uniform(lo, hi): return (lo + hi) / 2
        case let .beta(a, b): return a / (a + b)
        case let .gamma(k, theta): return k * theta
        }
    }

    /// Why the distribution's own parameters are unusable, or `nil` when they are fine.
    public var problem: String? {
        func finite(_ xs: Double...) -> Bool { xs.allSatisfy(\.isFinite) }
        switch self {
        case let .fixed(v): return finite(v) ? nil : "the value must be finite"
        case let .normal(m, sd): return finite(m, sd) && sd >= 0 ? nil : "need a finite mean and sd >= 0"
        case let .lognormal(median, sigma): return finite(median, sigma) && median > 0 && sigma >= 0 ? nil : "need median > 0 and sigma >= 0"
        case let .uniform(lo, hi): return finite(lo, hi) && lo <= hi ? nil : "need finite low <= high"
        case let .beta(a, b): return finite(a, b) && a > 0 && b > 0 ? nil : "need a > 0 and b > 0"
        case let .gamma(k, theta): return finite(k, theta) && k > 0 && theta > 0 ? nil : "need shape > 0 and scale > 0"
        }
    }

    public var description: String {
        switch self {
        case let .fixed(v): return "fixed(\(v))"
        case let .normal(m, sd): return "normal(mean \(m), sd \(sd))"
        case let .lognormal(median, sigma): return "lognormal(median \(median), sigma \(sigma))"
        case let .uniform(lo, hi): return "uniform(\(lo), \(hi))"
        case let .beta(a, b): return "beta(\(a), \(b))"
        case let .gamma(k, theta): return "gamma(shape \(k), scale \(theta))"
        }
    }
}
