import RulesCore

/// Everything a user, the OS or a due timer can do to the Earned Access engine (inventory §3 Inputs).
public enum EarnedAccessInput: Hashable, Sendable, TimerDelivering {
    /// Earned Access itself opened (funnel E0). Seed 003 §3 B) 3: "auto-navigates to Unlock Gate(last_blocked_app)".
    case appOpened
    /// An onboarding step completed. Seed 003 §3 A) 1–6.
    case onboarding(AccessOnboardingStep)
    /// The OS's answer to the Screen Time request, or a later revocation. Seed 003 §3 A) 2, §11.
    case authorization(ScreenTimeAuthorization)
    /// A distracting app picked (native picker). Seed 003 §3 A) 3, §4; paywall at the 4th on Free (§5).
    case addApp(AppID)
    case removeApp(AppID)
    /// After a downgrade: "Prompt user to pick the 3 to keep" (seed 003 §5 Trial downgrade behavior).
    case keepApps([AppID])
    /// Modes. Seed 003 §3 A) 4, §5 Pro "Unlimited modes + schedules", paywall on the 2nd mode on Free.
    case createMode(ModeSpec)
    case editMode(ModeID, ModeSpec)
    case deleteMode(ModeID)
    case setPriority(ModeID, Int)
    case setStrictness(ModeID, Strictness)
    /// A distracting app came to the foreground (the OS shows the shield when it is blocked). Seed 003 §3 B) 1.
    case appForeground(AppID)
    /// "Close & unlock" on the shield (action = close). Seed 003 §3 B) 1–2.
    case shieldClose(AppID)
    /// The Unlock Gate opened by hand for an app (not via the last blocked app).
    case openGate(AppID)
    /// A choice at the Unlock Gate for an app (the gate's offer → choose → apply; see `gateOffer`).
    case unlock(AppID, GateChoice)
    /// The quest in progress was abandoned.
    case abandonQuest
    /// The emergency wait was left: "leaving cancels it without using up the day's emergency" (inventory row 42).
    case cancelEmergency
    /// The person left the gate: any quest or wait in progress is abandoned.
    case leaveGate
    /// Focus sessions. Seed 003 §6 Credits (Focus Bank) "Earned by focus sessions".
    case startFocus(minutes: Int)
    case cancelFocus
    /// Habits. Seed 003 §6 Streak "2 valid habits completed (not suspended)".
    case createHabit
    case completeHabit(HabitID)
    case suspendHabit(HabitID, Bool)
    /// The paywall's answer (trial, buy, dismiss); also a purchase from Settings.
    case paywallResponse(PaywallResponse)
    /// Auto-renew turned off in the store.
    case cancelAutoRenew
    /// A store refund of the last charge: acts like a lapse (inventory row 18).
    case refund
    /// Restore purchases (reports the plan held; the engine is the store's mirror).
    case restore
    /// A screen viewed (Progress; the weekly review is Pro's, seed 003 §5 "Weekly review + insights").
    case view(AccessView)
    /// Pro's own credit price per unlocked minute, nil for the fixed price (seed 003 §5 Pro "Credit durations 5/15/30
    /// & configurable pricing (within safe caps)").
    case setCreditPrice(perMinute: Double?)
    /// A due timer.
    case timer(EarnedAccessTimer)
}

/// A timer the engine arms (the simulator keeps one pending timer per kind; arming a kind supersedes it, and a stale
/// delivery is ignored: every timer is checked against state when it comes back).
public typealias EarnedAccessTimer = ArmedTimer<EarnedAccessTimerKind>

/// What an Earned Access timer is for (`EarnedAccessTimer.Kind`).
public enum EarnedAccessTimerKind: Hashable, Sendable {
    /// The next 04:00 local day boundary (seed 003 §6 Day boundary).
    case dayBoundary
    /// A mode's schedule starts / ends (seed 003 §7 Key behaviors "Mode start → apply shield", "Mode end → remove shield").
    case modeStart(ModeID)
    case modeEnd(ModeID)
    /// An app's grant ends: "Unlock expired → reapply shield automatically" (seed 003 §7).
    case unlockEnd(AppID)
    /// The emergency unlock's 60 s wait is over (seed 003 §6 Unlock methods).
    case emergencyWaitEnd
    /// The quest's minimum time is over (breathing 60 s, copy-text 45 s; assumptions).
    case questEnd
    /// The focus session's planned length is over.
    case focusEnd
    /// The trial or the paid period ends: renew or become Free (seed 003 §5 Trial downgrade behavior).
    case periodEnd
}
