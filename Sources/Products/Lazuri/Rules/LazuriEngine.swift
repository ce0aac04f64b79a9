import RulesCore

/// Lazuri's rule engine for one person (seed `002_80c8c6af1a4e5690.txt`, MSc thesis "Mobile App: Educate & Manage
/// Screen Time", University of Sussex, 2025): a pure, clock-injected state machine. The thesis wins over the rule
/// inventory (`lazuri.md`); where the thesis's code and its prose disagree the prose is the default and the
/// code's behaviour a parameter (`LazuriParameters`, each marked "code:").
///
/// Time: every window edge (a schedule's window starting, a blocking window ending) is applied lazily, in time order
/// and at its own instant, at the start of every call (`advance(to:)`); the two timers (`LazuriTimerKind`) only make
/// sure a call comes. Windows are local wall-clock times in the person's zone (`DailyWindow`: exact across DST).
///
/// State is small and fixed: at most `schedules.max_saved` schedules, a 1024-bit seen-set for the deck, six achievement
/// bits. Money: none (§4.3 "App is free with no in-app purchases"): no ledger line is ever written and the person's
/// standing is always the unpaid segment (`RuleEngine`'s default `standing`).
public struct LazuriEngine: Sendable {
    public let parameters: LazuriParameters
    public let zone: ZoneCalendar
    public let installedAt: Instant
    /// The install's local date (day 0).
    public let installDate: LocalDate

    // MARK: Permissions (§4.1.2, §4.1.9, §5.2, §5.6.1)
    public internal(set) var screenTime: PermissionState = .notDetermined
    public internal(set) var notifications: PermissionState = .notDetermined
    public internal(set) var gameCenterSignedIn = false
    /// The OS prompt showing, if any.
    public internal(set) var pendingPrompt: PermissionKind?
    /// Lazuri is in the foreground, on this tab (nil: none shown yet).
    public internal(set) var appOpen = false
    public internal(set) var tab: LazuriTab?

    // MARK: Focus (§3.2, §4.2.2, §5.2)
    /// The one global selection (§5.2 `FamilyActivitySelection`).
    public internal(set) var selection = BlockSelection()
    /// Saved schedules, in id order.
    public internal(set) var schedules: [LazuriSchedule] = []
    var nextScheduleID: ScheduleID = 1
    /// Shields left up by schedules switched off inside their window (`schedules.switch_off_mid_window = keep_until_end`),
    /// each until its window's end.
    public internal(set) var lingering: [LazuriSchedule] = []
    /// The shield showing now, over what.
    public internal(set) var shield: BlockTarget?

    // MARK: Focus time (§5.5)
    /// "Minutes that served you" (§5.5.2 `totalFocusMinutes`): never decreases.
    public internal(set) var totalFocusMinutes = 0
    public internal(set) var focusSessions = 0
    /// The end of the last focus session recorded (the duplicate check, §4.1.8).
    public internal(set) var lastSessionEnd: Instant?

    // MARK: Learn (§4.1.3, §5.3)
    /// One bit per card seen (§5.3.3 `viewedCards`).
    var seen = SeenSet()
    /// Unique cards viewed (§5.3.3 `totalFlashcardsViewed`).
    public internal(set) var uniqueViews = 0
    /// Position in the filtered deck.
    public internal(set) var position = 0
    /// The category filter (nil: All).
    public internal(set) var filter: CardCategory?

    // MARK: Compete (§4.1.4, §5.4.1, §5.6.2)
    /// Bit k: the k-th achievement is unlocked (`achievement_[id]_unlocked`).
    public internal(set) var unlocked: UInt8 = 0
    /// The leaderboard score: the points of the unlocked achievements (§5.6.2 `calculateTotalScore()`).
    public internal(set) var score = 0
    /// The promise's length in characters (0: none set, the shield shows the placeholder).
    public internal(set) var promiseLength = 0

    /// Every window edge at or before this instant has been applied.
    public internal(set) var cursor: Instant

    /// A new install at `installedAt`: nothing granted, nothing selected, no schedule, no promise.
    public init(parameters: LazuriParameters = .defaults, zone: ZoneCalendar, installedAt: Instant) {
        self.parameters = parameters
        self.zone = zone
        self.installedAt = installedAt
        installDate = zone.localDate(installedAt)
        cursor = installedAt
    }

    // MARK: - Entry point

    /// Handles one input at `now`, writing everything it produced into `out` (reset first).
    public mutating func handle(_ input: LazuriInput, at now: Instant, into out: inout LazuriOutcome) {
        out.reset()
        let happened = advance(to: now, &out)
        switch input {
        case .appOpened: appOpened(now, &out)
        case .appClosed: appOpen = false; tab = nil
        case .tabOpened(let t): tabOpened(t, &out)
        case .screenTimeAuthorization(let g): screenTimeAnswered(g, &out)
        case .screenTimeRevoked: revokeScreenTime(now, &out)
        case .notificationPermission(let g):
            notifications = g ? .granted : .denied
            if pendingPrompt == .notifications { pendingPrompt = nil }
            out.events.append(.notificationPermissionResult(granted: g))
        case .gameCenterAuth(let s):
            gameCenterSignedIn = s
            out.events.append(.gameCenterAuthResult(signedIn: s))
        case .setSelection(let s): setSelection(s, &out)
        case .createSchedule(let spec): createSchedule(spec, now, &out)
        case let .editSchedule(id, spec): editSchedule(id, spec, now, &out)
        case let .setScheduleEnabled(id, on): on ? enable(id, now, &out) : switchOff(id, .disabled, now, &out)
        case .deleteSchedule(let id): switchOff(id, .deleted, now, &out)
        case .blockedTargetOpened(let t): blockedTargetOpened(t, now, &out)
        case .shieldPrimaryPressed: shieldPrimaryPressed(&out)
        case .shieldDismissed: shieldDismissed(&out)
        case .swipe(let s): swipe(s, &out)
        case .cardLinkTapped: cardLinkTapped(&out)
        case .setCategoryFilter(let c): setFilter(c, &out)
        case .savePromise(let n): savePromise(n, &out)
        case .gameCenterViewOpened(let v):
            if gameCenterSignedIn { out.events.append(.gameCenterViewOpened(v)) } else { out.decision = .refused(.notSignedIn) }
        case .timer(let t):
            if happened {
                out.decision = .timerHandled
            } else {
                out.decision = .staleTimer
                if t.kind == .windowEnd, let last = lastSessionEnd, isDuplicate(t.at, of: last) {
                    out.events.append(.focusSessionDuplicateDropped)
                }
            }
        }
        armTimers(&out)
    }

    // MARK: - Windows (§4.1.2, §5.2, §5.5.3)

    /// The schedule's recurring window: the chosen days, or every day when `schedules.honour_weekdays` is false (the
    /// code, §5.2: "iOS will handle the selected days automatically" with only hour and minute given).
    func window(_ spec: ScheduleSpec) -> DailyWindow {
        DailyWindow(start: spec.start, end: spec.end, days: parameters.honourWeekdays ? spec.days : .everyDay)
    }

    /// Applies every window edge due at or before `now`, in time order (ends before starts at the same instant), each at
    /// its own instant. True when anything was due.
    @discardableResult
    mutating func advance(to now: Instant, _ out: inout LazuriOutcome) -> Bool {
        var any = false
        while true {
            // The earliest edge: a lingering shield's end, a blocking window's end, an enabled schedule's next start.
            var best = Instant.distantFuture
            var edge: (kind: Int, index: Int) = (-1, -1)
            for (i, s) in lingering.enumerated() where s.block!.upperBound < best { best = s.block!.upperBound; edge = (0, i) }
            for (i, s) in schedules.enumerated() { if let b = s.block, b.upperBound < best { best = b.upperBound; edge = (1, i) } }
            for (i, s) in schedules.enumerated() where s.enabled && s.nextStart < best { best = s.nextStart; edge = (2, i) }
            guard edge.kind >= 0, best <= now else { break }
            any = true
            switch edge.kind {
            case 0:
                let s = lingering.remove(at: edge.index)
                out.events.append(.blockEnded(s.id, outcome: .interrupted, minutes: 0))
                out.effects.append(.monitorCallback)
            case 1: endWindow(edge.index, at: best, &out)
            default: startWindow(edge.index, at: best, &out)
            }
            if !isBlocking { shield = nil }
        }
        cursor = max(cursor, now)
        return any
    }

    /// A window starts (§4.1.2 "applies a shield … immediately when the scheduled period starts"; §4.3 "No turning back,
    /// focus time begins now!"): blocking only with Screen Time granted; the next window is found.
    mutating func startWindow(_ i: Int, at t: Instant, _ out: inout LazuriOutcome) {
        let r = schedules[i].nextWindow!
        schedules[i].nextWindow = window(schedules[i].spec).nextOccurrence(after: t, in: zone)
        guard screenTime == .granted, schedules[i].block == nil else { return }
        beginBlock(i, r.lowerBound..<r.upperBound, &out)
    }

    mutating func beginBlock(_ i: Int, _ r: Range<Instant>, _ out: inout LazuriOutcome) {
        schedules[i].block = r
        let id = schedules[i].id
        out.events.append(.blockStarted(id))
        out.effects.append(.monitorCallback)
        if notifications == .granted {
            out.events.append(.windowStartNotified(id))
            out.effects.append(.notification)
        }
    }

    /// A window ends (§4.3 "Well done! Your discipline has won the day."; §5.5.3 the extension records the session):
    /// the shield is cleared and the real minutes since the shield went up are credited, floored (inventory Q7) — unless
    /// a session ended within `focus.duplicate_window_seconds` before (§4.1.8).
    mutating func endWindow(_ i: Int, at t: Instant, _ out: inout LazuriOutcome) {
        let b = schedules[i].block!
        schedules[i].block = nil
        let id = schedules[i].id
        out.effects.append(.monitorCallback)
        if let last = lastSessionEnd, isDuplicate(t, of: last) {
            out.events.append(.blockEnded(id, outcome: .completed, minutes: 0))
            out.events.append(.focusSessionDuplicateDropped)
        } else {
            let minutes = Int((t - b.lowerBound).milliseconds / 60_000)
            totalFocusMinutes += minutes
            focusSessions += 1
            lastSessionEnd = t
            out.events.append(.blockEnded(id, outcome: .completed, minutes: minutes))
            out.events.append(.focusSessionRecorded(minutes: minutes, total: totalFocusMinutes))
            out.effects.append(.databaseWrite)
        }
        if notifications == .granted {
            out.events.append(.windowEndNotified(id))
            out.effects.append(.notification)
        }
    }

    func isDuplicate(_ t: Instant, of last: Instant) -> Bool {
        let d = (t - last).milliseconds
        return d >= 0 && d < Int64(parameters.duplicateWindowSeconds) * 1000
    }

    /// Some shield is up now.
    public var isBlocking: Bool {
        if !lingering.isEmpty { return true }
        for s in schedules where s.block != nil { return true }
        return false
    }

    /// Schedules toggled on.
    public var enabledCount: Int { schedules.reduce(0) { $0 + ($1.enabled ? 1 : 0) } }

    /// Whether a schedule is "active" in the sense that locks editing (`schedules.active_means`).
    func isActive(_ s: LazuriSchedule) -> Bool {
        parameters.activeMeaning == .enabled ? s.enabled : s.block != nil
    }

    /// The selection is locked (§3.2 "Lock the selection UI while any schedule is active").
    public var selectionLocked: Bool { schedules.contains { isActive($0) } }

    /// The index of a schedule.
    func index(of id: ScheduleID) -> Int? { schedules.firstIndex { $0.id == id } }

    mutating func armTimers(_ out: inout LazuriOutcome) {
        var start = Instant.distantFuture, end = Instant.distantFuture
        for s in schedules {
            if s.enabled { start = min(start, s.nextStart) }
            if let b = s.block { end = min(end, b.upperBound) }
        }
        for s in lingering { end = min(end, s.block!.upperBound) }
        if start < .distantFuture { out.timers.append(LazuriTimer(.windowStart, at: start)) }
        if end < .distantFuture { out.timers.append(LazuriTimer(.windowEnd, at: end)) }
    }

    // MARK: - Invariants

    /// The engine's invariants at `now` (checked after every call).
    public mutating func invariantViolations(at now: Instant) -> [String] {
        var v: [String] = []
        let p = parameters
        if enabledCount > p.maxEnabledSchedules { v.append("\(enabledCount) schedules enabled, max \(p.maxEnabledSchedules)") }
        if schedules.count > p.maxSavedSchedules { v.append("\(schedules.count) schedules saved, max \(p.maxSavedSchedules)") }
        var lastID: ScheduleID = 0
        for s in schedules {
            if s.id <= lastID { v.append("schedule ids out of order at \(s.id)") }
            lastID = s.id
            if s.spec.durationMinutes < p.minWindowMinutes { v.append("schedule \(s.id) of \(s.spec.durationMinutes) min < \(p.minWindowMinutes)") }
            if let b = s.block {
                if !s.enabled { v.append("schedule \(s.id) blocks while switched off") }
                if !(b.lowerBound <= cursor && cursor < b.upperBound) { v.append("schedule \(s.id) blocks \(b) at \(cursor)") }
                if screenTime != .granted { v.append("schedule \(s.id) blocks without Screen Time") }
            }
            if !s.enabled && s.nextWindow != nil { v.append("schedule \(s.id) switched off with a next window") }
            if let n = s.nextWindow, n.lowerBound <= cursor { v.append("schedule \(s.id) next window \(n) not after \(cursor)") }
        }
        if !lingering.isEmpty && p.midWindowSwitchOff != .keepUntilEnd { v.append("a shield lingers with switch-off \(p.midWindowSwitchOff)") }
        for s in lingering where !(s.block!.upperBound > cursor) || screenTime != .granted { v.append("lingering shield of \(s.id) past its end or without Screen Time") }
        if shield != nil && !isBlocking { v.append("a shield shows with no window blocking") }
        if uniqueViews != seen.count { v.append("\(uniqueViews) unique views, \(seen.count) cards seen") }
        if uniqueViews > p.deckSize { v.append("\(uniqueViews) unique views in a deck of \(p.deckSize)") }
        var points = 0
        for k in 0..<6 {
            let on = unlocked & (1 << UInt8(k)) != 0
            if on != (uniqueViews >= p.achievementCards[k]) { v.append("achievement \(k + 1) unlocked \(on) at \(uniqueViews) cards") }
            if on { points += p.achievementPoints[k] }
        }
        if score != points { v.append("score \(score) ≠ \(points) points unlocked") }
        if promiseLength < 0 || promiseLength > p.promiseMaxCharacters { v.append("promise of \(promiseLength) characters") }
        if totalFocusMinutes < 0 { v.append("negative focus minutes") }
        return v
    }
}

/// A fixed-size set of card ids (1024 bits): the deck's seen-set without an allocation per view.
struct SeenSet: Hashable, Sendable {
    var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    private(set) var count = 0

    /// Inserts a card; true when it was not in the set.
    mutating func insert(_ card: CardID) -> Bool {
        let w = Int(card) >> 6, bit = UInt64(1) << UInt64(card & 63)
        let added = withUnsafeMutableBytes(of: &words) { raw -> Bool in
            let p = raw.bindMemory(to: UInt64.self)
            if p[w] & bit != 0 { return false }
            p[w] |= bit
            return true
        }
        if added { count += 1 }
        return added
    }

    func contains(_ card: CardID) -> Bool {
        withUnsafeBytes(of: words) { $0.load(fromByteOffset: (Int(card) >> 6) * 8, as: UInt64.self) } & (UInt64(1) << UInt64(card & 63)) != 0
    }

    static func == (a: SeenSet, b: SeenSet) -> Bool {
        a.count == b.count && withUnsafeBytes(of: a.words) { x in withUnsafeBytes(of: b.words) { y in x.elementsEqual(y) } }
    }
    func hash(into h: inout Hasher) { withUnsafeBytes(of: words) { h.combine(bytes: $0) } }
}
