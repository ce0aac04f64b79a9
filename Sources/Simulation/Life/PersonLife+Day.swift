import Behavior
import Reports
import RulesCore

extension PersonLife {
    mutating func endOfDay(at now: Instant) {
        let treatedToday = !untreated
        if treatedToday {
            Adapter.endOfDay(&self, at: now)
        } else if uninstalled {
            // The app is gone, a subscription bought in it is not (issue 38, audit N9).
            Adapter.storeDay(&self, at: now)
        }
        closeNeutralDay(at: now, productDay: true)
        // A product's per-day figures are over the days it was installed (`CommonCount.personDays`); the neutral
        // ones over every day (`summary.neutral.personDays`).
        if treatedToday { summary.personDays += 1 }
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
        todayPersonalUse = false
        dayIndex += 1
        let month = zone.monthID(now)
        if month != currentMonth {
            snapshotMonth()
            currentMonth = month
        }
        if !untreated && dormant { dormantDay(at: now) }
        if !untreated, let last = world.tenureDays, dayIndex > last {
            // The scenario ends every tenure on day `tenure_days` since install (issue 28): the person uninstalls at
            // the day's end, whatever they would have decided, and lives on untreated.
            endTenure(at: now)
        }
        if !untreated { decideChurn(at: now) }
        schedule(.dayEnd, at: zone.startOfNextDay(after: now))
    }

    /// The day's product-neutral figures (issue 28) — time in the target apps, urges, learning's week row, true time
    /// saved, the app's battery if installed — and the day's urges move the app habits. Every day from install to the
    /// horizon is closed, the horizon's own last day included (`finish`: it has no day-end event); `productDay` is
    /// false for that last day, whose battery stays out of the product's battery budget, as its other product figures
    /// stay out of the product's reports.
    mutating func closeNeutralDay(at now: Instant, productDay: Bool) {
        let treatedToday = !untreated
        settleCue()
        // A session still in the foreground at midnight: its minutes so far are today's.
        if foregroundSince != nil { accumulateUse(until: now); foregroundSince = now }
        // The day's opens and passes are the app habits' own counts, read before they move.
        learningToday.acted = phone.habits.actedToday.reduce(0) { $0 + Int($1) }
        learningToday.passed = phone.habits.passedToday.reduce(0) { $0 + Int($1) }
        learningToday.targetAppMs = usedRestrictedMs + unseenTargetMsToday
        summary.learning.add(day: dayIndex, status: untreated ? .untreated : dormant ? .dormant : .active, learningToday, meanHabit: phone.habits.mean)
        // The day's product-neutral outcomes, the same measure treated or not (issue 28).
        summary.neutral.personDays += 1
        summary.neutral.targetAppMs += usedRestrictedMs + unseenTargetMsToday
        unseenTargetMsToday = 0
        summary.neutral.urges += learningToday.urges
        summary.neutral.urgesActed += learningToday.acted
        learningToday = LearningDay()
        // The day's urges move the app habits, and the urge rates follow (issue 26).
        phone.endOfDay()
        if let intended = blocker?.intendedRestrictedMs {
            // True time saved, a blocker's figure: what the person meant to spend in the apps it restricts, less their use.
            summary.trueMinutesSavedPerDay.append(max(0, Double(intended - usedRestrictedMs) / 60_000))
            blocker?.intendedRestrictedMs = 0
        }
        usedRestrictedMs = 0
        if treatedToday {
            // The app's battery drain, on the days it was installed: the battery budget is the product's figure.
            let battery = meter.battery(dayLengthSeconds: Double((now - zone.startOfDay(containing: now - .milliseconds(1))).milliseconds) / 1000)
            summary.neutral.batteryMicroPct += Int64((battery.pctPer24h * 1_000_000).rounded())
            if productDay {
                summary.batteryDays.append((device.id, battery))
                summary.energyByActivity = summary.energyByActivity + meter.joulesByActivity
            }
        }
        meter.startNewDay()
    }

    /// The person's tenure with the product ends (`tenure_days`): they uninstall; the rest of the life is untreated.
    mutating func endTenure(at now: Instant) {
        if summary.churn == nil { summary.churn = "tenure_end" }
        let days = world.tenureDays ?? 0
        trace(kind: "tenure_end", detail: "tenure_days=\(days)", at: now)
        uninstall(at: now)
    }

    /// Once a local day with the product (not dormant): stay, or leave by one of the churn kinds. A person paying
    /// for the product now (a paid period running, not a trial) leaves at `churn.paying_hazard_ratio` times the
    /// hazard: having just paid is a reason to stay (issue 38, audit N9: 5 of 5 subscribers left within 10 days of
    /// paying, as if they had not).
    mutating func decideChurn(at now: Instant) {
        let churnKind = dormant ? nil : engagement.dailyChurnDecision(rng: churnStream, disableRestrictionShare: Adapter.restrictsApps ? person.featureUse.disableRestrictionExitShare : 0,
                                                                      restricts: Adapter.restrictsApps, hazardScale: payingHazardScale)
        if !dormant { decideAtMoment(.churn, moment: Int64(dayIndex), DecisionOutcome(churnKind), at: now) }
        if let kind = churnKind {
            summary.churn = kind.rawValue
            trace(kind: "churn", detail: kind.rawValue, at: now)
            switch kind {
            case .uninstall: uninstall(at: now)
            case .revokeAccess: Adapter.revokeAccess(&self, at: now); dormant = true
            case .dormant: dormant = true
            case .disableRestriction: Adapter.disableRestriction(&self, at: now); dormant = true
            }
        }
    }

    /// The person deletes the app: a session still in the foreground ends now and the engine is told (else the
    /// engine, which follows the store's timers after an uninstall, would go on ticking a session nobody has; issue 39),
    /// and the rest of the life is untreated.
    mutating func uninstall(at now: Instant) {
        if let app = foregroundApp { endSession(app, at: now) }
        uninstalled = true
    }

    /// The churn hazard's multiplier now: `churn.paying_hazard_ratio` while a paid period runs, else 1.
    var payingHazardScale: Double { engine.standing.monthlyPrice > .zero ? world.engagement.payingHazardRatio : 1 }

    /// A dormant person decides at the end of every local day (issue 26, `DormantModel`; every day since issue 39,
    /// shields or not): stays dormant, lifts the blocking, uninstalls, or comes back to the app. The day's shields
    /// add to the pull to leave.
    mutating func dormantDay(at now: Instant) {
        let shields = blocker?.dormantShieldsToday ?? 0
        blocker?.dormantShieldsToday = 0
        let response = world.dormancy.response(frustration: engagement.frustration, value: engagement.perceivedValue,
                                               shields: shields, restricts: Adapter.restrictsApps, rng: churnStream)
        decideAtMoment(.dormantResponse, moment: Int64(dayIndex), DecisionOutcome(response), at: now)
        guard response != .stay else { return }
        trace(kind: "dormant", detail: response.rawValue, at: now)
        switch response {
        case .stay: break
        case .uninstall:
            summary.churn = ChurnKind.uninstall.rawValue
            uninstall(at: now)
        case .liftBlocking:
            summary.churn = ChurnKind.disableRestriction.rawValue
            Adapter.disableRestriction(&self, at: now)
        case .comeBack:
            dormant = false
            summary.churn = nil
            engagement.record(.appOpened)
        }
    }

    /// The plan and MRR in force now, as the engine states them (`RuleEngine.standing`), recorded as the standing of
    /// the current local month (forecast.csv). A person who uninstalled still pays while their subscription runs:
    /// the store renews it until it is cancelled, refunded or lapses (issue 38, audit N9), and the engine follows
    /// the store's timers (`ProductAdapter.outlivesApp`), so this agrees with `mrr_usd_at_horizon`.
    mutating func snapshotMonth() {
        var m = summary.months[currentMonth, default: PersonMonth()]
        let standing = engine.standing
        m.plan = standing.segment
        m.mrr = standing.monthlyPrice
        summary.months[currentMonth] = m
    }

    mutating func finish() {
        // The horizon's last local day has no day-end event: its product-neutral figures are booked here.
        if !stopped && summary.neutral.personDays < summary.observedDays { closeNeutralDay(at: horizonEnd, productDay: false) }
        summary.world.closeHour(pickups: summary.common[.pickups], at: summary.world.todayStart)
        summary.world.pickupsAfterSession = max(0, summary.common[.pickups] - 1)
        snapshotMonth()
        if let mrr = engine.mrrAtHorizon(horizonEnd) { summary.mrrAtEnd = mrr }
        summary.eventsSimulated += queue.firedCount
        if !stopped { bookProcessMeasures() }
        Adapter.finish(&self)
    }

    /// Appends a row to the person's timeline when tracing (`habitat trace`); free otherwise.
    public mutating func trace(kind: String, detail: @autoclosure () -> String, at t: Instant) {
        guard let trace else { return }
        let detail = detail()
        trace(TraceRow(time: t, kind: kind, detail: detail, product: Adapter.traceState(self),
                       scrollingHabit: phone.habits.mean,
                       resistHabit: person.resistHabit.strength(onDay: Int64(dayIndex)),
                       selfEfficacy: person.selfEfficacy.value,
                       frustration: engagement.frustration, perceivedValue: engagement.perceivedValue))
    }
}

/// One line of a person's timeline (`habitat trace`).
public struct TraceRow: Sendable {
    public var time: Instant
    public var kind: String
    public var detail: String
    /// The product's state columns (`ProductAdapter.traceColumns`' `.product` ones), in order.
    public var product: [CSVField]
    public var scrollingHabit: Double
    public var resistHabit: Double
    public var selfEfficacy: Double
    public var frustration: Double
    public var perceivedValue: Double

    /// The person's value of a column.
    public func value(_ column: TraceColumn.PersonField) -> Double {
        switch column {
        case .scrollingHabit: scrollingHabit
        case .resistHabit: resistHabit
        case .selfEfficacy: selfEfficacy
        case .frustration: frustration
        case .perceivedValue: perceivedValue
        }
    }
}

/// A column of `habitat trace` after the four every trace starts with: one of the product's state columns, or one
/// of the person's (the same for every product).
public enum TraceColumn: Hashable, Sendable {
    /// The person's figures every trace shows.
    public enum PersonField: String, CaseIterable, Sendable {
        case scrollingHabit = "scrolling_habit", resistHabit = "resist_habit", selfEfficacy = "self_efficacy"
        case frustration, perceivedValue = "perceived_value"
    }
    /// A product state column, by name (e.g. Scroll Off's `wallet_seconds`).
    case product(String)
    case person(PersonField)

    /// The column's name in the header.
    public var name: String {
        switch self {
        case .product(let n): n
        case .person(let f): f.rawValue
        }
    }

    /// Every person column, in their usual order.
    public static var personColumns: [TraceColumn] { PersonField.allCases.map { .person($0) } }
}

/// The columns of `habitat trace`'s timeline: `time_utc,local_time,kind,detail`, then the product's
/// `traceColumns` (its state and the person's). A trace *file* (`habitat trace`, a run's
/// `trace-<arm>-person-<N>.csv`) starts with the report keys `scenario,arm,replication,product`, as every other CSV
/// Habitat writes (issue 40; docs/report-spec.json, `outputs` id `trace`): `keyed`.
public enum TraceFormat {
    /// The columns every timeline starts with.
    public static let leading = ["time_utc", "local_time", "kind", "detail"]
    /// The header of a timeline of the product (`ProductRun.trace`), without the report keys.
    public static func header<A: ProductAdapter>(_: A.Type) -> [String] { leading + A.traceColumns.map(\.name) }
    /// The header of a trace file of the product: the report keys, then `header`.
    public static func fileHeader<A: ProductAdapter>(_ a: A.Type) -> [String] { ReportKeys.header + header(a) }
    /// The trace file's header record, by which an earlier trace file of the product is recognised.
    public static func headerLine<A: ProductAdapter>(_ a: A.Type) -> String { CSVTable(header: fileHeader(a)).headerLine }
    /// The header record of a trace file written before issue 40 (without the report keys): such a file is still
    /// recognised as a previous `trace --out` and may be replaced.
    public static func legacyHeaderLine<A: ProductAdapter>(_ a: A.Type) -> String { CSVTable(header: header(a)).headerLine }

    /// A timeline as a trace file: every row led by `keys` (the scenario, arm, replication traced and product).
    public static func keyed(_ timeline: CSVTable, _ keys: ReportKeys) -> CSVTable {
        var table = CSVTable(header: ReportKeys.header + timeline.header)
        for row in timeline.rows { table.append(keys.fields + row) }
        return table
    }
}
