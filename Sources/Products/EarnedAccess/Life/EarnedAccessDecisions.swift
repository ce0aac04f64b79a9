import Simulation

// Earned Access's own decision kinds and outcomes (issue 42: declared here, listed in
// `EarnedAccessAdapter.decisionKinds`); the shield's, the paywall's and the keep-or-cancel kinds are the shared
// person layer's.

extension DecisionKind {
    /// An option at an Unlock Gate visit, or leaving it. Three a visit: `EarnedAccessAdapter.meetShield`'s rounds — a
    /// Pro-only option shows the paywall, then another.
    public static let gateOption = DecisionKind("gate_option", opportunity: "unlock_gate_opened", perOpportunity: 3,
                                                outcomes: [.useCredits, .quest, .emergency, .giveUp])
    /// After a downgrade, pick what to keep within Free's limits, or let the product's auto-keep stand.
    public static let downgradeChoice = DecisionKind("downgrade_choice", opportunity: "keep_apps_prompt", outcomes: [.pickApps, .autoKeep])
}

extension DecisionOutcome {
    public static let quest = DecisionOutcome("quest")
    public static let emergency = DecisionOutcome("emergency")
    public static let pickApps = DecisionOutcome("pick_apps")
    public static let autoKeep = DecisionOutcome("auto_keep")
}
