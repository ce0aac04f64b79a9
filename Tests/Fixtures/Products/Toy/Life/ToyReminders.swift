import Behavior
import RulesCore
import Stochastics

/// The toy's own person process (issue 42's seam test: a steerable process declared in a product's folder): now and
/// then the person remembers the notebook. Its mind holds the notes the person has kept; a kept note is a decision
/// that steers it (`ToyAdapter.occurrence`), and the more notes kept, the sooner the next reminder — so the toy's
/// decision changes what its process draws next, and nothing else.
public struct ToyReminders: PersonProcess {
    /// What the process holds for one person: the notes they have kept.
    public struct Notebook: Sendable, Hashable {
        public var notesKept = 0
    }

    /// One reminder (nothing but its moment).
    public struct Reminder: Sendable, Hashable {}

    public typealias Mind = Notebook
    public static var stream: StreamName { "toy-reminders" }
    /// The mean gap between reminders with no note kept; each kept note (up to `fastest`) divides it further.
    static let meanGapHours = 48.0
    static let fastest = 7

    public init(person: Person) {}
    public static func mind(person: Person, behavior: BehaviorValues) -> Notebook { Notebook() }

    public mutating func next(after t: Instant, zone: ZoneCalendar, rng: RandomStream) -> (at: Instant, occurrence: Reminder)? {
        next(after: t, zone: zone, rng: rng, mind: Notebook())
    }

    public mutating func next(after t: Instant, zone: ZoneCalendar, rng: RandomStream, mind: Notebook) -> (at: Instant, occurrence: Reminder)? {
        let mean = Self.meanGapHours / Double(1 + min(mind.notesKept, Self.fastest))
        let minutes = max(1, Int64((rng.exponential(mean: mean) * 60).rounded()))
        return (t + .minutes(minutes), Reminder())
    }
}
