/// A plan an app store sells: a subscription, or a one-time purchase that never renews (Earned Access's lifetime).
public protocol StorePlan: Hashable, Sendable {
    /// The store product id (SKU) the plan's ledger lines carry.
    var sku: String { get }
}

/// The analytics events a product names for what the store does to a subscription (issue 42: the store rules live
/// once, each product keeps its own words). A product's event enum conforms and its cases are the witnesses
/// (SE-0280: `case subscriptionRenewed(Plan, price: Money)` is `static func subscriptionRenewed(_:price:)`), so the
/// events stay the product's own: Scroll Off's `subscription_purchase_completed`, Nudge's `subscription_started`.
public protocol SubscriptionEvents {
    associatedtype Plan: StorePlan
    /// A paid period was bought (a trial's first charge included).
    static func subscriptionPurchaseCompleted(_ plan: Plan, price: Money) -> Self
    /// A paid period renewed into the next one.
    static func subscriptionRenewed(_ plan: Plan, price: Money) -> Self
    /// Auto-renew was turned off: the plan runs to its period's end.
    static func subscriptionCancelled(_ plan: Plan) -> Self
    /// The period ended with auto-renew off: the plan lapsed.
    static func subscriptionExpired(_ plan: Plan) -> Self
}

/// The events of a product whose store offers a free trial and whose refunds it reports as such (Earned Access,
/// Nudge).
public protocol TrialSubscriptionEvents: SubscriptionEvents {
    /// The free trial (a store intro offer) began.
    static func trialStarted(_ plan: Plan) -> Self
    /// The store refunded the last charge.
    static func subscriptionRefunded(_ plan: Plan) -> Self
}

/// A person's store subscription as a rule engine mirrors it (docs/DESIGN.md, principle 6: money is one ledger and
/// the plan behind it is the engine's): the plan held, the trial, auto-renew and the paid period, with the store's
/// rules that every subscription product shares — a trial, a charge, a renewal, a cancellation, a refund, a lapse —
/// each booking its ledger line and naming its event in the product's own words (`SubscriptionEvents`).
///
/// What a product decides stays in its engine: which plans carry a trial and when a purchase is refused (seed 003 §5,
/// seed 001 §7), upgrades with proration and changes at renewal (seed 000 §9), timers, tiers and what a lapse locks.
/// Pure: the engine passes the instant, the price (from its parameters) and its calendar.
public struct StoreSubscription<Plan: StorePlan>: Hashable, Sendable {
    /// The plan held (a trial included); nil = unpaid.
    public var plan: Plan?
    /// The current period is the store's free trial.
    public var inTrial = false
    /// The one trial per person was taken.
    public var trialUsed = false
    /// The store renews the plan at the period's end.
    public var autoRenew = false
    /// Start of the current paid period (distant past before the first charge).
    public var periodStart: Instant = .distantPast
    /// End of the current period (trial or paid); distant future without one or on a plan that never renews.
    public var periodEnd: Instant = .distantFuture
    /// The last charge, what a refund returns (zero for a trial); kept when the plan lapses.
    public var lastPaid: Money = .zero

    /// No plan, no trial taken.
    @inlinable public init() {}

    /// The monthly-equivalent price the plan contributes now: nothing unpaid, during the free trial (nothing is paid
    /// yet) or on a plan that never renews (`PlanPrice.monthly` nil).
    @inlinable public func monthlyPrice(_ price: (Plan) -> PlanPrice) -> Money {
        guard let plan, !inTrial else { return .zero }
        return price(plan).monthly ?? .zero
    }

    /// The plan's price per month when a paid period (not the trial, not a one-time plan) runs past `horizon`, else
    /// nil (a subscriber's MRR at the end of a run, `RuleEngine.mrrAtHorizon`).
    @inlinable public func mrr(at horizon: Instant, _ price: (Plan) -> PlanPrice) -> Money? {
        guard let plan, !inTrial, periodEnd > horizon else { return nil }
        return price(plan).monthly
    }

    /// Starts the store's free trial of `plan` at `now` for `days` (an intro offer, renewing into paid unless
    /// cancelled: seed 003 §0, inventory rows 2–4; seed 001 inventory R39): a zero `trial_start` line and
    /// `trialStarted`. Whether the trial is offered is the engine's rule.
    @inlinable public mutating func startTrial<E: TrialSubscriptionEvents>(
        _ plan: Plan, days: Int, at now: Instant, _ ledger: inout OutcomeList<LedgerEntry>, _ events: inout OutcomeList<E>
    ) where E.Plan == Plan {
        self.plan = plan
        trialUsed = true
        inTrial = true
        autoRenew = true
        lastPaid = .zero
        periodEnd = now + .days(Int64(days))
        ledger.append(LedgerEntry(at: now, amount: .zero, productID: plan.sku, kind: .trialStart))
        events.append(.trialStarted(plan))
    }

    /// Charges `price` for a period of `plan` from `t`: the plan held, paid (no longer a trial), renewing when it has
    /// `months` (a one-time plan never ends and never renews), the charge booked as `kind`.
    @inlinable public mutating func charge(_ plan: Plan, price: Money, months: Int?, at t: Instant, in zone: ZoneCalendar,
                                           as kind: LedgerEntry.Kind, _ ledger: inout OutcomeList<LedgerEntry>) {
        self.plan = plan
        inTrial = false
        autoRenew = months != nil
        lastPaid = price
        periodStart = t
        periodEnd = months.map { zone.adding(months: $0, to: t) } ?? .distantFuture
        ledger.append(LedgerEntry(at: t, amount: price, productID: plan.sku, kind: kind))
    }

    /// A purchase of `plan` at `t` (`charge` as `subscription_purchase`) and `subscriptionPurchaseCompleted`.
    @inlinable public mutating func purchase<E: SubscriptionEvents>(
        _ plan: Plan, price: Money, months: Int?, at t: Instant, in zone: ZoneCalendar,
        _ ledger: inout OutcomeList<LedgerEntry>, _ events: inout OutcomeList<E>
    ) where E.Plan == Plan {
        charge(plan, price: price, months: months, at: t, in: zone, as: .subscriptionPurchase, &ledger)
        events.append(.subscriptionPurchaseCompleted(plan, price: price))
    }

    /// The period ended at `t` with auto-renew on: the next period of `plan` is charged — the trial's first charge
    /// as a purchase (the trial converts), a paid period's as a renewal.
    @inlinable public mutating func renew<E: SubscriptionEvents>(
        _ plan: Plan, price: Money, months: Int, at t: Instant, in zone: ZoneCalendar,
        _ ledger: inout OutcomeList<LedgerEntry>, _ events: inout OutcomeList<E>
    ) where E.Plan == Plan {
        if inTrial {
            purchase(plan, price: price, months: months, at: t, in: zone, &ledger, &events)
        } else {
            charge(plan, price: price, months: months, at: t, in: zone, as: .subscriptionRenewal, &ledger)
            events.append(.subscriptionRenewed(plan, price: price))
        }
    }

    /// Auto-renew turned off in the store (`subscriptionCancelled`): the plan runs to its period's end. False, and
    /// nothing changes, when no plan renews.
    @inlinable public mutating func cancelAutoRenew<E: SubscriptionEvents>(_ events: inout OutcomeList<E>) -> Bool
    where E.Plan == Plan {
        guard let plan, autoRenew else { return false }
        autoRenew = false
        events.append(.subscriptionCancelled(plan))
        return true
    }

    /// The period ended with auto-renew off (`subscriptionExpired`): the plan lapses.
    @inlinable public mutating func expire<E: SubscriptionEvents>(_ plan: Plan, _ events: inout OutcomeList<E>) where E.Plan == Plan {
        events.append(.subscriptionExpired(plan))
        lapse()
    }

    /// A store refund of the last charge (a `refund` line when something was paid) and `subscriptionRefunded`; the
    /// plan lapses at once. False, and nothing changes, without a plan.
    @inlinable public mutating func refund<E: TrialSubscriptionEvents>(
        at now: Instant, _ ledger: inout OutcomeList<LedgerEntry>, _ events: inout OutcomeList<E>
    ) -> Bool where E.Plan == Plan {
        guard let plan else { return false }
        if lastPaid > .zero { ledger.append(LedgerEntry(at: now, amount: .zero - lastPaid, productID: plan.sku, kind: .refund)) }
        events.append(.subscriptionRefunded(plan))
        lapse()
        return true
    }

    /// No plan from now: no trial, no renewal, no period (the last charge stays on record).
    @inlinable public mutating func lapse() {
        plan = nil
        inTrial = false
        autoRenew = false
        periodEnd = .distantFuture
    }
}
