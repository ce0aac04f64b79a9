import Behavior
import ClavisRules
import RulesCore
import Simulation

extension ClavisAdapter {
    // MARK: - What the reports take from the engine's events

    /// Retention's two readings (inventory §4): *engaged* — the app opened that day (the world's definition) — and
    /// *locked* — a mode locked at some time that day (`recordInUseDay`, and `d7Locked`).
    public static func observe(_ event: ClavisEvent, _ life: inout PersonLife<Self>, at t: Instant) {
        switch event {
        case .appOpened(let day):
            life.recordActiveDay()
            if day == 7 { life.summary.tally.counts.flag(.d7Engaged) }
        case .modeLocked:
            let w = life.summary.tally.week(life.dayIndex)
            life.summary.tally.weeks[w].cyclesStarted += 1
            markLockedDay(&life)
        case let .modeUnlocked(_, _, minutes):
            let w = life.summary.tally.week(life.dayIndex)
            life.summary.tally.weeks[w].cyclesClosed += 1
            life.summary.tally.weeks[w].lockedMinutes += minutes
            life.state.lockedAt = nil
            life.state.focusBypassed = false
            if !life.dormant { life.engagement.record(.value(life.world.constants.cycleValue, .lockKept)) }
        case .temporaryUnlockStarted:
            life.summary.tally.weeks[life.summary.tally.week(life.dayIndex)].temporaryUnlocks += 1
        case .enrolmentStarted:
            life.summary.tally.counts[.enrolStarted] += 1
        case .enrolmentCompleted:
            life.summary.tally.counts[.enrolCompleted] += 1
        case let .scanMatched(_, _, frames, _, _):
            life.summary.tally.counts[.matchedScans] += 1
            life.summary.tally.counts[.matchedFrames] += frames
        default:
            break
        }
    }

    /// Today is a locked day: the product in use, and day 7's lock retention.
    static func markLockedDay(_ life: inout PersonLife<Self>) {
        life.recordInUseDay()
        if life.dayIndex == 7 { life.summary.tally.counts.flag(.d7Locked) }
        let w = life.summary.tally.week(life.dayIndex)
        if life.summary.tally.lastLockedWeek != w {
            life.summary.tally.lastLockedWeek = w
            life.summary.tally.weeks[w].peopleLocked += 1
        }
    }

    // MARK: - Days and the end of the life

    /// Local midnight: a lock held over it makes the new day a locked day too.
    public static func endOfDay(_ life: inout PersonLife<Self>, at now: Instant) {
        if life.engine.lock != nil, !life.state.focusBypassed { life.schedule(.newDayLocked, at: now) }
    }

    /// Day-7 retention counts only people observed past day 7.
    public static func finish(_ life: inout PersonLife<Self>) {
        life.summary.tally.observedDays = max(0, life.summary.observedDays)
        let observed = life.summary.observedDays > 7
        life.summary.tally.counts.flag(.d7Engaged, withinWindowObserved: observed, eligible: .d7Eligible)
        if !observed { life.summary.tally.counts.flag(.d7Locked, false) }
    }
}
