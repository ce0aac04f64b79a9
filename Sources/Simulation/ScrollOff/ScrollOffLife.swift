import Behavior
import Reports
import RulesCore
import ScrollOffRules
import SimKernel
import Stochastics

/// One line of a person's timeline (`habitat trace`).
public struct TraceRow: Sendable {
    public var time: Instant
    public var kind: String
    public var detail: String
    public var walletSeconds: Int64
    public var scrollingHabit: Double
    public var resistHabit: Double
    public var selfEfficacy: Double
    public var plan: String
    public var frustration: Double
    public var perceivedValue: Double
}

/// The life of one synthetic person with Scroll Off, from install to the horizon: the person's phone use and
/// urges (Behavior) meet the real rule engine (ScrollOffRules) under a per-person event queue.
///
/// The adapter's own modelling choices (all assumptions, documented in `Sources/Simulation/README.md`):
/// onboarding order follows the charter's flow (§6.1); an urge for a blocked app opens it and meets whatever the
/// engine decides; at a shield the person chooses among exactly `ScrollOffEngine.shieldOffer()`'s buttons by the
/// behaviour model's multinomial logit; a session ends when the person's intended length is over or the engine
/// takes access away; the app itself is opened on cues (notifications, wallet checks, after shields) by the
/// engagement habit; churn is decided once a local day from frustration, value and engagement.
struct ScrollOffLife {
    enum Event {
        case sessionEnd(AppID, generation: UInt32)
        case engine(ScrollOffTimer)
        case dayEnd
        case renewalDecision
    }

    let world: ScrollOffWorld
    let id: Int
    var person: Person
    let zone: ZoneCalendar
    let device: Device
    var engine: ScrollOffEngine
    var phone: PhoneUseProcess
    var engagement: EngagementModel
    var meter: PersonDayEnergyMeter
    let urges: RandomStream, sessions: RandomStream, choices: RandomStream, purchases: RandomStream
    let onboarding: RandomStream, churnStream: RandomStream
    var out = ScrollOffOutcome()
    var outcome = ScrollOffPersonOutcome()
    var queue: EventQueue<Event>
    let installedAt: Instant
    let installDay: LocalDate
    let horizonEnd: Instant
    var blockedApps: [AppID] = []
    var sessionGeneration: UInt32 = 0
    var foregroundApp: AppID?
    var inUseUntil = Instant.epoch
    var dormant = false
    var uninstalled = false
    var dayIndex = 0
    var todayActive = false
    var todayShields = 0
    var intendedBlockedMs: Int64 = 0
    var usedBlockedMs: Int64 = 0
    var foregroundSince: Instant?
    var trace: ((TraceRow) -> Void)?
    var lastPaywallDay = -1
    /// The person's next pickup (kept outside the queue, see `run`).
    var nextPickup: Pickup?
    /// Reused buffers for the options of a shield (no allocation per encounter).
    var options: [OfferedOption] = []
    var buttons: [ShieldChoice] = []
    var lastLadderPaywallMonth: MonthID?
    /// The month the person was last refused a token at the cap.
    var capRefusedMonth: MonthID?
    /// Every ledger line of the life, when a caller asks for it (tests, audits); nil otherwise.
    var ledgerLog: [LedgerEntry]?
    /// The local month of the current local day (updated at each day's end).
    var currentMonth: MonthID

    init(world: ScrollOffWorld, person id: Int, trace: ((TraceRow) -> Void)? = nil) {
        self.world = world
        self.id = id
        self.trace = trace
        let mix = RandomStream(key: world.key(id, "population-mix"))
        let persona = world.personas[mix.categorical(weights: world.personaWeights)]
        let zone = world.zones[mix.categorical(weights: world.zoneWeights)]
        let device = world.devices[mix.categorical(weights: world.deviceWeights)]
        self.person = Person.draw(persona: persona, id: UInt64(id), seed: world.seed, replication: UInt32(world.replication - 1))
        self.zone = zone
        self.device = device
        onboarding = RandomStream(key: world.key(id, .onboarding))
        if let days = world.installDayIndex {
            installDay = world.start + Int64(days[id])
        } else {
            let window = Int64(min(ScrollOffWorld.installWindowDays, max(1, world.horizonDays / 3)))
            installDay = world.start + Int64(onboarding.uniformInt(below: Int(window)))
        }
        let minute = 8 * 60 + onboarding.uniformInt(below: 14 * 60)
        installedAt = zone.instant(on: installDay, at: LocalTimeOfDay(secondsSinceMidnight: Int32(minute * 60)))
        horizonEnd = zone.instant(on: world.start + Int64(world.horizonDays), at: .midnight)
        currentMonth = zone.monthID(installedAt)
        engine = ScrollOffEngine(parameters: world.parameters, zone: zone, installedAt: installedAt)
        engine.auditInvariants = true
        phone = PhoneUseProcess(person: person)
        engagement = EngagementModel(person: person)
        meter = PersonDayEnergyMeter(device: device, model: world.energy)
        urges = RandomStream(key: world.key(id, .urges))
        sessions = RandomStream(key: world.key(id, .sessions))
        choices = RandomStream(key: world.key(id, .choices))
        purchases = RandomStream(key: world.key(id, .purchases))
        churnStream = RandomStream(key: world.key(id, .churn))
        queue = EventQueue(start: installedAt, timerSlots: ScrollOffLife.timerSlots, capacity: 32)
        outcome.persona = person.personaName
        outcome.device = device.id
        outcome.installedAt = installedAt
        outcome.cohort = installDay.isoWeek
        outcome.observedDays = Int(zone.localDate(horizonEnd - .milliseconds(1)) - installDay) + 1
        if installedAt < horizonEnd { outcome.months[currentMonth, default: PersonMonth()].installed = true }
    }

    /// Runs the life and returns what it contributes to the reports.
    mutating func run() -> ScrollOffPersonOutcome {
        guard installedAt < horizonEnd else { return outcome }
        phone.scrollingHabitStrength = person.scrollingHabit.strength(onDay: 0)
        onboard(at: installedAt)
        schedule(.dayEnd, at: zone.startOfNextDay(after: installedAt))
        schedulePickup(after: installedAt + .minutes(5))
        // Pickups, the most frequent events, are merged with the queue rather than pushed through it; at equal
        // times the queue's events come first.
        while !uninstalled {
            let queued = queue.peekTime()
            if let p = nextPickup, queued.map({ p.at < $0 }) ?? true {
                guard p.at < horizonEnd else { break }
                nextPickup = nil
                queue.advance(to: p.at)
                pickup(p, at: p.at)
                continue
            }
            guard let e = queue.next(until: horizonEnd) else { break }
            handle(e.payload, at: e.time)
        }
        finish()
        return outcome
    }

    // MARK: - Scheduling

    mutating func schedule(_ e: Event, at t: Instant) {
        // The day's end is booked before anything else due at local midnight (the engine's own rollover included),
        // so the day's figures are read before they reset.
        let priority: UInt8 = { if case .dayEnd = e { return 0 } else { return 128 } }()
        if t < horizonEnd { queue.schedule(e, at: max(t, queue.now), priority: priority) }
    }

    mutating func schedulePickup(after t: Instant) {
        nextPickup = phone.nextPickup(after: t, zone: zone, rng: urges)
    }

    // MARK: - Engine

    /// Timer slots: the engine's contract is that arming a timer of a kind supersedes the earlier one of that kind,
    /// so each kind (per app, per curfew) gets a queue slot and superseded timers never reach the engine.
    static let timerSlots = 4 + 4 * 17 + 3 * 9
    static func slot(of kind: ScrollOffTimer.Kind) -> Int {
        func app(_ a: AppID) -> Int { Int(min(a.rawValue, 16)) }
        func curfew(_ c: CurfewID) -> Int { Int(c % 9) }
        switch kind {
        case .earnAward: return 0
        case .localMidnight: return 1
        case .monthStart: return 2
        case .renewal: return 3
        case .cooldownEnd(let a): return 4 + app(a)
        case .unlockEnd(let a): return 4 + 17 + app(a)
        case .walletEmpty(let a): return 4 + 34 + app(a)
        case .pausedSessionEnd(let a): return 4 + 51 + app(a)
        case .curfewStart(let c): return 72 + curfew(c)
        case .curfewEnd(let c): return 72 + 9 + curfew(c)
        case .curfewReminder(let c): return 72 + 18 + curfew(c)
        }
    }

    /// Sends an input to the engine and applies the outcome: events, ledger, effects, timers.
    @discardableResult
    mutating func send(_ input: ScrollOffInput, at now: Instant, phoneInUse: Bool = true) -> ScrollOffDecision {
        engine.handle(input, at: now, into: &out)   // resets `out` itself
        // Invariant audit (issue 6): every engine call is checked; the first violation stops this life.
        if !out.invariantViolations.isEmpty && outcome.violation == nil {
            let problems = out.invariantViolations
            outcome.violation = InvariantViolation(arm: world.armName, replication: world.replication, seed: world.seed, person: id,
                                                   time: now, input: "\(input)", problems: problems)
            trace(kind: "invariant_violation", detail: "after \(input): " + problems.joined(separator: "; "), at: now)
            uninstalled = true
        }
        // Indexed loops: each element is read out of `out` before the handler runs (no iterator copies).
        for i in 0..<out.events.count { observe(out.events[i], at: now) }
        for i in 0..<out.ledger.count { book(out.ledger[i]) }
        for i in 0..<out.effects.count { meter.charge(out.effects[i].energyCharge, phoneInUse: phoneInUse) }
        for i in 0..<out.timers.count where out.timers[i].at < horizonEnd {
            let timer = out.timers[i]
            queue.arm(slot: ScrollOffLife.slot(of: timer.kind), .engine(timer), at: max(timer.at, queue.now))
        }
        outcome.eventsSimulated += 1
        return out.decision
    }

    mutating func observe(_ event: ScrollOffEvent, at t: Instant) {
        outcome.funnel.observe(event, at: t)
        let sinceInstall = t - installedAt
        switch event {
        case .appOpened:
            if !todayActive {
                todayActive = true
                outcome.activeDays.append(dayIndex)
                outcome.months[currentMonth, default: PersonMonth()].active = true
            }
        case .shieldShown:
            outcome.shields += 1
            todayShields += 1
        case .shieldDismissedNoSpend:
            outcome.willpowerWins += 1
        case .ifThenPlanCreated:
            outcome.intentions += 1
        case .milestoneUnlocked(let m, _):
            if m == .streak7 && sinceInstall <= .days(14) { outcome.streak7Within14Days = true }
            if m == .warrior30 && sinceInstall <= .days(45) { outcome.warrior30Within45Days = true }
        case .patternInsightShown:
            if sinceInstall <= .days(7) { outcome.insightWithin7Days = true }
        case .selfEfficacyMessageShown:
            outcome.sawSelfEfficacyMessage = true
        case .subscriptionPurchaseCompleted(let plan, _):
            if sinceInstall <= .days(14) { outcome.paidWithin14Days = true }
            outcome.everSubscribed = true
            outcome.latestPlanAnnual = plan.isAnnual
            let segment = plan.tier == .pro ? "pro" : "premium"
            if outcome.planSegment == "free" || segment == "pro" { outcome.planSegment = segment }
        case .subscriptionRenewed(let plan, _):
            outcome.latestPlanAnnual = plan.isAnnual
        case .bypassTokenCapHit:
            outcome.tokenMonths[zone.monthID(t), default: (.zero, .zero, 0, 0)].capHits += 1
        case .reliabilityCheckPass(.screenTimeAuthorization):
            outcome.reachedA1 = true
        case .appBlocked:
            outcome.reachedA2 = true
        case .authorizationRevoked:
            outcome.revokedAuthorization = true
        case .walletEmpty:
            engagement.record(.walletEmpty)
        case .earnAward(let amount, _, _):
            if amount > .zero { engagement.record(.earnedCredit) }
        case .paywallShown:
            engagement.record(.paywallHit)
        default:
            break
        }
        trace(kind: "engine", detail: event.name + (event.fields.isEmpty ? "" : " " + event.fields.map { "\($0.0)=\($0.1)" }.joined(separator: " ")), at: t)
    }

    /// Books one ledger line: revenue with the store's commission, and the token-share months.
    mutating func book(_ entry: LedgerEntry) {
        ledgerLog?.append(entry)
        let month = zone.monthID(entry.at)
        let isToken = entry.kind == .consumablePurchase
        let tenureDays = Int((entry.at - installedAt).milliseconds / 86_400_000)
        let rate = StoreFeePolicy().rate(isSubscription: !isToken, paidTenureDays: tenureDays)
        let source = isToken ? "tokens" : "subscriptions"
        if entry.kind == .refund {
            outcome.revenue.add(month: month, source: source, gross: .zero, refund: Money(micros: abs(entry.amount.micros)), fee: .zero)
            return
        }
        outcome.revenue.add(month: month, source: source, gross: entry.amount, fee: entry.amount.fraction(rate))
        var m = outcome.tokenMonths[month, default: (.zero, .zero, 0, 0)]
        if isToken { m.tokens += entry.amount; m.sold += 1 } else { m.subscriptions += entry.amount }
        outcome.tokenMonths[month] = m
    }

    // MARK: - Onboarding (seed 000 §6.1)

    mutating func onboard(at t0: Instant) {
        var t = t0
        send(.onboarding(.appOpened), at: t)
        engagement.record(.appOpened)
        t = t + .seconds(30)
        guard EngagementModel.completesStep(.permission, techComfort: person.techComfort, rng: onboarding) else {
            send(.onboarding(.permissionDenied), at: t)
            dormant = true        // without Screen Time access the app can do nothing for them (assumption)
            return
        }
        send(.onboarding(.permissionGranted), at: t)
        t = t + .seconds(45)
        if EngagementModel.completesStep(.configuration, techComfort: person.techComfort, rng: onboarding) {
            let plans = 1 + onboarding.uniformInt(below: 3)
            for i in 0..<plans {
                send(.createIfThenPlan(trigger: "trigger-\(i)", response: "response-\(i)"), at: t)
                t = t + .seconds(40)
            }
        }
        for (i, _) in person.apps.enumerated() {
            let app = AppID(UInt16(i + 1))
            let d = send(.blockApp(app), at: t)
            if d == .appBlocked { blockedApps.append(app) }
            if d == .blockedAppLimitReached { paywall(.tierLimit, at: t); if engine.tier != .free, send(.blockApp(app), at: t) == .appBlocked { blockedApps.append(app) } }
            t = t + .seconds(10)
        }
        if EngagementModel.completesStep(.informational, techComfort: person.techComfort, rng: onboarding) {
            send(.onboarding(.demoBlockCompleted), at: t)
        }
        t = t + .seconds(20)
        send(.onboarding(.finished), at: t)
    }

    // MARK: - Events

    mutating func handle(_ e: Event, at now: Instant) {
        switch e {
        case let .sessionEnd(app, generation):
            if generation == sessionGeneration { endSession(app, at: now) }
        case .engine(let timer):
            let inUse = now < inUseUntil
            send(.timer(timer), at: now, phoneInUse: inUse)
            if out.decision == .walletEmpty || out.decision == .unlockEnded || out.decision == .dailySpendCapReached,
               let app = foregroundApp, engine.shieldOffer()?.app == app {
                // Access ran out mid-session: the shield is back; the person meets it again.
                accumulateUse(until: now)
                foregroundApp = nil
                sessionGeneration &+= 1
                meetShield(app: app, urge: 0.5, intended: .minutes(2), at: now)
            }
        case .dayEnd:
            endOfDay(at: now)
        case .renewalDecision:
            renewalDecision(at: now)
        }
    }

    mutating func pickup(_ p: Pickup, at now: Instant) {
        outcome.pickups += 1
        outcome.sessions += 1
        if p.sessionLength < .seconds(30) { outcome.sessionsUnder30s += 1 }
        meter.addInUseSeconds(p.sessionLength.seconds)
        inUseUntil = max(inUseUntil, p.sessionEnd)
        switch p.source {
        case .notification:
            outcome.notificationSessions += 1
            maybeOpenApp(cue: .notification, at: now)
        case .spontaneous:
            maybeOpenApp(cue: .none, at: now)
        case .urge(let index):
            let app = AppID(UInt16(index + 1))
            if blockedApps.contains(app) {
                outcome.urgesForBlockedApps += 1
                intendedBlockedMs += p.sessionLength.milliseconds
                openBlockedApp(app, pickup: p, at: now)
            }
            person.scrollingHabit.reinforce(onDay: Int64(dayIndex))
        }
        trace(kind: "pickup", detail: "\(p.source) session=\(p.sessionLength) urge=\(String(format: "%.2f", p.urgeIntensity))", at: now)
        // Urges are exogenous (assumption): the next pickup follows the *intended* session, whatever the app
        // decided, so experiment arms that change a rule or a price meet exactly the same urges (common random
        // numbers); only what the person does with them differs.
        schedulePickup(after: p.sessionEnd)
    }

    /// Opens a blocked app: the engine decides; returns when the encounter ended early (nil: as intended).
    @discardableResult
    mutating func openBlockedApp(_ app: AppID, pickup p: Pickup, at now: Instant) -> Instant? {
        if let fg = foregroundApp, fg != app { endSession(fg, at: now) }
        let d = send(.appForeground(app), at: now)
        switch d {
        case .shieldShown, .curfewShieldShown:
            return meetShield(app: app, urge: p.urgeIntensity, intended: p.sessionLength, at: now)
        case .accessResumed, .notShielded:
            startSession(app, intended: p.sessionLength, at: now)
            return nil
        default:
            return nil
        }
    }

    /// The person in front of a shield: choose among exactly the offered buttons until the encounter ends.
    @discardableResult
    mutating func meetShield(app: AppID, urge: Double, intended: TimeSpan, at now: Instant) -> Instant? {
        var mindfulnessDone = false
        for _ in 0..<4 {
            guard let offer = engine.shieldOffer() else { return nil }
            options.removeAll(keepingCapacity: true)
            buttons.removeAll(keepingCapacity: true)
            // A person who was refused at the token cap this month no longer presses the token button (assumption).
            let knowsCapIsReached = offer.tokenCapReached && capRefusedMonth == currentMonth
            for c in ShieldOffer.order where offer.offers(c) && !(c == .emergencyToken && knowsCapIsReached) {
                switch c {
                case .close: options.append(OfferedOption(kind: .close))
                case .useCredits: options.append(OfferedOption(kind: .useCredits, creditCostSeconds: min(intended, offer.creditsAvailable).seconds))
                case .peek: options.append(OfferedOption(kind: .peek, creditCostSeconds: offer.peekCost.seconds))
                case .emergencyToken:
                    options.append(offer.tokenNeedsPurchase ? OfferedOption(kind: .buyToken, priceUSD: offer.tokenPrice.usd) : OfferedOption(kind: .useToken))
                }
                buttons.append(c)
            }
            let scarcity = 1 - min(1, offer.creditsAvailable.seconds / max(1, intended.seconds))
            let context = ChoiceContext(urgeStrength: urge, selfEfficacy: person.selfEfficacy.value, creditScarcity: scarcity,
                                        willingnessToPay: person.willingnessToPayUSDPerMonth,
                                        habitStrength: person.scrollingHabit.strength(onDay: Int64(dayIndex)),
                                        resistHabit: person.resistHabit.strength(onDay: Int64(dayIndex)),
                                        mindfulnessDone: mindfulnessDone, frustration: engagement.frustration)
            let pick = world.choice.choose(options, context: context, rng: choices)
            let button = buttons[pick]
            let d = send(.shield(button), at: now)
            let chosen = options[pick].kind
            trace(kind: "choice", detail: "\(chosen.rawValue) → \(d)", at: now)
            switch d {
            case .willpowerWin:
                person.selfEfficacy.recordWin()
                person.resistHabit.reinforce(onDay: Int64(dayIndex))
                engagement.record(.resistedUrge)
                engagement.record(.minutesSaved(intended.minutes))
                maybeOpenApp(cue: .afterShield, at: now)
                return now + .seconds(5)
            case .spendStarted:
                person.selfEfficacy.recordLapse()
                startSession(app, intended: intended, at: now)
                return nil
            case .freePeek, .creditPeek, .tokenUsed:
                person.selfEfficacy.recordLapse()
                startSession(app, intended: intended, at: now)
                return nil
            case .mindfulnessPrompted:
                // The step lowers the probability of acting on the urge, not the urge itself.
                guard let exercise = engine.pendingShield?.mindfulnessOffered else { return nil }
                let acting = world.choice.actingProbability(options, context: ChoiceContext(
                    urgeStrength: urge, selfEfficacy: person.selfEfficacy.value, creditScarcity: scarcity,
                    willingnessToPay: person.willingnessToPayUSDPerMonth,
                    habitStrength: context.habitStrength, resistHabit: context.resistHabit, mindfulnessDone: true,
                    frustration: engagement.frustration))
                if choices.uniform() < 0.3 {
                    send(.mindfulness(exercise, .skip), at: now)
                } else {
                    let avoided = choices.uniform() >= acting
                    send(.mindfulness(exercise, .complete(bypassAvoided: avoided)), at: now)
                    if avoided {
                        person.selfEfficacy.recordWin()
                        person.resistHabit.reinforce(onDay: Int64(dayIndex))
                        engagement.record(.resistedUrge)
                        return now + .minutes(2)
                    }
                }
                mindfulnessDone = true
            case .tokenCapReached:
                engagement.record(.shieldRefused)
                capRefusedMonth = currentMonth
                // Assumption: the "ladder exhausted" upgrade prompt is weighed once per calendar month.
                let month = currentMonth
                if lastLadderPaywallMonth != month {
                    lastLadderPaywallMonth = month
                    paywall(.ladderExhausted, at: now)
                }
                send(.shield(.close), at: now)
                return now + .seconds(5)
            case .curfewActive, .noCredits, .peeksExhausted, .ladderNotExhausted:
                engagement.record(.shieldRefused)
                send(.shield(.close), at: now)
                return now + .seconds(5)
            default:
                return nil
            }
        }
        if engine.pendingShield != nil { send(.shield(.close), at: now) }
        return now + .seconds(5)
    }

    mutating func startSession(_ app: AppID, intended: TimeSpan, at now: Instant) {
        foregroundApp = app
        foregroundSince = now
        sessionGeneration &+= 1
        schedule(.sessionEnd(app, generation: sessionGeneration), at: now + intended)
    }

    mutating func accumulateUse(until now: Instant) {
        if let since = foregroundSince { usedBlockedMs += (now - since).milliseconds }
        foregroundSince = nil
    }

    mutating func endSession(_ app: AppID, at now: Instant) {
        accumulateUse(until: now)
        foregroundApp = nil
        sessionGeneration &+= 1
        send(.appBackground(app), at: now)
    }

    /// Opening Scroll Off itself on a cue (engagement habit); sometimes looking at an insight (funnel A6).
    mutating func maybeOpenApp(cue: AppOpenCue, at now: Instant) {
        guard !dormant else { return }
        // The probability is at most the scale: most draws are decided before the probability is computed.
        let u = sessions.uniform()
        guard u < ScrollOffLife.appOpenPerPickupScale,
              u < engagement.appOpenProbability(cue: cue) * ScrollOffLife.appOpenPerPickupScale else { return }
        send(.onboarding(.appOpened), at: now)
        engagement.record(.appOpened)
        meter.charge(EnergyCharge(.foregroundSecond, 20), phoneInUse: true)
        if sessions.uniform() < 0.15 {
            send(.viewInsight(InsightType(rawValue: UInt8(sessions.uniformInt(below: InsightType.allCases.count)))!), at: now)
        }
    }

    /// Assumption: the engagement model's cue probabilities are per cue episode; a pickup is a fraction of one.
    /// Tuned so that the default population's day-1 activity lands near published install-cohort figures
    /// (Adjust 2023: D1 ≈ 25 % for ordinary apps) rather than set directly.
    static let appOpenPerPickupScale = 0.05

    /// A paywall moment (§5.1 chips): the person may subscribe. Assumption: a person weighs a purchase at most
    /// once a local day, however many paywalls they meet that day.
    mutating func paywall(_ reason: PaywallReason, at now: Instant) {
        guard engine.tier == .free, lastPaywallDay != dayIndex else { return }
        lastPaywallDay = dayIndex
        let moment = PaywallMoment(reason: reason, monthlyPriceUSD: world.parameters.price(of: .premiumMonthly).usd,
                                   annualPriceUSD: world.parameters.price(of: .proAnnual).usd)
        let decision = world.purchase.decide(moment, willingnessToPay: person.willingnessToPayUSDPerMonth,
                                            valueFelt: engagement.perceivedValue, rng: purchases)
        let plan: Plan
        switch decision {
        case .none: return
        case .monthly: plan = .premiumMonthly
        case .annual: plan = .proAnnual
        }
        send(.upgradeTapped(plan), at: now)
        if send(.buyPlan(plan), at: now) == .subscribed {
            schedule(.renewalDecision, at: engine.periodEnd - .days(1))
        }
    }

    /// A day before renewal the person keeps or cancels the plan.
    mutating func renewalDecision(at now: Instant) {
        guard let plan = engine.plan, engine.autoRenew else { return }
        let monthly = world.parameters.price(of: plan).usd / Double(plan.periodMonths)
        let keeps = world.purchase.renews(plan: plan.isAnnual ? .annual : .monthly, priceUSDPerMonth: monthly,
                                          willingnessToPay: person.willingnessToPayUSDPerMonth,
                                          valueFelt: engagement.perceivedValue, isFirstRenewal: engine.periodStart - installedAt < .days(40),
                                          rng: purchases)
        if keeps {
            schedule(.renewalDecision, at: engine.periodEnd + TimeSpan.days(Int64(30 * plan.periodMonths)) - .days(1))
        } else {
            send(.cancelSubscription, at: now)
        }
    }

    mutating func endOfDay(at now: Instant) {
        if todayActive {
            outcome.shieldsOnActiveDays += todayShields
            outcome.appMinutesSavedPerActiveDay.append(engine.timeSavedToday.minutes)
        }
        let saved = Double(intendedBlockedMs - usedBlockedMs) / 60_000
        outcome.trueMinutesSavedPerDay.append(max(0, saved))
        intendedBlockedMs = 0
        usedBlockedMs = 0
        if dayIndex == 30 { outcome.subscribedAtDay30 = engine.plan != nil }
        let battery = meter.battery(dayLengthSeconds: Double((now - zone.startOfDay(containing: now - .milliseconds(1))).milliseconds) / 1000)
        outcome.batteryDays.append((device.id, battery))
        outcome.energyByActivity = outcome.energyByActivity + meter.joulesByActivity
        meter.startNewDay()
        outcome.personDays += 1
        engagement.endOfDay()
        todayActive = false
        todayShields = 0
        dayIndex += 1
        let month = zone.monthID(now)
        if month != currentMonth {
            snapshotMonth()
            currentMonth = month
        }
        // Habit strength enters the urge process once a local day (it moves by days, Lally et al. 2010).
        phone.scrollingHabitStrength = person.scrollingHabit.strength(onDay: Int64(dayIndex))
        if !dormant, let kind = engagement.dailyChurnDecision(rng: churnStream) {
            outcome.churn = kind.rawValue
            trace(kind: "churn", detail: kind.rawValue, at: now)
            switch kind {
            case .uninstall: uninstalled = true
            case .revokeAccess: send(.authorizationRevoked, at: now, phoneInUse: false); dormant = true
            case .dormant: dormant = true
            }
        }
        schedule(.dayEnd, at: zone.startOfNextDay(after: now))
    }

    /// A plan's price per month (its MRR contribution).
    func monthlyPrice(of plan: Plan) -> Money {
        Money(micros: world.parameters.price(of: plan).micros / Int64(plan.periodMonths))
    }

    /// The plan and MRR in force now, recorded as the standing of the current local month (forecast.csv).
    /// Assumption: a person who uninstalls stops counting as paying from then on (their renewals are not simulated).
    mutating func snapshotMonth() {
        var m = outcome.months[currentMonth, default: PersonMonth()]
        if let plan = engine.plan, !uninstalled {
            m.plan = plan.tier == .pro ? "pro" : "premium"
            m.mrr = monthlyPrice(of: plan)
        } else {
            m.plan = "free"
            m.mrr = .zero
        }
        outcome.months[currentMonth] = m
    }

    mutating func finish() {
        snapshotMonth()
        if let plan = engine.plan, engine.periodEnd > horizonEnd {
            outcome.mrrAtEnd = monthlyPrice(of: plan)
        }
        outcome.eventsSimulated += queue.firedCount
    }

    mutating func trace(kind: String, detail: @autoclosure () -> String, at t: Instant) {
        guard let trace else { return }
        let detail = detail()
        trace(TraceRow(time: t, kind: kind, detail: detail, walletSeconds: engine.balance().wholeSeconds,
                       scrollingHabit: person.scrollingHabit.strength(onDay: Int64(dayIndex)),
                       resistHabit: person.resistHabit.strength(onDay: Int64(dayIndex)),
                       selfEfficacy: person.selfEfficacy.value, plan: engine.plan?.description ?? "free",
                       frustration: engagement.frustration, perceivedValue: engagement.perceivedValue))
    }
}
