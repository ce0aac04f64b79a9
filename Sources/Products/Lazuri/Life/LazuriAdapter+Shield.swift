import Behavior
import LazuriRules
import RulesCore
import Simulation

extension LazuriAdapter {
    // MARK: - An urge for a blocked app

    /// An urge for one of the person's apps: inside a window an app in the selection shows the shield (§5.4.2);
    /// outside one it is used as meant (the shared prologue `urgeMeetsRestriction` lets it through unseen).
    public static func urge(for app: AppID, pickup p: Pickup, _ life: inout PersonLife<Self>, at now: Instant) {
        guard life.urgeMeetsRestriction(app, pickup: p, at: now) else { return }
        switch life.send(.blockedTargetOpened(.app), at: now) {
        case .shieldShown(_, let promise):
            meetShield(app: app, urge: p.urgeIntensity, intended: p.sessionLength, promise: promise, &life, at: now)
        default:
            life.startSession(app, intended: p.sessionLength, at: now)
        }
    }

    /// The person in front of the shield: the promise (or the placeholder) and one button. The shield is an
    /// interruption, in which a habitual or weak urge may be let go (issue 26, the shared `letsGoAtShield`); otherwise the
    /// person weighs not acting on the urge against breaking the promise (the shared choice model: breaking is an
    /// `open` option with Lazuri's own constant and friction, lowered by the promise's effect as worn by the shields it
    /// has stood on). Not acting ends with the button or the home gesture (`shield.walk_away_share`); breaking is
    /// switching the schedule off, deleting it, or revoking Screen Time (`lazuri.break_*_share`). A dormant person —
    /// who no longer opens Lazuri — does not go in to break it (assumption): the button or home.
    static func meetShield(app: AppID, urge: Double, intended: TimeSpan, promise: Bool, _ life: inout PersonLife<Self>, at now: Instant) {
        let k = life.world.constants
        life.offerShieldDecision(over: app, at: now, kind: .lazuriShield)
        let day = life.summary.tally.day(life.dayIndex)
        life.summary.tally.counts[.shields] += 1
        life.summary.tally.focus[day].shields += 1
        // The promise's effect now, worn by the shields it has stood on (habituation to a static message).
        let effect = promise ? k.promiseEffect(afterExposures: life.state.promiseExposures) : 0
        if promise { life.state.promiseExposures += 1 }
        if life.dormant {
            life.engagement.record(.dormantShield)
        } else {
            life.engagement.record(.frustration(k.shieldFrustration))
        }
        var acts = false
        if !life.dormant, !life.letsGoAtShield(urge: urge) {
            life.state.options.removeAll(keepingCapacity: true)
            life.state.options.append(OfferedOption(.close))
            if case let .open(fulfilment, constant) = k.breakRole {
                life.state.options.append(OfferedOption(.open(fulfilment: fulfilment, constant: constant - effect), frictionSeconds: k.breakFrictionSeconds))
            }
            let context = ChoiceContext(urgeStrength: urge, selfEfficacy: life.person.selfEfficacy.value,
                                        habitStrength: life.habitStrength(for: app),
                                        resistHabit: life.person.resistHabit.strength(onDay: Int64(life.dayIndex)),
                                        frustration: life.engagement.frustration)
            acts = life.state.options[life.world.choice.choose(life.state.options, context: context, rng: life.choices)].actsOnUrge
        }
        guard acts else { return keepPromise(app: app, intended: intended, &life, at: now) }
        let u = life.choices.uniform()
        let way: Break = u < k.revokeShare ? .revoke : u < k.revokeShare + k.deleteShare ? .delete : .switchOff
        breakPromise(way, app: app, intended: intended, &life, at: now)
    }

    /// Not acting on the urge: "I won't break my promise!" (the app closes, a "Note to self:" posted) or the home
    /// gesture. A willpower win; pressed, the minutes the person meant to spend count as kept.
    static func keepPromise(app: AppID, intended: TimeSpan, _ life: inout PersonLife<Self>, at now: Instant) {
        let day = life.dayIndex
        if life.choices.uniform() < life.world.choice.walkAwayShare {
            life.decide(.lazuriShield, .leave, at: now)
            life.send(.shieldDismissed, at: now)
            life.summary.tally.counts[.left] += 1
            life.summary.tally.focus[day].left += 1
            if !life.dormant { life.recordWillpowerWin(minutesSaved: nil) }
        } else {
            life.decide(.lazuriShield, .press, at: now)
            life.send(.shieldPrimaryPressed, at: now)
            life.summary.tally.counts[.pressed] += 1
            life.summary.tally.focus[day].pressed += 1
            if !life.dormant { life.recordWillpowerWin(minutesSaved: intended.minutes) }
        }
        life.trace(kind: "choice", detail: "promise kept", at: now)
        if !life.dormant { cue(.afterShield, &life, at: now) }
    }

    /// Breaking the promise the only ways Lazuri leaves open (§4.2.4 switch off or delete "at any time"; §4.2.2 revoke in
    /// Settings): the person leaves the shield, opens Lazuri's Focus tab (or Settings), does it, and opens the app.
    static func breakPromise(_ way: Break, app: AppID, intended: TimeSpan, _ life: inout PersonLife<Self>, at now: Instant) {
        let day = life.dayIndex
        life.send(.shieldDismissed, at: now)
        life.state.interruption = way
        switch way {
        case .revoke:
            life.decide(.lazuriShield, .revoke, at: now)
            life.send(.screenTimeRevoked, at: now)
            life.summary.tally.counts[.brokeRevoke] += 1
            life.summary.tally.focus[day].brokeRevoke += 1
        case .switchOff, .delete:
            life.decide(.lazuriShield, way == .delete ? .deleteSchedule : .switchOff, at: now)
            life.state.openingToBreak = true
            life.send(.appOpened, at: now)
            life.state.openingToBreak = false
            life.send(.tabOpened(.focus), at: now)
            for s in life.engine.schedules where s.block != nil || s.enabled {
                life.send(way == .delete ? .deleteSchedule(s.id) : .setScheduleEnabled(s.id, false), at: now)
            }
            life.send(.appClosed, at: now)
            if way == .delete { life.state.scheduleID = nil }
            life.summary.tally.counts[way == .delete ? .brokeDelete : .brokeSwitchOff] += 1
            if way == .delete { life.summary.tally.focus[day].brokeDelete += 1 } else { life.summary.tally.focus[day].brokeSwitchOff += 1 }
        }
        life.state.interruption = nil
        life.state.brokenToday = way
        life.trace(kind: "choice", detail: "promise broken: \(way)", at: now)
        life.recordLapse()
        life.startSession(app, intended: intended, at: now)
    }
}
