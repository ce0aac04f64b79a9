import RulesCore

/// Scroll Off's rule engine for one person: a pure, clock-injected state machine (docs/DESIGN.md, principle 1).
///
/// `handle(_:at:into:)` takes a command or a due timer with the current instant and returns (in the outcome
/// buffer) the decision with its reason code, the §8.1 analytics events, money and credit ledger lines, device
/// effects and the timers to arm. The engine never reads a clock or a random source; the person's `ZoneCalendar`
/// is configuration. Day and month rollovers and subscription renewals are also applied lazily at the start of
/// every call, so a late or missing timer never leaves the state wrong.
public struct ScrollOffEngine: Sendable {
    /// Rule parameters (charter defaults unless a scenario overrides them).
    public let parameters: ScrollOffParameters
    /// The person's local calendar.
    public let zone: ZoneCalendar

    // MARK: Subscription (§5.1)
    /// The plan held (nil = Free), auto-renew and the paid period: read as `plan`, `periodStart`, … (`SubscriptionEngine`).
    public internal(set) var subscription = StoreSubscription<Plan>()
    /// A downgrade or monthly↔annual change that applies at the next renewal.
    public internal(set) var pendingPlan: Plan?
    /// The tier in force.
    public var tier: Tier { plan?.tier ?? .free }

    // MARK: Onboarding and plans (§3.6, §6.1)
    public internal(set) var authorized = false
    public internal(set) var onboardingFinished = false
    public internal(set) var starterCreditAwarded = false
    public internal(set) var ifThenPlans: [IfThenPlan] = []
    /// If-then plans created before onboarding finished (§3.6 "count created at onboarding").
    public internal(set) var plansCreatedAtOnboarding = 0

    // MARK: Wallets and blocking (§3.1–3.3)
    public internal(set) var global = CreditWallet()
    public internal(set) var blocked: [BlockedApp] = []
    public internal(set) var accesses: [Access] = []
    /// The restricted app in the foreground with an unlock in force, if any.
    public internal(set) var foreground: AppID?
    public internal(set) var pendingShield: ShieldEncounter?

    // MARK: Earn (§3.2, §7.4, §7.7)
    /// Start of the current abstinence run; nil while not earning.
    public internal(set) var abstinenceStart: Instant?
    public internal(set) var earnedToday: TimeSpan = .zero
    public internal(set) var awardsToday = 0
    /// The highest daily cap in force at any award today (for the invariant after a mid-day downgrade).
    var capInForceToday: TimeSpan = .zero
    /// The daily cap cut an award today (reported once: `earn_award(daily_cap_hit=true)`, notification, Free chip).
    var capCutToday = false
    /// The local day on which earning is frozen after a clock rollback.
    public internal(set) var frozenDay: LocalDate?

    // MARK: Day counters (§3.4)
    public internal(set) var today: LocalDate
    public internal(set) var freePeeksUsedToday = 0
    public internal(set) var creditPeeksUsedToday = 0
    /// The highest free-peek quota in force at any free peek today (for the invariant after a mid-day tier change).
    var peekQuotaInForceToday = 0
    /// Once-a-day paywall chips already shown today (`DayChip` bits).
    var chipsShownToday: UInt8 = 0
    /// Streak-day bookkeeping (`milestones.streak_day_rule`): willpower wins, tokens used, credit spent today.
    public internal(set) var willpowerWinsToday = 0
    public internal(set) var tokensUsedToday = 0
    public internal(set) var creditSpentToday: TimeSpan = .zero
    var nextMidnight: Instant
    var midnightArmed = false

    // MARK: Curfews (§3.3)
    public internal(set) var curfews: [Curfew] = []
    var nextCurfewID: CurfewID = 1

    // MARK: Tokens (§5.2, §7.3 BypassTokens)
    public internal(set) var tokenMonth: MonthID
    public internal(set) var tokensPurchasedThisMonth = 0
    public internal(set) var tokensUsedThisMonth = 0
    public internal(set) var includedTokensRemaining = 0
    var includedGrantedThisMonth = 0
    /// Purchased tokens not yet used (they carry over).
    public internal(set) var purchasedTokensHeld = 0
    var nextMonthStart: Instant
    var monthArmed = false

    // MARK: Preferences
    public internal(set) var mindfulnessAtBypasses: Bool
    public internal(set) var earnNotifications = false
    public internal(set) var curfewReminders = false
    /// Seed 000 §6.5: milestone notifications are "on by default, can disable".
    public internal(set) var milestoneNotifications = true

    // MARK: Insights and milestones (§6.1)
    public internal(set) var timeSavedToday: TimeSpan = .zero
    public internal(set) var totalTimeSaved: TimeSpan = .zero
    /// Last week's daily usage of the blocked apps (`ScrollOffInput.usageBaseline`).
    public internal(set) var usageBaselinePerDay: TimeSpan = .zero
    public internal(set) var bestDayTimeSaved: TimeSpan = .zero
    public internal(set) var streakDays = 0
    public internal(set) var bestStreakDays = 0
    var milestonesUnlocked: UInt8 = 0
    var shieldsByHourThisWeek = [Int32](repeating: 0, count: 24)
    var savedByWeekdayThisWeek = [Int64](repeating: 0, count: 7)
    var shieldCount = 0
    var promptCount = 0
    var lastNow: Instant

    /// A new install at `installedAt` on Free.
    public init(parameters: ScrollOffParameters = .defaults, zone: ZoneCalendar, installedAt: Instant) {
        self.parameters = parameters
        self.zone = zone
        today = zone.localDate(installedAt)
        nextMidnight = zone.startOfNextDay(after: installedAt)
        tokenMonth = zone.monthID(installedAt)
        nextMonthStart = zone.startOfMonth(tokenMonth.next)
        mindfulnessAtBypasses = parameters.mindfulnessEnabledByDefault
        lastNow = installedAt
    }

    /// Has the milestone been unlocked?
    public func hasUnlocked(_ m: Milestone) -> Bool { milestonesUnlocked & (1 << m.rawValue) != 0 }

    // MARK: - Entry points

    /// Handles one input at `now`, writing everything it produced into `out` (reset first).
    public mutating func handle(_ input: ScrollOffInput, at now: Instant, into out: inout ScrollOffOutcome) {
        out.reset()
        if now + parameters.clockRollbackThreshold < lastNow { freezeEarning(rollback: lastNow - now, now: now, &out) }
        // Most calls fall between rollovers: skip `advance` (and its set-up) then.
        let rolled = now < nextMidnight && now < nextMonthStart && (plan == nil || now < periodEnd)
            ? RolledOver() : advance(to: now, &out)
        if !curfews.isEmpty { startDueCurfews(now, &out) }
        switch input {
        case .onboarding(let step): onboarding(step, now, &out)
        case let .createIfThenPlan(t, r): createPlan(t, r, now, &out)
        case .viewIfThenPlan(let i): viewPlan(i, &out)
        case .blockApp(let a): block(a, now, &out)
        case .usageBaseline(let perDay): usageBaselinePerDay = max(.zero, perDay); out.decision = .ok
        case .unblockApp(let a): unblock(a, now, &out)
        case .appForeground(let a): appForeground(a, now, &out)
        case .appBackground(let a): appBackground(a, now, &out)
        case .shield(let c): shieldChoice(c, now, &out)
        case let .mindfulness(e, r): mindfulness(e, r, now, &out)
        case let .earmark(a, amount): earmark(a, amount, now, &out)
        case let .setDailySpendCap(a, cap): setSpendCap(a, cap, now, &out)
        case let .setCurfew(id, spec): setCurfew(id, spec, now, &out)
        case .deleteCurfew(let id): deleteCurfew(id, now, &out)
        case .setPreference(let p): setPreference(p, &out)
        case .upgradeTapped(let p): out.events.append(.subscriptionPurchaseInitiated(p))
        case .buyPlan(let p): buy(p, now, &out)
        case .cancelSubscription: cancel(&out)
        case .refundSubscription: refund(now, &out)
        case .restorePurchases(let e): restore(e, now, &out)
        case .buyToken: buyToken(now, &out)
        case .systemClockChanged(let d):
            if d < .zero && -d > parameters.clockRollbackThreshold { freezeEarning(rollback: -d, now: now, &out) }
        case let .reliabilityCheck(c, passed):
            if passed {
                out.events.append(.reliabilityCheckPass(c))
                if c == .screenTimeAuthorization && !authorized { authorized = true; refreshEarning(now, &out) }
            } else {
                out.events.append(.reliabilityCheckFail(c, error: .checkFailed))
            }
        case .authorizationRevoked: revokeAuthorization(now, &out)
        case .viewInsight(let t): viewInsight(t, &out)
        case .viewWeeklyInsight: weeklyInsight(&out)
        case .timer(let t): timer(t, now, rolled: rolled, &out)
        }
        armCalendarTimers(&out)
        if now > lastNow { lastNow = now }
    }

    // MARK: - Timers

    mutating func timer(_ t: ScrollOffTimer, _ now: Instant, rolled: RolledOver, _ out: inout ScrollOffOutcome) {
        out.decision = .staleTimer
        switch t.kind {
        case .earnAward: earnTimer(now, &out)
        case .localMidnight: if rolled.day { out.decision = .dayRolledOver }
        case .monthStart: if rolled.month { out.decision = .monthRolledOver }
        case .renewal: if rolled.renewal { out.decision = plan == nil ? .lapsedToFree : .renewed }
        case .cooldownEnd(let a):
            if let b = blocked.first(where: { $0.app == a }), b.lockedUntil <= now { out.decision = .ok }
        case .unlockEnd(let a): unlockEndTimer(a, now, &out)
        case .walletEmpty(let a): walletEmptyTimer(a, now, &out)
        case .pausedSessionEnd(let a):
            if let i = accesses.firstIndex(where: { $0.app == a && $0.kind == .credits }),
               let p = accesses[i].pausedAt, p + parameters.pausedSessionTimeout <= now {
                accesses.remove(at: i)
                out.decision = .ok
            }
        case .curfewStart(let id): curfewStartTimer(id, now, &out)
        case .curfewEnd(let id): curfewEndTimer(id, now, &out)
        case .curfewReminder(let id): curfewReminderTimer(id, now, &out)
        }
    }

    mutating func armCalendarTimers(_ out: inout ScrollOffOutcome) {
        if !midnightArmed { out.timers.append(ScrollOffTimer(.localMidnight, at: nextMidnight)); midnightArmed = true }
        if !monthArmed { out.timers.append(ScrollOffTimer(.monthStart, at: nextMonthStart)); monthArmed = true }
    }

    // MARK: - Lazy rollovers

    /// What `advance` rolled over in this call.
    struct RolledOver { var day = false, month = false, renewal = false }

    /// Applies every local midnight, month start and renewal due at or before `now`, in time order.
    mutating func advance(to now: Instant, _ out: inout ScrollOffOutcome) -> RolledOver {
        var r = RolledOver()
        while true {
            let renewalAt = plan != nil ? periodEnd : .distantFuture
            let next = min(nextMidnight, nextMonthStart, renewalAt)
            guard next <= now else { break }
            if renewalAt == next { renew(at: next, now, &out); r.renewal = true }
            else if nextMonthStart == next { rollMonth(at: next, &out); r.month = true }
            else { rollDay(at: next, &out); r.day = true }
        }
        if r.day || r.month || r.renewal { checkForegroundSession(now, &out) }
        return r
    }

    mutating func rollDay(at boundary: Instant, _ out: inout ScrollOffOutcome) {
        settleSpend(at: boundary, &out)
        if parameters.timeSavedMethod == .usageBaseline, enforcing, !blocked.isEmpty { addTimeSaved(usageSavedToday, &out) }
        closeDay(&out)
        today = zone.localDate(boundary)
        earnedToday = .zero
        awardsToday = 0
        capInForceToday = .zero
        capCutToday = false
        chipsShownToday = 0
        willpowerWinsToday = 0
        tokensUsedToday = 0
        creditSpentToday = .zero
        freePeeksUsedToday = 0
        creditPeeksUsedToday = 0
        peekQuotaInForceToday = 0
        timeSavedToday = .zero
        for i in blocked.indices { blocked[i].spentToday = .zero }
        if let f = frozenDay, f < today { frozenDay = nil }
        if today.weekday == .monday {
            for h in 0..<24 { shieldsByHourThisWeek[h] = 0 }
            for d in 0..<7 { savedByWeekdayThisWeek[d] = 0 }
        }
        expireLots(at: boundary, &out)
        nextMidnight = zone.startOfNextDay(after: boundary)
        midnightArmed = false
        out.effects.append(.monitorCallback)
        out.effects.append(.databaseWrite)
    }

    mutating func rollMonth(at boundary: Instant, _ out: inout ScrollOffOutcome) {
        tokenMonth = zone.monthID(boundary)
        tokensPurchasedThisMonth = 0
        tokensUsedThisMonth = 0
        includedGrantedThisMonth = 0
        includedTokensRemaining = 0
        if tier == .pro { grantIncludedTokens() }
        nextMonthStart = zone.startOfMonth(tokenMonth.next)
        monthArmed = false
    }

    /// Seed 000 §5.2 / §7.4: "Pro includes 3 tokens/month"; "3 included tokens replenish monthly".
    ///
    /// When included tokens count toward the cap (assumption `tokens.included_count_toward_cap`), §3.4's "hard-capped
    /// at 5/month (all plans)" and §5.1's Pro "3/mo included; then $0.99 up to 5/mo" bound the month's included plus
    /// purchased tokens, so the grant is cut to what the cap leaves. Assumption (the charter is silent on it): a
    /// person who bought tokens earlier in the month and then becomes Pro gets only the rest of that month's 5.
    mutating func grantIncludedTokens() {
        guard includedGrantedThisMonth == 0 else { return }
        var n = parameters.proIncludedTokensPerMonth
        if parameters.includedTokensCountTowardCap {
            n = min(n, max(0, parameters.tokenMonthlyPurchaseCap - tokensPurchasedThisMonth))
        }
        includedTokensRemaining = n
        includedGrantedThisMonth = n
    }

    // MARK: - Invariants

    /// Checks the engine's invariants; returns one text per violation (empty when all hold). `mutating` only so
    /// that callers pass the engine by reference (a non-mutating call may copy the whole engine, ~800 bytes, and
    /// retain its arrays, on every audited call); it changes nothing.
    public mutating func invariantViolations(at now: Instant) -> [String] {
        var v: [String] = []
        for l in global.lots where l.amount < .zero { v.append("negative global lot \(l.amount)") }
        for b in blocked { for l in b.wallet.lots where l.amount < .zero { v.append("negative wallet lot for \(b.app)") } }
        if earnedToday > max(capInForceToday, parameters.dailyEarnCap[tier]) { v.append("earned \(earnedToday) today above cap") }
        if tokensCountedAgainstCap > parameters.tokenMonthlyPurchaseCap {
            v.append("\(tokensCountedAgainstCap) tokens counted against the monthly cap of \(parameters.tokenMonthlyPurchaseCap)")
        }
        if freePeeksUsedToday > peekQuotaInForceToday { v.append("free peeks above quota") }
        if creditPeeksUsedToday > parameters.creditPeeksPerDay { v.append("credit peeks above quota") }
        if blocked.count > parameters.maxShieldedApps { v.append("more than \(parameters.maxShieldedApps) blocked apps") }
        for a in accesses where curfewActive(for: a.app, at: now) && !(a.kind == .token && parameters.tokensWorkDuringCurfew) {
            v.append("\(a.app) unlocked during curfew")
        }
        if includedTokensRemaining < 0 || purchasedTokensHeld < 0 { v.append("negative token count") }
        if hardPaywallLocks && (!accesses.isEmpty || pendingShield != nil || foreground != nil || abstinenceStart != nil) {
            v.append("the hard paywall locks the app but it enforces or earns")
        }
        return v
    }
}
