import Foundation

/// A univariate distribution of one behavioural parameter across the people of a persona: the persona catalogue's
/// defaults and a scenario's `population.personas[i].params` overrides are both this type.
///
/// The value is data only; drawing from it is `Behavior`'s (`Distribution.draw(_:)`, from a person's `population`
/// stream once, when the person is created), and reading it from YAML is `ScenarioFormat`'s.
///
/// The log-normal has two parametrisations, kept apart so that every draw goes through exactly the floating-point
/// operations it always has: the catalogue states a median (`lognormal(median:sigma:)`), a scenario writes `mu`, the
/// log of the median (`lognormalMu(mu:sigma:)`, printed back exactly as written). The sampler uses `log(median)`, and
/// for a scenario's `mu` `log(exp(mu))` — which is not always `mu` to the last bit.
public enum Distribution: Hashable, Sendable, CustomStringConvertible {
    /// Always `value` (a scenario writes a plain number).
    case fixed(Double)
    /// Normal with the given mean and standard deviation.
    case normal(mean: Double, sd: Double)
    /// Log-normal whose logarithm is normal with mean `mu` and standard deviation `sigma`: a scenario's
    /// `{distribution: lognormal, mu, sigma}`. Its median is `exp(mu)`.
    case lognormalMu(mu: Double, sigma: Double)
    /// Log-normal with the given median (`exp(mu)`) and log-scale standard deviation `sigma`: the persona catalogue's form.
    case lognormal(median: Double, sigma: Double)
    /// Uniform on `[low, high)` (a scenario's `min`, `max`).
    case uniform(low: Double, high: Double)
    /// Beta(a, b) on [0, 1] (a scenario's `alpha`, `beta`).
    case beta(a: Double, b: Double)
    /// Gamma with shape k and scale θ (mean kθ).
    case gamma(shape: Double, scale: Double)

    /// The families a scenario may write, with their parameter names as written (`{distribution: normal, mean, sd}`).
    public enum Family: String, CaseIterable, Sendable, Hashable {
        /// `{distribution: normal, mean, sd}`.
        case normal
        /// `{distribution: lognormal, mu, sigma}`.
        case lognormal
        /// `{distribution: uniform, min, max}`.
        case uniform
        /// `{distribution: beta, alpha, beta}`.
        case beta
        /// `{distribution: gamma, shape, scale}`.
        case gamma

        /// Parameter names, in the order they are written.
        public var parameterNames: [String] {
            switch self {
            case .normal: return ["mean", "sd"]
            case .lognormal: return ["mu", "sigma"]
            case .uniform: return ["min", "max"]
            case .beta: return ["alpha", "beta"]
            case .gamma: return ["shape", "scale"]
            }
        }

        /// Parameters that must be strictly positive.
        public var positiveParameters: Set<String> {
            switch self {
            case .normal: return ["sd"]
            case .lognormal: return ["sigma"]
            case .uniform: return []
            case .beta: return ["alpha", "beta"]
            case .gamma: return ["shape", "scale"]
            }
        }
    }

    /// A distribution of a family from its parameters in `Family.parameterNames` order (a log-normal by `mu`).
    public init(family: Family, values v: [Double]) {
        switch family {
        case .normal: self = .normal(mean: v[0], sd: v[1])
        case .lognormal: self = .lognormalMu(mu: v[0], sigma: v[1])
        case .uniform: self = .uniform(low: v[0], high: v[1])
        case .beta: self = .beta(a: v[0], b: v[1])
        case .gamma: self = .gamma(shape: v[0], scale: v[1])
        }
    }

    /// The family and the parameters in `Family.parameterNames` order (nil family for `fixed`). A log-normal
    /// given by its median reports `mu = log(median)`.
    public var parts: (family: Family?, values: [Double]) {
        switch self {
        case .fixed(let v): return (nil, [v])
        case let .normal(mean: m, sd: sd): return (.normal, [m, sd])
        case let .lognormalMu(mu: mu, sigma: s): return (.lognormal, [mu, s])
        case let .lognormal(median: median, sigma: s): return (.lognormal, [log(median), s])
        case let .uniform(low: lo, high: hi): return (.uniform, [lo, hi])
        case let .beta(a: a, b: b): return (.beta, [a, b])
        case let .gamma(shape: k, scale: theta): return (.gamma, [k, theta])
        }
    }

    /// The distribution's mean (for documentation and quick checks).
    public var mean: Double {
        switch self {
        case let .fixed(v): return v
        case let .normal(mean: m, sd: _): return m
        case let .lognormalMu(mu: mu, sigma: s): return exp(mu) * exp(s * s / 2)
        case let .lognormal(median: median, sigma: s): return median * exp(s * s / 2)
        case let .uniform(low: lo, high: hi): return (lo + hi) / 2
        case let .beta(a: a, b: b): return a / (a + b)
        case let .gamma(shape: k, scale: theta): return k * theta
        }
    }

    /// Why the distribution's own parameters are unusable, or `nil` when they are fine.
    public var problem: String? {
        func finite(_ xs: Double...) -> Bool { xs.allSatisfy(\.isFinite) }
        switch self {
        case let .fixed(v): return finite(v) ? nil : "the value must be finite"
        case let .normal(mean: m, sd: sd): return finite(m, sd) && sd >= 0 ? nil : "need a finite mean and sd >= 0"
        case let .lognormalMu(mu: mu, sigma: s):
            let median = exp(mu)
            return finite(median, s) && median > 0 && s >= 0 ? nil : "need median > 0 and sigma >= 0"
        case let .lognormal(median: median, sigma: s): return finite(median, s) && median > 0 && s >= 0 ? nil : "need median > 0 and sigma >= 0"
        case let .uniform(low: lo, high: hi): return finite(lo, hi) && lo <= hi ? nil : "need finite low <= high"
        case let .beta(a: a, b: b): return finite(a, b) && a > 0 && b > 0 ? nil : "need a > 0 and b > 0"
        case let .gamma(shape: k, scale: theta): return finite(k, theta) && k > 0 && theta > 0 ? nil : "need shape > 0 and scale > 0"
        }
    }

    /// `normal(mean 23.5, sd 0.75)`: for messages (a scenario's YAML form is `ScenarioFormat`'s to print).
    public var description: String {
        switch self {
        case let .fixed(v): return "fixed(\(v))"
        case let .normal(mean: m, sd: sd): return "normal(mean \(m), sd \(sd))"
        case let .lognormalMu(mu: mu, sigma: s): return "lognormal(mu \(mu), sigma \(s))"
        case let .lognormal(median: median, sigma: s): return "lognormal(median \(median), sigma \(s))"
        case let .uniform(low: lo, high: hi): return "uniform(\(lo), \(hi))"
        case let .beta(a: a, b: b): return "beta(\(a), \(b))"
        case let .gamma(shape: k, scale: theta): return "gamma(shape \(k), scale \(theta))"
        }
    }
}
