import Simulation
import EarnedAccessRules
import Reports
import RulesCore

/// What Earned Access's reports count, per person and (summed) per run.
public enum EarnedAccessCount: Int, CounterKey {
    case shields, willpowerWins, waitedForBlockEnd, urgesForDistractingApps
    case grantsCredits, grantsQuest, grantsEmergency, emergencyDays, enforcedDays
    case creditsEarned, creditsSpent, creditsExpired, downgrades, streakLengthSum
    // Per-person flags (0 or 1), summed to counts of people.
    case streak3Within14Days, streak3Eligible, sawPaywall, startedTrial, trialThenPaid, subscriber, annualSubscriber
    case d7Eligible, d7Enforced

    /// Flags count people (a trial then paid only after a trial; a streak within 14 days only a person observed them).
    public var bound: CounterBound<EarnedAccessCount> {
        switch self {
        case .streak3Within14Days: .atMost(.streak3Eligible)
        case .trialThenPaid: .atMost(.startedTrial)
        case .streak3Eligible, .sawPaywall, .startedTrial, .subscriber, .annualSubscriber, .d7Eligible, .d7Enforced: .people
        default: .perPersonDay
        }
    }
}

/// A count per unlock method (credits, quest, emergency), indexed by `UnlockMethod.rawValue`; inline, so a day's
/// figures allocate nothing.
public struct PerMethod: Hashable, Sendable, Codable {
    public var credits = 0, quest = 0, emergency = 0
    public subscript(_ m: Int) -> Int {
        get { m == 0 ? credits : m == 1 ? quest : emergency }
        set { if m == 0 { credits = newValue } else if m == 1 { quest = newValue } else { emergency = newValue } }
    }
    public var total: Int { credits + quest + emergency }
    mutating func merge(_ o: PerMethod) { credits += o.credits; quest += o.quest; emergency += o.emergency }
}

/// One local day's unlock figures (`unlocks.csv`), by method. Index: day since install.
public struct UnlockDay: Hashable, Sendable, Codable, DailyFigures {
    /// Per method: attempts created, grants, minutes granted, completed, abandoned.
    public var attempts = PerMethod(), grants = PerMethod(), minutes = PerMethod(), completed = PerMethod(), abandoned = PerMethod()
    public var gateVisits = 0, creditsEarned = 0, creditsSpent = 0, creditsExpired = 0
    /// People whose lives covered the day.
    public var people = 0

    public init() {}

    public mutating func merge(_ o: UnlockDay) {
        attempts.merge(o.attempts); grants.merge(o.grants); minutes.merge(o.minutes)
        completed.merge(o.completed); abandoned.merge(o.abandoned)
        gateVisits += o.gateVisits; creditsEarned += o.creditsEarned; creditsSpent += o.creditsSpent
        creditsExpired += o.creditsExpired; people += o.people
    }
}

/// One person's Earned Access figures.
public struct EarnedAccessTally: Sendable {
    public var counts = Counters<EarnedAccessCount>()
    /// Unlock figures by day since install (grown as days pass).
    public var days: [UnlockDay] = []
    public var renewals = 0
    public var longestStreak = 0
    public var observedDays = 0
    /// The last local day with an emergency grant, and the last counted as enforced.
    var lastEmergencyDay = -1, lastEnforcedDay = -1
    public init() {}

    /// The figures of day `d`, created on first use.
    mutating func day(_ d: Int) -> Int {
        while days.count <= d { days.append(UnlockDay()) }
        return d
    }
}

/// Earned Access's figures over many people: its KPIs (`EarnedAccessKPIs`) and `unlocks.csv`.
public struct EarnedAccessMetrics: ProductMetrics {
    public var counts = Counters<EarnedAccessCount>()
    public var days: [UnlockDay] = []
    public var people = 0

    public init() {}

    public mutating func add(_ t: EarnedAccessTally) {
        counts.merge(t.counts)
        counts[.streakLengthSum] += t.longestStreak
        people += 1
        days.mergeDays(t.days)
        days.countPerson(observedDays: t.observedDays, at: \.people)
    }

    public mutating func merge(_ o: EarnedAccessMetrics) {
        counts.merge(o.counts)
        people += o.people
        days.mergeDays(o.days)
    }

    /// Counts within the bounds, people the record's, at most one figure a day of the horizon (days 0 … horizon),
    /// every day's people at most the record's and its figures within the bounds, summed over the days too.
    public func validate(_ b: AccumulatorBounds, at path: String) throws(AccumulatorInvalid) {
        try counts.validate(b, at: "\(path).counts")
        try b.record(people: people, days: days.count, at: path)
        let fields: [(String, (UnlockDay) -> Int)] = [
            ("attempts.credits", { $0.attempts.credits }), ("attempts.quest", { $0.attempts.quest }), ("attempts.emergency", { $0.attempts.emergency }),
            ("grants.credits", { $0.grants.credits }), ("grants.quest", { $0.grants.quest }), ("grants.emergency", { $0.grants.emergency }),
            ("minutes.credits", { $0.minutes.credits }), ("minutes.quest", { $0.minutes.quest }), ("minutes.emergency", { $0.minutes.emergency }),
            ("completed.credits", { $0.completed.credits }), ("completed.quest", { $0.completed.quest }), ("completed.emergency", { $0.completed.emergency }),
            ("abandoned.credits", { $0.abandoned.credits }), ("abandoned.quest", { $0.abandoned.quest }), ("abandoned.emergency", { $0.abandoned.emergency }),
            ("gate_visits", { $0.gateVisits }), ("credits_earned", { $0.creditsEarned }), ("credits_spent", { $0.creditsSpent }),
            ("credits_expired", { $0.creditsExpired }),
        ]
        try b.days(days, fields: fields, people: \.people, at: "\(path).days")
    }

    /// Seed 003 through inventory §4, each KPI's value by id (definitions in `EarnedAccessKPIs.definitions`).
    public func kpiValues(_ run: RunFigures) -> [(KPIDefinition, Double)] {
        let common = run.common
        let c = counts
        typealias C = Counters<EarnedAccessCount>
        let enforced = c[.enforcedDays], personDays = common[.personDays]
        let values: [String: Double] = [
            "unlocks_per_day_credits": C.ratio(c[.grantsCredits], enforced),
            "unlocks_per_day_quest": C.ratio(c[.grantsQuest], enforced),
            "unlocks_per_day_emergency": C.ratio(c[.grantsEmergency], enforced),
            "willpower_share": c.ratio(.willpowerWins, .shields),
            "credits_earned_per_day": C.ratio(c[.creditsEarned], personDays),
            "credits_spent_per_day": C.ratio(c[.creditsSpent], personDays),
            "credits_expired_per_day": C.ratio(c[.creditsExpired], personDays),
            "emergency_day_share": C.ratio(c[.emergencyDays], enforced),
            "mean_streak_length": C.ratio(c[.streakLengthSum], people),
            "streak_3_share": C.ratio(c[.streak3Within14Days], c[.streak3Eligible]),
            "downgrades": Double(c[.downgrades]),
            "trial_to_paid": c.ratio(.trialThenPaid, .startedTrial),
            "paywall_to_trial": c.ratio(.startedTrial, .sawPaywall),
            "annual_mix": c.ratio(.annualSubscriber, .subscriber),
            "enforced_retention_d7": c.ratio(.d7Enforced, .d7Eligible),
        ]
        return EarnedAccessKPIs.definitions.map { d in
            guard let v = values[d.id] else { preconditionFailure("Earned Access KPI \(d.id) has no value") }
            return (d, v)
        }
    }

    /// `unlocks.csv`: per day since install and method (`credits`, `quest`, `emergency`, and `all` with the gate
    /// visits and the Focus Bank's credits earned, spent and expired at 04:00).
    public static var reports: [MetricsReport<Self>] {
        [MetricsReport("unlocks.csv", header: ReportKeys.header + ["day", "method", "people", "gate_visits", "attempts", "grants", "minutes_granted",
                                                                  "credits_earned", "credits_spent", "credits_expired", "completed", "abandoned"]) { m, _, keys in
            m.unlockRows(keys)
        }]
    }

    /// `unlocks.csv`'s rows.
    func unlockRows(_ keys: ReportKeys) -> [[CSVField]] {
        var rows: [[CSVField]] = []
        for (i, d) in days.enumerated() {
            func int(_ v: Int) -> CSVField { .integer(Int64(v)) }
            rows.append(keys.fields + [int(i), .text("all"), int(d.people), int(d.gateVisits), int(d.attempts.total), int(d.grants.total),
                                       int(d.minutes.total), int(d.creditsEarned), int(d.creditsSpent), int(d.creditsExpired),
                                       int(d.completed.total), int(d.abandoned.total)])
            for (m, name) in ["credits", "quest", "emergency"].enumerated() {
                rows.append(keys.fields + [int(i), .text(name), int(d.people), int(0), int(d.attempts[m]), int(d.grants[m]), int(d.minutes[m]),
                                           int(0), int(m == 0 ? d.creditsSpent : 0), int(0), int(d.completed[m]), int(d.abandoned[m])])
            }
        }
        return rows
    }
}
