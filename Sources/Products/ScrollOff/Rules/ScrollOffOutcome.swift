import RulesCore

/// The engine's answer to one input, with a reason code a UI could show.
public enum ScrollOffDecision: UInt8, Hashable, Sendable {
    // Neutral / accepted
    /// Accepted; nothing to explain.
    case ok
    /// A timer that is no longer due (superseded, duplicate or early): nothing happened.
    case staleTimer
    /// The app is not restricted: it opens normally.
    case notShielded
    /// The shield appeared (§3.1).
    case shieldShown
    /// The shield appeared because a curfew is active: no options but closing (§7.4).
    case curfewShieldShown
    /// The app had an unlock in force (credits session, peek, token): it opened without the shield.
    case accessResumed
    /// The user closed the shield without spending: a willpower win (§8.1).
    case willpowerWin
    /// Credits are being spent while the app is in the foreground (§3.2).
    case spendStarted
    /// A free 60-s peek (§3.4 step 1).
    case freePeek
    /// A credit-paid 60-s peek (§3.4 steps 2–3).
    case creditPeek
    /// The mindfulness step is offered first (§3.4 step 4).
    case mindfulnessPrompted
    /// The mindfulness exercise led the user not to bypass.
    case bypassAvoided
    /// An emergency token unlocked the app (§3.4, §5.2).
    case tokenUsed
    /// An emergency token was bought (and kept for later).
    case tokenPurchased
    /// Earn award posted (§3.2).
    case earnAwarded
    /// The daily earn cap cut the award (§3.2, §7.4).
    case dailyEarnCapHit
    /// The wallet ran out; the shield is back (§3.2).
    case walletEmpty
    /// The app's daily spend cap ran out; the shield is back (§3.2 anti-binge guard).
    case dailySpendCapReached
    /// A peek or token unlock ended; the shield is back.
    case unlockEnded
    /// Local midnight processed (§7.4).
    case dayRolledOver
    /// A new local month began (§7.4 tokens).
    case monthRolledOver
    /// An app joined the Blocked list; its cooldown runs (§3.3).
    case appBlocked
    /// An app left the Blocked list.
    case appUnblocked
    /// A curfew window began / ended.
    case curfewStarted, curfewEnded
    /// Curfew saved.
    case curfewSaved
    /// Plan purchased, upgraded (instant, prorated), scheduled for renewal, renewed, lapsed, restored.
    case subscribed, upgraded, planChangeScheduled, renewed, lapsedToFree, restored, cancelled, refunded
    /// Onboarding: the starter credit was awarded (§4).
    case starterCreditAwarded
    /// Earning is frozen for the day after a clock rollback (§7.7).
    case earnFrozen
    /// The pending shield was left without pressing "Close" — the user backgrounded it or opened another app. Not a
    /// willpower win (`shield_abandoned(reason=backgrounded|other_app_opened)`; audit 2026-11 D8).
    case shieldAbandoned
    /// The shield was closed after a refusal in the same encounter (no credits, peeks exhausted, token cap, curfew):
    /// the user was turned away, not a willpower win (`shield_abandoned(reason=closed_after_refusal)`; audit D8).
    case shieldClosedAfterRefusal

    // Refusals
    /// The app is already on the Blocked list.
    case alreadyBlocked
    /// The app is not on the Blocked list.
    case notBlocked
    /// Free may block at most 3 apps (§5.1).
    case blockedAppLimitReached
    /// At most 50 individually shielded apps (§7.5).
    case shieldLimitReached
    /// The app is still in its cooldown lock (§3.3).
    case cooldownActive
    /// ScreenTime authorization is required.
    case authorizationRequired
    /// No shield is pending for a shield choice.
    case noPendingShield
    /// No credits available (or the daily spend cap is used up).
    case noCredits
    /// A curfew is active: credits cannot be spent and bypasses are disabled (§7.4).
    case curfewActive
    /// Curfew edits are locked from 30 min before start to the end (§3.3).
    case curfewEditLocked
    /// The curfew is longer than 16 hours (§3.3), empty or malformed.
    case curfewInvalid
    /// Too many curfew schedules (assumption).
    case curfewLimitReached
    /// No such curfew.
    case curfewNotFound
    /// Peeks for today are used up; the next step is the mindfulness step or a token (§3.4).
    case peeksExhausted
    /// Tokens are the last resort: the peek steps are not used up yet (§5.2 "show as last resort only").
    case ladderNotExhausted
    /// The monthly token purchase cap is reached (§5.2).
    case tokenCapReached
    /// A Pro-only control on a lower plan.
    case requiresPro
    /// The plan bought is the one already held.
    case alreadySubscribed
    /// No subscription to cancel, refund or restore.
    case noSubscription
    /// Not enough credit in the global wallet to earmark.
    case insufficientCredits
    /// An index or id that does not exist.
    case notFound
    /// Seed 000 §6.1 "User must create at least 1 plan", §4 "Require 1 minimum", §9 "At least 1 plan required to
    /// proceed": blocking apps and finishing onboarding wait for the first if-then plan.
    case ifThenPlanRequired
    /// Seed 000 §6.1 onboarding acceptance "At least 1 blocked app selected": onboarding cannot finish without one.
    case blockedAppRequired
    /// The mindfulness exercise was reported complete before its length had passed (§4: breath 2 min, grounding
    /// 2 min, body scan 3 min).
    case exerciseUnfinished
    /// The insight belongs to a higher tier (§5.1, §6.1); a `paywall_shown` chip is shown instead.
    case insightLocked
    /// Emergency tokens are bought only at the shield, as the ladder's last step (§5.2 "show as last resort only";
    /// parameter `tokens.purchasable_outside_shield`).
    case tokenOnlyAtShield

    /// True for refusals (the user's request was not carried out).
    public var isRefusal: Bool { rawValue >= ScrollOffDecision.alreadyBlocked.rawValue }

}

/// A notification the app posts. Seed 000 §6.5 (and §7.4's cap-hit notice, §7.7's clock warning).
public enum NotificationKind: UInt8, Hashable, Sendable, CustomStringConvertible {
    case earnAward, earnCapReached, curfewReminder, milestone, clockChangeDetected
    public var description: String { ["earn_award", "earn_cap_reached", "curfew_reminder", "milestone", "clock_change_detected"][Int(rawValue)] }
}

/// Side effects on the device, each priced by the simulator's energy model (`energyCharges`).
public enum ScrollOffEffect: Hashable, Sendable, EnergyPriced {
    /// The shield is applied over an app (ManagedSettings) and rendered.
    case shieldShown(AppID)
    /// The shield is lifted from an app (credits, peek, token).
    case shieldRemoved(AppID)
    /// A local notification.
    case notification(NotificationKind)
    /// A DeviceActivity monitor callback ran (interval or threshold event).
    case monitorCallback
    /// A batch of database writes (ledger, wallet, counters).
    case databaseWrite

    /// The energy this effect costs.
    public var energyCharge: EnergyCharge {
        switch self {
        case .shieldShown: return EnergyCharge(.shieldRender)
        case .shieldRemoved: return EnergyCharge(.monitorCallback)
        case .notification: return EnergyCharge(.notification)
        case .monitorCallback: return EnergyCharge(.monitorCallback)
        case .databaseWrite: return EnergyCharge(.databaseWrite)
        }
    }
}

/// The reason of a credit-ledger line. Seed 000 §7.3 `LedgerReason`.
public enum CreditLedgerReason: UInt8, Hashable, Sendable, CustomStringConvertible {
    case earn, spend, bypassFree, bypassCredit, bypassToken, adjust, starterDemo
    public var description: String { ["earn", "spend", "bypassFree", "bypassCredit", "bypassToken", "adjust", "starterDemo"][Int(rawValue)] }
}

/// One line of the credit ledger (seed 000 §7.3 `CreditLedger`): seconds of app time in or out of a wallet.
/// Rollover expiry and earmarking are `adjust` lines.
public struct CreditLedgerEntry: Hashable, Sendable {
    public var delta: TimeSpan
    public var reason: CreditLedgerReason
    public var app: AppID?
    public init(delta: TimeSpan, reason: CreditLedgerReason, app: AppID? = nil) {
        self.delta = delta
        self.reason = reason
        self.app = app
    }
}

/// Everything one input produced. Reuse one value with `handle(_:at:into:)` to avoid allocation per command.
public struct ScrollOffOutcome: Hashable, Sendable, EngineOutcome {
    /// The decision, with a reason code.
    public var decision: ScrollOffDecision = .ok
    /// Analytics events, in order (seed 000 §8.1).
    public var events: OutcomeList<ScrollOffEvent> = []
    /// Money movements (gross).
    public var ledger: OutcomeList<LedgerEntry> = []
    /// Credit movements (seconds of app time).
    public var credits: OutcomeList<CreditLedgerEntry> = []
    /// Device effects.
    public var effects: OutcomeList<ScrollOffEffect> = []
    /// Timers to arm (each strictly in the future; see `ScrollOffTimer` for the contract).
    public var timers: OutcomeList<ScrollOffTimer> = []

    public init() {}

    /// Empties every list, keeping capacity.
    public mutating func reset() {
        decision = .ok
        events.removeAll()
        ledger.removeAll()
        credits.removeAll()
        effects.removeAll()
        timers.removeAll()
    }

    /// The energy charges of all effects.
    public var energyCharges: [EnergyCharge] { effects.map(\.energyCharge) }
}
