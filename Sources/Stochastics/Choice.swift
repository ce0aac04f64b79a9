#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Multinomial-logit choice probabilities (docs/DESIGN.md, principle 5: choices at a shield or paywall).
public enum Choice {
    /// The logit (softmax) probabilities `exp(uᵢ/T) / Σⱼ exp(uⱼ/T)`, computed stably by subtracting the
    /// largest utility before exponentiating (log-sum-exp), so utilities of any magnitude work.
    ///
    /// - Parameters:
    ///   - utilities: one utility per option; `-infinity` marks an unavailable option (probability 0).
    ///   - temperature: T > 0, the noise scale (1/β in the usual notation); large T flattens the choice,
    ///     small T approaches picking the maximum.
    /// - Precondition: at least one finite utility, no NaN or +∞, finite T > 0.
    public static func logitProbabilities(utilities: [Double], temperature: Double = 1) -> [Double] {
        let (weights, total) = logitWeights(utilities, temperature: temperature)
        return weights.map { $0 / total }
    }

    /// `log Σᵢ exp(uᵢ/T)`, the expected maximum utility (inclusive value) of the choice set, in units of 1/T.
    public static func logSumExp(utilities: [Double], temperature: Double = 1) -> Double {
        let (_, total) = logitWeights(utilities, temperature: temperature)
        let top = utilities.max()!
        return top / temperature + log(total)
    }

    /// Unnormalised weights `exp((uᵢ − max u)/T)` and their sum (≥ 1).
    static func logitWeights(_ utilities: [Double], temperature: Double) -> ([Double], Double) {
        precondition(temperature > 0 && temperature.isFinite, "logit choice: temperature \(temperature) must be a finite number > 0")
        var top = -Double.infinity
        for u in utilities {
            precondition(!u.isNaN && u != .infinity, "logit choice: utility \(u) must be finite or -infinity")
            if u > top { top = u }
        }
        precondition(top.isFinite, "logit choice: at least one option must have a finite utility")
        var total = 0.0
        let weights = utilities.map { u -> Double in
            let w = u == -.infinity ? 0 : exp((u - top) / temperature)
            total += w
            return w
        }
        return (weights, total)
    }
}
