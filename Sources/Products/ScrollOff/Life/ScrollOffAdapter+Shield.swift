import Simulation
import Behavior
import RulesCore
import ScrollOffRules

extension ScrollOffAdapter {
    /// An urge for one of the person's apps: a blocked app is opened and meets whatever the engine decides.
    ///
    /// A person doing a mindfulness exercise at a shield is busy with it: an urge meanwhile is not acted on, and is
    /// settled as neither an open nor a pass (`PersonLife.beBusy`; the prologue `urgeMeetsRestriction` drops it).
    public static func urge(for app: AppID, pickup p: Pickup, _ life: inout PersonLife<Self>, at now: Instant) {
        // An app the person did not block: used as they meant, unseen by Scroll Off.
        guard life.urgeMeetsRestriction(app, pickup: p, at: now) else { return }
        life.summary.tally.counts[.urgesForBlockedApps] += 1
        life.state.sessionUrge = p.urgeIntensity
        switch life.send(.appForeground(app), at: now) {
        case .shieldShown, .curfewShieldShown:
            meetShield(app: app, urge: p.urgeIntensity, intended: p.sessionLength, &life, at: now)
        case .accessResumed, .notShielded:
            startSession(app, intended: p.sessionLength, &life, at: now)
        default:
            break
        }
        settlePaywall(&life, at: now)
    }

    /// A session in a blocked app the person has access to, remembered for the shield that may return mid-way.
    static func startSession(_ app: AppID, intended: TimeSpan, _ life: inout PersonLife<Self>, at now: Instant) {
        life.state.sessionIntendedEnd = now + intended
        life.startSession(app, intended: intended, at: now)
    }

    /// The person leaves a blocked app they were using.
    public static func sessionEnded(app: AppID, _ life: inout PersonLife<Self>, at now: Instant) {
        life.send(.appBackground(app), at: now)
    }

    /// Access ran out mid-session (wallet empty, spend cap, peek or token over): §3.2 "At 0s, shield reappears
    /// instantly", §6.1 "60-second timer → shield reappears". The session stops there (shielded time is never
    /// booked as use) and the person meets the shield again with the rest of what they meant to spend, at the
    /// same urge (audit D3). Every timer's outcome may also carry a paywall (the Free earn cap, §3.2).
    ///
    /// Whatever the timer (its own, or a local midnight whose rollover expired the credits in use), a shield the
    /// engine now shows over the app in front is met. A curfew that starts mid-session shields the app with nothing
    /// to answer (§7.4 "affected apps always shielded"): the session just stops there.
    public static func timerHandled(_ life: inout PersonLife<Self>, at now: Instant) {
        if let app = life.foregroundApp {
            if offer(&life)?.app == app {
                life.interruptSession(at: now)
                let rest = max(.minutes(1), (life.state.sessionIntendedEnd ?? now) - now)
                meetShield(app: app, urge: life.state.sessionUrge, intended: rest, &life, at: now)
            } else if life.out.effects.contains(.shieldShown(app)) {
                life.interruptSession(at: now)
            }
        }
        if let chip = life.state.pendingPaywall, chip.at == now, chip.context == .dailyEarnCap {
            // The earn cap is met by a timer, with Scroll Off's dashboard out of sight: the chip waits there until
            // the person opens the app that day (assumption; `cue`).
            life.state.pendingPaywall = nil
            life.state.dashboardChip = (chip.context, chip.sku, life.dayIndex)
        }
        settlePaywall(&life, at: now)
    }

    // MARK: - The shield: offer → choose → apply

    /// The person in front of a shield: up to four rounds of *offer* (the engine's buttons as options), *choose*
    /// (the behaviour model), *apply* (the engine's answer and what it does to the person), until the encounter ends.
    static func meetShield(app: AppID, urge: Double, intended: TimeSpan, exercise: ExerciseOutcome = .none,
                           _ life: inout PersonLife<Self>, at now: Instant) {
        var exercise = exercise
        for round in 0..<4 {
            guard let shield = offer(&life) else { return }
            if round == 0, shield.inCurfew || shield.creditsAvailable == .zero { tryTheClock(&life, at: now) }
            offer(shield, intended: intended, &life)
            let scarcity = 1 - min(1, shield.creditsAvailable.seconds / max(1, intended.seconds))
            let context = choiceContext(&life, app: app, urge: urge, scarcity: scarcity, exercise: exercise)
            // The shield itself is an interruption: a habitual or weak urge may be let go before any button (issue 26).
            if round == 0, let close = life.state.buttons.firstIndex(of: .close), life.letsGoAtShield(urge: urge) {
                letGo(app: app, button: close, intended: intended, &life, at: now)
                return
            }
            let pick = choose(&life, context: context)
            let chosen = outcome(of: life.state.buttons[pick], buying: shield.tokenNeedsPurchase)
            if chosen == .close, life.choices.uniform() < life.world.choice.walkAwayShare {
                walkAway(app: app, &life, at: now)
                return
            }
            life.decide(.shieldChoice, chosen, at: now)
            let d = life.send(.shield(life.state.buttons[pick]), at: now)
            life.trace(kind: "choice", detail: "\(chosen) → \(d)", at: now)
            switch apply(d, app: app, urge: urge, intended: intended, context: context, &life, at: now) {
            case .over: return
            case .again(let outcome): exercise = outcome
            }
        }
        if life.engine.pendingShield != nil { life.send(.shield(.close), at: now) }
    }

    /// The person does not act on the urge and leaves the shield without tapping Close — home, another app, the
    /// phone locked (`shield.walk_away_share`, an assumption): the engine sees the app backgrounded and abandons the
    /// shield (`shield_abandoned(backgrounded)`, no willpower win, no time saved: the app cannot tell it from any
    /// other exit; audit 2026-11-25 E6). For the person it is the same resisted urge as a Close.
    static func walkAway(app: AppID, _ life: inout PersonLife<Self>, at now: Instant) {
        life.decide(.shieldChoice, .walkAway, at: now)
        life.send(.appBackground(app), at: now)
        life.trace(kind: "choice", detail: "walk away → shield abandoned", at: now)
        life.recordWillpowerWin(minutesSaved: nil)
    }

    /// The urge was let go at the shield (issue 26): the person taps Close, or leaves the shield without it as they
    /// leave any shield they do not act on (`shield.walk_away_share`).
    static func letGo(app: AppID, button: Int, intended: TimeSpan, _ life: inout PersonLife<Self>, at now: Instant) {
        if life.choices.uniform() < life.world.choice.walkAwayShare {
            walkAway(app: app, &life, at: now)
            return
        }
        life.decide(.shieldChoice, .letGo, at: now)
        let d = life.send(.shield(life.state.buttons[button]), at: now)
        life.trace(kind: "choice", detail: "let go → \(d)", at: now)
        let context = choiceContext(&life, app: app, urge: 0, scarcity: 0, exercise: .none)
        _ = apply(d, app: app, urge: 0, intended: intended, context: context, &life, at: now)
    }

    /// The shield the engine shows now, if any.
    ///
    /// `offer`, `choose` and `choiceContext` only read the life but take it `inout`: passed `borrowing` (or read
    /// inline in `meetShield`), Swift copied the whole life into a temporary per shield round — 300+ instructions
    /// each, 3 % of a run, found with callgrind. `inout` passes its address.
    static func offer(_ life: inout PersonLife<Self>) -> ShieldOffer? { life.engine.shieldOffer() }

    /// *Choose*: the behaviour model picks one of the offered options.
    static func choose(_ life: inout PersonLife<Self>, context: ChoiceContext) -> Int {
        life.world.choice.choose(life.state.options, context: context, rng: life.choices)
    }

    /// *Offer*: exactly the shield's buttons, as options the person weighs (into the reused buffers).
    static func offer(_ shield: ShieldOffer, intended: TimeSpan, _ life: inout PersonLife<Self>) {
        life.state.options.removeAll(keepingCapacity: true)
        life.state.buttons.removeAll(keepingCapacity: true)
        // A person who was refused at the token cap this month no longer presses the token button (assumption).
        let knowsCapIsReached = shield.tokenCapReached && life.state.capRefusedMonth == life.currentMonth
        let m = life.world.choice, k = life.world.constants
        for c in ShieldOffer.order where shield.offers(c) && !(c == .emergencyToken && knowsCapIsReached) {
            switch c {
            case .close: life.state.options.append(OfferedOption(.close))
            case .useCredits:
                life.state.options.append(OfferedOption(m.spendCredits, creditCostSeconds: min(intended, shield.creditsAvailable).seconds))
            case .peek: life.state.options.append(OfferedOption(k.peek, creditCostSeconds: shield.peekCost.seconds))
            case .emergencyToken:
                life.state.options.append(shield.tokenNeedsPurchase ? OfferedOption(k.buyToken, priceUSD: shield.tokenPrice.usd)
                                                                    : OfferedOption(k.useToken))
            }
            life.state.buttons.append(c)
        }
    }

    /// The decision a button is, in `decisions.csv`.
    static func outcome(of button: ShieldChoice, buying: Bool) -> DecisionOutcome {
        switch button {
        case .close: .close
        case .useCredits: .useCredits
        case .peek: .peek
        case .emergencyToken: buying ? .buyToken : .useToken
        }
    }

    /// What the person brings to the choice (reads the life; `inout` only to pass it by address, see `offer`).
    static func choiceContext(_ life: inout PersonLife<Self>, app: AppID, urge: Double, scarcity: Double, exercise: ExerciseOutcome) -> ChoiceContext {
        ChoiceContext(urgeStrength: urge, selfEfficacy: life.person.selfEfficacy.value, creditScarcity: scarcity,
                      willingnessToPay: life.person.willingnessToPayUSDPerMonth,
                      habitStrength: life.habitStrength(for: app),
                      resistHabit: life.person.resistHabit.strength(onDay: Int64(life.dayIndex)),
                      exercise: exercise, frustration: life.engagement.frustration, ifThenPlans: life.state.plansWritten)
    }

    /// Whether a shield encounter goes on after a button (and how the mindfulness step ended, if it did).
    enum ShieldStep { case over, again(ExerciseOutcome) }

    /// *Apply*: the engine's answer to the button and what it does to the person.
    static func apply(_ d: ScrollOffDecision, app: AppID, urge: Double, intended: TimeSpan, context: ChoiceContext,
                      _ life: inout PersonLife<Self>, at now: Instant) -> ShieldStep {
        switch d {
        case .willpowerWin:
            life.recordWillpowerWin(minutesSaved: intended.minutes)
            cue(.afterShield, &life, at: now)
            return .over
        case .spendStarted, .freePeek, .creditPeek, .tokenUsed:
            life.recordLapse()
            startSession(app, intended: intended, &life, at: now)
            return .over
        case .mindfulnessPrompted:
            // §3.4 step 4: skip, or do the exercise, which takes its length (§4: breath 2 min, grounding 2 min,
            // body scan 3 min); the encounter resumes when it is over (`finishExercise`). A skip is not a done
            // exercise (audit D6). Assumption: a person who has met the step once may turn it off in Settings
            // (§6.1 preference) at once, with their friction opt-out propensity.
            guard let exercise = life.engine.pendingShield?.mindfulnessOffered else { return .over }
            let optsOut = !life.state.metMindfulness && life.features.uniform() < life.person.featureUse.frictionOptOutPropensity
            life.state.metMindfulness = true
            if life.choices.uniform() < life.person.featureUse.exerciseSkipProbability {
                life.send(.mindfulness(exercise, .skip), at: now)
                if optsOut { life.send(.setPreference(.mindfulnessAtBypasses(false)), at: now) }
                return .again(.skipped)
            }
            let length = life.world.parameters.mindfulnessLength[exercise] ?? .minutes(2)
            life.state.exercise = ExerciseInProgress(app: app, exercise: exercise, urge: urge, kind: life.urgeKind, intended: intended,
                                                     startedAt: now, endsAt: now + length, optsOut: optsOut)
            // Busy, phone in hand, until the exercise's end is carried out (`.exerciseEnds`: `endBusy`).
            life.beBusy(with: "exercise")
            life.meter.charge(EnergyCharge(.foregroundSecond, length.seconds), phoneInUse: true)
            life.schedule(.exerciseEnds, at: now + length)
            return .over
        case .tokenCapReached:
            // §6.2 "Token limit reached — fresh start next month": a refusal, not an upsell (audit D1).
            life.engagement.record(.shieldRefused)
            life.state.capRefusedMonth = life.currentMonth
            life.send(.shield(.close), at: now)
            return .over
        case .curfewActive, .noCredits, .peeksExhausted, .ladderNotExhausted:
            life.engagement.record(.shieldRefused)
            life.send(.shield(.close), at: now)
            return .over
        default:
            return .over
        }
    }
}

extension ScrollOffAdapter {
    /// The exercise is over: the person answers it — the bypass avoided or not, by the choice model's acting
    /// probability after a completed exercise — and, if they still want in, the encounter goes on.
    static func finishExercise(_ e: ExerciseInProgress, _ life: inout PersonLife<Self>, at now: Instant) {
        guard life.engine.pendingShield?.mindfulnessOffered == e.exercise else { return }
        let after = choiceContext(&life, app: e.app, urge: e.urge, scarcity: 0, exercise: .completed)
        // The exercise was an interruption of its whole length: the urge may have been let go in it (issue 26);
        // if not, the completed exercise lowers acting (`ShieldChoiceModel.mindfulnessEffect`).
        let letGo = life.world.urges.letGoProbability(e.kind, urge: e.urge, seconds: (e.endsAt - e.startedAt).seconds)
        let acting = (1 - letGo) * life.world.choice.actingProbability(life.state.options, context: after)
        let avoided = life.choices.uniform() >= acting
        // The exercise's end is a moment of its own: the person answers it (avoided: the shield closes), and if they
        // still want in, the encounter's rounds go on under it.
        life.offerShieldDecision(over: e.app, at: now, shown: false)
        if avoided { life.decide(.shieldChoice, .close, at: now) }
        life.send(.mindfulness(e.exercise, .complete(bypassAvoided: avoided)), at: now)
        if e.optsOut { life.send(.setPreference(.mindfulnessAtBypasses(false)), at: now) }
        if avoided {
            life.recordWillpowerWin(minutesSaved: nil)
            return
        }
        meetShield(app: e.app, urge: e.urge, intended: e.intended, exercise: .completed, &life, at: now)
    }

    /// Shielded during a curfew or with no credits, a person may try to cheat by moving the phone's clock forward and
    /// back (audit D11; `Person.featureUse.clockChangePropensity`). The engine keeps absolute time (§7.7), so the
    /// trick gains nothing, and a rollback past the threshold freezes the day's earning. Assumption: one hour.
    static func tryTheClock(_ life: inout PersonLife<Self>, at now: Instant) {
        guard life.features.uniform() < life.person.featureUse.clockChangePropensity else { return }
        life.send(.systemClockChanged(by: .hours(1)), at: now)
        life.send(.systemClockChanged(by: .hours(-1)), at: now)
    }
}
