import Simulation

// Lazuri's own decision kinds and outcomes (issue 43: declared here, listed in `LazuriAdapter.decisionKinds`); the
// onboarding step, the day's churn and the dormant person's answer are the generic life's.

extension DecisionKind {
    /// The person in front of Lazuri's shield (seed `002_80c8c6af1a4e5690.txt` §5.4.2–5.4.3): press "I won't break my
    /// promise!", leave by the home gesture, or break the promise the only ways the product leaves open — switch the
    /// schedule off, delete it (§4.2.4) or revoke Screen Time in Settings (§4.2.2). One a shield: the shield has one
    /// button, so nothing sends the person back to choose again.
    public static let lazuriShield = DecisionKind("lazuri_shield", opportunity: "shield_shown", perOpportunity: 1,
                                                  outcomes: [.press, .leave, .switchOff, .deleteSchedule, .revoke])
    /// On the Compete tab, where the promise sheet opens (§4.2.3, §5.4.1): write a promise (or rewrite it), or not.
    public static let promiseWrite = DecisionKind("promise_write", opportunity: "compete_tab_opened", perOpportunity: 1,
                                                  outcomes: [.write, .rewrite, .promiseSkip])
    /// At an opening of Lazuri (§4.2: Learn, Focus, Compete): read some cards, look at the focus minutes, look at the
    /// rank (Compete), or close it again.
    public static let lazuriVisit = DecisionKind("lazuri_visit", opportunity: "lazuri_opened", perOpportunity: 1,
                                                 outcomes: [.readCards, .lookAtMinutes, .lookAtRank, .closeLazuri])
    /// A local day ends with the promise broken that day (the schedule switched off, deleted or Screen Time revoked):
    /// put the protection back (switch on, create again, grant again) or leave it off.
    public static let lazuriResume = DecisionKind("lazuri_resume", opportunity: "day_ended_with_protection_broken", perOpportunity: 1,
                                                  outcomes: [.resume, .leaveOff])
}

extension DecisionOutcome {
    /// "I won't break my promise!" (§5.4.3): the app closes, a "Note to self:" is posted.
    public static let press = DecisionOutcome("press")
    /// The home gesture, pressing nothing (the engine's `shieldDismissed`).
    public static let leave = DecisionOutcome("leave")
    /// Switch the schedule's toggle off mid-window (§4.2.4): the shield lifts.
    public static let switchOff = DecisionOutcome("switch_off")
    /// Delete the schedule mid-window (§4.2.4).
    public static let deleteSchedule = DecisionOutcome("delete")
    /// Revoke Screen Time in Settings (§4.2.2): every shield lifts.
    public static let revoke = DecisionOutcome("revoke")
    /// Write the first promise.
    public static let write = DecisionOutcome("write")
    /// Write the promise again (new words).
    public static let rewrite = DecisionOutcome("rewrite")
    public static let promiseSkip = DecisionOutcome("skip")
    public static let readCards = DecisionOutcome("read_cards")
    public static let lookAtMinutes = DecisionOutcome("look_at_minutes")
    public static let lookAtRank = DecisionOutcome("look_at_rank")
    public static let closeLazuri = DecisionOutcome("close_app")
    public static let resume = DecisionOutcome("resume")
    public static let leaveOff = DecisionOutcome("leave_off")
}
