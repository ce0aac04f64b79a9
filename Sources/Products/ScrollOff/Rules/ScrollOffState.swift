import RulesCore

/// A lot of credit with one expiry (seed 000 §7.3 `Wallet.rolloverExpiry`).
public struct CreditLot: Hashable, Sendable {
    /// Remaining app time.
    public var amount: TimeSpan
    /// When the lot expires (a local midnight), or `.distantFuture` for the starter credit.
    public var expiresAt: Instant
    /// The labelled starter credit (§4: outside caps and rollover).
    public var isStarter: Bool
}

/// A wallet: lots of credit (seed 000 §3.2 global and per-app wallets).
public struct CreditWallet: Hashable, Sendable {
    public internal(set) var lots: [CreditLot] = []

    /// Total credit.
    public var total: TimeSpan {
        var t: Int64 = 0
        for l in lots { t &+= l.amount.milliseconds }
        return TimeSpan(milliseconds: t)
    }

    mutating func add(_ amount: TimeSpan, expiresAt: Instant, isStarter: Bool = false) {
        guard amount > .zero else { return }
        if let i = lots.firstIndex(where: { $0.expiresAt == expiresAt && $0.isStarter == isStarter }) {
            lots[i].amount += amount
        } else {
            lots.append(CreditLot(amount: amount, expiresAt: expiresAt, isStarter: isStarter))
        }
    }

    private func nextLotIndex(_ order: LotOrder) -> Int? {
        var best: Int?
        for i in lots.indices where lots[i].amount > .zero {
            guard let b = best else { best = i; continue }
            switch order {
            case .earliestExpiryFirst: if lots[i].expiresAt < lots[b].expiresAt { best = i }
            case .latestExpiryFirst: if lots[i].expiresAt > lots[b].expiresAt { best = i }
            }
        }
        return best
    }

    /// Takes up to `amount` in lot order; returns what was taken. Emptied lots are removed.
    @discardableResult
    mutating func take(_ amount: TimeSpan, order: LotOrder) -> TimeSpan {
        var need = amount
        while need > .zero, let i = nextLotIndex(order) {
            let t = min(need, lots[i].amount)
            lots[i].amount -= t
            need -= t
        }
        lots.removeAll { $0.amount <= .zero }
        return amount - need
    }

    /// Moves up to `amount` into another wallet, keeping each lot's expiry.
    mutating func move(_ amount: TimeSpan, order: LotOrder, to other: inout CreditWallet) {
        var need = amount
        while need > .zero, let i = nextLotIndex(order) {
            let t = min(need, lots[i].amount)
            lots[i].amount -= t
            need -= t
            other.add(t, expiresAt: lots[i].expiresAt, isStarter: lots[i].isStarter)
        }
        lots.removeAll { $0.amount <= .zero }
    }

    /// Removes lots expired at `t`; returns the credit that expired.
    mutating func expire(at t: Instant) -> TimeSpan {
        var gone: Int64 = 0
        for l in lots where l.expiresAt <= t { gone &+= l.amount.milliseconds }
        if gone > 0 { lots.removeAll { $0.expiresAt <= t } }
        return TimeSpan(milliseconds: gone)
    }

    /// Everything, emptied.
    mutating func drain(into other: inout CreditWallet) {
        for l in lots { other.add(l.amount, expiresAt: l.expiresAt, isStarter: l.isStarter) }
        lots.removeAll()
    }
}

/// An app on the Blocked list (seed 000 §7.3 `BlockedApp`, `CooldownState`, per-app `Wallet`).
public struct BlockedApp: Hashable, Sendable {
    public var app: AppID
    public var addedAt: Instant
    /// Seed 000 §7.4: cooldown stored as an absolute timestamp ("clock resistance").
    public var lockedUntil: Instant
    /// Pro per-app wallet.
    public var wallet = CreditWallet()
    /// Pro anti-binge guard: daily spend cap, if set.
    public var dailySpendCap: TimeSpan?
    /// Credit spent on this app today (local day).
    public var spentToday: TimeSpan = .zero
}

/// What currently lifts the shield from an app.
public enum AccessKind: UInt8, Hashable, Sendable {
    /// "Use credits": per-second spend while in the foreground.
    case credits
    /// A 60-s peek (free or credit-paid).
    case peek
    /// An emergency token unlock.
    case token
}

/// An unlock of a shielded app.
public struct Access: Hashable, Sendable {
    public var app: AppID
    public var kind: AccessKind
    /// End of a peek or token unlock; `.distantFuture` for credit sessions.
    public var until: Instant
    /// Credit sessions: when the current foreground stretch started (nil while paused).
    public var foregroundSince: Instant?
    /// Credit sessions: when the session was paused (app backgrounded).
    public var pausedAt: Instant?
}

/// The shield currently in front of the user and how far down the ladder this encounter went.
public struct ShieldEncounter: Hashable, Sendable {
    public var app: AppID
    public var shownAt: Instant
    /// The shield is a curfew shield: no options but closing (§7.4).
    public var inCurfew: Bool
    /// The mindfulness step was offered in this encounter (and which exercise was suggested).
    public var mindfulnessOffered: MindfulnessExercise?
    /// The user answered the mindfulness step.
    public var mindfulnessAnswered: Bool
    /// When the mindfulness step was offered (the exercise starts then).
    public var mindfulnessPromptedAt: Instant?
    /// A request was refused in this encounter (no credits, peeks exhausted, token cap, curfew): closing the shield
    /// afterwards is not a willpower win (audit 2026-11 D8).
    public var refused: Bool

    init(app: AppID, shownAt: Instant, inCurfew: Bool) {
        self.app = app
        self.shownAt = shownAt
        self.inCurfew = inCurfew
        mindfulnessOffered = nil
        mindfulnessAnswered = false
        mindfulnessPromptedAt = nil
        refused = false
    }
}

/// A curfew schedule with its bookkeeping.
public struct Curfew: Hashable, Sendable {
    public var id: CurfewID
    public var spec: CurfewSpec
    /// Start of the last occurrence announced with `curfew_start`.
    public var lastStartAnnounced: Instant = .distantPast
}

/// An if-then plan (seed 000 §3.6 `implementation_intentions`).
public struct IfThenPlan: Hashable, Sendable {
    public var id: Int
    public var triggerHash: UInt64
    public var responseHash: UInt64
    public var createdAt: Instant
    public var timesReferenced: Int
}
