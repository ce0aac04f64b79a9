import Simulation
import Behavior
import Foundation
import EarnedAccessRules
import RulesCore

extension EarnedAccessAdapter {
    /// An urge for one of the person's apps: a distracting app is opened and meets whatever the engine decides.
    /// A person busy at the gate (a breathing quest, the emergency wait) does not act on another urge meanwhile: it
    /// is settled as neither an open nor a pass (`PersonLife.beBusy`; the prologue `urgeMeetsRestriction` drops it).
    public static func urge(for app: AppID, pickup p: Pickup, _ life: inout PersonLife<Self>, at now: Instant) {
        // An app the person did not make distracting: used as they meant, unseen by Earned Access.
        guard life.urgeMeetsRestriction(app, pickup: p, at: now) else { return }
        life.summary.tally.counts[.urgesForDistractingApps] += 1
        openApp(app, urge: p.urgeIntensity, intended: p.sessionLength, &life, at: now)
        settlePaywall(&life, at: now)
    }

    /// The person opens a distracting app: used freely, or the shield.
    static func openApp(_ app: AppID, urge: Double, intended: TimeSpan, _ life: inout PersonLife<Self>, at now: Instant) {
        switch life.send(.appForeground(app), at: now) {
        case .shieldShown: meetShield(app: app, urge: urge, intended: intended, &life, at: now)
        case .notShielded, .grantInForce, .notEnforced: startSession(app, urge: urge, intended: intended, &life, at: now)
        default: break
        }
    }

    static func startSession(_ app: AppID, urge: Double, intended: TimeSpan, _ life: inout PersonLife<Self>, at now: Instant) {
        life.state.sessionUrge = urge
        life.state.sessionIntendedEnd = now + intended
        life.startSession(app, intended: intended, at: now)
    }

    /// Earned Access has no input for leaving an app: the OS keeps the grant running whatever the person does.
    public static func sessionEnded(app: AppID, _ life: inout PersonLife<Self>, at now: Instant) {}

    // MARK: - The shield and the gate: offer → choose → apply (seed 003 §2, §3 B–D)

    /// The person in front of the shield. "You cannot programmatically force-redirect from the system shield into
    /// your app" (§2): the only button closes it, and the person who wants in must find and open Earned Access,
    /// which lands in the Unlock Gate for the last blocked app (§3 B) 3). So the person weighs, at the shield, giving
    /// up against each way through the gate the engine offers (`gateOffer(for:at:)`), every way through carrying the
    /// extra step's friction (`shield.redirect_step_seconds`). A block that ends within
    /// `shield.wait_for_end_minutes` is waited out instead (assumption). Up to three rounds: a Pro-only option
    /// (15/30 minutes on Free) shows the paywall, and the person then chooses again among what is left.
    static func meetShield(app: AppID, urge: Double, intended: TimeSpan, _ life: inout PersonLife<Self>, at now: Instant) {
        if let end = blockEnd(&life, at: now), end - now <= .minutes(Int64(life.world.constants.waitForEndMinutes)) {
            life.decide(.shieldChoice, .waitForEnd, at: now)
            life.send(.shieldClose(app), at: now)
            life.summary.tally.counts[.waitedForBlockEnd] += 1
            schedule(.retry(app, urge: urge, intended: intended), at: end + .seconds(1), &life)
            return
        }
        var redirect = life.world.constants.redirectStepSeconds
        // The shield itself is an interruption: a habitual or weak urge may be let go before anything else (issue 26).
        if life.letsGoAtShield(urge: urge) {
            life.decide(life.engine.gateApp != app ? .shieldChoice : .gateOption, life.engine.gateApp != app ? .letGo : .giveUp, at: now)
            giveUp(app: app, intended: intended, &life, at: now)
            return
        }
        for _ in 0..<3 {
            // A person who no longer opens Earned Access (dormant) has no way through: the shield's only button.
            guard !life.dormant else {
                life.decide(life.engine.gateApp != app ? .shieldChoice : .gateOption, .giveUp, at: now)
                giveUp(app: app, intended: intended, &life, at: now)
                return
            }
            offerGate(app: app, intended: intended, redirectSeconds: redirect, &life, at: now)
            let context = choiceContext(&life, app: app, urge: urge, intended: intended)
            let pick = life.world.choice.choose(life.state.options, context: context, rng: life.choices)
            // At the shield the person decides to give up or to detour through the gate; at the gate, which option
            // (or to leave). Assumption (audit 2026-11-25 E14): one weighing at the shield — of giving up against
            // the options they know the gate holds — decides both; the option weighed is the one taken at the gate.
            let atShield = life.engine.gateApp != app
            guard let choice = life.state.choices[pick] else {
                life.decide(atShield ? .shieldChoice : .gateOption, .giveUp, at: now)
                giveUp(app: app, intended: intended, &life, at: now)
                return
            }
            if atShield {
                life.decide(.shieldChoice, .detour, at: now)
                life.send(.shieldClose(app), at: now)
                // A forced detour, not a voluntary open (issue 39 item 2): Adjust's `app_opened` counts people who
                // come back of their own accord, and in Scroll Off the same act happens on the shield itself (a
                // Screen Time shield extension, not an app session). So the open marks the product in use that day
                // (`observe`), not an app-opened day, and does not feed the habit of opening the app.
                life.state.openingAsDetour = true
                life.send(.appOpened, at: now)
                life.state.openingAsDetour = false
                life.engagement.record(.frustration(life.world.constants.detourFrustration))
                redirect = 0
            }
            life.decide(.gateOption, outcome(of: choice.method), at: now)
            let d = life.send(.unlock(app, choice), at: now)
            life.trace(kind: "choice", detail: "\(choice) → \(d)", at: now)
            switch d {
            case .granted:
                life.recordLapse()
                startSession(app, urge: urge, intended: intended, &life, at: now)
                return
            case .questStarted, .emergencyWaitStarted:
                life.recordLapse()
                beginWait(app: app, urge: urge, intended: intended, questing: d == .questStarted, &life, at: now)
                return
            case .paywall:
                settlePaywall(&life, at: now)
            default:
                life.engagement.record(.shieldRefused)
                life.send(.leaveGate, at: now)
                return
            }
        }
        if life.engine.gateApp != nil { life.send(.leaveGate, at: now) }
    }

    /// The person gives up the app: closes the shield and does something else (a willpower win).
    /// A dormant person, who no longer looks at the app, feels the shield as friction with no value (issue 26).
    static func giveUp(app: AppID, intended: TimeSpan, _ life: inout PersonLife<Self>, at now: Instant) {
        if life.engine.gateApp == app { life.send(.leaveGate, at: now) } else { life.send(.shieldClose(app), at: now) }
        life.summary.tally.counts[.willpowerWins] += 1
        guard !life.dormant else {
            life.engagement.record(.dormantShield)
            return
        }
        life.recordWillpowerWin(minutesSaved: intended.minutes)
        cue(.afterShield, &life, at: now)
    }

    /// *Offer*: giving up, and every gate option the engine shows — enabled, or behind the paywall until the person
    /// has once said "not now" to a paywall (they have learnt that 15/30 minutes are Pro; assumption) — as options
    /// the person weighs (into the reused buffers). Credits are weighed as the focus time they took to earn
    /// (`focus.minutes_per_credit` minutes a credit); quests and the emergency by their seconds of effort or waiting.
    static func offerGate(app: AppID, intended: TimeSpan, redirectSeconds: Double, _ life: inout PersonLife<Self>, at now: Instant) {
        life.state.options.removeAll(keepingCapacity: true)
        life.state.choices.removeAll(keepingCapacity: true)
        life.state.options.append(OfferedOption(.close))
        life.state.choices.append(nil)
        let gate = life.engine.gateOffer(for: app, at: now)
        let secondsPerCredit = Double(life.world.parameters.focusMinutesPerCredit * 60)
        let m = life.world.choice, c = life.world.constants
        for o in gate.options where o.isEnabled || (o.disabledReason == .paywall && !life.state.declinedPaywall) {
            let friction = redirectSeconds + Double(o.delaySeconds)
            let role: OptionRole
            switch o.choice.method {
            case .credits: role = m.spendCredits
            case .quest: role = c.quest
            case .emergency: role = c.emergency
            }
            life.state.options.append(OfferedOption(role, creditCostSeconds: Double(o.cost) * secondsPerCredit, frictionSeconds: friction))
            life.state.choices.append(o.choice)
        }
    }

    /// The decision a gate option is, in `decisions.csv`.
    static func outcome(of method: UnlockMethod) -> DecisionOutcome {
        switch method {
        case .credits: .useCredits
        case .quest: .quest
        case .emergency: .emergency
        }
    }

    /// What the person brings to the choice: scarcity is how little of the intended use the balance buys.
    static func choiceContext(_ life: inout PersonLife<Self>, app: AppID, urge: Double, intended: TimeSpan) -> ChoiceContext {
        let perMinute = life.world.parameters.creditCostPerMinute
        let affordable = perMinute > 0 ? Double(life.engine.balance) / perMinute : .infinity
        let scarcity = 1 - min(1, affordable / max(1, intended.minutes))
        return ChoiceContext(urgeStrength: urge, selfEfficacy: life.person.selfEfficacy.value, creditScarcity: scarcity,
                             willingnessToPay: life.person.willingnessToPayUSDPerMonth,
                             habitStrength: life.habitStrength(for: app),
                             resistHabit: life.person.resistHabit.strength(onDay: Int64(life.dayIndex)),
                             frustration: life.engagement.frustration)
    }

    /// A quest or the emergency wait has begun at the gate: the person sees it through, or leaves part-way —
    /// leaving cancels it without using up the emergency (inventory row 42). The wait is an interruption of its
    /// whole length: the urge is let go in it with `UrgeModel.letGoProbability` (issue 26) — likelier the longer the
    /// wait, the weaker the urge, and for a habitual urge than an intended one — at a uniform moment of it.
    static func beginWait(app: AppID, urge: Double, intended: TimeSpan, questing: Bool, _ life: inout PersonLife<Self>, at now: Instant) {
        life.state.waitingUnlock = (app, urge, intended)
        // Busy, phone in hand, until the gate grants or the person leaves it (`endBusy`).
        life.beBusy(with: "gate")
        guard let pending = life.engine.pending else { return }
        let leaves = life.world.urges.letGoProbability(life.urgeKind, urge: urge, seconds: (pending.dueAt - now).seconds)
        guard life.features.uniform() < leaves else { return }
        let leaveAt = now + .milliseconds(Int64(Double((pending.dueAt - now).milliseconds) * life.features.uniform()))
        schedule(questing ? .abandonQuest : .abandonEmergencyWait, at: max(now + .seconds(1), leaveAt), &life)
    }

    /// When the block over the app now ends: the running mode's window, or the focus session.
    static func blockEnd(_ life: inout PersonLife<Self>, at now: Instant) -> Instant? {
        guard let source = life.engine.shieldingSource(at: now) else { return nil }
        if let id = source.mode, let mode = life.engine.modes.first(where: { $0.id == id }) {
            return mode.spec.window.occurrence(containing: now, in: life.zone)?.upperBound
        }
        return life.engine.focus?.end
    }

    // MARK: - Timers

    /// A due engine timer was handled: a quest or wait that granted (the session starts), or a grant that ran out
    /// with the shield back over the app in front ("Unlock expired → reapply shield automatically", §7), where the
    /// person meets the shield again with the rest of what they meant to spend.
    public static func timerHandled(_ life: inout PersonLife<Self>, at now: Instant) {
        if let w = life.state.waitingUnlock, life.engine.pending == nil {
            life.state.waitingUnlock = nil
            life.endBusy()
            if life.out.decision == .granted {
                if let fg = life.foregroundApp, fg != w.app { life.endSession(fg, at: now) }
                startSession(w.app, urge: w.urge, intended: w.intended, &life, at: now)
            }
        }
        if let app = life.foregroundApp, life.engine.isShielded(app, at: now) {
            life.interruptSession(at: now)
            let rest = max(.minutes(1), (life.state.sessionIntendedEnd ?? now) - now)
            if life.send(.appForeground(app), at: now) == .shieldShown {
                meetShield(app: app, urge: life.state.sessionUrge, intended: rest, &life, at: now)
            }
        }
        settlePaywall(&life, at: now)
    }
}
