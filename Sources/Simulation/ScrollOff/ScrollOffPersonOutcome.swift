import RulesCore
import Reports
import ScrollOffRules

/// What one simulated person's life contributes to the reports; folded into a `ScrollOffRunAccumulator`.
public struct ScrollOffPersonOutcome: Sendable {
    public var persona = ""
    public var device = ""
    public var installedAt = Instant.epoch
    public var cohort = ISOWeek(year: 0, week: 0)
    /// Local days from the install day to the horizon end (day 0 = install day).
    public var observedDays = 0
    /// Local day indices (0 = install day) with an `app_opened`.
    public var activeDays: [Int] = []
    /// Funnel stages reached (A0…A7), from the engine's own events.
    public var funnel = ScrollOffFunnel.Tracker()
    /// Highest plan ever held: `free`, `premium` or `pro`.
    public var planSegment = "free"
    public var revenue = PersonRevenue()
    /// Month → (token gross, subscription gross, tokens bought, cap hits).
    public var tokenMonths: [MonthID: (tokens: Money, subscriptions: Money, sold: Int, capHits: Int)] = [:]

    // Counters for the §8.3 KPIs and Habitat's own figures.
    public var pickups = 0
    public var sessions = 0
    public var sessionsUnder30s = 0
    public var notificationSessions = 0
    public var urgesForBlockedApps = 0
    public var shields = 0
    public var willpowerWins = 0
    public var shieldsOnActiveDays = 0
    public var intentions = 0
    public var streak7Within14Days = false
    public var warrior30Within45Days = false
    public var insightWithin7Days = false
    public var sawSelfEfficacyMessage = false
    public var paidWithin14Days = false
    public var everSubscribed = false
    public var latestPlanAnnual = false
    public var reachedA1 = false
    public var reachedA2 = false
    public var revokedAuthorization = false
    public var subscribedAtDay30 = false
    public var churn: String?
    /// The app's own time-saved estimate per active day (minutes), per local day.
    public var appMinutesSavedPerActiveDay: [Double] = []
    /// Minutes the person would have spent in blocked apps without Scroll Off, minus what they spent, per day observed.
    public var trueMinutesSavedPerDay: [Double] = []
    /// Local calendar months the person lived through: installed, active, plan and MRR at the month's end.
    public var months: [MonthID: PersonMonth] = [:]
    /// Monthly-equivalent subscription price in force at the horizon end (for MRR).
    public var mrrAtEnd = Money.zero
    public var eventsSimulated = 0
    /// The first engine invariant this person's life broke (the life stops there), if any.
    public var violation: InvariantViolation?
    public var personDays = 0
    public var batteryDays: [(device: String, day: PersonDayBattery)] = []
    public var energyByActivity = EnergyVector()

    public init() {}
}

/// An engine invariant broken during a run (issue 6, invariant audit): who, when, after which input, and how to
/// replay it with `habitat trace`.
public struct InvariantViolation: Error, Sendable, Hashable, CustomStringConvertible {
    public var arm: String
    public var replication: Int
    public var seed: UInt64
    public var person: Int
    public var time: Instant
    /// The input the engine had just handled.
    public var input: String
    /// What is wrong (`ScrollOffEngine.checkInvariants`).
    public var problems: [String]

    public var description: String {
        "engine invariant violated: person \(person), arm \(arm), replication \(replication), seed \(seed), at \(time) after "
            + "\(input): \(problems.joined(separator: "; "))\n"
            + "replay: habitat trace SCENARIO --person \(person) --arm \(arm) --replication \(replication) --seed \(seed) "
            + "(with the run's --people and --days)"
    }
}
