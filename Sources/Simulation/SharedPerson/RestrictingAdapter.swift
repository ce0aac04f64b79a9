import RulesCore

/// A product that restricts apps (a blocker: Scroll Off, Earned Access; issue 42 item 3): what every blocker's
/// person side shares — the urge for a restricted app, the permission step, lifting the restriction to leave — lives
/// once, here and in `PersonLife+Blocker.swift`; the product says only which apps it stands in front of and how its
/// restriction is lifted.
public protocol RestrictingAdapter: ProductAdapter {
    /// Whether the product stands in front of `app` now (an app the person blocked, made distracting, …). An urge
    /// for any other app is used as meant, unseen by the product. Reads the life; `inout` only to pass it by address.
    static func restricts(_ app: AppID, _ life: inout PersonLife<Self>) -> Bool
    /// Whether a restriction is left to lift while the person leaves by unblocking (`leavingByUnblocking`).
    static func restrictionRemains(_ life: inout PersonLife<Self>) -> Bool
    /// The person lifts what they can of the restriction (unblocks their apps, deletes their schedules or modes).
    static func liftRestriction(_ life: inout PersonLife<Self>, at now: Instant)
}

extension RestrictingAdapter {
    /// The person leaves by lifting the restriction (`ChurnKind.disableRestriction`, audit D11): what the rules
    /// refuse now is tried again at the next urge or local midnight, while `restrictionRemains`.
    public static func disableRestriction(_ life: inout PersonLife<Self>, at now: Instant) {
        life.blocker?.leavingByUnblocking = true
        liftRestriction(&life, at: now)
    }
}
