import Behavior
import ClavisRules
import Foundation
import RulesCore
import Simulation

extension ClavisAdapter {
    // MARK: - Moments to lock and unlock (a habit at the day's edges)

    /// A move of the person's day (`WhereaboutsProcess`): leaving home for work or school is a moment to lock with the
    /// key still at hand (§6.3; the key stays home, §1); arriving home is a moment to unlock (§6.4), or the end of a
    /// trip home for the key, or where an enrolment that waited for home goes on.
    public static func occurrence(_ o: PersonOccurrence, _ life: inout PersonLife<Self>, at now: Instant) {
        guard let move = o.value(as: Move.self) else { return life.liveUnaided(o, at: now) }
        let from = life.mind(WhereaboutsProcess.self).place
        life.liveUnaided(o, at: now)
        if move.to == .home {
            arriveHome(&life, at: now)
        } else if from == .home, move.to == .work, !move.steered {
            lockMoment(.leaving, &life, at: now)
        }
    }

    /// Arriving home: the set-up goes on, a trip for the key ends in a scan, or a lock made on leaving may be opened.
    static func arriveHome(_ life: inout PersonLife<Self>, at now: Instant) {
        if life.state.enrolPending {
            if life.state.mode == nil { setUpAgain(&life, at: now) } else if !life.dormant { enrolAndFinish(&life, at: now) }
            return
        }
        guard life.engine.lock != nil else { return }
        if life.state.goingHomeForKey {
            life.state.goingHomeForKey = false
            let (ok, end) = scan(.unlock, .genuine, distinctiveness: life.state.distinctiveness, lighting: lighting(.home, life, at: now), &life, at: now)
            life.beBusy(until: end, with: "scanning the key")
            if ok { life.summary.tally.weeks[life.summary.tally.week(life.dayIndex)].wentHomeUnlocked += 1 }
            return
        }
        guard life.state.lockedAt == .leaving else { return }
        unlockMoment(probability: life.world.constants.unlockArrival, dark: false, &life, at: now)
    }

    /// A moment to lock: the person locks with the propensity of the moment (`clavis.lock.*`), by a scan of the main
    /// key in the light of home at this hour (at bedtime in the dark with `clavis.bedtime_dark_share`).
    static func lockMoment(_ moment: LockMoment, _ life: inout PersonLife<Self>, at now: Instant) {
        guard !life.dormant, life.engine.lock == nil, life.engine.onboardingDone, life.state.mainKey != nil,
              life.engine.scan == nil, life.engine.enrolment == nil else { return }
        let k = life.world.constants
        let dark = moment == .bedtime && life.features.uniform() < k.bedtimeDark
        life.offerDecision(.clavisLock, moment: now.millisecondsSinceEpoch)
        let p = switch moment {
        case .leaving: life.state.lockLeaving
        case .bedtime: life.state.lockBedtime
        case .opened: life.world.constants.lockOnOpen
        }
        guard life.features.uniform() < p else { return life.decide(.clavisLock, .skipLock, at: now) }
        life.decide(.clavisLock, .lock, at: now)
        life.summary.tally.weeks[life.summary.tally.week(life.dayIndex)].lockAttempts += 1
        let (ok, end) = scan(.lock, .genuine, distinctiveness: life.state.distinctiveness,
                             lighting: lighting(.home, life, at: now, dark: dark), &life, at: now)
        life.beBusy(until: end, with: "scanning the key")
        guard ok else { return }
        life.state.lockedAt = moment
        life.state.focusBypassed = false
        if moment == .bedtime {
            // Five minutes after waking (the light of the morning room, not the night's).
            let hours = life.person.phoneUse.sleepHours + 0.25 + 5.0 / 60
            life.schedule(.wake, at: now + .milliseconds(Int64(hours * 3_600_000)))
        }
    }

    /// A moment to unlock with the key at hand: unlock with `probability`, by a scan in the light of home.
    static func unlockMoment(probability: Double, dark: Bool, _ life: inout PersonLife<Self>, at now: Instant) {
        guard life.engine.lock != nil, life.engine.scan == nil, life.engine.enrolment == nil else { return }
        life.offerDecision(.clavisUnlock, moment: now.millisecondsSinceEpoch)
        guard life.features.uniform() < probability else { return life.decide(.clavisUnlock, .stayLocked, at: now) }
        life.decide(.clavisUnlock, .unlock, at: now)
        let (_, end) = scan(.unlock, .genuine, distinctiveness: life.state.distinctiveness,
                            lighting: lighting(.home, life, at: now, dark: dark), &life, at: now)
        life.beBusy(until: end, with: "scanning the key")
    }

    /// Opening Clavis on a cue (the shared engagement habit, `opensAppOnCue`): the main screen with its "Lock with my
    /// key" (§6.3); at home with the key, unlocked, a moment to lock (`clavis.lock.on_open_probability`).
    public static func cue(_ cue: AppOpenCue, _ life: inout PersonLife<Self>, at now: Instant) {
        guard life.opensAppOnCue(cue) else { return }
        life.send(.appOpened, at: now)
        life.engagement.record(.appOpened)
        life.meter.charge(EnergyCharge(.foregroundSecond, 5), phoneInUse: true)
        if life.mind(WhereaboutsProcess.self).place == .home { lockMoment(.opened, &life, at: now) }
    }

    /// Going to bed (a moment to lock) and waking (a moment to unlock a bedtime lock); the next bedtime is booked.
    public static func carryOut(_ intent: Intent, _ life: inout PersonLife<Self>, at now: Instant) {
        switch intent {
        case .bedtime:
            life.schedule(.bedtime, at: now + .hours(24))
            if life.mind(WhereaboutsProcess.self).place == .home { lockMoment(.bedtime, &life, at: now) }
        case .wake:
            guard life.state.lockedAt == .bedtime else { return }
            let dark = life.features.uniform() < life.world.constants.bedtimeDark
            unlockMoment(probability: life.world.constants.unlockMorning, dark: dark, &life, at: now)
        case .newDayLocked:
            if life.engine.lock != nil, !life.state.focusBypassed { markLockedDay(&life) }
        }
    }

    /// The first bedtime after `t`: a quarter of an hour before the person falls asleep.
    static func scheduleBedtime(_ life: inout PersonLife<Self>, at t: Instant) {
        let target = Int64(((life.person.phoneUse.sleepStartHour - 0.25) * 3_600_000).rounded())
        let day: Int64 = 86_400_000
        let into = Int64(life.zone.localDateTime(t).millisecondsIntoDay)
        var wait = ((target - into) % day + day) % day
        if wait == 0 { wait = day }
        life.schedule(.bedtime, at: t + .milliseconds(wait))
    }
}
