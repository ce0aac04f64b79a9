import Behavior

// The decision kinds the generic life itself takes for every product (issue 42: the rest are declared by the shared
// person layer, `SharedPerson/`, and by each product's `Life` folder). A product lists the ones its people meet in
// `ProductAdapter.decisionKinds`.

extension DecisionKind {
    /// Complete an onboarding step or drop out there (one decision per step shown; `PersonLife.onboardingStep`).
    public static let onboardingStep = DecisionKind("onboarding_step", opportunity: "onboarding_step_shown", outcomes: [.complete, .dropOut])
    /// Ask the store for a refund of a charge, or not: once per first charge (`PersonLife.refundRequestDay`).
    public static let refundRequest = DecisionKind("refund_request", opportunity: "first_charge", outcomes: [.request, .noRequest])
    /// Once a local day: stay, or leave (uninstall, revoke access, go dormant, lift the restriction).
    public static let churn = DecisionKind("churn", opportunity: "local_day_ended",
                                           outcomes: [.stay, .uninstall, .revokeAccess, .dormant, .disableRestriction])
    /// Once a local day on which the person is dormant: stay dormant, lift the blocking, uninstall, or come back
    /// (issue 26: dormant is not frozen; every day since issue 39).
    public static let dormantResponse = DecisionKind("dormant_response", opportunity: "local_day_ended_while_dormant",
                                                     outcomes: [.stay, .disableRestriction, .uninstall, .comeBack])
}

extension DecisionOutcome {
    public static let complete = DecisionOutcome("complete")
    public static let dropOut = DecisionOutcome("drop_out")
    public static let request = DecisionOutcome("request")
    public static let noRequest = DecisionOutcome("no_request")
    public static let stay = DecisionOutcome("stay")
    public static let uninstall = DecisionOutcome("uninstall")
    public static let revokeAccess = DecisionOutcome("revoke_access")
    public static let dormant = DecisionOutcome("dormant")
    public static let disableRestriction = DecisionOutcome("disable_restriction")
    /// A dormant person opens the app again.
    public static let comeBack = DecisionOutcome("come_back")

    /// A dormant person's answer to a day.
    public init(_ response: DormantResponse) {
        switch response {
        case .stay: self = .stay
        case .liftBlocking: self = .disableRestriction
        case .uninstall: self = .uninstall
        case .comeBack: self = .comeBack
        }
    }

    /// A day's churn decision.
    public init(_ churn: ChurnKind?) {
        switch churn {
        case nil: self = .stay
        case .uninstall?: self = .uninstall
        case .revokeAccess?: self = .revokeAccess
        case .dormant?: self = .dormant
        case .disableRestriction?: self = .disableRestriction
        }
    }
}
