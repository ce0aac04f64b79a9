import Simulation

// Nudge's own decision kinds and outcomes (issue 29; declared here since issue 42, listed in
// `NudgeAdapter.decisionKinds`); the paywall's and renewal's kinds are the shared person layer's.

extension DecisionKind {
    /// A thing to do arose: write it down in the product (say it, type it, share it) or not.
    public static let capture = DecisionKind("capture", opportunity: "thing_to_do_arose", outcomes: [.speak, .type, .share, .notCaptured])
    /// A card the product shows (the One-Thing view): do it now, act on it, snooze, skip, or close the app.
    public static let cardAction = DecisionKind("card_action", opportunity: "card_shown", outcomes: [.done, .act, .snooze, .skip, .closeApp])
    /// A reminder notification seen: ignore, open, a button, "Tomorrow", "Let it go", mute today, turn the type off,
    /// notifications off.
    public static let reminderReply = DecisionKind("reminder_reply", opportunity: "reminder_seen",
                                                   outcomes: [.ignore, .open, .button, .tomorrow, .letItGo, .muteToday, .typeOff, .notificationsOff])
    /// A permission prompt: allow or deny.
    public static let permissionAnswer = DecisionKind("permission_answer", opportunity: "permission_requested", outcomes: [.allow, .deny])
    /// A one-time offer of an optional feature (the lock-screen task): enable or dismiss.
    public static let featurePrompt = DecisionKind("feature_prompt", opportunity: "feature_prompt_shown", outcomes: [.enable, .dismiss])
    /// An AI draft shown with an action: send it, edit then send, or abandon.
    public static let draftUse = DecisionKind("draft_use", opportunity: "draft_shown", outcomes: [.sendDraft, .editDraft, .abandonDraft])
    /// A visit to the app on a free plan, with no paywall met that day: open Settings → "Upgrade to Pro" (a paywall
    /// the person asks for) or not (issue 38; seed 001 §5 Screen 4).
    public static let settingsUpgrade = DecisionKind("settings_upgrade", opportunity: "app_visit_on_free_plan", outcomes: [.open, .ignore])
}

extension DecisionOutcome {
    public static let speak = DecisionOutcome("speak")
    public static let type = DecisionOutcome("type")
    public static let share = DecisionOutcome("share")
    public static let notCaptured = DecisionOutcome("not_captured")
    public static let done = DecisionOutcome("done")
    public static let act = DecisionOutcome("act")
    public static let snooze = DecisionOutcome("snooze")
    public static let skip = DecisionOutcome("skip")
    public static let closeApp = DecisionOutcome("close_app")
    public static let ignore = DecisionOutcome("ignore")
    public static let open = DecisionOutcome("open")
    public static let button = DecisionOutcome("button")
    public static let tomorrow = DecisionOutcome("tomorrow")
    public static let letItGo = DecisionOutcome("let_it_go")
    public static let muteToday = DecisionOutcome("mute_today")
    /// Issue 38: a reminder of a type the person then turns off in Settings (seed 001 §4 Feature 5 "Can disable
    /// specific nudge types").
    public static let typeOff = DecisionOutcome("type_off")
    public static let notificationsOff = DecisionOutcome("notifications_off")
    public static let allow = DecisionOutcome("allow")
    public static let deny = DecisionOutcome("deny")
    public static let enable = DecisionOutcome("enable")
    public static let dismiss = DecisionOutcome("dismiss")
    public static let sendDraft = DecisionOutcome("send_draft")
    public static let editDraft = DecisionOutcome("edit_draft")
    public static let abandonDraft = DecisionOutcome("abandon_draft")
}
