import RulesCore

/// Nudge's rule engine for one person (seed 001 "Nudge — Product Requirements Document" v2.1): a pure, clock-injected
/// state machine. The seed wins over the rule inventory (`shared/products/nudge.md`); where the seed is silent or
/// contradicts itself the inventory's default is taken as a parameter marked `.assumption(...)`.
///
/// Time: every happening (midnight, a resurfacing, an item turning stale, the Pro check-ins, the end of quiet hours,
/// a Live Activity transition, a period end) is applied lazily, in time order and at its own instant, at the start of
/// every call (`advance(to:)`); timers only make sure a call comes. A late or missing timer never leaves the state
/// wrong.
public struct NudgeEngine: Sendable {
    public let parameters: NudgeParameters
    public let zone: ZoneCalendar
    public let installedAt: Instant
    /// The install's local date (day 0).
    public let installDate: LocalDate

    // MARK: Items (seed 001 §6 Data Model)
    /// Every item ever made, in id order (`items[id - 1]`); done and dropped items stay.
    public internal(set) var items: [NudgeItem] = []
    /// Indices in `items` of the open (active or snoozed) items, ascending: what every scan walks.
    public internal(set) var open: [Int] = []
    var nextSkipSeq = 0

    // MARK: Permissions and settings
    public internal(set) var micPermission: PermissionState = .unasked
    public internal(set) var notificationPermission: PermissionState = .unasked
    public internal(set) var contactsPermission: PermissionState = .unasked
    /// The OS switch for Nudge's notifications.
    public internal(set) var notificationsAllowed = true
    /// The OS prompt showing, if any.
    public internal(set) var pendingPermission: PermissionKind?
    public internal(set) var online = true
    /// Nudge is in the foreground.
    public internal(set) var appOpen = false
    public internal(set) var onboardingDone = false
    var typeOn: [Bool] = [true, true, true]

    // MARK: Capture (seed 001 §4 Feature 1, Feature 2)
    /// Dumps recorded this local day (quota used: non-empty ones), Free or Pro.
    public internal(set) var dumpsToday = 0
    /// Dumps recorded this local day while Free (the invariant's count).
    public internal(set) var freeDumpsToday = 0
    /// Brain dumps completed (cards made), ever.
    public internal(set) var dumpsCompleted = 0
    /// Shares ever saved (the `lifetime` cap's count).
    public internal(set) var sharesSaved = 0
    /// A dump waiting for the microphone permission.
    var pendingDump: PendingDump?
    /// Transcripts recorded offline, split when online (seed 001 §4 Feature 1 "save raw transcript, split later").
    public internal(set) var queuedTranscripts: [QueuedTranscript] = []
    /// The item the contact picker is for.
    var pendingContactItem: ItemID?
    /// A share came before any snooze: the notification prompt is asked at the next open (inventory C17).
    var notificationPromptOwed = false
    /// A share was refused at the Free cap: the paywall shows at the next open (inventory R40).
    var shareLimitPaywallOwed = false

    // MARK: One-Thing View
    /// What the screen shows now (when `appOpen`).
    var shown: Shown = .nothing

    // MARK: Nudges (seed 001 §4 Feature 5)
    public internal(set) var nudgesSentToday = 0
    public internal(set) var mutedToday = false
    /// Instants of the nudges sent this local day (the invariants').
    public internal(set) var sentToday: [Instant] = []
    /// Resurfaced items whose nudge waits for the end of quiet hours.
    public internal(set) var deferred: [ItemID] = []
    var quietEndAt: Instant?

    // MARK: Live Activity (seed 001 §4 Feature 4b)
    public internal(set) var liveActivityOn = false
    public internal(set) var liveActivityPromptShown = false
    var liveActivityPromptOpen = false
    var laRestartAt: Instant = .distantFuture
    var nextLATransitionAt: Instant

    // MARK: Day and daily happenings
    /// The local date of the last day rollover applied.
    public internal(set) var today: LocalDate
    var nextMidnight: Instant
    var nextStaleNudgeAt: Instant
    var nextEODAt: Instant
    /// Every happening at or before this instant has been applied.
    public internal(set) var cursor: Instant

    // MARK: Plan (seed 001 §7)
    /// The plan held (nil = Free), trial, auto-renew and period: read as `plan`, `inTrial`, … (`SubscriptionEngine`).
    public internal(set) var subscription = StoreSubscription<NudgePlan>()
    /// The person was Pro at some time (Free caps may then be exceeded by items kept from Pro: inventory R42).
    public internal(set) var everPro = false
    /// The paywall showing, if any.
    public internal(set) var paywallShowing: PaywallTrigger?
    /// Locked draft teasers shown this local day (`paywall.draft_teasers_per_day`).
    public internal(set) var teasersToday = 0

    // MARK: AI cost (seed 001 §6 API Contracts; inventory C1–C3)
    /// Service cost booked in ledger lines so far.
    public internal(set) var costBooked: Money = .zero
    /// The exact cost so far in 10⁻⁶ micro-dollars (tokens × price per million tokens in micro-dollars).
    public internal(set) var costExactPicoUSD: Int64 = 0
    /// What is not yet booked, in 10⁻⁶ micro-dollars (0 ≤ remainder < 10⁶).
    public internal(set) var costRemainder: Int64 = 0
    /// AI requests made, by kind.
    public internal(set) var splitRequests = 0
    public internal(set) var draftRequests = 0

    var armed: [Instant?] = Array(repeating: nil, count: NudgeTimer.Kind.allCases.count)

    /// The Live Activity's 5 gradient transitions (seed 001 §4 Feature 4b "5 time transitions (~every 2-3 hours)"; the
    /// times are an assumption, inventory C16).
    public static let liveActivityTransitionHours = [6, 9, 13, 17, 20]

    /// A new install at `installedAt`: Free, nothing captured, every permission unasked, Live Activity off.
    public init(parameters: NudgeParameters = .defaults, zone: ZoneCalendar, installedAt: Instant) {
        self.parameters = parameters
        self.zone = zone
        self.installedAt = installedAt
        installDate = zone.localDate(installedAt)
        today = installDate
        cursor = installedAt
        nextMidnight = zone.startOfNextDay(after: installedAt)
        nextStaleNudgeAt = zone.nextOccurrence(of: Self.hour(parameters.staleNudgeHour), after: installedAt)
        nextEODAt = zone.nextOccurrence(of: Self.hour(parameters.endOfDayHour), after: installedAt)
        nextLATransitionAt = Self.nextTransition(after: installedAt, zone: zone)
    }

    static func hour(_ h: Int) -> LocalTimeOfDay { LocalTimeOfDay(hour: h, minute: 0)! }

    static func nextTransition(after t: Instant, zone: ZoneCalendar) -> Instant {
        liveActivityTransitionHours.map { zone.nextOccurrence(of: hour($0), after: t) }.min()!
    }

    // MARK: - Entry points

    /// Handles one input at `now`, writing everything it produced into `out` (reset first).
    public mutating func handle(_ input: NudgeInput, at now: Instant, into out: inout NudgeOutcome) {
        out.reset()
        let happened = advance(to: now, &out)
        switch input {
        case .appOpened(let via): appOpened(via, now, &out)
        case .appClosed: appOpen = false; shown = .nothing
        case let .onboarding(panels, skipped): onboarding(panels, skipped, &out)
        case let .brainDump(thoughts, seconds, online, splitFails):
            brainDump(PendingDump(thoughts: thoughts, seconds: seconds, splitFails: splitFails), online: online, now, &out)
        case .connectivity(let on): connectivity(on, now, &out)
        case .addManual(let t): addManual(t, now, &out)
        case let .share(t, preset): share(t, preset, now, &out)
        case .done(let id): done(id, now, &out)
        case .skip(let id): skip(id, &out)
        case let .snooze(id, p): snooze(id, p, now, &out)
        case .letGo(let id): letGo(id, &out)
        case .actionTapped(let id): actionTapped(id, &out)
        case .contactPicked(let id): contactPicked(id, &out)
        case let .addContact(id, a): addContact(id, a, &out)
        case let .draftSent(id, edited): draftSent(id, edited, &out)
        case .draftAbandoned(let id): draftAbandoned(id, &out)
        case let .notificationReply(id, kind, reply): notificationReply(id, kind, reply, now, &out)
        case let .permission(kind, granted): permission(kind, granted, now, &out)
        case .liveActivityPrompt(let enable): liveActivityPrompt(enable, now, &out)
        case .setLiveActivity(let on): setLiveActivity(on, now, &out)
        case .muteNudgesToday: muteToday(&out)
        case let .setNudgeType(kind, on): setNudgeType(kind, on, &out)
        case .setNotificationsAllowed(let on): setNotificationsAllowed(on, &out)
        case .upgradeTapped: upgradeTapped(&out)
        case .paywallResponse(let p): paywallResponse(p, now, &out)
        case .cancelAutoRenew: cancelAutoRenew(&out)
        case .refund: refund(now, &out)
        case .timer: out.decision = happened ? .timerHandled : .staleTimer
        }
        refreshCard(now, &out)
        armTimers(now, &out)
    }

    // MARK: - Lazy happenings

    /// Applies every happening due at or before `now`, in time order (ties in `NudgeTimer.Kind` order), each at its
    /// own instant. True when anything was due.
    @discardableResult
    mutating func advance(to now: Instant, _ out: inout NudgeOutcome) -> Bool {
        var any = false
        while true {
            var best = Instant.distantFuture
            var kind: NudgeTimer.Kind?
            for k in NudgeTimer.Kind.allCases {
                if let t = dueTime(k), t < best { best = t; kind = k }
            }
            guard let k = kind, best <= now else { break }
            any = true
            switch k {
            case .dayRollover: rollDay(at: best)
            case .resurface: resurface(at: best, &out)
            case .staleCheck: markStale(at: best, &out)
            case .staleNudge:
                nextStaleNudgeAt = zone.nextOccurrence(of: Self.hour(parameters.staleNudgeHour), after: best)
                staleCheckIn(at: best, &out)
            case .endOfDayNudge:
                nextEODAt = zone.nextOccurrence(of: Self.hour(parameters.endOfDayHour), after: best)
                endOfDayPrompt(at: best, &out)
            case .quietEnd: flushDeferred(at: best, &out)
            case .liveActivity: liveActivityTick(at: best, &out)
            case .periodEnd: periodEnded(at: best, now, &out)
            }
            if best > cursor { cursor = best }
        }
        if now > cursor { cursor = now }
        return any
    }

    /// When a kind's next happening is due (nil: none). The Pro check-ins are kept for everyone: on Free they are
    /// suppressed for the tier (audit N14) when the next call applies them; only their timers wait for Pro.
    func dueTime(_ k: NudgeTimer.Kind) -> Instant? {
        switch k {
        case .dayRollover: nextMidnight
        case .resurface: nextResurfaceAt
        case .staleCheck: nextStaleAt
        case .staleNudge: nextStaleNudgeAt
        case .endOfDayNudge: nextEODAt
        case .quietEnd: quietEndAt
        case .liveActivity: liveActivityOn ? min(nextLATransitionAt, laRestartAt) : nil
        case .periodEnd: plan != nil ? periodEnd : nil
        }
    }

    /// The time a timer of a kind is wanted (nil: none).
    func timerTime(_ k: NudgeTimer.Kind) -> Instant? {
        switch k {
        case .staleNudge, .endOfDayNudge: isPro ? dueTime(k) : nil
        default: dueTime(k)
        }
    }

    /// The earliest resurfacing among snoozed items.
    var nextResurfaceAt: Instant? {
        var m = Instant.distantFuture
        items.withUnsafeBufferPointer { b in
            for k in open where b[k].status == .snoozed { if let s = b[k].snoozedUntil, s < m { m = s } }
        }
        return m == .distantFuture ? nil : m
    }

    /// The earliest moment an active item not yet reported stale turns stale.
    var nextStaleAt: Instant? {
        var m = Instant.distantFuture
        let span = parameters.staleSpan
        items.withUnsafeBufferPointer { b in
            for k in open where b[k].status == .active && !b[k].staleReported {
                let s = b[k].touchedAt + span
                if s < m { m = s }
            }
        }
        return m == .distantFuture ? nil : m
    }

    /// Inventory R20 (seed 001 §14 Open Questions 3 "What happens at midnight?" is undecided): nothing expires; the
    /// daily counters (dumps, nudges, mute) and the skip order reset at 00:00 local.
    mutating func rollDay(at t: Instant) {
        let d = zone.localDate(t)
        if d > today { today = d }
        dumpsToday = 0
        freeDumpsToday = 0
        nudgesSentToday = 0
        sentToday.removeAll(keepingCapacity: true)
        mutedToday = false
        teasersToday = 0
        for k in open where items[k].skipSeq != nil { items[k].skipSeq = nil }
        nextMidnight = zone.startOfNextDay(after: t)
    }

    /// Arms the next timer of every kind whose wanted time changed (one pending per kind; a kind no longer wanted is
    /// left to fire and find nothing).
    mutating func armTimers(_ now: Instant, _ out: inout NudgeOutcome) {
        for k in NudgeTimer.Kind.allCases {
            let s = k.slotIndex
            if let a = armed[s], a <= now { armed[s] = nil }
            guard let want = timerTime(k), want > now, armed[s] != want else { continue }
            armed[s] = want
            out.timers.append(NudgeTimer(k, at: want))
        }
    }

    // MARK: - What the adapter reads

    /// True while a Pro period (or trial) runs.
    public var isPro: Bool { plan != nil }

    /// The item with an id.
    public func item(_ id: ItemID) -> NudgeItem? {
        id >= 1 && Int(id) <= items.count ? items[Int(id) - 1] : nil
    }

    /// The latest item holding a task ref (a raw-text card holds several).
    public func item(ref: UInt64) -> NudgeItem? { items.last { $0.holds(ref) } }

    /// Whether a nudge type is on (seed 001 §4 Feature 5 "Can disable specific nudge types").
    public func typeEnabled(_ k: NudgeKind) -> Bool { typeOn[k.index] }

    /// Shared items still open (the `open` cap's count, seed 001 §4 Feature 2 "5 saved items").
    public var openSharedCount: Int { open.reduce(0) { $0 + (items[$1].source == .share ? 1 : 0) } }

    /// Items in the queue now (active and in the app's store): the "of 7" of seed 001 §5 Screen 1.
    public var activeCount: Int { open.reduce(0) { $0 + (items[$1].status == .active && items[$1].ingested ? 1 : 0) } }

    /// The One-Thing card as of the last call (R22 ordering).
    public var currentCard: NudgeItem? { currentCard(at: cursor) }

    // MARK: - Invariants

    /// The engine's invariants (empty when all hold). `mutating` only so callers pass the engine by reference.
    public mutating func invariantViolations(at now: Instant) -> [String] {
        var v: [String] = []
        let p = parameters
        if nudgesSentToday > p.maxNudgesPerDay { v.append("\(nudgesSentToday) nudges sent on \(today), max \(p.maxNudgesPerDay)") }
        if nudgesSentToday != sentToday.count { v.append("nudge count \(nudgesSentToday) ≠ \(sentToday.count) sent") }
        for t in sentToday where isQuiet(t) { v.append("nudge sent in quiet hours at \(t)") }
        for t in sentToday where zone.localDate(t) != today { v.append("nudge at \(t) counted on \(today)") }
        if freeDumpsToday > p.freeDumpsPerDay { v.append("\(freeDumpsToday) Free dumps on \(today), limit \(p.freeDumpsPerDay)") }
        if !everPro {
            let shares = p.shareLimitMode == .open ? openSharedCount : sharesSaved
            if shares > p.freeSavedShares { v.append("\(shares) shared items on Free, cap \(p.freeSavedShares)") }
        }
        var openCount = 0
        for k in open where !items[k].status.isOpen { v.append("item \(items[k].id) on the open list while \(items[k].status)") }
        for (k, i) in items.enumerated() {
            if i.status.isOpen { openCount += 1 }
            if i.id != ItemID(k + 1) { v.append("item at \(k) has id \(i.id)") }
            if (i.status == .snoozed) != (i.snoozedUntil != nil) { v.append("item \(i.id) is \(i.status) with snoozedUntil \(String(describing: i.snoozedUntil))") }
            if (i.status == .done) != (i.completedAt != nil) { v.append("item \(i.id) is \(i.status) with completedAt \(String(describing: i.completedAt))") }
            if i.status == .snoozed, let s = i.snoozedUntil, s <= cursor { v.append("item \(i.id) snoozed until \(s), past") }
            if i.skipSeq != nil && i.status != .active { v.append("item \(i.id) skipped while \(i.status)") }
        }
        if openCount != open.count { v.append("\(open.count) on the open list, \(openCount) open") }
        if costBooked.micros &* 1_000_000 &+ costRemainder != costExactPicoUSD { v.append("cost booked \(costBooked) + remainder ≠ exact total") }
        if costRemainder < 0 || costRemainder >= 1_000_000 { v.append("cost remainder \(costRemainder) out of range") }
        if plan != nil && periodEnd <= cursor { v.append("Pro after its period ended at \(periodEnd)") }
        if plan == nil && (inTrial || autoRenew) { v.append("Free with a trial or auto-renew") }
        if liveActivityOn != (laRestartAt != .distantFuture) { v.append("Live Activity restart armed ≠ on") }
        if dumpsToday < freeDumpsToday { v.append("Free dumps above all dumps") }
        if pendingDump != nil && micPermission != .unasked { v.append("a dump waits although the microphone was answered") }
        return v
    }

    /// Quiet hours [quiet_start, quiet_end) local (seed 001 §4 Feature 5 "Never after 9pm. Never before 8am").
    public func isQuiet(_ t: Instant) -> Bool {
        let h = zone.hour(t), s = parameters.quietStartHour, e = parameters.quietEndHour
        if s == e { return false }
        return s < e ? (h >= s && h < e) : (h >= s || h < e)
    }
}

/// A brain dump as the person made it.
public struct PendingDump: Hashable, Sendable {
    public var thoughts: [Thought]
    public var seconds: Int
    public var splitFails: Bool
}

/// A transcript recorded offline (the thoughts within the cap), split when the network is back.
public struct QueuedTranscript: Hashable, Sendable {
    public var thoughts: [Thought]
    public var seconds: Int
    public var splitFails: Bool
}

/// What the One-Thing View shows.
enum Shown: Hashable, Sendable {
    case nothing, card(ItemID), allClear
}
