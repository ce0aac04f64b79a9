import Behavior
import RulesCore

/// What a person remembers of a product that sells a subscription — the same for every such product, so the rules
/// about paywalls, keep-or-cancel decisions and refunds are written once (`PersonLife+Subscriber`).
public struct SubscriberMemory: Sendable {
    /// The local day (index) a paywall was last weighed: a person weighs a purchase at most once a local day
    /// (assumption, the same for every product).
    public var lastPaywallDay = -1
    /// The person has met the hard paywall (`paywall.mode` hard) once: the first one is always weighed.
    public var metHardWall = false
    /// The end of the trial or paid period whose keep-or-cancel decision is booked: once per period (audit
    /// 2026-11-25 E1, E10).
    public var renewalDecisionFor: Instant?
    /// The local day on which the person asks the store for a refund of their last charge, if they will.
    public var refundDay: Int?

    public init() {}
}

/// A product adapter's person state that holds a `SubscriberMemory`: the shared subscriber helpers apply.
public protocol SubscriberState {
    var subscriber: SubscriberMemory { get set }
}
