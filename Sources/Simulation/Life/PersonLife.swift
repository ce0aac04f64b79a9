import Behavior
import Reports
import RulesCore
import SimKernel
import Stochastics

/// The life of one synthetic person with one product, from install to the horizon: the person's phone use and
/// urges (Behavior) meet the product's real rule engine under a per-person event queue. The product is a tenure, not
/// the life (issue 28): after uninstalling, the person lives on untreated to the horizon — the same urges, the habits
/// the product left them with — and a product with no app (`none`) is a life untreated from the start. Generic over the product's
/// `ProductAdapter` and specialised by the compiler; everything here is the same for every product.
///
/// The shared modelling choices (assumptions, documented in `Sources/Simulation/README.md`): install day and hour,
/// pickups that follow what actually happened (a session ends when the person puts the phone down — a shield that
/// held, or the app's session ending or taken away — and the next pickup is drawn from there,
/// `urges.pickup_follows_actual_session`; 0 keeps the former exogenous model, the next pickup after the *intended*
/// session whatever the app decided), a day's end booked before anything else due at local midnight, churn decided once a local day, money booked with the store's
/// commission, battery metered per person-day.
/// An urge being answered: its app (index in `Person.apps`), its kind, whether a shield met it and whether the
/// person got into the app.
struct Cue {
    var app: Int
    var kind: UrgeKind
    var shielded = false
    var acted = false
}

public struct PersonLife<Adapter: ProductAdapter> {
    public typealias Engine = Adapter.Engine

    /// What the per-person queue holds besides pickups.
    enum Event {
        /// The end of a session the life started in an app (stale when the generation moved on).
        case sessionEnd(AppID, generation: UInt32)
        /// An engine timer coming due.
        case engine(Engine.Outcome.Timer)
        /// Local midnight: the day's figures, churn.
        case dayEnd
        /// Something the adapter scheduled (`schedule(_:at:)`): e.g. keep or cancel before a renewal.
        case intent(Adapter.Intent)
        /// A step the product keeps the person busy with (`beBusy(until:)`) ends in a pickup it took no other part in:
        /// nothing of the product's wakes the life then, so this does, to put the phone down.
        case busyEnds
    }

    public let world: World<Adapter>
    public let id: Int
    public var person: Person
    public let zone: ZoneCalendar
    public let device: Device
    /// The product's engine for this person.
    public internal(set) var engine: Engine
    public internal(set) var phone: PhoneUseProcess
    public var engagement: EngagementModel
    public var meter: PersonDayEnergyMeter
    /// The person's random streams, keyed without arm or product (docs/DESIGN.md principle 3).
    public let urges: RandomStream, sessions: RandomStream, choices: RandomStream, purchases: RandomStream
    public let onboarding: RandomStream, churnStream: RandomStream
    /// Per-opportunity decisions about a product's optional features (set up a schedule, a budget, turn a step
    /// off, ask for a refund, change the clock): their own stream, so adding one shifts no other draw.
    public let features: RandomStream
    /// The engine's last outcome (reused for every call).
    public internal(set) var out = Engine.Outcome()
    /// What the life contributes to the reports.
    public var summary: LifeSummary<Adapter>
    /// The person's product-specific memory.
    public var state: Adapter.PersonState
    var queue: EventQueue<Event>
    public let installedAt: Instant
    public let installDay: LocalDate
    public let horizonEnd: Instant
    var sessionGeneration: UInt32 = 0
    /// The decision opportunities open now (`offerDecision`, `decide`).
    var decisionAudit = DecisionAudit(Adapter.self)
    /// The app in the foreground in a session the life started, if any.
    public internal(set) var foregroundApp: AppID?
    var inUseUntil = Instant.epoch
    /// The person no longer opens the product's app (churned dormant, access revoked or permission denied).
    public var dormant = false
    /// The person uninstalled: their tenure with the product ended (churn, or the scenario's `tenure_days`). The
    /// life goes on, untreated, to the horizon (issue 28).
    public internal(set) var uninstalled = false
    /// An engine or decision invariant broke: the life stops there (the run fails with it).
    var stopped = false
    /// The product is not with the person — they never had it (`ProductAdapter.hasApp` false: `none`) or they
    /// uninstalled: their urges and pickups go on as they would with no app, and no hook of the adapter is called.
    public var untreated: Bool { uninstalled || !Adapter.hasApp }
    /// Local days since the install day (0 = install day).
    public internal(set) var dayIndex = 0
    /// The person opened the product's app today.
    public internal(set) var todayActive = false
    /// The product was in use today (`recordInUseDay`).
    public internal(set) var todayInUse = false
    /// The person used the product themselves today (`recordPersonalUseDay`): its integration was reinforced.
    public internal(set) var todayPersonalUse = false
    /// The pickup whose session is still going on: the person has not put the phone down yet (only with
    /// `urges.pickup_follows_actual_session`; the next pickup is drawn when they do, `putDownIfDone`).
    var heldPickup: Pickup?
    /// The product took part in the held session (a shield shown, a session started in the app): it ends when the
    /// person leaves, not at its intended end.
    var heldEngaged = false
    /// The last shield shown in the held session (it holds the person `shield.notice_seconds`).
    var heldShieldAt: Instant?
    /// A session the life started during the held pickup is in the foreground.
    var heldInApp = false
    /// Milliseconds the person spent today in sessions of their target apps the product saw.
    var usedRestrictedMs: Int64 = 0
    /// The blockers' bookkeeping (`BlockerBookkeeping`): present only for a product that restricts apps.
    public var blocker: BlockerBookkeeping?
    /// Milliseconds today in target-app sessions the product did not see (`useAppUnseen`).
    var unseenTargetMsToday: Int64 = 0
    var foregroundSince: Instant?
    var trace: ((TraceRow) -> Void)?
    /// The person's next pickup (kept outside the queue, see `run`).
    var nextPickup: Pickup?
    /// The person's own processes besides pickups (things to do, places), outside the queue like pickups; the same
    /// whatever product the person meets. Each holds its mind (`mind(_:)`, `steer(_:_:)`).
    var processes: PersonProcesses
    /// The person has processes besides pickups (read once: the loop asks at every event).
    var hasProcesses: Bool
    /// A test's typed record of the life (`LifeJournal`, the life harness); nil in runs.
    public var journal: LifeJournal<Adapter>?
    /// The pickups a test scripted in place of the drawn ones (`follow(_:)`); nil in runs.
    var scriptedPickups: ScriptedPickups?
    /// The engine's timer kinds and the queue slots they hold (one slot per kind, never shared).
    var timerSlots = TimerSlots<Engine.TimerKind>()
    /// Every ledger line of the life, when a caller asks for it (tests, audits); nil otherwise.
    public var ledgerLog: [LedgerEntry]?
    /// The local month of the current local day (updated at each day's end).
    public internal(set) var currentMonth: MonthID
    /// The urge being answered now and what became of it so far (issue 26: it feeds or starves the app's habit).
    var cue: Cue?
    /// The last urge settled as passed (its app index), so that a wait or quest ending in the app counts it acted.
    var lastPassedApp: Int?
    /// Today's urges, shields, opens and passes of the target apps (`learning.csv`).
    var learningToday = LearningDay()
    /// The person is busy with the product until then (`beBusy`, `PersonLife+Busy.swift`), and with what.
    var busyUntil = Instant.epoch
    var busyWith = ""
    /// `phone.plateauUrgeProbability` in millionths (constant over the life).
    var untreatedUrgeMillionths: Int64 = 0

    /// The life of person `id` of `world`; `trace` receives each row of their timeline; `processes` are the person
    /// processes besides `PersonProcesses.standard` (the registered products' own, `Products.personProcesses`; a
    /// test's toy process).
    public init(world: World<Adapter>, person id: Int, trace: ((TraceRow) -> Void)? = nil, processes extra: [any PersonProcess.Type] = []) {
        self.world = world
        self.id = id
        self.trace = trace
        let mix = RandomStream(key: world.key(id, "population-mix"))
        let persona = world.personas[mix.categorical(weights: world.personaWeights)]
        let zone = world.zones[mix.categorical(weights: world.zoneWeights)]
        let device = world.devices[mix.categorical(weights: world.deviceWeights)]
        let drawn = Person.draw(persona: persona, id: UInt64(id), seed: world.seed, replication: UInt32(world.replication - 1))
        self.person = drawn
        self.zone = zone
        self.device = device
        onboarding = RandomStream(key: world.key(id, .onboarding))
        if let days = world.installDayIndex {
            installDay = world.start + Int64(days[id])
        } else {
            let window = Int64(min(InstallArrival.installWindowDays, max(1, world.horizonDays / 3)))
            installDay = world.start + Int64(onboarding.uniformInt(below: Int(window)))
        }
        let minute = 8 * 60 + onboarding.uniformInt(below: 14 * 60)
        installedAt = zone.instant(on: installDay, at: LocalTimeOfDay(secondsSinceMidnight: Int32(minute * 60)))
        horizonEnd = zone.instant(on: world.start + Int64(world.horizonDays), at: .midnight)
        currentMonth = zone.monthID(installedAt)
        engine = Engine(parameters: world.parameters, zone: zone, installedAt: installedAt)
        phone = PhoneUseProcess(person: person, urges: world.urges)
        untreatedUrgeMillionths = Int64((phone.plateauUrgeProbability * 1_000_000).rounded())
        blocker = Adapter.hasApp && Adapter.restrictsApps ? BlockerBookkeeping() : nil
        engagement = world.engagement.starting(person: person)
        meter = PersonDayEnergyMeter(device: device, model: world.energy)
        urges = RandomStream(key: world.key(id, .urges))
        sessions = RandomStream(key: world.key(id, .sessions))
        choices = RandomStream(key: world.key(id, .choices))
        purchases = RandomStream(key: world.key(id, .purchases))
        churnStream = RandomStream(key: world.key(id, .churn))
        features = RandomStream(key: world.key(id, .featureUse))
        processes = PersonProcesses(person: drawn, behavior: world.behavior, key: { world.key(id, $0) }, extra: extra)
        hasProcesses = !processes.isEmpty
        queue = EventQueue(start: installedAt, timerSlots: 8, capacity: 32)
        state = Adapter.initialState()
        summary = LifeSummary(tally: Adapter.initialTally(), unpaidSegment: world.revenueModel.unpaidSegment, horizonDays: world.horizonDays)
        summary.persona = person.personaName
        summary.device = device.id
        summary.installedAt = installedAt
        summary.cohort = installDay.isoWeek
        summary.observedDays = Int(zone.localDate(horizonEnd - .milliseconds(1)) - installDay) + 1
        if installedAt < horizonEnd { summary.months[currentMonth, default: PersonMonth()].installed = true }
        // Whether the person only tries the app (issue 39): the churn stream's first draw, the same in every arm.
        engagement.drawTrying(rng: churnStream)
    }

    /// Runs the life and returns what it contributes to the reports.
    public mutating func run() -> LifeSummary<Adapter> {
        guard installedAt < horizonEnd else { return summary }
        summary.world.habitDaysTo95 = [person.scrollingHabit.parameters.daysTo95, person.resistHabit.parameters.daysTo95]
        summary.world.closeHour(pickups: 0, at: installedAt, dayStart: zone.startOfDay(containing: installedAt))
        summary.world.habitLevelOffDays = [person.scrollingHabit.parameters.decayLevelOffDays, person.resistHabit.parameters.decayLevelOffDays]
        if !untreated && engagement.triesOnly { trace(kind: "install", detail: "tries the app only (retention.trying_share)", at: installedAt) }
        if !untreated { Adapter.onboard(&self, at: installedAt) }
        schedule(.dayEnd, at: zone.startOfNextDay(after: installedAt))
        schedulePickup(after: installedAt + .minutes(5))
        if hasProcesses { processes.start(after: installedAt, zone: zone) }
        // Pickups, the most frequent events, are merged with the queue rather than pushed through it; at equal
        // times the queue's events come first, then pickups, then the person's other processes.
        while !stopped {
            let queued = queue.peekTime()
            if hasProcesses, let at = processes.nextTime, queued.map({ at < $0 }) ?? true,
               nextPickup.map({ at < $0.at }) ?? true {
                guard at < horizonEnd else { processes.stop(); continue }
                guard let o = processes.take(zone: zone) else { continue }
                queue.advance(to: o.at)
                journal?.occurrences.append(.init(at: o.at, occurrence: o.occurrence.detached()))
                if untreated { liveUnaided(o.occurrence, at: o.at) } else { Adapter.occurrence(o.occurrence, &self, at: o.at) }
                if heldPickup != nil { putDownIfDone(at: o.at) }
                continue
            }
            if let p = nextPickup, queued.map({ p.at < $0 }) ?? true {
                guard p.at < horizonEnd else { break }
                nextPickup = nil
                queue.advance(to: p.at)
                pickup(p, at: p.at)
                continue
            }
            guard let e = queue.next(until: horizonEnd) else { break }
            handle(e.payload, at: e.time)
            if heldPickup != nil { putDownIfDone(at: e.time) }
        }
        finish()
        return summary
    }

    /// The life's clock: the time of the event being handled.
    public var now: Instant { queue.now }

    // MARK: - Scheduling

    mutating func schedule(_ e: Event, at t: Instant) {
        // The day's end is booked before anything else due at local midnight (the engine's own rollover included),
        // so the day's figures are read before they reset.
        let priority: UInt8 = { if case .dayEnd = e { return 0 } else { return 128 } }()
        if t < horizonEnd { queue.schedule(e, at: max(t, queue.now), priority: priority) }
    }

    /// Schedules `intent` on the person's queue: the adapter's `carryOut` receives it at `t` (not before now; never
    /// at or after the horizon). Events due at the same time come in the order they were scheduled.
    public mutating func schedule(_ intent: Adapter.Intent, at t: Instant) { schedule(.intent(intent), at: t) }

    mutating func schedulePickup(after t: Instant) {
        if scriptedPickups != nil { nextPickup = scriptedPickups!.take(after: t); return }
        nextPickup = phone.nextPickup(after: t, zone: zone, rng: urges)
    }

    /// The person lives `script`'s pickups and occurrences instead of drawing their own (the life harness): call it
    /// before `run()`. The script's times are after the install.
    public mutating func follow(_ script: LifeScript) {
        scriptedPickups = ScriptedPickups(remaining: script.placedPickups(installedAt: installedAt))
        processes.script(script.occurrences.map { (installedAt + $0.after, $0.occurrence) })
        hasProcesses = !processes.isEmpty
    }

    mutating func handle(_ e: Event, at now: Instant) {
        switch e {
        case let .sessionEnd(app, generation):
            if generation == sessionGeneration { endSession(app, at: now) }
        case .engine(let timer):
            if untreated {
                // The tenure ended: the app's timers are gone with it; the store's (a subscription's period end) run
                // on, and the engine — the app's record of the plan — follows them (issue 38, audit N9).
                guard uninstalled, Adapter.outlivesApp(timer.kind) else { return }
                send(Engine.timerInput(timer), at: now, phoneInUse: false)
                return
            }
            let inUse = now < inUseUntil
            send(Engine.timerInput(timer), at: now, phoneInUse: inUse)
            Adapter.timerHandled(&self, at: now)
        case .dayEnd:
            endOfDay(at: now)
        case .intent(let intent):
            // Plans about the app lapse with it; plans about the store's side (keep or cancel) do not.
            guard !untreated || (uninstalled && Adapter.outlivesApp(intent)) else { return }
            Adapter.carryOut(intent, &self, at: now)
        case .busyEnds:
            // Nothing to do but what follows every event: the phone put down if nothing holds it (`putDownIfDone`).
            break
        }
    }

    // MARK: - The person's own processes

    /// An occurrence of one of the person's own processes lived by their own means, as with no product
    /// (`PersonProcess.liveUnaided`: a thing to do arising is forgotten or put off and done, in `TaskMind`). The default
    /// of `ProductAdapter.occurrence`, the untreated life's, and the first step of a product that adds to it.
    public mutating func liveUnaided(_ o: PersonOccurrence, at now: Instant) {
        let zone = zone
        if let row = processes.liveUnaided(o, zone: zone, tracing: trace != nil) { trace(kind: row.kind, detail: row.detail, at: now) }
    }

    /// The mind of the person's process `P` (their things to do: `mind(TaskProcess.self)`).
    public func mind<P: PersonProcess>(_ process: P.Type) -> P.Mind { processes.mind(process) }

    /// Changes the mind of the person's process `P` in place (a decision steering it: a thing captured, a key taken);
    /// with `redraw`, the occurrence the process had drawn ahead is dropped and its next one drawn from now with the
    /// changed mind. Returns what `change` returns.
    @discardableResult
    public mutating func steer<P: PersonProcess, R>(_ process: P.Type, redraw: Bool = false, _ change: (inout P.Mind) -> R) -> R {
        let now = now, zone = zone
        return processes.steer(process, redraw: redraw, now: now, zone: zone, change)
    }

    /// The neutral measures of the person's processes, booked at the life's end (`MeasuredPersonProcess`).
    mutating func bookProcessMeasures() {
        for type in processes.types {
            if let measured = type as? any MeasuredPersonProcess.Type { book(measured) }
        }
    }

    private mutating func book<P: MeasuredPersonProcess>(_ process: P.Type) {
        let mind = processes.mind(process), end = horizonEnd
        P.book(mind, into: &summary.neutral.measures, horizonEnd: end)
    }

    // MARK: - Pickups and sessions

    mutating func pickup(_ p: Pickup, at now: Instant) {
        settleCue()
        if now >= summary.world.hourEnd { summary.world.closeHour(pickups: summary.common[.pickups], at: now) }
        summary.common[.pickups] += 1
        summary.common[.sessions] += 1
        // Held until put down only when a product may take part: untreated, nothing holds the phone (`putDownIfDone`
        // would end the session at its intended end), so the session is booked and the next pickup drawn at once —
        // the same figures and draws, without holding a copy of the pickup and a second call (issue 41).
        let holds = world.urges.pickupFollowsActualSession && !untreated
        if holds {
            // The session's length and end are booked when the person puts the phone down (`putDownIfDone`).
            summary.world.pickup(at: p.at)
            heldPickup = p
            heldEngaged = false
            heldShieldAt = nil
            heldInApp = false
        } else {
            // World check: time since the previous session's (intended) end, pickups by local hour and by day.
            summary.world.pickup(at: p.at)
            bookSession(of: p, endingAt: p.sessionEnd)
        }
        inUseUntil = max(inUseUntil, p.sessionEnd)
        learningToday.pickups += 1
        if p.source != .notification { learningToday.untreatedUrgeMillionths += untreatedUrgeMillionths }
        if untreated {
            untreatedPickup(p, at: now)
        } else {
            treatedPickup(p, at: now)
        }
        trace(kind: "pickup", detail: "\(p.source) session=\(p.sessionLength) urge=\(String(format: "%.2f", p.urgeIntensity))", at: now)
        if holds {
            putDownIfDone(at: now)
        } else {
            // Untreated, or the former model (`urges.pickup_follows_actual_session` = 0): urges are exogenous, the next
            // pickup follows the *intended* session whatever the app decided.
            schedulePickup(after: p.sessionEnd)
        }
    }

    /// Books the session of pickup `p` ending at `end`: a session under 30 s, the world check's gap to the next pickup
    /// starting at `end`, the phone's in-use seconds.
    @inline(__always)
    mutating func bookSession(of p: Pickup, endingAt end: Instant) {
        let length = end - p.at
        if length < .seconds(30) { summary.common[.sessionsUnder30s] += 1 }
        summary.world.sessionEnded(at: end)
        meter.addInUseSeconds(length.seconds)
    }

    /// The person puts the phone down if nothing holds it in their hand any more (`urges.pickup_follows_actual_session`):
    /// no session the life started for the held pickup is in the foreground, and the product does not keep them busy
    /// (`beBusy`: an exercise at a shield, a quest or a wait at the gate). The session's actual
    /// end is
    /// * its intended end, if the product took no part in it (a check, a notification, an app the product does not
    ///   stand in front of): the person used the phone as they meant — the untreated life's pickups are never held
    ///   (`pickup` books them so at once);
    /// * now, if the product took part — the session in the app ended (at its intended end, or earlier when access
    ///   was taken away), or a shield held after an exercise, a quest or a wait — but not before the last shield
    ///   shown has held the person its `shield.notice_seconds` (a shield let go of or closed at once);
    /// * the later of its intended end and now, if the product took no other part than keeping the person busy
    ///   (`beBusy` in a pickup opened on a cue: reading Lazuri's cards) — the step ended now.
    /// Its length counts toward the sessions under 30 s and the phone's in-use seconds, the world check's gap to the
    /// next pickup starts there, and the next pickup is drawn from there (its Hawkes jump placed there, `PhoneUseProcess`).
    mutating func putDownIfDone(at now: Instant) {
        guard let p = heldPickup else { return }
        // A safety valve, never met by the products' own steps: nothing holds a phone for a day.
        if now - p.at < .hours(24) {
            if heldInApp && foregroundApp != nil { return }
            if !untreated && isBusy(at: now) { return }
        }
        heldPickup = nil
        var end = p.sessionEnd
        if heldEngaged {
            end = now
            if let shown = heldShieldAt {
                end = max(end, shown + .milliseconds(Int64((world.urges.shieldNoticeSeconds * 1000).rounded())))
            }
        } else {
            // Held past the pickup's instant only while busy (`beBusy`): the step ended now, maybe after the session
            // meant. Put down at the pickup itself, `now` is the pickup's instant and the intended end stands.
            end = max(end, now)
        }
        let length = end - p.at
        bookSession(of: p, endingAt: end)
        if end < p.sessionEnd { inUseUntil = max(now, end) }
        if end != p.sessionEnd { trace(kind: "put_down", detail: "session=\(length) (meant \(p.sessionLength))", at: now) }
        schedulePickup(after: end)
    }

    /// A pickup with the product: the adapter answers urges and cues.
    @inline(__always)
    mutating func treatedPickup(_ p: Pickup, at now: Instant) {
        switch p.source {
        case .notification:
            summary.common[.notificationSessions] += 1
            Adapter.cue(.notification, &self, at: now)
        case .spontaneous:
            Adapter.cue(.none, &self, at: now)
        case .urge(let index):
            cue = Cue(app: index, kind: p.kind)
            learningToday.urges += 1
            journal?.urges.append(.init(at: now, app: AppID(UInt16(index + 1)), pickup: p))
            Adapter.urge(for: AppID(UInt16(index + 1)), pickup: p, &self, at: now)
        }
    }

    /// A product's notification seen, at a pickup of its own (issue 39, audit A6: a reminder can bring a pickup): the
    /// pickup and its one session are counted (not in the world check's exogenous pickup figures), and, phone in hand, an
    /// urge for one of the target apps may follow (`PhoneUseProcess.cuedUrge`, drawn from `rng` — the caller's own
    /// stream, so the exogenous pickups' draws do not move). The urge goes to the adapter's `urge` hook as any urge
    /// does (a product that restricts nothing: the session meant, minutes in target apps) and feeds the app's habit.
    /// The next exogenous pickup is not moved (urges are exogenous). Returns the urge's pickup, if one followed.
    @discardableResult
    public mutating func productNotificationPickup(urgeScale: Double, rng: RandomStream, at now: Instant) -> Pickup? {
        guard !untreated else { return nil }
        settleCue()
        summary.common[.pickups] += 1
        summary.common[.sessions] += 1
        summary.common[.notificationSessions] += 1
        learningToday.pickups += 1
        guard let u = phone.cuedUrge(scale: urgeScale, at: now, rng: rng), case .urge(let index) = u.source else { return nil }
        meter.addInUseSeconds(u.sessionLength.seconds)
        inUseUntil = max(inUseUntil, now + u.sessionLength)
        cue = Cue(app: index, kind: u.kind)
        learningToday.urges += 1
        journal?.urges.append(.init(at: now, app: AppID(UInt16(index + 1)), pickup: u))
        Adapter.urge(for: AppID(UInt16(index + 1)), pickup: u, &self, at: now)
        trace(kind: "cued_urge", detail: "app=\(index) session=\(u.sessionLength)", at: now)
        return u
    }

    /// A pickup without the product (never installed, or uninstalled): an urge for a target app is acted on as the
    /// person meant — the session they intended, all of it — and feeds the app's habit; nothing else happens.
    mutating func untreatedPickup(_ p: Pickup, at now: Instant) {
        switch p.source {
        case .notification:
            summary.common[.notificationSessions] += 1
        case .spontaneous:
            break
        case .urge(let index):
            cue = Cue(app: index, kind: p.kind)
            learningToday.urges += 1
            useAppUnseen(AppID(UInt16(index + 1)), intended: p.sessionLength, at: now)
        }
    }

    /// The person uses `app`, one of their target apps, for the session they meant, and the product does not see
    /// it: an app the product does not stand in front of, or no product at all (untreated). The urge is acted on and
    /// the session's minutes count toward the day's time in target apps (booked on the day it starts) — the same
    /// measure with any product and with none, so a product that restricts nothing changes nothing.
    public mutating func useAppUnseen(_ app: AppID, intended: TimeSpan, at now: Instant) {
        if cue?.app == Int(app.rawValue) - 1 { cue?.acted = true }
        unseenTargetMsToday += intended.milliseconds
    }

    /// The person uses `app` (access granted) for `intended`; the session ends then unless access is taken away.
    public mutating func startSession(_ app: AppID, intended: TimeSpan, at now: Instant) {
        if heldPickup != nil { heldEngaged = true; heldInApp = true }
        let index = Int(app.rawValue) - 1
        if cue?.app == index {
            cue?.acted = true
        } else if lastPassedApp == index {
            // A wait or a quest for an urge already settled as passed ended in the app.
            lastPassedApp = nil
            phone.urgeActedAfterAll(index)
        }
        // A session still in the foreground ends here: its minutes are booked before the new one starts.
        if foregroundSince != nil { accumulateUse(until: now) }
        foregroundApp = app
        foregroundSince = now
        sessionGeneration &+= 1
        schedule(.sessionEnd(app, generation: sessionGeneration), at: now + intended)
    }

    /// Ends the foreground session without telling the engine (access was taken away: the engine knows).
    public mutating func interruptSession(at now: Instant) {
        heldInApp = false
        accumulateUse(until: now)
        foregroundApp = nil
        sessionGeneration &+= 1
    }

    mutating func accumulateUse(until now: Instant) {
        if let since = foregroundSince { usedRestrictedMs += (now - since).milliseconds }
        foregroundSince = nil
    }

    /// The person leaves `app`: use is booked and the adapter tells the engine.
    public mutating func endSession(_ app: AppID, at now: Instant) {
        heldInApp = false
        accumulateUse(until: now)
        foregroundApp = nil
        sessionGeneration &+= 1
        if !untreated { Adapter.sessionEnded(app: app, &self, at: now) }
    }

    /// Marks today as a day the product was in use (retention's `in_use` reading): the adapter calls it
    /// for the events that mean the product acted for the person (a shield met, a mode started, credit spent or
    /// earned, …). It does not by itself make the product part of the person's day: that is
    /// `recordPersonalUseDay`, the person's own use.
    public mutating func recordInUseDay() {
        guard !todayInUse else { return }
        todayInUse = true
        summary.inUseDays.append(dayIndex)
    }

    /// Marks today as a day the person used the product themselves — opened its app (`recordActiveDay`), or met one
    /// of its shields while still using it (`shieldShown(over:)`) — and reinforces its integration into their day
    /// (`EngagementModel.integration`, once a day). A mode starting on its schedule, or a shield met by a dormant
    /// person (who no longer opens the app), is the product acting, not the person using it: it builds no
    /// integration (audit 2026-11-27 E4: a dormant trialist's integration grew on automatic mode starts).
    public mutating func recordPersonalUseDay() {
        guard !dormant, !todayPersonalUse else { return }
        todayPersonalUse = true
        engagement.recordProductUse(onDay: Int64(dayIndex))
    }

    // MARK: - Urges and habits (issue 26)

    /// The kind of the urge being answered now (`.intended` when none is).
    public var urgeKind: UrgeKind { cue?.kind ?? .intended }

    /// The habit of opening `app` (one of the person's target apps), 0…1; the mean of their apps' habits otherwise.
    public func habitStrength(for app: AppID) -> Double {
        let i = Int(app.rawValue) - 1
        return phone.habits.strength.indices.contains(i) ? phone.habits.strength[i] : phone.habits.mean
    }

    /// A shield is shown over `app`: the urge being answered met the product (its habit is starved unless the person
    /// gets in after all); counted for the per-week view, and for a dormant person's day.
    mutating func shieldShown(over app: AppID) {
        learningToday.shields += 1
        if dormant { blocker?.dormantShieldsToday += 1 }
        if cue?.app == Int(app.rawValue) - 1 { cue?.shielded = true }
        if heldPickup != nil { heldEngaged = true; heldShieldAt = now }
        recordPersonalUseDay()
    }

    /// An urge that came while the person was busy with the product — doing an exercise at a shield, a quest or
    /// the emergency wait at the gate — and that they did not act on: it is settled as neither acted on nor passed.
    /// The app was not opened (it is no open in `learning.csv` or the world check, and does not feed the habit), and
    /// no shield held it either (it does not starve the habit): the habit moves by the cues the person answered,
    /// `AppHabits`' f and p, and this cue met neither the app nor a refusal — attention was already taken by the
    /// product's own step, which counted as the interruption of the urge that began it. Counting it passed would let
    /// the length of an exercise or a quest starve the habit by itself; counting it acted (the former settlement)
    /// fed the habit with an app never opened. It still counts as an urge (`urges_per_day`).
    public mutating func dropUrge(busyWith what: String, at now: Instant) {
        guard cue != nil else { return }
        cue = nil
        trace(kind: "urge_dropped", detail: "busy with \(what)", at: now)
    }

    /// Settles the urge being answered: acted on (the app opened, or never shielded) feeds its app's habit, a shield
    /// that held starves it.
    mutating func settleCue() {
        guard let c = cue else { return }
        cue = nil
        if c.shielded && !c.acted {
            phone.urgePassed(c.app)
            lastPassedApp = c.app
        } else {
            phone.urgeActed(c.app)
            lastPassedApp = nil
        }
    }

    /// Marks today as a day the person opened the product's app (retention, monthly actives); opening the app is
    /// also use of the product.
    public mutating func recordActiveDay() {
        recordInUseDay()
        recordPersonalUseDay()
        guard !todayActive else { return }
        todayActive = true
        summary.activeDays.append(dayIndex)
        summary.months[currentMonth, default: PersonMonth()].active = true
    }
}
