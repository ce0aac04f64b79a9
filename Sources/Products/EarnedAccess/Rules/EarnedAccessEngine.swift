import RulesCore

/// Earned Access's rule engine for one person (seed 003 "Earned Access — Consolidated Product + Build Spec v1.2"): a
/// pure, clock-injected state machine. Conflict order from the seed: "Rules & Constants → Data/State →
/// Backlog/Execution", so §6 outranks §5, §8 and §9.
///
/// Day boundaries (04:00 local) and period ends are applied lazily at the start of every call, so a late or missing
/// timer never leaves the state wrong; mode edges and grant expiries are re-derived at every call.
public struct EarnedAccessEngine: Sendable {
    public let parameters: EarnedAccessParameters
    public let zone: ZoneCalendar

    // MARK: Plan (seed 003 §5)
    /// The Pro plan held (trial included; nil = Free), the one trial per person (inventory row 3), auto-renew and the
    /// period: read as `plan`, `inTrial`, … (`SubscriptionEngine`).
    public internal(set) var subscription = StoreSubscription<ProPlan>()
    /// When the person last became Free after Pro (nil: never).
    public internal(set) var downgradedAt: Instant?
    /// The downgrade's "pick the 3 to keep" prompt is waiting for an answer.
    public internal(set) var keepAppsPromptPending = false
    /// The paywall on screen, if any.
    public internal(set) var paywallShowing: PaywallTrigger?
    /// The one placed paywall (§9 Phase 3) has been shown.
    public internal(set) var placementShown = false
    /// The tier in force.
    public var tier: AccessTier { plan == nil ? .free : .pro }

    // MARK: Setup (seed 003 §3 A), §4)
    public internal(set) var authorization: ScreenTimeAuthorization = .notDetermined
    public internal(set) var apps: [TrackedApp] = []
    var nextAppSeq = 0
    public internal(set) var modes: [AccessMode] = []
    var nextModeID: ModeID = 1
    public internal(set) var onboardingFinished = false

    // MARK: Shield and gate (seed 003 §3 B)–D))
    /// `last_blocked_app_token` in the App Group.
    public internal(set) var lastBlockedApp: AppID?
    /// The app the Unlock Gate is open for, if any.
    public internal(set) var gateApp: AppID?
    public internal(set) var grants: [AccessGrant] = []
    /// A quest or emergency wait in progress.
    public internal(set) var pending: PendingUnlock?
    /// Apps whose shield is applied now (the ManagedSettings store's mirror).
    public internal(set) var shieldedApps: [AppID] = []
    /// End of the last grant (Strict's cooldown and a mode's own cooldown count from it).
    public internal(set) var lastGrantEnd: Instant = .distantPast
    /// Pro's own credit price per minute (nil: the fixed price); kept, unused, on Free (§5 "does not delete user data").
    public internal(set) var proCreditCostPerMinute: Double?
    /// Unlocks granted this day_id (the emergency apart) while each mode shielded (a mode's daily unlock limit).
    public internal(set) var unlocksTodayByMode: [ModeID: Int] = [:]

    // MARK: Focus Bank, day, streak (seed 003 §6)
    public internal(set) var balance = 0
    /// The current day_id (local date with the 04:00 rule).
    public internal(set) var dayID: LocalDate
    var nextBoundary: Instant
    var boundaryArmed = false
    /// Balance right after the last boundary (≤ carry-over cap).
    public internal(set) var carriedAtLastBoundary = 0
    public internal(set) var emergenciesToday = 0
    public internal(set) var questUnlocksToday = 0
    public internal(set) var habitsCreditedToday = 0
    public internal(set) var validHabitsToday = 0
    public internal(set) var completedSessionsToday = 0
    public internal(set) var qualifiedToday = false
    public internal(set) var bonusesToday = 0
    public internal(set) var streak = 0
    public internal(set) var habits: [AccessHabit] = []
    var nextHabitID: HabitID = 1
    public internal(set) var focus: FocusSession?
    var lastNow: Instant

    /// A new install at `installedAt` on Free.
    public init(parameters: EarnedAccessParameters = .defaults, zone: ZoneCalendar, installedAt: Instant) {
        self.parameters = parameters
        self.zone = zone
        dayID = zone.day(containing: installedAt, boundary: parameters.dayBoundary)
        nextBoundary = zone.startOfNextDay(after: installedAt, boundary: parameters.dayBoundary)
        lastNow = installedAt
    }

    /// Seed 003 §11 `computeDayId(tsUtcMs, timezoneId) -> day_id`: the local date of the most recent 04:00.
    public static func computeDayID(_ t: Instant, zone: ZoneCalendar, boundary: LocalTimeOfDay = LocalTimeOfDay(hour: 4, minute: 0)!) -> LocalDate {
        zone.day(containing: t, boundary: boundary)
    }

    // MARK: - Entry points

    /// Handles one input at `now`, writing everything it produced into `out` (reset first).
    public mutating func handle(_ input: EarnedAccessInput, at now: Instant, into out: inout EarnedAccessOutcome) {
        out.reset()
        let rolled = advance(to: now, &out)
        let expired = expireGrants(now, &out)
        switch input {
        case .appOpened: appOpened(now, &out)
        case .onboarding(let s): onboarding(s, now, &out)
        case .authorization(let a): authorize(a, &out)
        case .addApp(let a): addApp(a, &out)
        case .removeApp(let a): removeApp(a, &out)
        case .keepApps(let set): keepApps(set, &out)
        case .createMode(let s): createMode(s, now, &out)
        case let .editMode(id, s): editMode(id, s, now, &out)
        case .deleteMode(let id): deleteMode(id, &out)
        case let .setPriority(id, p): setPriority(id, p, now, &out)
        case let .setStrictness(id, s): setStrictness(id, s, now, &out)
        case .appForeground(let a): appForeground(a, now, &out)
        case .shieldClose(let a): shieldClose(a, &out)
        case .openGate(let a): openGate(a, .manual, now, &out)
        case let .unlock(a, c): unlock(a, c, now, &out)
        case .abandonQuest: abandonPending(quest: true, now, &out)
        case .cancelEmergency: abandonPending(quest: false, now, &out)
        case .leaveGate: leaveGate(now, &out)
        case .startFocus(let m): startFocus(m, now, &out)
        case .cancelFocus: cancelFocus(now, &out)
        case .createHabit: createHabit(&out)
        case .completeHabit(let h): completeHabit(h, &out)
        case let .suspendHabit(h, s): suspendHabit(h, s, &out)
        case .paywallResponse(let r): paywallResponse(r, now, &out)
        case .cancelAutoRenew: cancelAutoRenew(&out)
        case .refund: refund(now, &out)
        case .restore: restore(&out)
        case .view(let v): view(v, &out)
        case .setCreditPrice(let p): setCreditPrice(p, &out)
        case .timer(let t): timer(t, now, rolled: rolled, expired: expired, &out)
        }
        refreshModes(now, &out)
        syncShields(now)
        if !boundaryArmed { out.timers.append(EarnedAccessTimer(.dayBoundary, at: nextBoundary)); boundaryArmed = true }
        if now > lastNow { lastNow = now }
    }

    // MARK: - Timers

    mutating func timer(_ t: EarnedAccessTimer, _ now: Instant, rolled: Rolled, expired: Int, _ out: inout EarnedAccessOutcome) {
        out.decision = .staleTimer
        switch t.kind {
        case .dayBoundary: if rolled.day { out.decision = .dayRolledOver }
        case .periodEnd: if rolled.period { out.decision = plan == nil ? .lapsedToFree : .renewed }
        case .modeStart, .modeEnd: out.decision = .ok   // edges are re-derived by `refreshModes` after every input
        case .unlockEnd(let a):
            if expired > 0, !grants.contains(where: { $0.app == a }) {
                out.decision = shieldingSource(at: now) != nil && isEnforced(a) ? .shieldReapplied : .grantExpired
            }
        case .emergencyWaitEnd, .questEnd: pendingDue(now, &out)
        case .focusEnd: focusDue(now, &out)
        }
    }

    // MARK: - Lazy day boundaries and period ends

    struct Rolled { var day = false, period = false }

    /// Applies every 04:00 boundary and period end due at or before `now`, in time order.
    mutating func advance(to now: Instant, _ out: inout EarnedAccessOutcome) -> Rolled {
        var r = Rolled()
        while true {
            let periodAt = plan != nil ? periodEnd : .distantFuture
            let next = min(nextBoundary, periodAt)
            guard next <= now else { break }
            if periodAt == next { periodEnded(at: next, now, &out); r.period = true }
            else { rollDay(at: next, &out); r.day = true }
        }
        return r
    }

    /// Seed 003 §6 Day boundary "Day starts at 04:00 local time" and §6 Credits (Focus Bank) "Balance carryover at day
    /// rollover: min(10, balance)"; the rest expires and is reported. §6 Streak: an unqualified day resets the streak
    /// (assumption, inventory row 29). day_id never goes backwards.
    mutating func rollDay(at boundary: Instant, _ out: inout EarnedAccessOutcome) {
        if !qualifiedToday && streak > 0 {
            out.events.append(.streakBroken(length: streak))
            streak = 0
        }
        let before = balance
        balance = min(parameters.carryoverMax, balance)
        carriedAtLastBoundary = balance
        let newDay = zone.day(containing: boundary, boundary: parameters.dayBoundary)
        if newDay > dayID { dayID = newDay }
        out.events.append(.dayRolledOver(dayID: dayID, balanceBefore: before, balanceAfter: balance, expired: before - balance))
        emergenciesToday = 0
        questUnlocksToday = 0
        unlocksTodayByMode.removeAll(keepingCapacity: true)
        habitsCreditedToday = 0
        validHabitsToday = 0
        completedSessionsToday = 0
        qualifiedToday = false
        bonusesToday = 0
        nextBoundary = zone.startOfNextDay(after: boundary, boundary: parameters.dayBoundary)
        boundaryArmed = false
        out.effects.append(.monitorCallback)
        out.effects.append(.databaseWrite)
    }

    // MARK: - Invariants

    /// The engine's invariants (empty when all hold). `mutating` only so callers pass the engine by reference.
    public mutating func invariantViolations(at now: Instant) -> [String] {
        var v: [String] = []
        if balance < 0 { v.append("negative balance \(balance)") }
        if carriedAtLastBoundary > parameters.carryoverMax { v.append("carried \(carriedAtLastBoundary) over the cap \(parameters.carryoverMax)") }
        if emergenciesToday > parameters.emergencyPerDay { v.append("\(emergenciesToday) emergencies on day_id \(dayID)") }
        if questUnlocksToday > parameters.questMaxPerDay { v.append("\(questUnlocksToday) quest unlocks on day_id \(dayID)") }
        if bonusesToday > 1 { v.append("streak bonus \(bonusesToday) times on day_id \(dayID)") }
        // day_id is the local date or the day before; it may stay ahead of `day(containing:)` for the repeated hour of a
        // fall-back night when the boundary lies in it (it never goes back), but never ahead of the local date.
        if dayID > zone.localDate(max(now, lastNow)) { v.append("day_id \(dayID) ahead of the clock") }
        for g in grants {
            if g.end - g.start != .minutes(Int64(g.minutes)) { v.append("grant of \(g.app) has the wrong length") }
            if g.minutes > maxMinutes(g.method, tier: g.tierAtGrant) { v.append("grant of \(g.minutes) min for \(g.app) above what \(g.tierAtGrant) allows") }
            if tier == .free, g.method == .credits, g.minutes > parameters.freeMaxUnlockMinutes, g.isLive(at: now),
               g.tierAtGrant == .free || (downgradedAt.map { g.start >= $0 } ?? false) {
                v.append("Free user holds a \(g.minutes)-min grant for \(g.app) obtained after the downgrade")
            }
        }
        var seen: [AppID] = []
        for g in grants where g.isLive(at: now) {
            if seen.contains(g.app) { v.append("stacked grants for \(g.app)") }
            seen.append(g.app)
        }
        for a in shieldedApps where grants.contains(where: { $0.app == a && $0.isLive(at: now) }) { v.append("shield up on \(a) with a live grant") }
        if tier == .free {
            if apps.filter(\.kept).count > parameters.freeMaxApps { v.append("Free enforces more than \(parameters.freeMaxApps) apps") }
            if modes.filter({ !$0.locked }).count > parameters.freeMaxModes { v.append("Free enforces more than \(parameters.freeMaxModes) modes") }
        }
        if apps.count > parameters.maxShieldedApps { v.append("more than \(parameters.maxShieldedApps) apps") }
        if hardPaywallLocks && (!shieldedApps.isEmpty || pending != nil || focus != nil || modes.contains(where: \.running)) {
            v.append("the hard paywall locks the app but it enforces or earns")
        }
        return v
    }

    /// The longest grant a method gives on a tier.
    func maxMinutes(_ m: UnlockMethod, tier: AccessTier) -> Int {
        switch m {
        case .credits: tier == .pro ? EarnedAccessParameters.creditDurations.max()! : parameters.freeMaxUnlockMinutes
        case .quest: parameters.questUnlockMinutes
        case .emergency: parameters.emergencyUnlockMinutes
        }
    }
}
