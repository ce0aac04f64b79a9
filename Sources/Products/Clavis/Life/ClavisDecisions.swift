import Simulation

// Clavis's own decision kinds and outcomes (issue 44: declared here, listed in `ClavisAdapter.decisionKinds`); the
// onboarding step, the day's churn and the dormant person's answer are the generic life's.

extension DecisionKind {
    /// A moment to lock (seed `004_8fa1e69c755a74b3.txt` §6.3 Lock Flow): leaving home for work or school, or going to
    /// bed, with the main key at hand (it stays at home, §1). A habit: lock or not.
    public static let clavisLock = DecisionKind("clavis_lock", opportunity: "lock_moment", perOpportunity: 1,
                                                outcomes: [.lock, .skipLock])
    /// A moment to unlock (§6.4 Unlock Flow) while locked: arriving home, or waking after a bedtime lock.
    public static let clavisUnlock = DecisionKind("clavis_unlock", opportunity: "unlock_moment", perOpportunity: 1,
                                                  outcomes: [.unlock, .stayLocked])
    /// An urge for a locked app (the Focus hides it, §8): endure it; the app got through anyway (Search, the App
    /// Library); unlock with the key at home; go home for it; a temporary unlock (§6.5); or a bypass the spec leaves
    /// open — the Focus switched off outside the app, "Delete my key" (§9), the key replaced (§3), a look-alike object
    /// tried in its place (inventory §7). One per urge.
    public static let clavisLocked = DecisionKind("clavis_locked", opportunity: "blocked_app_while_locked", perOpportunity: 1,
                                                  outcomes: [.endure, .leak, .unlockWithKey, .goHome, .temporaryKey, .focusOff,
                                                             .resetData, .replaceKey, .lookAlike])
    /// A scan ended without a match (§7: the camera keeps scanning until the person closes it): try again or give up.
    public static let clavisRetry = DecisionKind("clavis_scan_retry", opportunity: "scan_failed", perOpportunity: 1,
                                                 outcomes: [.retryScan, .giveUpScan])
}

extension DecisionOutcome {
    public static let lock = DecisionOutcome("lock")
    public static let skipLock = DecisionOutcome("skip")
    public static let unlock = DecisionOutcome("unlock")
    public static let stayLocked = DecisionOutcome("stay_locked")
    /// The urge not acted on.
    public static let endure = DecisionOutcome("endure")
    /// The app opened through Search or the App Library, the Focus notwithstanding.
    public static let leak = DecisionOutcome("leak")
    public static let unlockWithKey = DecisionOutcome("unlock_with_key")
    public static let goHome = DecisionOutcome("go_home")
    public static let temporaryKey = DecisionOutcome("temporary_key")
    public static let focusOff = DecisionOutcome("focus_off")
    public static let resetData = DecisionOutcome("reset")
    public static let replaceKey = DecisionOutcome("replace_key")
    public static let lookAlike = DecisionOutcome("look_alike")
    public static let retryScan = DecisionOutcome("retry")
    public static let giveUpScan = DecisionOutcome("give_up")
}
