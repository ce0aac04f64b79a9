/// What the life keeps for a product that restricts apps (issue 42 item 3): held by `PersonLife.blocker` only when
/// the product has an app and restricts (`ProductAdapter.restrictsApps`); nil otherwise, so that a product that
/// restricts nothing (Nudge, `none`) neither pays for it nor reports a figure of it (true time saved).
public struct BlockerBookkeeping: Sendable {
    /// Milliseconds the person meant to spend today in the apps the product stands in front of (true time saved is
    /// this less the day's use, `PersonLife.usedRestrictedMs`).
    public var intendedRestrictedMs: Int64 = 0
    /// Shields a dormant person met today (their day's response, `DormantModel`).
    public var dormantShieldsToday = 0
    /// The person leaves by lifting the restriction (`ChurnKind.disableRestriction`): what the rules refused is tried
    /// again at the next urge or local midnight (`PersonLife.liftRestrictionIfLeaving(at:)`).
    public var leavingByUnblocking = false

    public init() {}
}
