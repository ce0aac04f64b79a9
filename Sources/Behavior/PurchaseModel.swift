import Foundation
import Stochastics

/// Why the engine shows a paywall. Generic to digital-wellbeing apps; the product adapter maps its own triggers.
public enum PaywallReason: String, Hashable, Sendable, CaseIterable {
    /// A count limit of the person's tier, hit by an action (a 4th blocked app, a 2nd mode, a 4th capture today).
    case tierLimit
    /// A usage allowance of the tier ran out in the moment of an urge (every bypass used, the free quota spent).
    case usageCapReached
    /// A feature only a higher tier has, reached for (longer unlocks, stricter modes, longer trends).
    case featureGate
    case trialEnded
    /// A placement not tied to an action: after onboarding, an upgrade button in settings.
    case placement
    case other
}

/// A paywall moment, as the engine presents it.
public struct PaywallMoment: Hashable, Sendable {
    public var reason: PaywallReason
    public var monthlyPriceUSD: Double
    public var annualPriceUSD: Double?
    public init(reason: PaywallReason, monthlyPriceUSD: Double, annualPriceUSD: Double? = nil) {
        self.reason = reason
        self.monthlyPriceUSD = monthlyPriceUSD
        self.annualPriceUSD = annualPriceUSD
    }
}

public enum PurchaseDecision: String, Hashable, Sendable { case none, monthly, annual }

public enum PlanLength: String, Hashable, Sendable { case monthly, annual }

/// What became of a keep-or-cancel decision (issue 26): kept, cancelled, or meant to cancel and not got round to.
public enum KeepOutcome: String, Hashable, Sendable {
    case keep, cancel, inert
    /// Whether the plan goes on.
    public var keeps: Bool { self != .cancel }
}

/// Buy, upgrade, renew and cancel decisions (docs/DESIGN.md principle 5). Surplus is
/// r = ln(WTP·(0.5 + value felt) / monthly price), so at value 0.5 a person whose WTP equals the price has r = 0.
///
/// * Buying at a paywall (`Paywall`, any list of tier × period offers): MNL over none (0) and each offer; see
///   `offerUtility` (in `PurchaseModel+Offers.swift`) for the terms.
/// * Upgrading at a paywall: the same utilities, the current plan as the status quo (`upgradeProbabilities`).
/// * The two-option form (`PaywallMoment`: none, monthly, annual of one tier): monthly
///   (`buyConstant + wSurplus·r + reason boost`) and annual (monthly + `wDiscount`·ln(12·monthly/annual) +
///   `annualConstant` + `wValueAnnual`·(value − 0.5)). Kept, unchanged, for the adapters that still call it.
/// * Renewal: logistic(`renewIntercept` + wValue·(value − 0.5) + wPrice·ln(WTP/price)) — 56% at the reference
///   (value 0.5, WTP = price) for a first monthly renewal (docs/DESIGN.md); later and annual renewals add `loyaltyBoost`.
/// * Trial → paid: same form with intercept logit(0.36) (RevenueCat 2025–26: 34–38%).
/// * Every price enters these terms as at least `priceFloorUSD` (a plan priced 0 is a free plan; see there).
public struct PurchaseModel: Hashable, Sendable {
    public var buyConstant = -2.8
    /// Utility added to an offer that starts with a free trial: nothing is paid now and it can be cancelled.
    public var trialStartBoost = 8.0
    public var wSurplus = 2.0
    public var wDiscount = 1.2
    public var annualConstant = -0.8
    public var wValueAnnual = 1.0
    public var renewIntercept = log(0.56 / 0.44)
    public var trialIntercept = log(0.36 / 0.64)
    public var loyaltyBoost = 0.8
    /// Probability that a person who decides to cancel does not get round to it before the charge (issue 26).
    public var inertia = 0.3
    /// Value felt added at a keep-or-cancel decision per unit of the product's integration into the day.
    public var integrationWeight = 1.0
    /// Share of people who, knowing they may forget, cancel a trial's auto-renewal when it starts unless they mean to
    /// keep it (issue 26).
    public var cancelAtTrialStart = 0.3
    public var wValue = 3.0
    public var wPrice = 1.0
    public var tokenConstant = -2.0
    public var wUrgeToken = 3.0
    /// Tier-value weight: a tier of rank k adds `wTier`·k·ln(1 + WTP·(0.5 + value)/`tierScaleUSD`). Assumption
    /// (see `offerUtility`).
    public var wTier = 1.0
    /// The WTP at which the tier-value term reaches ln 2 per rank, USD/month. Assumption (about a typical premium
    /// monthly price of a blocker).
    public var tierScaleUSD = 5.0
    /// Status-quo bias of a subscriber weighing an upgrade: added to every higher-tier offer. Assumption
    /// (Samuelson & Zeckhauser 1988 report a strong preference for the current option; the size is a guess).
    public var upgradeConstant = -2.0
    /// How much the value felt lowers a refund request: logit shift per unit of (value − 0.5). Assumption.
    public var wValueRefund = 3.0
    /// Reason boosts (see `reasonBoost`).
    public var usageCapReachedBoost = 0.5
    public var tierLimitBoost = 0.3

    public init() {}

    /// A model with the weights of `values` (`BehaviorCatalogue`: `purchase.*`, `refund.*`).
    public init(values: BehaviorValues) {
        buyConstant = values["purchase.buy_constant"]
        trialStartBoost = values["purchase.trial_start_boost"]
        wSurplus = values["purchase.surplus_weight"]
        wDiscount = values["purchase.discount_weight"]
        annualConstant = values["purchase.annual_constant"]
        wValueAnnual = values["purchase.annual_value_weight"]
        renewIntercept = values["purchase.renew_intercept"]
        trialIntercept = values["purchase.trial_intercept"]
        loyaltyBoost = values["purchase.loyalty_boost"]
        inertia = values["purchase.inertia"]
        integrationWeight = values["purchase.integration_weight"]
        cancelAtTrialStart = values["purchase.cancel_at_trial_start"]
        wValue = values["purchase.renew_value_weight"]
        wPrice = values["purchase.renew_price_weight"]
        tokenConstant = values["purchase.token_constant"]
        wUrgeToken = values["purchase.token_urge_weight"]
        wTier = values["purchase.tier_weight"]
        tierScaleUSD = values["purchase.tier_scale_usd"]
        upgradeConstant = values["purchase.upgrade_constant"]
        wValueRefund = values["refund.value_weight"]
        usageCapReachedBoost = values["purchase.reason_boost.usage_cap_reached"]
        tierLimitBoost = values["purchase.reason_boost.tier_limit"]
    }

    /// The lowest price the price terms see, USD: one cent. Assumption (seed 000 §5.1 prices its Free tier at
    /// "$0" but is silent on a paid plan set to 0, which `rules.prices.*` allows): a plan priced 0 is a free plan,
    /// weighed as costing the smallest amount a store can charge, so ln(WTP·(0.5 + value)/price) and the annual
    /// discount ln(12·monthly/annual) stay finite. A free plan is then nearly always taken at a paywall, renewed and
    /// converted to. Prices of a cent or more, every charter price among them, are used as given.
    public static let priceFloorUSD = 0.01

    /// Extra utility of buying by paywall reason: hitting a limit in the moment of an urge sells. Assumption.
    public func reasonBoost(_ r: PaywallReason) -> Double {
        switch r {
        case .usageCapReached: return usageCapReachedBoost
        case .tierLimit: return tierLimitBoost
        case .trialEnded, .featureGate, .placement, .other: return 0
        }
    }

    /// Probabilities of (none, monthly, annual) at a paywall.
    public func purchaseProbabilities(_ m: PaywallMoment, willingnessToPay wtp: Double, valueFelt v: Double) -> (none: Double, monthly: Double, annual: Double) {
        let monthlyPrice = max(m.monthlyPriceUSD, Self.priceFloorUSD)
        let r = log(max(wtp, 0.01) * (0.5 + v) / monthlyPrice)
        let monthly = buyConstant + wSurplus * r + reasonBoost(m.reason)
        var utilities = [0, monthly]
        if let annual = m.annualPriceUSD {
            let annualPrice = max(annual, Self.priceFloorUSD)
            utilities.append(monthly + wDiscount * log(12 * monthlyPrice / annualPrice) + annualConstant + wValueAnnual * (v - 0.5))
        }
        let p = Choice.logitProbabilities(utilities: utilities)
        return (p[0], p[1], p.count > 2 ? p[2] : 0)
    }

    /// The decision at a paywall (one draw, normally from the `purchases` stream).
    public func decide(_ m: PaywallMoment, willingnessToPay wtp: Double, valueFelt v: Double, rng: RandomStream) -> PurchaseDecision {
        let p = purchaseProbabilities(m, willingnessToPay: wtp, valueFelt: v)
        let u = rng.uniform()
        if u < p.none { return .none }
        return u < p.none + p.monthly ? .monthly : .annual
    }

    /// Probability of renewing at the end of a paid period.
    public func renewalProbability(plan: PlanLength, priceUSDPerMonth: Double, willingnessToPay wtp: Double, valueFelt v: Double, isFirstRenewal: Bool) -> Double {
        var x = renewIntercept + wValue * (v - 0.5) + wPrice * log(max(wtp, 0.01) / max(priceUSDPerMonth, Self.priceFloorUSD))
        if !isFirstRenewal || plan == .annual { x += loyaltyBoost }
        return 1 / (1 + exp(-x))
    }

    /// Whether the person renews (one draw); not renewing is a cancellation.
    public func renews(plan: PlanLength, priceUSDPerMonth: Double, willingnessToPay wtp: Double, valueFelt v: Double, isFirstRenewal: Bool, rng: RandomStream) -> Bool {
        rng.uniform() < renewalProbability(plan: plan, priceUSDPerMonth: priceUSDPerMonth, willingnessToPay: wtp, valueFelt: v, isFirstRenewal: isFirstRenewal)
    }

    /// The value weighed at a keep-or-cancel decision: value felt now plus the product's integration into the day.
    public func valueAtDecision(valueFelt v: Double, integration: Double) -> Double {
        v + integrationWeight * min(max(integration, 0), 1)
    }

    /// A keep-or-cancel decision whose intention is to keep with probability `pKeep` (two uniforms from `rng`): a
    /// person who means to cancel does so, except with probability `inertia` — they do not get round to it before
    /// the charge, and the plan renews (auto-renewal inertia: Miller, Sahni & Strulov-Shlain 2023; DellaVigna &
    /// Malmendier 2006).
    public func keepOrCancel(probabilityOfKeeping pKeep: Double, rng: RandomStream) -> KeepOutcome {
        if rng.uniform() < pKeep { return .keep }
        return rng.uniform() < inertia ? .inert : .cancel
    }

    /// Whether a person starting a trial cancels its auto-renewal at once (two uniforms from `rng`): sophisticated
    /// about their own inertia with probability `cancelAtTrialStart` (Miller, Sahni & Strulov-Shlain 2023: 24–36 % of
    /// consumers avoid auto-renewal when offered), and not meaning to keep it now (probability 1 − `pKeep`).
    public func cancelsAtTrialStart(probabilityOfKeeping pKeep: Double, rng: RandomStream) -> Bool {
        let sophisticated = rng.uniform() < cancelAtTrialStart
        let meansToKeep = rng.uniform() < pKeep
        return sophisticated && !meansToKeep
    }

    /// Probability that a trial converts to paid.
    public func trialConversionProbability(priceUSDPerMonth: Double, willingnessToPay wtp: Double, valueFelt v: Double) -> Double {
        let x = trialIntercept + wValue * (v - 0.5) + wPrice * log(max(wtp, 0.01) / max(priceUSDPerMonth, Self.priceFloorUSD))
        return 1 / (1 + exp(-x))
    }

    /// Probability of buying a one-off token at `priceUSD` outside a shield choice (e.g. a store prompt).
    public func tokenPurchaseProbability(priceUSD: Double, urgeStrength: Double, willingnessToPay wtp: Double) -> Double {
        let x = tokenConstant + wUrgeToken * urgeStrength - wSurplus * priceUSD / max(wtp, 0.5)
        return 1 / (1 + exp(-x))
    }
}
