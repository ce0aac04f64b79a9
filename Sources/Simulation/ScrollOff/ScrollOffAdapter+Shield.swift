import Behavior
import RulesCore
import ScrollOffRules

extension ScrollOffAdapter {
    /// An urge for one of the person's apps: a blocked app is opened and meets whatever the engine decides.
    public static func urge(for app: AppID, pickup p: Pickup, _ life: inout PersonLife<Self>, at now: Instant) {
        guard life.state.blockedApps.contains(app) else { return }
        life.summary.tally.counts[.urgesForBlockedApps] += 1
        life.intendedRestrictedMs += p.sessionLength.milliseconds
        if let fg = life.foregroundApp, fg != app { life.endSession(fg, at: now) }
        switch life.send(.appForeground(app), at: now) {
        case .shieldShown, .curfewShieldShown:
            meetShield(app: app, urge: p.urgeIntensity, intended: p.sessionLength, &life, at: now)
        case .accessResumed, .notShielded:
            life.startSession(app, intended: p.sessionLength, at: now)
        default:
            break
        }
    }

    /// The person leaves a blocked app they were using.
    public static func sessionEnded(app: AppID, _ life: inout PersonLife<Self>, at now: Instant) {
        life.send(.appBackground(app), at: now)
    }

    /// Access ran out mid-session (wallet empty, spend cap, peek or token over): the shield is back and the person
    /// meets it again (§3.2, §3.4).
    public static func timerHandled(_ life: inout PersonLife<Self>, at now: Instant) {
        let d = life.out.decision
        guard d == .walletEmpty || d == .unlockEnded || d == .dailySpendCapReached,
              let app = life.foregroundApp, offer(&life)?.app == app else { return }
        life.interruptSession(at: now)
        meetShield(app: app, urge: 0.5, intended: .minutes(2), &life, at: now)
    }

    // MARK: - The shield: offer → choose → apply

    /// The person in front of a shield: up to four rounds of *offer* (the engine's buttons as options), *choose*
    /// (the behaviour model), *apply* (the engine's answer and what it does to the person), until the encounter ends.
    static func meetShield(app: AppID, urge: Double, intended: TimeSpan, _ life: inout PersonLife<Self>, at now: Instant) {
        var mindfulnessDone = false
        for _ in 0..<4 {
            guard let shield = offer(&life) else { return }
            offer(shield, intended: intended, &life)
            let scarcity = 1 - min(1, shield.creditsAvailable.seconds / max(1, intended.seconds))
            let context = choiceContext(&life, urge: urge, scarcity: scarcity, mindfulnessDone: mindfulnessDone)
            let pick = choose(&life, context: context)
            let d = life.send(.shield(life.state.buttons[pick]), at: now)
            let chosen = life.state.options[pick].kind
            life.trace(kind: "choice", detail: "\(chosen.rawValue) → \(d)", at: now)
            switch apply(d, app: app, intended: intended, context: context, &life, at: now) {
            case .over: return
            case .again: mindfulnessDone = true
            }
        }
        if life.engine.pendingShield != nil { life.send(.shield(.close), at: now) }
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
        for c in ShieldOffer.order where shield.offers(c) && !(c == .emergencyToken && knowsCapIsReached) {
            switch c {
            case .close: life.state.options.append(OfferedOption(kind: .close))
            case .useCredits:
                life.state.options.append(OfferedOption(kind: .useCredits, creditCostSeconds: min(intended, shield.creditsAvailable).seconds))
            case .peek: life.state.options.append(OfferedOption(kind: .peek, creditCostSeconds: shield.peekCost.seconds))
            case .emergencyToken:
                life.state.options.append(shield.tokenNeedsPurchase ? OfferedOption(kind: .buyToken, priceUSD: shield.tokenPrice.usd)
                                                                    : OfferedOption(kind: .useToken))
            }
            life.state.buttons.append(c)
        }
    }

    /// What the person brings to the choice (reads the life; `inout` only to pass it by address, see `offer`).
    static func choiceContext(_ life: inout PersonLife<Self>, urge: Double, scarcity: Double, mindfulnessDone: Bool) -> ChoiceContext {
        ChoiceContext(urgeStrength: urge, selfEfficacy: life.person.selfEfficacy.value, creditScarcity: scarcity,
                      willingnessToPay: life.person.willingnessToPayUSDPerMonth,
                      habitStrength: life.person.scrollingHabit.strength(onDay: Int64(life.dayIndex)),
                      resistHabit: life.person.resistHabit.strength(onDay: Int64(life.dayIndex)),
                      mindfulnessDone: mindfulnessDone, frustration: life.engagement.frustration)
    }

    /// Whether a shield encounter goes on after a button.
    enum ShieldStep { case over, again }

    /// *Apply*: the engine's answer to the button and what it does to the person.
    static func apply(_ d: ScrollOffDecision, app: AppID, intended: TimeSpan, context: ChoiceContext,
                      _ life: inout PersonLife<Self>, at now: Instant) -> ShieldStep {
        switch d {
        case .willpowerWin:
            life.person.selfEfficacy.recordWin()
            life.person.resistHabit.reinforce(onDay: Int64(life.dayIndex))
            life.engagement.record(.resistedUrge)
            life.engagement.record(.minutesSaved(intended.minutes))
            cue(.afterShield, &life, at: now)
            return .over
        case .spendStarted, .freePeek, .creditPeek, .tokenUsed:
            life.person.selfEfficacy.recordLapse()
            life.startSession(app, intended: intended, at: now)
            return .over
        case .mindfulnessPrompted:
            // The step lowers the probability of acting on the urge, not the urge itself.
            guard let exercise = life.engine.pendingShield?.mindfulnessOffered else { return .over }
            var after = context
            after.selfEfficacy = life.person.selfEfficacy.value
            after.frustration = life.engagement.frustration
            after.mindfulnessDone = true
            let acting = life.world.choice.actingProbability(life.state.options, context: after)
            if life.choices.uniform() < 0.3 {
                life.send(.mindfulness(exercise, .skip), at: now)
            } else {
                let avoided = life.choices.uniform() >= acting
                life.send(.mindfulness(exercise, .complete(bypassAvoided: avoided)), at: now)
                if avoided {
                    life.person.selfEfficacy.recordWin()
                    life.person.resistHabit.reinforce(onDay: Int64(life.dayIndex))
                    life.engagement.record(.resistedUrge)
                    return .over
                }
            }
            return .again
        case .tokenCapReached:
            life.engagement.record(.shieldRefused)
            life.state.capRefusedMonth = life.currentMonth
            // Assumption: the "ladder exhausted" upgrade prompt is weighed once per calendar month.
            if life.state.lastLadderPaywallMonth != life.currentMonth {
                life.state.lastLadderPaywallMonth = life.currentMonth
                paywall(.usageCapReached, &life, at: now)
            }
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
