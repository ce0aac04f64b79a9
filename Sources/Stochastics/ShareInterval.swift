import Foundation

/// 95 % intervals made for a share — a proportion of people, sessions or charges, always in 0…1 — so that an
/// interval for a share never leaves 0…1 (issue 40: a Student-t interval over three replications read
/// `first_monthly_renewal` 0.25 [−0.33, 0.84]). The one implementation `kpis.csv`, `world-check.csv`,
/// `product-comparison.csv` and the run's summary table use.
///
/// * **One sample with its counts** (k of n): Wilson's score interval (Wilson 1927; recommended over the Wald
///   interval by Brown, Cai & DasGupta 2001, "Interval Estimation for a Binomial Proportion", *Statistical
///   Science* 16(2)). It is inside 0…1 by construction and not degenerate at 0/n or n/n.
/// * **Several replications** (each a share; their counts unknown, as for a KPI): the Student-t interval over
///   the replication values, formed on the log-odds scale and transformed back — the "logit" interval for a
///   proportion estimated with a standard error (Korn & Graubard 1998, "Confidence intervals for proportions with
///   small expected number of positive counts estimated from survey data", *Survey Methodology* 24(2); R's
///   `survey::svyciprop(method = "logit")`, Lumley 2010). With p̄ the mean of the r replication values and s/√r its
///   standard error, the delta method gives the log-odds a standard error of s / (√r · p̄ (1 − p̄)), so the interval
///   is `expit(logit p̄ ± t₀.₉₇₅,ᵣ₋₁ · s / (√r · p̄ (1 − p̄)))`: inside (0, 1), containing p̄, close to the Student-t
///   interval when p̄ is far from 0 and 1 and narrow toward the near bound when it is close. The mean itself is
///   unchanged (the mean of the replications, as every other KPI).
/// * **Every replication at 0 (or at 1)**: with counts, Wilson's interval on the pooled counts (it contains the
///   mean, which is then the pooled share); without, the degenerate [p̄, p̄] the replications show (Student-t gives
///   the same).
/// * **One replication without counts**: no interval (as for every KPI).
public enum ShareInterval {
    /// z₀.₉₇₅.
    static let z = 1.959963984540054

    /// Wilson's score interval for `k` successes in `n` trials at 95 %; nil when n ≤ 0 or k is outside 0…n.
    public static func wilson95(_ k: Int, _ n: Int) -> (lower: Double, upper: Double)? {
        guard n > 0, (0...n).contains(k) else { return nil }
        let nn = Double(n), p = Double(k) / nn
        let d = 1 + z * z / nn
        let c = (p + z * z / (2 * nn)) / d
        let h = z * (p * (1 - p) / nn + z * z / (4 * nn * nn)).squareRoot() / d
        // Exact at the bounds (k = 0 gives c = h analytically; rounding must not put the bound at −1e-17).
        return (k == 0 ? 0 : max(0, c - h), k == n ? 1 : min(1, c + h))
    }

    /// The 95 % interval of the mean of per-replication shares (see the type's comment); nil with fewer than two
    /// values. `counts`, when every replication's (successes, trials) is known, decides the case where every
    /// replication sits at 0 or at 1.
    public static func overReplications95(_ s: Summary, pooledCounts counts: (successes: Int, trials: Int)? = nil)
        -> (lower: Double, upper: Double)? {
        guard s.count >= 2 else { return nil }
        let p = min(1, max(0, s.mean))
        let se = s.standardError ?? 0
        guard p > 0, p < 1, se > 0 else {
            if (p == 0 || p == 1), let c = counts, let w = wilson95(c.successes, c.trials) { return w }
            return (p, p)
        }
        let t = InverseCDF.studentT(0.975, degreesOfFreedom: Double(s.count - 1))
        let logit = log(p / (1 - p)), half = t * se / (p * (1 - p))
        func expit(_ x: Double) -> Double { 1 / (1 + exp(-x)) }
        return (min(p, expit(logit - half)), max(p, expit(logit + half)))
    }

    /// The 95 % interval of a KPI's or figure's mean over replications: `overReplications95` for a share
    /// (`isShare`), else the Student-t interval; nil with fewer than two values.
    public static func interval95(_ s: Summary, isShare: Bool) -> (lower: Double, upper: Double)? {
        if isShare { return overReplications95(s) }
        return s.confidenceInterval95().map { ($0.lower, $0.upper) }
    }

    /// Whether a report unit is a share (0…1): `fraction` — the unit of every proportion in Habitat's reports
    /// (docs/report-spec.json's `units`, kind `share`).
    public static func isShare(unit: String) -> Bool { unit == "fraction" }
}
