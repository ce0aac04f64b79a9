import Simulation

extension DecisionKind {
    /// The toy's own decision (issue 42): at an opening of the notebook, keep a note in it or not.
    public static let toyKeep = DecisionKind("toy_keep", opportunity: "notebook_opened", perOpportunity: 1, outcomes: [.keep, .drop])
}

extension DecisionOutcome {
    /// Leave the note unwritten.
    public static let drop = DecisionOutcome("drop")
}
