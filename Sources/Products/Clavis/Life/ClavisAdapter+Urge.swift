import Behavior
import ClavisRules
import Foundation
import RulesCore
import Simulation

extension ClavisAdapter {
    // MARK: - An urge for a locked app

    /// An urge for one of the person's apps while a mode is locked (§8 "Lock → Focus ON"): the Focus hides it, and the
    /// person meets the lock (`clavis_locked`). A Focus does not block apps (inventory §6 gap 8): the app may be reached
    /// anyway through Search (`clavis.focus_leak_probability`). Otherwise a habitual or weak urge may be let go (the
    /// shared `letsGoAtShield`), or the person weighs enduring it against the ways through open to them here and now
    /// (the shared choice model, each an `open` option with its own constant and friction): the key, if at home; a trip
    /// home for it, if away; a temporary unlock, with an unused temporary key at hand; the Focus switched off; "Delete
    /// my key"; the key replaced by an object at hand; a look-alike object, if away. A dormant person, who no longer
    /// uses Clavis, switches the Focus off.
    public static func urge(for app: AppID, pickup p: Pickup, _ life: inout PersonLife<Self>, at now: Instant) {
        guard life.urgeMeetsRestriction(app, pickup: p, at: now) else { return }
        let k = life.world.constants
        life.offerShieldDecision(over: app, at: now, kind: .clavisLocked)
        let week = life.summary.tally.week(life.dayIndex)
        life.summary.tally.weeks[week].urgesLocked += 1
        if life.dormant {
            // A person who no longer uses Clavis does not live behind its lock: the Focus goes off (assumption).
            life.engagement.record(.dormantShield)
            life.decide(.clavisLocked, .focusOff, at: now)
            life.summary.tally.weeks[week].focusOff += 1
            life.state.focusBypassed = true
            return life.startSession(app, intended: p.sessionLength, at: now)
        }
        life.engagement.record(.frustration(k.lockFrustration))
        if life.choices.uniform() < k.leak {
            life.decide(.clavisLocked, .leak, at: now)
            life.summary.tally.weeks[week].leaked += 1
            life.trace(kind: "choice", detail: "reached the app through Search", at: now)
            return life.startSession(app, intended: p.sessionLength, at: now)
        }
        guard !life.letsGoAtShield(urge: p.urgeIntensity) else { return endure(app, intended: p.sessionLength, &life, at: now) }
        let place = life.mind(WhereaboutsProcess.self).place
        offerOptions(place: place, &life)
        let context = ChoiceContext(urgeStrength: p.urgeIntensity, selfEfficacy: life.person.selfEfficacy.value,
                                    habitStrength: life.habitStrength(for: app),
                                    resistHabit: life.person.resistHabit.strength(onDay: Int64(life.dayIndex)),
                                    frustration: life.engagement.frustration)
        let choice = life.state.outcomes[life.world.choice.choose(life.state.options, context: context, rng: life.choices)]
        if choice == .endure { return endure(app, intended: p.sessionLength, &life, at: now) }
        life.decide(.clavisLocked, choice, at: now)
        life.recordLapse()
        if wayThrough(choice, place: place, &life, at: now) {
            life.startSession(app, intended: p.sessionLength, at: now)
        }
    }

    /// The options open here and now, and the outcome each stands for.
    static func offerOptions(place: Place, _ life: inout PersonLife<Self>) {
        let k = life.world.constants
        life.state.options.removeAll(keepingCapacity: true)
        life.state.outcomes.removeAll(keepingCapacity: true)
        func add(_ role: OptionRole, _ friction: Double, _ outcome: DecisionOutcome) {
            life.state.options.append(OfferedOption(role, frictionSeconds: friction))
            life.state.outcomes.append(outcome)
        }
        add(.close, 0, .endure)
        if place == .home {
            add(k.unlockAtHome, k.unlockFriction, .unlockWithKey)
        } else {
            add(k.goHome, 2 * 60 * k.travelMinutes, .goHome)
            add(k.lookAlike, k.lookAlikeFriction, .lookAlike)
        }
        if let temp = life.state.temporaryKey, life.state.temporaryCarried || place == .home,
           let l = life.engine.lock, !l.usedTemporaryKeys.contains(temp), l.temporaryUntil == nil {
            add(k.temporary, k.temporaryFriction, .temporaryKey)
        }
        add(k.focusOff, k.focusOffFriction, .focusOff)
        add(k.reset, k.resetFriction, .resetData)
        add(k.replace, k.replaceFriction, .replaceKey)
    }

    /// The urge not acted on: a willpower win; the minutes the person meant to spend count as kept.
    static func endure(_ app: AppID, intended: TimeSpan, _ life: inout PersonLife<Self>, at now: Instant) {
        life.decide(.clavisLocked, .endure, at: now)
        life.summary.tally.weeks[life.summary.tally.week(life.dayIndex)].endured += 1
        if !life.dormant { life.recordWillpowerWin(minutesSaved: intended.minutes) }
        life.trace(kind: "choice", detail: "endured the lock", at: now)
    }

    /// A way through, taken: true when the app is now reachable.
    static func wayThrough(_ choice: DecisionOutcome, place: Place, _ life: inout PersonLife<Self>, at now: Instant) -> Bool {
        let k = life.world.constants
        let w = life.summary.tally.week(life.dayIndex)
        let here = lighting(place, life, at: now)
        switch choice {
        case .unlockWithKey:
            life.summary.tally.weeks[w].unlockedOnUrge += 1
            return scan(.unlock, .genuine, distinctiveness: life.state.distinctiveness, lighting: here, &life, at: now).matched
        case .goHome:
            // Home for the key and back (the person's whereabouts, steered); the scan is on arrival.
            life.summary.tally.weeks[w].wentHome += 1
            life.state.goingHomeForKey = true
            let travel = life.choices.lognormal(mu: log(k.travelMinutes), sigma: 0.5)
            life.steer(WhereaboutsProcess.self, redraw: true) { $0.goHome(travel: .milliseconds(Int64(travel * 60_000))) }
            life.trace(kind: "choice", detail: "going home for the key", at: now)
            return false
        case .temporaryKey:
            life.summary.tally.weeks[w].temporaryTries += 1
            return scan(.temporary, .genuine, distinctiveness: life.state.temporaryDistinctiveness, lighting: here, &life, at: now).matched
        case .focusOff:
            life.summary.tally.weeks[w].focusOff += 1
            life.state.focusBypassed = true
            life.trace(kind: "choice", detail: "switched the Focus off in Control Center", at: now)
            return true
        case .resetData:
            life.summary.tally.weeks[w].resets += 1
            life.send(.appOpened, at: now)
            life.send(.deleteAllData, at: now)
            forget(&life)
            life.state.enrolPending = true
            life.trace(kind: "choice", detail: "\"Delete my key\"", at: now)
            return true
        case .replaceKey:
            life.summary.tally.weeks[w].replaced += 1
            life.send(.appOpened, at: now)
            let d = life.features.beta(6 * k.distinctivenessMean, 6 * (1 - k.distinctivenessMean))
            let (key, end) = enrol(.main, distinctiveness: d, lighting: here, &life, at: now)
            guard let key else { return false }
            // The new key is the object at hand: the person takes it home (assumption) and keeps it as the key.
            life.state.mainKey = key
            life.state.distinctiveness = d
            return scan(.unlock, .genuine, distinctiveness: d, lighting: here, &life, at: end).matched
        case .lookAlike:
            life.summary.tally.weeks[w].lookAlikeTries += 1
            return scan(.unlock, .lookAlike, distinctiveness: life.state.distinctiveness, lighting: here, &life, at: now).matched
        default:
            return false
        }
    }

    /// A temporary unlock's session ended: the person ends the unlock early (§6.5) or lets it run out.
    public static func sessionEnded(app: AppID, _ life: inout PersonLife<Self>, at now: Instant) {
        guard let l = life.engine.lock, let until = l.temporaryUntil, until > now else { return }
        if life.features.uniform() < life.world.constants.endEarly { life.send(.endTemporaryUnlock, at: now) }
    }
}
