import Behavior
import LazuriRules
import RulesCore
import Simulation

extension LazuriAdapter {
    // MARK: - What the reports take from the engine's events

    /// Per-day figures by local day since install. Retention's two readings (inventory §5): *engaged* — the app opened
    /// that day of the person's own accord (the world's definition, as issue 39 reads it: a detour the shield forces
    /// is not an open — Lazuri opened on the way to breaking the promise is the product in use, as Earned Access's
    /// Unlock Gate is; opened to put the protection back at the day's end is an open) — and *protected* — a window
    /// completed that day.
    public static func observe(_ event: LazuriEvent, _ life: inout PersonLife<Self>, at t: Instant) {
        let day = life.summary.tally.day(life.dayIndex)
        if day <= 7 { life.state.checklist.formUnion(Checklist.item(event)) }
        switch event {
        case .appOpened:
            if life.state.openingToBreak {
                life.recordInUseDay()
            } else {
                life.recordActiveDay()
                if day == 7 { life.summary.tally.counts.flag(.d7Engaged) }
            }
        case .blockStarted:
            life.summary.tally.counts[.windowsStarted] += 1
            life.summary.tally.focus[day].started += 1
            // A blocker works without being opened: the product in use that day.
            life.recordInUseDay()
        case let .blockEnded(_, outcome, minutes):
            switch outcome {
            case .completed:
                life.summary.tally.counts[.windowsCompleted] += 1
                life.summary.tally.counts[.focusMinutes] += minutes
                life.summary.tally.focus[day].completed += 1
                life.summary.tally.focus[day].minutes += minutes
                if day == 7 { life.summary.tally.counts.flag(.d7Protected) }
            case .interrupted:
                life.summary.tally.counts[.windowsInterrupted] += 1
                switch life.state.interruption ?? .revoke {
                case .switchOff: life.summary.tally.focus[day].switchedOff += 1
                case .delete: life.summary.tally.focus[day].deleted += 1
                case .revoke: life.summary.tally.focus[day].revoked += 1
                }
            }
        case let .cardViewed(_, isNew, _):
            life.summary.tally.cards[day].cardsViewed += 1
            if isNew {
                life.summary.tally.cards[day].uniqueCards += 1
                life.summary.tally.counts[.uniqueCards] += 1
                life.engagement.record(.value(life.world.constants.newCardValue, .cardLearned))
            }
            life.recordPersonalUseDay()
        case let .achievementUnlocked(_, points):
            if day <= 7 { life.summary.tally.counts.flag(.achievementWeek) }
            life.summary.tally.cards[day].achievements += 1
            life.summary.tally.cards[day].score += points
            life.summary.tally.counts[.score] += points
        case let .promiseSaved(_, _, first):
            life.summary.tally.counts[first ? .promisesWritten : .promisesRewritten] += 1
        default:
            break
        }
    }

    // MARK: - Days and the end of the life

    /// Local midnight: a person who broke the promise that day decides whether to put the protection back
    /// (`lazuri_resume`, `lazuri.resume_probability`): switch the schedule on again, create it again, or grant Screen
    /// Time again in Settings (the app shows the instructions, §4.2.2) — opening Lazuri to do it.
    public static func endOfDay(_ life: inout PersonLife<Self>, at now: Instant) {
        // Still installed at the end of local day 7: the week of the thesis's study kept.
        if life.dayIndex == 7 { life.summary.tally.counts.flag(.weekKept) }
        guard let way = life.state.brokenToday else { return }
        life.state.brokenToday = nil
        guard !life.dormant, life.blocker?.leavingByUnblocking != true else { return }
        life.offerDecision(.lazuriResume, moment: Int64(life.dayIndex))
        guard life.features.uniform() < life.world.constants.resumeProbability else {
            life.decide(.lazuriResume, .leaveOff, at: now)
            return
        }
        life.decide(.lazuriResume, .resume, at: now)
        life.send(.appOpened, at: now)
        life.send(.tabOpened(.focus), at: now)
        if life.engine.screenTime != .granted { life.send(.screenTimeAuthorization(granted: true), at: now) }
        switch way {
        case .delete:
            if life.state.scheduleID == nil, let spec = life.state.spec { createAndEnable(spec, &life, at: now) }
        case .switchOff, .revoke:
            if let id = life.state.scheduleID, life.engine.schedules.contains(where: { $0.id == id && !$0.enabled }) {
                life.send(.setScheduleEnabled(id, true), at: now)
            }
        }
        life.send(.appClosed, at: now)
    }

    /// Day-7 retention and the user study's week figures count only people observed past day 7.
    public static func finish(_ life: inout PersonLife<Self>) {
        life.summary.tally.observedDays = max(0, life.summary.observedDays)
        let observed = life.summary.observedDays > 7
        life.summary.tally.counts.flag(.d7Engaged, withinWindowObserved: observed, eligible: .d7Eligible)
        life.summary.tally.counts.flag(.checklistCompleted, life.state.checklist == .all)
        // The horizon fell at day 7's end (an event at the horizon is not handled, so `endOfDay` did not see day 7
        // end): a person who still has the app kept it through day 7.
        if observed, life.dayIndex == 7, !life.untreated { life.summary.tally.counts.flag(.weekKept) }
        for week in [LazuriCount.d7Protected, .weekKept, .checklistCompleted, .achievementWeek] where !observed {
            life.summary.tally.counts.flag(week, false)
        }
    }
}
