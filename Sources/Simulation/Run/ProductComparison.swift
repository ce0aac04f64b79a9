import Foundation
import Reports
import RulesCore
import Stochastics

/// What a run keeps of one arm for comparing products on the same people: per replication, its KPI values and its
/// comparison sums per persona; and what its product claims.
public struct ArmReadings: Sendable {
    public var name: String
    public var product: Product
    /// The product is an app (false for `none`): it has shared product figures (retention, money).
    public var hasApp: Bool
    /// KPI values per replication (`kpis.csv`'s), in replication order.
    public var kpiValues: [[(KPIDefinition, Double)]]
    /// Comparison sums per replication, in replication order.
    public var comparisons: [ComparisonAccumulator]
    /// The product's claims (`ProductDescriptor.claims`).
    public var claims: [ProductClaim]

    public init(name: String, product: Product, hasApp: Bool, kpiValues: [[(KPIDefinition, Double)]],
                comparisons: [ComparisonAccumulator], claims: [ProductClaim]) {
        self.name = name
        self.product = product
        self.hasApp = hasApp
        self.kpiValues = kpiValues
        self.comparisons = comparisons
        self.claims = claims
    }

    /// The comparison KPI values of `persona` (nil: everyone) per replication, by KPI id (NaN where the persona had
    /// nobody in a replication).
    func values(persona: String?) -> [String: [Double]] {
        var v: [String: [Double]] = [:]
        for c in comparisons {
            let sums = persona.map { c.personas[$0] ?? ComparisonSums() } ?? c.all
            for (d, x) in ComparisonKPIs.values(sums, hasApp: hasApp) { v[d.id, default: []].append(x) }
        }
        return v
    }

    /// Per replication: Σ over every person-day from install to the horizon of the neutral KPI `id` (its value ×
    /// person-days; nil unless `id` is a sum over person-days, `ComparisonKPIs.perPersonDay`), and the person-days
    /// of `basis` (everyone).
    func totals(_ id: String, basis: ProductClaim.Basis) -> [(sum: Double, basisDays: Int)]? {
        guard ComparisonKPIs.perPersonDay.contains(id) else { return nil }
        return comparisons.map { c in
            let s = c.all
            let value = ComparisonKPIs.values(s, hasApp: false).first { $0.0.id == id }?.1 ?? .nan
            return (s.personDays > 0 ? value * Double(s.personDays) : 0, basis == .dayInUse ? s.inUseDays : s.appOpenedDays)
        }
    }

    /// A KPI of `kpis.csv` per replication (NaN where missing).
    func kpi(_ id: String) -> [Double] {
        kpiValues.map { values in values.first { $0.0.id == id }?.1 ?? .nan }
    }
}

/// `product-comparison.csv` (issue 28): a run whose arms are different products compares them on the same people.
/// For each product-neutral KPI and each product KPI the products share (`ComparisonKPIs`), overall and by persona,
/// each arm's mean with its 95 % interval over replications, and its paired difference (arm − reference, the mean of
/// the per-replication differences with a Student-t 95 % interval, as `experiment.csv`) against `none` (the first
/// arm without an app) and against the first product (the first arm with an app). Each product's own claim
/// (`ProductDescriptor.claims`) stands beside its true effect: the neutral KPI's paired difference against `none`,
/// in the claim's sense, per person-day of every installer to the horizon (`true_effect`) and on the claim's own
/// denominator — per day in use or per day the app was opened (`true_effect_on_claim_basis`; issue 39 item 5).
public enum ProductComparison {
    /// The columns.
    public static let header = ReportKeys.header + [
        "persona", "kpi", "unit", "kind", "mean", "ci_low", "ci_high", "replications",
        "none_arm", "vs_none_diff", "vs_none_ci_low", "vs_none_ci_high",
        "first_product_arm", "vs_first_diff", "vs_first_ci_low", "vs_first_ci_high",
        "true_effect", "true_effect_ci_low", "true_effect_ci_high", "claim",
        "true_effect_basis", "claim_basis", "true_effect_on_claim_basis", "true_effect_on_claim_basis_ci_low", "true_effect_on_claim_basis_ci_high",
    ]

    /// What `true_effect` is per (claim rows): the paired difference of the neutral KPI, which is itself per
    /// person-day of every installer from install (entry) to the horizon.
    public static let trueEffectBasis = "per_person_day_to_horizon"

    /// Every row: everyone first, then each persona (alphabetically); within each, the arms in scenario order and
    /// their KPIs in `ComparisonKPIs` order; then, for everyone, each arm's claims.
    public static func rows(scenario: String, arms: [ArmReadings]) -> [[CSVField]] {
        let none = arms.first { !$0.hasApp }
        let first = arms.first { $0.hasApp }
        let personas = Set(arms.flatMap { $0.comparisons.flatMap(\.personas.keys) }).sorted()
        var out: [[CSVField]] = []
        for persona in [nil] + personas.map(Optional.some) {
            let noneValues = none?.values(persona: persona), firstValues = first?.values(persona: persona)
            for arm in arms {
                let values = arm.values(persona: persona)
                let keys = ReportKeys(scenario: scenario, arm: arm.name, replication: nil, product: arm.product.rawValue)
                for d in ComparisonKPIs.neutral + ComparisonKPIs.shared {
                    guard let v = values[d.id] else { continue }
                    let kind = ComparisonKPIs.neutral.contains { $0.id == d.id } ? "neutral" : "shared"
                    let vsNone = none.flatMap { n in n.name == arm.name ? nil : noneValues?[d.id].map { paired(d, n.name, arm.name, control: $0, treatment: v) } }
                    let vsFirst = first.flatMap { f in f.name == arm.name ? nil : firstValues?[d.id].map { paired(d, f.name, arm.name, control: $0, treatment: v) } }
                    out.append(row(keys, persona: persona, kpi: d.id, unit: d.unit, kind: kind, values: v,
                                   noneArm: none?.name, vsNone: vsNone, firstArm: first?.name, vsFirst: vsFirst))
                }
            }
        }
        // Claims: the product's own figure, and the true effect beside it.
        let noneAll = none?.values(persona: nil)
        for arm in arms {
            let keys = ReportKeys(scenario: scenario, arm: arm.name, replication: nil, product: arm.product.rawValue)
            let values = arm.values(persona: nil)
            for claim in arm.claims {
                let claimed = arm.kpi(claim.kpi)
                var effect: ExperimentComparison?
                if let n = none, let control = noneAll?[claim.neutralKPI], let treatment = values[claim.neutralKPI] {
                    // In the claim's sense: a reduction is none − arm.
                    let (c, t) = claim.sense == .reduces ? (treatment, control) : (control, treatment)
                    effect = ExperimentComparison(kpi: claim.neutralKPI, unit: "", controlArm: n.name, arm: arm.name, control: c, treatment: t)
                }
                let onBasis = none.flatMap { trueEffectOnClaimBasis(claim, arm: arm, none: $0) }
                let unit = arm.kpiValues.first?.first { $0.0.id == claim.kpi }?.0.unit ?? ""
                out.append(row(keys, persona: nil, kpi: claim.kpi, unit: unit, kind: "claim", values: claimed,
                               noneArm: none?.name, vsNone: nil, firstArm: first?.name, vsFirst: nil, trueEffect: effect,
                               claim: "\(claim.statement); true effect: \(claim.sense == .reduces ? "none − arm" : "arm − none") of \(claim.neutralKPI), "
                                   + "per person-day of every installer to the horizon (true_effect) and \(claim.basis.words) as the claim is "
                                   + "(true_effect_on_claim_basis)",
                               claimBasis: claim.basis, onBasis: onBasis))
            }
        }
        return out
    }

    /// A claim's true effect on the claim's own denominator (issue 39 item 5), per replication: the whole paired
    /// difference of the neutral KPI on the same people — Σ over every person-day from install to the horizon with
    /// the product minus the same Σ with no app (the `none` arm: the same people on the same days), in the claim's
    /// sense — divided by the product arm's person-days of the claim's basis (days in use, or days the app was
    /// opened). It is the effect per day of the claim's kind: equal to the paired difference over those days alone
    /// when the product changes nothing on the other days, and otherwise charging to the days of use what the product
    /// leaves behind after them (habits starved, things done sooner). Nil when the neutral KPI is not a sum over
    /// person-days.
    static func trueEffectOnClaimBasis(_ claim: ProductClaim, arm: ArmReadings, none: ArmReadings) -> [Double]? {
        guard let t = arm.totals(claim.neutralKPI, basis: claim.basis), let c = none.totals(claim.neutralKPI, basis: claim.basis) else { return nil }
        return zip(t, c).map { t, c in
            guard t.basisDays > 0 else { return .nan }
            return (claim.sense == .reduces ? c.sum - t.sum : t.sum - c.sum) / Double(t.basisDays)
        }
    }

    /// Each app arm's paired difference against `none` (the first arm without an app) on every KPI products are
    /// compared on — product-comparison.csv's `vs_none_diff`, everyone — or nothing without such an arm. What
    /// `habitat sensitivity` and `run --robustness` judge "which product changes behaviour most" by.
    public static func versusNone(_ arms: [ArmReadings]) -> [ExperimentComparison] {
        guard let none = arms.first(where: { !$0.hasApp }) else { return [] }
        let noneValues = none.values(persona: nil)
        var out: [ExperimentComparison] = []
        for arm in arms where arm.name != none.name {
            let values = arm.values(persona: nil)
            for d in ComparisonKPIs.neutral + ComparisonKPIs.shared {
                guard let t = values[d.id], let c = noneValues[d.id] else { continue }
                out.append(paired(d, none.name, arm.name, control: c, treatment: t))
            }
        }
        return out
    }

    static func paired(_ d: KPIDefinition, _ control: String, _ arm: String, control c: [Double], treatment t: [Double]) -> ExperimentComparison {
        ExperimentComparison(kpi: d.id, unit: d.unit, controlArm: control, arm: arm, control: c, treatment: t)
    }

    static func row(_ keys: ReportKeys, persona: String?, kpi: String, unit: String, kind: String, values: [Double],
                    noneArm: String?, vsNone: ExperimentComparison?, firstArm: String?, vsFirst: ExperimentComparison?,
                    trueEffect: ExperimentComparison? = nil, claim: String = "", claimBasis: ProductClaim.Basis? = nil,
                    onBasis: [Double]? = nil) -> [CSVField] {
        let s = Summary(values.filter(\.isFinite))
        let ci = ShareInterval.interval95(s, isShare: ShareInterval.isShare(unit: unit))
        let b = onBasis.map { Summary($0.filter(\.isFinite)) }
        let bci = b?.confidenceInterval95()
        return keys.fields + [
            .text(persona ?? "all"), .text(kpi), .text(unit), .text(kind),
            .optional(s.count > 0 ? s.mean : nil, decimals: 6), .optional(ci?.lower, decimals: 6), .optional(ci?.upper, decimals: 6),
            .integer(Int64(s.count)),
            .text(noneArm ?? ""), .optional(vsNone?.diff, decimals: 6), .optional(vsNone?.paired?.lower, decimals: 6),
            .optional(vsNone?.paired?.upper, decimals: 6),
            .text(firstArm ?? ""), .optional(vsFirst?.diff, decimals: 6), .optional(vsFirst?.paired?.lower, decimals: 6),
            .optional(vsFirst?.paired?.upper, decimals: 6),
            .optional(trueEffect?.diff, decimals: 6), .optional(trueEffect?.paired?.lower, decimals: 6),
            .optional(trueEffect?.paired?.upper, decimals: 6), .text(claim),
            .text(claimBasis == nil ? "" : trueEffectBasis), .text(claimBasis?.rawValue ?? ""),
            .optional(b.flatMap { $0.count > 0 ? $0.mean : nil }, decimals: 6), .optional(bci?.lower, decimals: 6),
            .optional(bci?.upper, decimals: 6),
        ]
    }
}
