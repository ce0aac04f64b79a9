import RulesCore

/// The engine's answer to one input, with a reason code.
public enum EarnedAccessDecision: UInt8, Hashable, Sendable {
    // Accepted / neutral
    case ok
    /// A timer that is no longer due (superseded, duplicate or early): nothing happened.
    case staleTimer
    /// Screen Time authorization is missing (denied, revoked, never asked): nothing is enforced (inventory row 45).
    case notEnforced
    /// The app is not shielded now (not on the enforced list, or no mode is active): it opens normally.
    case notShielded
    /// The app has a live grant: it opens without the shield.
    case grantInForce
    /// The shield appeared (seed 003 §3 B) 1).
    case shieldShown
    /// "Close & unlock" pressed; the last blocked app is written (seed 003 §3 B) 2).
    case shieldClosed
    /// The Unlock Gate opened (seed 003 §3 B) 3, §3 C)).
    case gateOpened
    /// An unlock was granted (credits at once; quest or emergency when its time is over).
    case granted
    case questStarted, questAbandoned
    case emergencyWaitStarted, emergencyWaitAbandoned
    /// A grant ended and the shield is back (a mode is still active) / ended with nothing to reapply.
    case shieldReapplied, grantExpired
    case focusStarted, focusCompleted, focusAbandoned
    case habitCreated, habitCompleted, habitUpdated
    case appAdded, appRemoved, appsKept
    case modeCreated, modeUpdated, modeDeleted
    case authorizationRecorded
    case trialStarted, subscribed, renewed, lapsedToFree, cancelled, refunded, restored, paywallDismissed
    /// Pro set their own credit price (seed 003 §5 "configurable pricing (within safe caps)").
    case priceSet
    case dayRolledOver

    // Refusals
    /// A Pro feature on Free: refused, and the paywall is shown (seed 003 §5 Best paywall / trial trigger moments).
    case paywall
    /// A Pro feature on Free that is no paywall moment of §5: shown locked, refused without an upsell.
    case proOnly
    /// A value outside its safe cap (a credit price, a per-mode cooldown; seed 003 §5 "within safe caps").
    case outOfRange
    /// The mode's own daily unlock limit is reached (seed 003 §5 Pro "Advanced limits … per mode").
    case modeLimitReached
    case notFound
    case alreadyAdded
    /// The OS cap on shielded apps (inventory row 10).
    case shieldLimitReached
    /// More apps to keep than Free allows.
    case tooManyApps
    /// A schedule shorter than DeviceActivity's minimum (inventory row 32).
    case scheduleTooShort
    /// The mode is locked after a downgrade.
    case modeLocked
    /// The gate has nothing to unlock: the app is not shielded now.
    case appNotShielded
    /// The app already has a live grant (no stacking; inventory row 43).
    case alreadyGranted
    case insufficientCredits
    /// The day's quest unlocks are used up (inventory row 39).
    case questLimitReached
    /// The emergency unlock of this day_id is used (seed 003 §6 "1/day global").
    case emergencyUsed
    /// The mode's strictness does not offer this method (inventory row 33).
    case strictnessForbids
    /// Strict's cooldown between unlocks is running.
    case cooldownActive
    /// A quest or emergency wait is already in progress.
    case busy
    /// Copy-text is switched off (`quest.copy_text_enabled`).
    case methodDisabled
    /// A credit duration other than 5/15/30.
    case invalidChoice
    case noQuestInProgress, noWaitInProgress
    case focusRunning, noFocus
    case habitSuspended, alreadyCompleted
    case trialUsed, trialNotOffered, lifetimeNotOffered, alreadySubscribed, noSubscription
    case authorizationRequired
    /// The hard paywall locks the app (`paywall.mode` hard, an assumption-option not in seed 003): focus sessions and
    /// habit check-ins earn nothing until the person starts the trial or pays.
    case hardPaywall

    /// True for refusals (the request was not carried out).
    public var isRefusal: Bool { rawValue >= EarnedAccessDecision.paywall.rawValue }
}

/// Device side effects, each priced by the simulator's energy model (inventory §5).
public enum EarnedAccessEffect: Hashable, Sendable, EnergyPriced {
    /// A shield rendered over an app (one per shield met).
    case shieldRendered(AppID)
    /// The shield lifted for a grant: the App Group mirror of active unlock windows is written (seed 003 §7 State sharing).
    case shieldLifted(AppID)
    /// A DeviceActivity monitor callback (mode start or end, grant expiry, day boundary).
    case monitorCallback
    /// An App Group / database write ("Close & unlock" writes the last blocked app; ledger lines).
    case databaseWrite
    /// A local notification (end of a focus session; assumption).
    case notification
    /// Seconds of Earned Access's own UI in the foreground (gate browsing, breathing, copy-text, emergency wait).
    case foreground(seconds: Int)

    public var energyCharge: EnergyCharge {
        switch self {
        case .shieldRendered: EnergyCharge(.shieldRender)
        case .shieldLifted: EnergyCharge(.databaseWrite)
        case .monitorCallback: EnergyCharge(.monitorCallback)
        case .databaseWrite: EnergyCharge(.databaseWrite)
        case .notification: EnergyCharge(.notification)
        case .foreground(let s): EnergyCharge(.foregroundSecond, Double(s))
        }
    }
}

/// Everything one input produced (the seam's standard buffer). Reuse one value with `handle(_:at:into:)`.
public typealias EarnedAccessOutcome = StandardOutcome<EarnedAccessDecision, EarnedAccessEvent, EarnedAccessEffect, EarnedAccessTimer>

extension EarnedAccessDecision: OutcomeDecision {}
