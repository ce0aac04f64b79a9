/// A rule engine that sells plans through the store (Scroll Off, Earned Access, Nudge): it holds a
/// `StoreSubscription` and a price list, and gets from them — once, here — what the simulator reads of its plan
/// (`standing`, `mrrAtHorizon`; docs/DESIGN.md, principle 6) and the plan's state as the person's side sees it
/// (`plan`, `inTrial`, `autoRenew`, `periodEnd`, …, read-only: only the engine's rules change them).
public protocol SubscriptionEngine: RuleEngine {
    associatedtype Plan: StorePlan
    /// The store subscription the engine mirrors.
    var subscription: StoreSubscription<Plan> { get }
    /// A plan's entry in the price list (the engine's `prices.*` parameters): one period's price and its months.
    func listPrice(of plan: Plan) -> PlanPrice
    /// The plan segment the person is counted in now (one of the descriptor's `revenue.planSegments`).
    var planSegment: String { get }
}

extension SubscriptionEngine {
    /// The plan segment and the plan's price per month — nothing unpaid, during the free trial or on a plan that
    /// never renews (`StoreSubscription.monthlyPrice`).
    @inlinable public var standing: PlanStanding {
        PlanStanding(segment: planSegment, monthlyPrice: subscription.monthlyPrice(listPrice(of:)))
    }

    /// The plan's price per month when a paid period (not the trial, not a one-time plan) runs past `horizon`, else nil.
    @inlinable public func mrrAtHorizon(_ horizon: Instant) -> Money? { subscription.mrr(at: horizon, listPrice(of:)) }

    /// The plan held (a trial included); nil = unpaid.
    @inlinable public var plan: Plan? { subscription.plan }
    /// The current period is the free trial.
    @inlinable public var inTrial: Bool { subscription.inTrial }
    /// The one trial per person was taken.
    @inlinable public var trialUsed: Bool { subscription.trialUsed }
    /// The store renews the plan at the period's end.
    @inlinable public var autoRenew: Bool { subscription.autoRenew }
    /// Start of the current paid period.
    @inlinable public var periodStart: Instant { subscription.periodStart }
    /// End of the current period (distant future without one).
    @inlinable public var periodEnd: Instant { subscription.periodEnd }
}
