import Simulation
import Behavior
import NudgeRules
import Reports
import RulesCore

/// What Nudge's reports count, per person and (summed) per run.
public enum NudgeCount: Int, CounterKey {
    case captures, dumps, dumpLimitHits, shares, shareLimitHits, itemsDone, doneWithHelp, snoozes, actionsTapped, draftsSent
    /// Nudges sent; acted on at any delay; acted on within `NudgeKPIs.actedWindow` of being sent (audit N5).
    case remindersSent, remindersActed, remindersActedWithinWindow
    case northStarDays, proDays, renewalsCount
    case liveActivityEnabled, liveActivityDismissed
    case dauMauActiveDays, dauMauWindowDays, activeDays, activeWeeks
    // Per-person flags (0 or 1), summed to counts of people.
    case sawPaywall, subscriber, annualSubscriber, proByDay30, notificationsOff
    case d7Eligible, d7Active, d30Eligible, d30Active

    /// Flags count people.
    public var bound: CounterBound<NudgeCount> {
        switch self {
        case .sawPaywall, .subscriber, .annualSubscriber, .proByDay30, .notificationsOff, .d7Eligible, .d7Active, .d30Eligible, .d30Active: .people
        default: .perPersonDay
        }
    }
}

/// One month and plan's AI cost and what it is set against (`ai-cost.csv`).
public struct AICell: Hashable, Sendable, Codable {
    /// Person-days with the app opened (DAU-days).
    public var dauDays = 0
    public var splits = 0, drafts = 0
    /// AI cost booked, and subscription revenue (gross) — micro-dollars.
    public var costMicros: Int64 = 0, grossMicros: Int64 = 0
    mutating func merge(_ o: AICell) {
        dauDays += o.dauDays; splits += o.splits; drafts += o.drafts; costMicros += o.costMicros; grossMicros += o.grossMicros
    }
}

/// One month's AI cells (Free, Pro), kept in month order so the metrics encode the same bytes every time.
public struct AIMonth: Hashable, Sendable, Codable {
    public var month: MonthID
    public var cells: [AICell]
}

/// One day since install's things to do (`tasks.csv`).
public struct TaskDay: Hashable, Sendable, Codable, DailyFigures {
    /// People whose lives covered the day.
    public var people = 0
    public var arisen = 0, captured = 0, done = 0, doneWithHelp = 0, doneOnTime = 0, forgotten = 0
    public init() {}

    public mutating func merge(_ o: TaskDay) {
        people += o.people; arisen += o.arisen; captured += o.captured; done += o.done
        doneWithHelp += o.doneWithHelp; doneOnTime += o.doneOnTime; forgotten += o.forgotten
    }
}

/// One person's Nudge figures.
public struct NudgeTally: Sendable {
    public var counts = Counters<NudgeCount>()
    public var renewals = 0
    public var observedDays = 0
    /// AI cost and revenue by month, per plan (0 Free, 1 Pro).
    public var ai: [MonthID: [AICell]] = [:]
    public var days: [TaskDay] = []
    /// The last day counted active.
    var lastActiveDay = -1
    /// Dumps queued offline whose later `brain_dump_completed` is yet to come (counted when queued).
    var offlineDumpsPending = 0
    public init() {}

    /// Whether the app was opened on local day `day` since install (a DAU-day; asked at that day's end).
    func isActive(day: Int) -> Bool { lastActiveDay == day }

    /// A brain dump, counted once (audit N10b): a dump queued offline counts when queued, and the
    /// `brain_dump_completed` that ends its queue later is the same dump. The count is exact in any order: each
    /// completion while some queued dump is pending is taken as that dump's.
    mutating func countDump(_ event: NudgeEvent) {
        if case .brainDumpQueuedOffline = event {
            offlineDumpsPending += 1
            counts[.dumps] += 1
        } else if offlineDumpsPending > 0 {
            offlineDumpsPending -= 1
        } else {
            counts[.dumps] += 1
        }
    }

    /// The first app open of a local day: a DAU-day under the person's plan now.
    mutating func markActive(day: Int, plan: Int, month: MonthID) {
        guard day != lastActiveDay else { return }
        if lastActiveDay < 0 || day / 7 != lastActiveDay / 7 { counts[.activeWeeks] += 1 }
        lastActiveDay = day
        counts[.activeDays] += 1
        ai[month, default: [AICell(), AICell()]][plan].dauDays += 1
    }

    /// An AI request made (the engine's event: a split or a draft), under plan `plan` (0 Free, 1 Pro).
    mutating func countAI(split: Bool, month: MonthID, plan: Int) {
        var cells = ai[month, default: [AICell(), AICell()]]
        if split { cells[plan].splits += 1 } else { cells[plan].drafts += 1 }
        ai[month] = cells
    }

    /// An AI request's cost (the engine's ledger line, `LedgerEntry.Kind.serviceCost`).
    mutating func bookCost(_ cost: Money, month: MonthID, plan: Int) {
        ai[month, default: [AICell(), AICell()]][plan].costMicros += cost.micros
    }

    /// A Pro charge (the ledger's purchase or renewal line).
    mutating func bookRevenue(_ price: Money, month: MonthID) {
        ai[month, default: [AICell(), AICell()]][1].grossMicros += price.micros
    }

    /// The life's things to do by day since install, and the retention and stickiness windows from its active days.
    mutating func bookTasks(_ records: [TaskRecord], zone: ZoneCalendar, installDay: LocalDate, horizonEnd: Instant) {
        func day(_ t: Instant) -> Int { Int(zone.localDate(t) - installDay) }
        while days.count < observedDays { days.append(TaskDay()) }
        for d in 0..<observedDays { days[d].people += 1 }
        for r in records {
            let a = day(r.task.arisenAt)
            guard days.indices.contains(a) else { continue }
            days[a].arisen += 1
            if r.captured { days[a].captured += 1 }
            if let done = r.doneAt, done < horizonEnd {
                let d = min(day(done), days.count - 1)
                days[d].done += 1
                if done != r.unaidedDoneAt { days[d].doneWithHelp += 1 }
                if done <= r.task.deadline { days[d].doneOnTime += 1 }
            } else if r.unaidedDoneAt == nil {
                days[a].forgotten += 1
            }
        }
    }
}

/// Nudge's figures over many people: its KPIs, `ai-cost.csv` and `tasks.csv`.
public struct NudgeMetrics: ProductMetrics {
    public var counts = Counters<NudgeCount>()
    public var people = 0
    /// AI cost and revenue per month (in month order), per plan.
    public var ai: [AIMonth] = []
    public var days: [TaskDay] = []

    public init() {}

    public mutating func add(_ t: NudgeTally) {
        counts.merge(t.counts)
        counts[.renewalsCount] += t.renewals
        people += 1
        merge(ai: t.ai)
        days.mergeDays(t.days)
    }

    public mutating func merge(_ o: NudgeMetrics) {
        counts.merge(o.counts)
        people += o.people
        for m in o.ai { merge(month: m.month, m.cells) }
        days.mergeDays(o.days)
    }

    mutating func merge(ai other: [MonthID: [AICell]]) {
        for m in other.keys.sorted() { merge(month: m, other[m]!) }
    }

    mutating func merge(month: MonthID, _ cells: [AICell]) {
        let i = ai.firstIndex { $0.month >= month } ?? ai.count
        if i == ai.count || ai[i].month != month { ai.insert(AIMonth(month: month, cells: [AICell(), AICell()]), at: i) }
        for p in 0..<2 { ai[i].cells[p].merge(cells[p]) }
    }


    /// Counts within the bounds; people the record's; AI months ascending, once each, with a Free and a Pro cell
    /// of counts and money; at most one day of things to do per day of the horizon, each day's people at most the
    /// record's, done with help and on time at most done, every figure within the bounds over the days too.
    public func validate(_ b: AccumulatorBounds, at path: String) throws(AccumulatorInvalid) {
        try counts.validate(b, at: "\(path).counts")
        try b.record(people: people, days: days.count, at: path)
        var dau = b.countTotal("\(path).ai.dau_days"), requests = b.countTotal("\(path).ai.requests")
        var cost = b.moneyTotal("\(path).ai.cost_micros"), gross = b.moneyTotal("\(path).ai.gross_micros")
        for (i, m) in ai.enumerated() {
            let p = "\(path).ai[\(m.month)]"
            if i > 0, ai[i - 1].month >= m.month { throw AccumulatorInvalid(p, "months out of order or repeated") }
            try b.size(m.cells.count, 2, "\(p).cells")
            for (plan, c) in zip(["free", "pro"], m.cells) {
                try b.count(c.dauDays, "\(p).\(plan).dau_days"); try dau.add(c.dauDays)
                try b.count(c.splits, "\(p).\(plan).splits"); try requests.add(c.splits)
                try b.count(c.drafts, "\(p).\(plan).drafts"); try requests.add(c.drafts)
                try b.micros(c.costMicros, "\(p).\(plan).cost_micros"); try cost.add(Int(c.costMicros))
                try b.micros(c.grossMicros, "\(p).\(plan).gross_micros"); try gross.add(Int(c.grossMicros))
            }
        }
        var arisen = b.countTotal("\(path).days[every day].arisen"), captured = b.countTotal("\(path).days[every day].captured")
        var done = b.countTotal("\(path).days[every day].done"), forgotten = b.countTotal("\(path).days[every day].forgotten")
        for (i, d) in days.enumerated() {
            let p = "\(path).days[\(i)]"
            try b.people(d.people, "\(p).people")
            try b.count(d.arisen, "\(p).arisen"); try arisen.add(d.arisen)
            try b.count(d.captured, "\(p).captured"); try captured.add(d.captured)
            try b.count(d.done, "\(p).done"); try done.add(d.done)
            try b.subset(d.doneWithHelp, of: d.done, "done", "\(p).done_with_help")
            try b.subset(d.doneOnTime, of: d.done, "done", "\(p).done_on_time")
            try b.count(d.forgotten, "\(p).forgotten"); try forgotten.add(d.forgotten)
        }
    }

    /// Seed 001 §11 through inventory §4, each KPI's value by id (definitions in the engine's descriptor).
    public func kpiValues(_ run: RunFigures) -> [(KPIDefinition, Double)] {
        let c = counts
        typealias C = Counters<NudgeCount>
        let dau = c[.activeDays]
        let values: [String: Double] = [
            "north_star_dau_completing": C.ratio(c[.northStarDays], dau),
            "items_done_per_dau": C.ratio(c[.itemsDone], dau),
            "brain_dumps_per_dau": C.ratio(c[.dumps], dau),
            "shares_per_wau": C.ratio(c[.shares], c[.activeWeeks]),
            "drafts_sent_per_pro_week": C.ratio(c[.draftsSent] * 7, c[.proDays]),
            "nudges_acted_share": c.ratio(.remindersActedWithinWindow, .remindersSent),
            "nudges_acted_share_any_delay": c.ratio(.remindersActed, .remindersSent),
            "free_to_pro_conversion": C.ratio(c[.subscriber], people),
            "dau_mau": c.ratio(.dauMauActiveDays, .dauMauWindowDays),
            "app_retention_d7": c.ratio(.d7Active, .d7Eligible),
            "app_retention_d30": c.ratio(.d30Active, .d30Eligible),
            "live_activity_opt_in": C.ratio(c[.liveActivityEnabled], people),
            "cost_per_dau_day_at_feature_prices": run.common[.inUseDays] > 0 ? costAtFeaturePrices.usd / Double(run.common[.inUseDays]) : .nan,
            "pro_by_day_30": C.ratio(c[.proByDay30], people),
            "notifications_off_share": C.ratio(c[.notificationsOff], people),
            "captures_per_dau": C.ratio(c[.captures], dau),
        ]
        return NudgeEngine.descriptor.kpis.filter { !RunAccumulator<NudgeAdapter>.habitatKPIIDs.contains($0.id) }.map { d in
            guard let v = values[d.id] else { preconditionFailure("Nudge KPI \(d.id) has no value") }
            return (d, v)
        }
    }

    /// Every AI request of the run at the features' prices (`NudgeKPIs.costAtFeaturePrices`, audit N11).
    public var costAtFeaturePrices: Money {
        ai.reduce(Money.zero) { t, m in m.cells.reduce(t) { $0 + NudgeKPIs.costAtFeaturePrices(splits: $1.splits, drafts: $1.drafts) } }
    }

    /// `ai-cost.csv` (per month and plan: requests, cost, cost per DAU-day against the seed's ceiling, revenue and
    /// the margin over it; then the same requests at the features' prices, seed 001 §4 Features 1 and 7, and their
    /// cost per DAU-day against the same ceiling — audit N11: the ceiling holds under one of the seed's prices only) and `tasks.csv` (per day since install: things arisen, captured, done, done with Nudge's
    /// help, done on time, forgotten).
    public static var reports: [MetricsReport<Self>] {
        [MetricsReport("ai-cost.csv", header: ReportKeys.header + ["month", "plan", "dau_days", "split_requests", "draft_requests", "cost_usd",
                                                                  "cost_per_dau_day_usd", "ceiling_usd", "within_ceiling", "gross_revenue_usd",
                                                                  "gross_margin", "cost_usd_at_feature_prices",
                                                                  "cost_per_dau_day_usd_at_feature_prices", "within_ceiling_at_feature_prices"]) {
            m, _, keys in m.aiCostRows(keys)
         },
         MetricsReport("tasks.csv", header: ReportKeys.header + ["day", "people", "arisen", "captured", "done", "done_with_help", "done_on_time",
                                                                "forgotten", "done_on_time_per_person"]) { m, _, keys in m.taskRows(keys) }]
    }

    /// `tasks.csv`'s rows.
    func taskRows(_ keys: ReportKeys) -> [[CSVField]] {
        func int(_ v: Int) -> CSVField { .integer(Int64(v)) }
        return days.enumerated().map { i, d in
            keys.fields + [int(i), int(d.people), int(d.arisen), int(d.captured), int(d.done), int(d.doneWithHelp), int(d.doneOnTime),
                           int(d.forgotten), d.people > 0 ? .number(Double(d.doneOnTime) / Double(d.people), decimals: 4) : .empty]
        }
    }

    /// `ai-cost.csv`'s rows.
    func aiCostRows(_ keys: ReportKeys) -> [[CSVField]] {
        func int(_ v: Int) -> CSVField { .integer(Int64(v)) }
        let ceiling = NudgeEngine.descriptor.kpi("cost_per_dau_day")?.targetMax
        var rows: [[CSVField]] = []
        for m in ai {
            let month = m.month
            for (p, plan) in ["free", "pro"].enumerated() {
                let cell = m.cells[p]
                let cost = Double(cell.costMicros) / 1_000_000, gross = Double(cell.grossMicros) / 1_000_000
                let perDAU: Double? = cell.dauDays > 0 ? cost / Double(cell.dauDays) : nil
                let other = NudgeKPIs.costAtFeaturePrices(splits: cell.splits, drafts: cell.drafts).usd
                let otherPerDAU: Double? = cell.dauDays > 0 ? other / Double(cell.dauDays) : nil
                func within(_ v: Double?) -> CSVField { v.flatMap { v in ceiling.map { .flag(v <= $0) } } ?? .empty }
                rows.append(keys.fields + [.text(month.description), .text(plan), int(cell.dauDays), int(cell.splits), int(cell.drafts),
                                           .number(cost, decimals: 6), .optional(perDAU, decimals: 8), .optional(ceiling, decimals: 8),
                                           within(perDAU),
                                           .number(gross, decimals: 2), gross > 0 ? .number((gross - cost) / gross, decimals: 4) : .empty,
                                           .number(other, decimals: 6), .optional(otherPerDAU, decimals: 8), within(otherPerDAU)])
            }
        }
        return rows
    }
}
