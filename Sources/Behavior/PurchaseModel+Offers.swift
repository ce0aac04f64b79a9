import Foundation
import Stochastics

/// One plan a paywall offers: a tier (by rank) for a billing period at a price.
public struct PlanOffer: Hashable, Sendable {
    /// Opaque to the model: the adapter's handle for the plan (e.g. an index into its SKU list).
    public var id: Int
    /// 0, 1, 2, …: higher ranks have more features. Only the order matters to the person, not the product's names.
    public var tierRank: Int
    /// Billing period in months (1 monthly, 12 annual); at least 1.
    public var periodMonths: Int
    /// Price of one period, USD.
    public var priceUSD: Double
    /// Days of free trial before the first charge (0: paid at once); a trial adds `PurchaseModel.trialStartBoost`.
    public var trialDays: Int

    public init(id: Int, tierRank: Int, periodMonths: Int, priceUSD: Double, trialDays: Int = 0) {
        precondition(periodMonths >= 1, "a plan's billing period is at least one month")
        self.id = id
        self.tierRank = tierRank
        self.periodMonths = periodMonths
        self.priceUSD = priceUSD
        self.trialDays = trialDays
    }

    /// The price per month the person weighs, USD (the price floored at `PurchaseModel.priceFloorUSD`).
    public var monthlyEquivalentUSD: Double { max(priceUSD, PurchaseModel.priceFloorUSD) / Double(periodMonths) }
}

/// A paywall as the engine presents it: why, and the plans on it (any tiers, any periods, in any order).
public struct Paywall: Hashable, Sendable {
    public var reason: PaywallReason
    public var offers: [PlanOffer]
    public init(reason: PaywallReason, offers: [PlanOffer]) {
        self.reason = reason
        self.offers = offers
    }

    /// The two-option paywall of `PaywallMoment` as offers of one tier (rank 0): id 0 monthly, id 1 annual.
    /// With `PurchaseModel.matchingTwoOptionForm()` its probabilities are the old ones (see there).
    public init(_ m: PaywallMoment) {
        var offers = [PlanOffer(id: 0, tierRank: 0, periodMonths: 1, priceUSD: m.monthlyPriceUSD)]
        if let a = m.annualPriceUSD { offers.append(PlanOffer(id: 1, tierRank: 0, periodMonths: 12, priceUSD: a)) }
        self.init(reason: m.reason, offers: offers)
    }
}

/// Tier × period choice at a paywall, and upgrades (audit D7: a tier and a billing period are two choices).
///
/// The utility of an offer o (not buying is 0), with W = max(WTP, 0.01)·(0.5 + value felt):
///
///     U(o) = buyConstant + reason boost
///          + wSurplus·ln(W / monthly-equivalent price of o)                    surplus (acquisition utility)
///          + wTier·rank(o)·ln(1 + W / tierScaleUSD)                           tier value
///          + (period > 1:  annualConstant + wValueAnnual·(value − 0.5))       committing to a long period
///          + (period > 1 and the same tier is offered monthly at m:
///               wDiscount·ln(period·m / price of o))                          the discount, against the same tier
///
/// * Surplus and discount follow Thaler's (1985) split of a purchase into acquisition utility (value against the
///   price paid, here per month) and transaction utility (the deal against a reference price, here the same tier's
///   monthly price, so an annual plan shown beside its monthly plan looks better than alone). The discount is
///   measured against the *same* tier (the old two-option form measured Pro's annual against Premium's monthly).
/// * Tier value is vertical differentiation (Mussa & Rosen 1978: buyers who value quality more take higher
///   quality): the rank is the quality, ln(1 + W/`tierScaleUSD`) the person's taste for it, rising with WTP and
///   value felt with diminishing returns. Its form and `wTier`, `tierScaleUSD` are assumptions. Prices of higher
///   tiers enter through the surplus, so a higher tier is chosen when its extra value beats its extra price.
/// * An upgrade weighs the current plan's U (without the reason boost) as the status quo against each offer of a
///   higher tier, U + `upgradeConstant` (status-quo bias, assumption).
/// * Every price enters as at least `priceFloorUSD` (a plan priced 0 is a free plan).
///
/// With the default weights an annual plan at 59.99 beside the same tier's 8.99 monthly has a utility
/// (2.0 + 1.2)·ln(12·8.99/59.99) − 0.8 ≈ +1.08 above it: about three annual buyers per monthly one. That annual
/// mix is a consequence of the (assumed) constants, not a calibration; compare it with the product's annual mix.
extension PurchaseModel {
    /// The utility of buying `o` at `paywall` (see the type's documentation; not buying is 0).
    public func offerUtility(_ o: PlanOffer, at paywall: Paywall, willingnessToPay wtp: Double, valueFelt v: Double) -> Double {
        baseUtility(o, among: paywall.offers, willingnessToPay: wtp, valueFelt: v) + reasonBoost(paywall.reason)
    }

    /// U(o) without the reason boost; the discount looks for the same tier's monthly plan among `others`.
    func baseUtility(_ o: PlanOffer, among others: [PlanOffer], willingnessToPay wtp: Double, valueFelt v: Double) -> Double {
        let w = max(wtp, 0.01) * (0.5 + v)
        var u = buyConstant + wSurplus * log(w / o.monthlyEquivalentUSD)
        if o.trialDays > 0 { u += trialStartBoost }
        u += wTier * Double(o.tierRank) * log(1 + w / tierScaleUSD)
        if o.periodMonths > 1 {
            u += annualConstant + wValueAnnual * (v - 0.5)
            if let monthly = others.first(where: { $0.tierRank == o.tierRank && $0.periodMonths == 1 }) {
                u += wDiscount * log(Double(o.periodMonths) * max(monthly.priceUSD, Self.priceFloorUSD) / max(o.priceUSD, Self.priceFloorUSD))
            }
        }
        return u
    }

    /// Probabilities of not buying and of each offer (aligned with `paywall.offers`); they sum to 1.
    ///
    /// With a free trial on the paywall the choice is two-staged (nested logit; audit 2026-11-25 E13): whether to
    /// take Pro now weighs the plans' inclusive value ln Σ exp U(o) plus `trialStartBoost` (nothing is paid now and
    /// it can be cancelled), and which plan is then chosen by the plans' utilities without the boost — the billing
    /// period is a choice of its own, so a trial on the annual plan does not decide it (before, the boost was added
    /// to the annual offer alone and no one ever bought monthly). Assumption: the form; the weights are the model's.
    /// Without a trial this is the flat logit over none and the offers.
    public func offerProbabilities(_ paywall: Paywall, willingnessToPay wtp: Double, valueFelt v: Double) -> (none: Double, offers: [Double]) {
        guard paywall.offers.contains(where: { $0.trialDays > 0 }) else {
            let p = Choice.logitProbabilities(utilities: [0] + paywall.offers.map { offerUtility($0, at: paywall, willingnessToPay: wtp, valueFelt: v) })
            return (p[0], Array(p.dropFirst()))
        }
        let u = paywall.offers.map { o -> Double in
            var plain = o
            plain.trialDays = 0
            return offerUtility(plain, at: paywall, willingnessToPay: wtp, valueFelt: v)
        }
        let top = u.max() ?? 0
        let inclusive = top + log(u.reduce(0) { $0 + exp($1 - top) })
        let none = Choice.logitProbabilities(utilities: [0, inclusive + trialStartBoost])[0]
        let within = Choice.logitProbabilities(utilities: u)
        return (none, within.map { $0 * (1 - none) })
    }

    /// The decision at a paywall: the index of the chosen offer in `paywall.offers`, or nil for not buying. One
    /// uniform from `rng` (normally the `purchases` stream), compared with the cumulative probabilities in order
    /// none, offers[0], offers[1], … (as `decide` does for none, monthly, annual).
    public func choose(_ paywall: Paywall, willingnessToPay wtp: Double, valueFelt v: Double, rng: RandomStream) -> Int? {
        let p = offerProbabilities(paywall, willingnessToPay: wtp, valueFelt: v)
        return Self.pick(none: p.none, offers: p.offers, u: rng.uniform())
    }

    /// A subscriber on `current` at a paywall: probabilities of keeping it and of each offer (aligned with
    /// `paywall.offers`; offers of the same or a lower tier get 0). The status quo is U(current) without the
    /// reason boost; each higher-tier offer is U(o) + reason boost + `upgradeConstant`.
    public func upgradeProbabilities(_ paywall: Paywall, current: PlanOffer, willingnessToPay wtp: Double, valueFelt v: Double) -> (keep: Double, offers: [Double]) {
        let all = paywall.offers + [current]
        let keep = baseUtility(current, among: all, willingnessToPay: wtp, valueFelt: v)
        let ups = paywall.offers.map { o in
            o.tierRank > current.tierRank
                ? baseUtility(o, among: all, willingnessToPay: wtp, valueFelt: v) + reasonBoost(paywall.reason) + upgradeConstant
                : -Double.infinity
        }
        let p = Choice.logitProbabilities(utilities: [keep] + ups)
        return (p[0], Array(p.dropFirst()))
    }

    /// The upgrade decision: the index of the chosen offer in `paywall.offers`, or nil for keeping `current`. One
    /// uniform from `rng` (normally the `purchases` stream).
    public func chooseUpgrade(_ paywall: Paywall, current: PlanOffer, willingnessToPay wtp: Double, valueFelt v: Double, rng: RandomStream) -> Int? {
        let p = upgradeProbabilities(paywall, current: current, willingnessToPay: wtp, valueFelt: v)
        return Self.pick(none: p.keep, offers: p.offers, u: rng.uniform())
    }

    static func pick(none: Double, offers: [Double], u: Double) -> Int? {
        if u < none { return nil }
        var cumulative = none
        var last: Int?
        for (i, p) in offers.enumerated() where p > 0 {
            cumulative += p
            last = i
            if u < cumulative { return i }
        }
        return last
    }

    /// This model with the discount weight that makes a one-tier `Paywall(moment)` reproduce the two-option form
    /// (`purchaseProbabilities(_: PaywallMoment, …)`) up to rounding: there the annual's surplus is taken at the
    /// monthly price, here at the monthly-equivalent, which adds wSurplus·ln(12·monthly/annual) to the annual;
    /// `wDiscount − wSurplus` takes it away again. For tests and for comparing the two forms.
    public func matchingTwoOptionForm() -> PurchaseModel {
        var m = self
        m.wDiscount = wDiscount - wSurplus
        return m
    }

    /// Probability that a person asks for a refund after a purchase: logistic(logit(`propensity`) −
    /// `wValueRefund`·(value felt − 0.5)), so `propensity` is the probability at value 0.5 (the person's
    /// `FeatureUseTraits.refundPropensity`). Assumption.
    public func refundProbability(propensity: Double, valueFelt v: Double) -> Double {
        let p = min(max(propensity, 1e-6), 1 - 1e-6)
        let x = log(p / (1 - p)) - wValueRefund * (v - 0.5)
        return 1 / (1 + exp(-x))
    }
}
