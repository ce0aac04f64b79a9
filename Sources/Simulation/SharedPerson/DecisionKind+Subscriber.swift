import Behavior

// The decision kinds every subscription product shares (`PersonLife+Subscriber.swift`; issue 42).

extension DecisionKind {
    /// Buy (a plan, a trial, an upgrade) or decline at a paywall the engine showed.
    public static let paywallPurchase = DecisionKind("paywall_purchase", opportunity: "paywall_shown",
                                                     outcomes: [.decline, .startTrial, .buyMonthly, .buyAnnual, .buyLifetime, .upgrade])
    /// Keep or cancel a trial, once per trial: as it starts (cancelling, issue 26), or a day before it ends.
    public static let trialKeep = DecisionKind("trial_keep", opportunity: "trial_started", outcomes: [.keep, .inert, .cancel, .cancelAtStart])
    /// Keep or cancel auto-renewal, once per paid period, before it ends.
    public static let renewalKeep = DecisionKind("renewal_keep", opportunity: "paid_period_started", outcomes: [.keep, .inert, .cancel])
}

extension DecisionOutcome {
    public static let decline = DecisionOutcome("decline")
    public static let startTrial = DecisionOutcome("start_trial")
    public static let buyMonthly = DecisionOutcome("buy_monthly")
    public static let buyAnnual = DecisionOutcome("buy_annual")
    public static let buyLifetime = DecisionOutcome("buy_lifetime")
    public static let upgrade = DecisionOutcome("upgrade")
    public static let keep = DecisionOutcome("keep")
    public static let cancel = DecisionOutcome("cancel")
    /// Meant to cancel, did not get round to it before the charge: the plan goes on (auto-renewal inertia).
    public static let inert = DecisionOutcome("inert")
    /// A trial's auto-renewal cancelled as the trial starts (sophisticated inertia); the trial runs on unpaid.
    public static let cancelAtStart = DecisionOutcome("cancel_at_start")

    /// A keep-or-cancel decision.
    public init(_ keep: KeepOutcome) {
        switch keep {
        case .keep: self = .keep
        case .cancel: self = .cancel
        case .inert: self = .inert
        }
    }
}
