// The shield's decision, which Scroll Off and Earned Access share (issue 42: it lives with the blocker layer for now;
// its outcomes are both products' buttons, so each product's `decisions.csv` keeps the rows it always had).

extension DecisionKind {
    /// A button at a shield encounter; a refusal or a skipped exercise lets the person choose again, up to the
    /// encounter's rounds. Five a shield: Scroll Off's `meetShield` has four rounds, and after a completed exercise its
    /// answer too (Earned Access's shield needs fewer).
    public static let shieldChoice = DecisionKind(
        "shield_choice", opportunity: "shield_shown", perOpportunity: 5,
        outcomes: [.letGo, .close, .useCredits, .peek, .mindfulness, .buyToken, .useToken, .unblock, .giveUp, .walkAway, .detour, .waitForEnd])
}

extension DecisionOutcome {
    /// A habitual or weak urge dropped during the shield's interruption (issue 26): the person closes it.
    public static let letGo = DecisionOutcome("let_go")
    public static let close = DecisionOutcome("close")
    public static let useCredits = DecisionOutcome("use_credits")
    public static let giveUp = DecisionOutcome("give_up")
    public static let walkAway = DecisionOutcome("walk_away")
    /// Scroll Off's buttons (seed 000).
    public static let peek = DecisionOutcome("peek")
    public static let mindfulness = DecisionOutcome("mindfulness")
    public static let buyToken = DecisionOutcome("buy_token")
    public static let useToken = DecisionOutcome("use_token")
    public static let unblock = DecisionOutcome("unblock")
    /// Earned Access (seed 003): close the shield to open the app's Unlock Gate; or wait for the block's end, which
    /// is near.
    public static let detour = DecisionOutcome("detour")
    public static let waitForEnd = DecisionOutcome("wait_for_end")
}
