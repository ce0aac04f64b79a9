import LazuriRules
import Reports
import RulesCore
import Simulation

/// What Lazuri's reports count, per person and (summed) per run.
public enum LazuriCount: Int, CounterKey {
    case shields, pressed, left, brokeSwitchOff, brokeDelete, brokeRevoke
    case windowsStarted, windowsCompleted, windowsInterrupted, focusMinutes
    case uniqueCards, score, promisesWritten, promisesRewritten, visits
    /// Per-person flags (0 or 1), summed to counts of people.
    case d7Eligible, d7Engaged, d7Protected
    /// The user study's figures (per-person flags): kept the app through day 7, used every checklist feature by then,
    /// reached an achievement by then (each of those observed past day 7), and stalled in onboarding.
    case weekKept, checklistCompleted, achievementWeek, onboardingStalled

    public var bound: CounterBound<LazuriCount> {
        switch self {
        case .d7Eligible, .onboardingStalled: .people
        case .d7Engaged, .d7Protected, .weekKept, .checklistCompleted, .achievementWeek: .atMost(.d7Eligible)
        default: .perPersonDay
        }
    }
}

/// One local day's focus figures (`focus.csv`). Index: day since install.
public struct FocusDay: Hashable, Sendable, Codable, DailyFigures {
    public var started = 0, completed = 0, switchedOff = 0, deleted = 0, revoked = 0, minutes = 0
    public var shields = 0, pressed = 0, left = 0, brokeSwitchOff = 0, brokeDelete = 0, brokeRevoke = 0
    /// People whose lives covered the day.
    public var people = 0
    public init() {}

    public mutating func merge(_ o: FocusDay) {
        started += o.started; completed += o.completed; switchedOff += o.switchedOff; deleted += o.deleted; revoked += o.revoked
        minutes += o.minutes; shields += o.shields; pressed += o.pressed; left += o.left
        brokeSwitchOff += o.brokeSwitchOff; brokeDelete += o.brokeDelete; brokeRevoke += o.brokeRevoke; people += o.people
    }

    static var fields: [(String, (FocusDay) -> Int)] { [
        ("windows_started", \.started), ("windows_completed", \.completed), ("windows_switched_off", \.switchedOff),
        ("windows_deleted", \.deleted), ("windows_revoked", \.revoked), ("focus_minutes", \.minutes),
        ("shields", \.shields), ("pressed", \.pressed), ("left", \.left), ("broke_switch_off", \.brokeSwitchOff),
        ("broke_delete", \.brokeDelete), ("broke_revoke", \.brokeRevoke),
    ] }
}

/// One local day's card figures (`cards.csv`). Index: day since install.
public struct CardDay: Hashable, Sendable, Codable, DailyFigures {
    public var visits = 0, readingVisits = 0, cardsViewed = 0, uniqueCards = 0, achievements = 0, score = 0
    public var people = 0
    public init() {}

    public mutating func merge(_ o: CardDay) {
        visits += o.visits; readingVisits += o.readingVisits; cardsViewed += o.cardsViewed; uniqueCards += o.uniqueCards
        achievements += o.achievements; score += o.score; people += o.people
    }

    static var fields: [(String, (CardDay) -> Int)] { [
        ("visits", \.visits), ("reading_visits", \.readingVisits), ("cards_viewed", \.cardsViewed),
        ("unique_cards", \.uniqueCards), ("achievements", \.achievements), ("score", \.score),
    ] }
}

/// One person's Lazuri figures.
public struct LazuriTally: Sendable {
    public var counts = Counters<LazuriCount>()
    public var focus: [FocusDay] = []
    public var cards: [CardDay] = []
    public var observedDays = 0
    public init() {}

    /// The day `d`'s figures, created on first use.
    mutating func day(_ d: Int) -> Int {
        while focus.count <= d { focus.append(FocusDay()) }
        while cards.count <= d { cards.append(CardDay()) }
        return d
    }
}

/// Lazuri's figures over many people: its KPIs (`LazuriKPIs`), `focus.csv` and `cards.csv`. No money (§4.3): no
/// ledger, no revenue or forecast file (`RevenueModel.free`).
public struct LazuriMetrics: ProductMetrics {
    public var counts = Counters<LazuriCount>()
    public var focus: [FocusDay] = []
    public var cards: [CardDay] = []
    public var people = 0

    public init() {}

    public mutating func add(_ t: LazuriTally) {
        counts.merge(t.counts)
        people += 1
        focus.mergeDays(t.focus)
        cards.mergeDays(t.cards)
        focus.countPerson(observedDays: t.observedDays, at: \.people)
        cards.countPerson(observedDays: t.observedDays, at: \.people)
    }

    public mutating func merge(_ o: LazuriMetrics) {
        counts.merge(o.counts)
        people += o.people
        focus.mergeDays(o.focus)
        cards.mergeDays(o.cards)
    }

    /// Counts within the bounds, people the record's, at most one figure a day of the horizon, every day's people at
    /// most the record's and its figures within the bounds, summed over the days too.
    public func validate(_ b: AccumulatorBounds, at path: String) throws(AccumulatorInvalid) {
        try counts.validate(b, at: "\(path).counts")
        try b.record(people: people, days: focus.count, at: "\(path).focus")
        try b.record(people: people, days: cards.count, at: "\(path).cards")
        try b.days(focus, fields: FocusDay.fields, people: \.people, at: "\(path).focus")
        try b.days(cards, fields: CardDay.fields, people: \.people, at: "\(path).cards")
    }

    /// The descriptor's KPIs (`LazuriKPIs.definitions`, inventory §5), each by id.
    public func kpiValues(_ run: RunFigures) -> [(KPIDefinition, Double)] {
        typealias C = Counters<LazuriCount>
        let c = counts, personDays = run.common[.personDays]
        let values: [String: Double] = [
            "focus_minutes_per_day": C.ratio(c[.focusMinutes], personDays),
            "blocked_attempts_per_day": C.ratio(c[.shields], personDays),
            "promise_kept_share": c.ratio(.pressed, .shields),
            "windows_interrupted_share": c.ratio(.windowsInterrupted, .windowsStarted),
            "unique_cards_per_person": C.ratio(c[.uniqueCards], people),
            "leaderboard_score": C.ratio(c[.score], people),
            "engaged_retention_d7": c.ratio(.d7Engaged, .d7Eligible),
            "protected_retention_d7": c.ratio(.d7Protected, .d7Eligible),
            "week_kept_share": c.ratio(.weekKept, .d7Eligible),
            "checklist_completed_share": c.ratio(.checklistCompleted, .d7Eligible),
            "achievement_week_share": c.ratio(.achievementWeek, .d7Eligible),
            "onboarding_stalled_share": C.ratio(c[.onboardingStalled], people),
        ]
        return LazuriKPIs.definitions.map { d in
            guard let v = values[d.id] else { preconditionFailure("Lazuri KPI \(d.id) has no value") }
            return (d, v)
        }
    }

    /// The user study's figures (§6.2; `lazuri-user-study.yaml`): what a study of this run's people would count —
    /// each figure's people counted and its population, so a replication of 8 reads "k of 8".
    static var studyFigures: [(String, LazuriCount, LazuriCount?)] { [
        ("week_kept", .weekKept, .d7Eligible), ("opened_day_7", .d7Engaged, .d7Eligible),
        ("checklist_completed", .checklistCompleted, .d7Eligible), ("achievement_week", .achievementWeek, .d7Eligible),
        ("onboarding_stalled", .onboardingStalled, nil),
    ] }

    /// `focus.csv` and `cards.csv`: one row per day since install; `study.csv`: one row per user-study figure.
    public static var reports: [MetricsReport<Self>] {
        [MetricsReport("focus.csv", header: ReportKeys.header + ["day", "people"] + FocusDay.fields.map(\.0)) { m, _, keys in
            m.focus.enumerated().map { i, d in keys.fields + ([i, d.people] + FocusDay.fields.map { $0.1(d) }).map { CSVField.integer(Int64($0)) } }
        },
         MetricsReport("cards.csv", header: ReportKeys.header + ["day", "people"] + CardDay.fields.map(\.0)) { m, _, keys in
            m.cards.enumerated().map { i, d in keys.fields + ([i, d.people] + CardDay.fields.map { $0.1(d) }).map { CSVField.integer(Int64($0)) } }
        },
         MetricsReport("study.csv", header: ReportKeys.header + ["figure", "people", "count"]) { m, _, keys in
            studyFigures.map { name, count, of in
                keys.fields + [.text(name), .integer(Int64(of.map { m.counts[$0] } ?? m.people)), .integer(Int64(m.counts[count]))]
            }
        }]
    }
}
