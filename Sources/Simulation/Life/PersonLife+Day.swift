import Behavior
import Reports
import RulesCore

extension PersonLife {
    mutating func endOfDay(at now: Instant) {
        Adapter.endOfDay(&self, at: now)
        let saved = Double(intendedRestrictedMs - usedRestrictedMs) / 60_000
        summary.trueMinutesSavedPerDay.append(max(0, saved))
        intendedRestrictedMs = 0
        usedRestrictedMs = 0
        let battery = meter.battery(dayLengthSeconds: Double((now - zone.startOfDay(containing: now - .milliseconds(1))).milliseconds) / 1000)
        summary.batteryDays.append((device.id, battery))
        summary.energyByActivity = summary.energyByActivity + meter.joulesByActivity
        meter.startNewDay()
        summary.personDays += 1
        let pickups = summary.common[.pickups], today = pickups - summary.world.pickupsAtDayStart
        if dayIndex > 0 {   // whole local days after the install day, for the world check's weekend uplift
            if zone.localDate(now - .milliseconds(1)).weekday.isWeekend {
                summary.world.weekendDays += 1; summary.world.weekendPickups += today
            } else {
                summary.world.weekdayDays += 1; summary.world.weekdayPickups += today
            }
        }
        summary.world.closeHour(pickups: pickups, at: now, dayStart: now)
        engagement.endOfDay()
        todayActive = false
        todayInUse = false
        dayIndex += 1
        let month = zone.monthID(now)
        if month != currentMonth {
            snapshotMonth()
            currentMonth = month
        }
        // Habit strength enters the urge process once a local day (it moves by days, Lally et al. 2010).
        phone.scrollingHabitStrength = person.scrollingHabit.strength(onDay: Int64(dayIndex))
        if !dormant, let kind = engagement.dailyChurnDecision(rng: churnStream,
                                                              disableRestrictionShare: person.featureUse.disableRestrictionExitShare) {
            summary.churn = kind.rawValue
            trace(kind: "churn", detail: kind.rawValue, at: now)
            switch kind {
            case .uninstall: uninstalled = true
            case .revokeAccess: Adapter.revokeAccess(&self, at: now); dormant = true
            case .dormant: dormant = true
            case .disableRestriction: Adapter.disableRestriction(&self, at: now); dormant = true
            }
        }
        schedule(.dayEnd, at: zone.startOfNextDay(after: now))
    }

    /// The plan and MRR in force now, recorded as the standing of the current local month (forecast.csv).
    /// Assumption: a person who uninstalls stops counting as paying from then on (their renewals are not simulated).
    mutating func snapshotMonth() {
        var m = summary.months[currentMonth, default: PersonMonth()]
        let standing = Adapter.standing(self)
        if !uninstalled {
            m.plan = standing.segment
            m.mrr = standing.monthlyPrice
        } else {
            m.plan = world.revenueModel.unpaidSegment
            m.mrr = .zero
        }
        summary.months[currentMonth] = m
    }

    mutating func finish() {
        summary.world.closeHour(pickups: summary.common[.pickups], at: summary.world.todayStart)
        summary.world.pickupsAfterSession = max(0, summary.common[.pickups] - 1)
        snapshotMonth()
        if let mrr = Adapter.mrrAtHorizon(self) { summary.mrrAtEnd = mrr }
        summary.eventsSimulated += queue.firedCount
        Adapter.finish(&self)
    }

    /// Appends a row to the person's timeline when tracing (`habitat trace`); free otherwise.
    public mutating func trace(kind: String, detail: @autoclosure () -> String, at t: Instant) {
        guard let trace else { return }
        let detail = detail()
        let product = Adapter.traceState(self)
        trace(TraceRow(time: t, kind: kind, detail: detail, walletSeconds: product.walletSeconds,
                       scrollingHabit: person.scrollingHabit.strength(onDay: Int64(dayIndex)),
                       resistHabit: person.resistHabit.strength(onDay: Int64(dayIndex)),
                       selfEfficacy: person.selfEfficacy.value, plan: product.plan,
                       frustration: engagement.frustration, perceivedValue: engagement.perceivedValue))
    }
}

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

/// The columns of `habitat trace`'s timeline, the same for every product.
public enum TraceFormat {
    public static let header = ["time_utc", "local_time", "kind", "detail", "wallet_seconds", "scrolling_habit", "resist_habit",
                                "self_efficacy", "plan", "frustration", "perceived_value"]
    /// The timeline's header record, by which an earlier trace file is recognised.
    public static var headerLine: String { CSVTable(header: header).headerLine }
}
