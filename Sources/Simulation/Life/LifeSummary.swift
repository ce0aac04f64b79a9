import Behavior
import RulesCore
import Reports

/// What one simulated person's life contributes to the reports, for any product: folded into a `RunAccumulator`.
/// The product's own figures are in `tally`.
public struct LifeSummary<Adapter: ProductAdapter>: Sendable {
    public var persona = ""
    public var device = ""
    public var installedAt = Instant.epoch
    public var cohort = ISOWeek(year: 0, week: 0)
    /// Local days from the install day to the horizon end (day 0 = install day).
    public var observedDays = 0
    /// Local day indices (0 = install day) on which the person opened the product's app, ascending.
    public var activeDays: [Int] = []
    /// Local day indices on which the product was in use (`RetentionActivity.inUse`: the adapter says
    /// which events count; opening the app always does), ascending.
    public var inUseDays: [Int] = []
    /// Funnel stages reached, tracked from the engine's own events.
    public var funnel = Adapter.Engine.Funnel()
    /// Highest plan segment ever held (the descriptor's `planSegments`).
    public var planSegment: String
    /// The person ever paid for a plan.
    public var everSubscribed = false
    public var revenue = PersonRevenue()
    /// Month → consumable and subscription gross, consumables bought, purchases refused at the cap.
    public var consumableMonths: [MonthID: ConsumableMonth] = [:]
    /// Product-independent counts (pickups, sessions, …).
    public var common = Counters<CommonCount>()
    public var churn: String?
    /// Minutes the person meant to spend in restricted apps minus minutes spent there, per day observed.
    public var trueMinutesSavedPerDay: [Double] = []
    /// Local calendar months the person lived through: installed, active, plan and MRR at the month's end.
    public var months: [MonthID: PersonMonth] = [:]
    /// Monthly-equivalent subscription price in force at the horizon end (for MRR).
    public var mrrAtEnd = Money.zero
    public var eventsSimulated = 0
    /// The first engine or decision invariant this person's life broke (the life stops there), if any.
    public var violation: InvariantViolation?
    /// Opportunities, decisions and outcomes per kind (`decisions.csv`).
    public var decisions = DecisionCounts(layout: .of(Adapter.self))
    /// Local days closed with the product installed (the product's per-day figures; every day lived is
    /// `neutral.personDays`).
    public var personDays = 0
    public var batteryDays: [(device: String, day: PersonDayBattery)] = []
    public var energyByActivity = EnergyVector()
    /// The product's own figures.
    public var tally: Adapter.Tally
    /// What the world check needs besides the shared counters (`world-check.csv`).
    public var world = PersonWorldFacts()

    /// Urges, shields and opens of the target apps per week since install (`learning.csv`).
    public var learning: LearningAccumulator
    /// The product-neutral outcomes of every day from install to the horizon, treated or not (issue 28); the run
    /// adds the person's pickups, retention and money when it folds the life in.
    public var neutral = ComparisonSums()

    public init(tally: Adapter.Tally, unpaidSegment: String, horizonDays: Int) {
        learning = LearningAccumulator(horizonDays: horizonDays)
        self.tally = tally
        planSegment = unpaidSegment
    }
}

/// One person's money of one month for the consumable-share report.
public struct ConsumableMonth: Hashable, Sendable {
    public var consumables = Money.zero, subscriptions = Money.zero
    public var sold = 0, capHits = 0
    public init() {}
}

/// Product-independent counts of a life (and, summed, of a run). A life counts the first four as they happen;
/// the run's accumulator adds the rest when it folds the life in.
public enum CommonCount: Int, CounterKey {
    case pickups, sessions, sessionsUnder30s, notificationSessions
    /// People (1 per life), person-days with the product installed, engine calls and timer firings, days with an app open,
    /// people who ever paid, days with the product in use.
    case people, personDays, events, activeDays, subscribers, inUseDays

    /// People and subscribers are counts of people (one a life); the rest per-person-day counts.
    public var bound: CounterBound<CommonCount> { self == .people || self == .subscribers ? .people : .perPersonDay }
}

/// The product-independent counters of a life or a run.
public typealias CommonCounters = Counters<CommonCount>

/// An engine invariant (or a decision audit's, `Decisions.swift`) broken during a run (issue 6, invariant audit): who, when, after which input, and how to
/// replay it with `habitat trace`.
public struct InvariantViolation: Error, Sendable, Hashable, CustomStringConvertible {
    public var arm: String
    public var replication: Int
    public var seed: UInt64
    public var person: Int
    public var time: Instant
    /// The input the engine had just handled.
    public var input: String
    /// What is wrong (`RuleEngine.invariantViolations(at:)`, or a decision without its opportunity).
    public var problems: [String]
    /// Whose invariant: `engine` (the product's rules) or `decision` (the person decided without the product's moment).
    public var invariant = "engine"

    public var description: String {
        "\(invariant) invariant violated: person \(person), arm \(arm), replication \(replication), seed \(seed), at \(time) after "
            + "\(input): \(problems.joined(separator: "; "))\n"
            + "replay: habitat trace SCENARIO --person \(person) --arm \(arm) --replication \(replication) --seed \(seed) "
            + "(with the run's --people and --days)"
    }
}
