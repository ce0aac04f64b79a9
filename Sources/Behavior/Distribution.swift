import Foundation
import RulesCore
import Stochastics

extension Distribution {
    /// One draw from a person's stream.
    ///
    /// A log-normal is drawn by the log of its median: `log(median)` for the catalogue's form, `log(exp(mu))` for a
    /// scenario's `mu` (its median is `exp(mu)`; this keeps every run bit-identical to the time the scenario's
    /// distribution was translated into a median before drawing).
    @inlinable public func draw(_ rng: RandomStream) -> Double {
        switch self {
        case let .fixed(v): return v
        case let .normal(mean: m, sd: sd): return rng.normal(mean: m, standardDeviation: sd)
        case let .lognormalMu(mu: mu, sigma: sigma): return rng.lognormal(mu: log(exp(mu)), sigma: sigma)
        case let .lognormal(median: median, sigma: sigma): return rng.lognormal(mu: log(median), sigma: sigma)
        case let .uniform(low: lo, high: hi): return rng.uniform(from: lo, to: hi)
        case let .beta(a: a, b: b): return rng.beta(a, b)
        case let .gamma(shape: k, scale: theta): return rng.gamma(shape: k, scale: theta)
        }
    }
}
