import RulesCore
import Stochastics

/// Something a person lives through besides phone pickups, independent of any product: a to-do arriving (Nudge's
/// tasks), moving between places (Clavis's keys stay at home). A product's adapter names the process it needs
/// (`ProductAdapter.Occurrences`); the generic person life merges its occurrences with pickups and the person's
/// queue and hands each to the adapter.
///
/// The process draws only from its own stream, keyed by person and `stream` — never by arm or product — so the
/// same people live through the same occurrences whichever product (or none) they meet.
public protocol OccurrenceProcess: Sendable {
    associatedtype Occurrence: Sendable
    /// True for a process that never occurs: the life then draws nothing and spends nothing on it.
    static var isEmpty: Bool { get }
    /// The name of the person's stream the process draws from.
    static var stream: StreamName { get }
    /// The process of one person.
    init(person: Person)
    /// The first occurrence strictly after `t`, nil when there is none.
    mutating func next(after t: Instant, zone: ZoneCalendar, rng: RandomStream) -> (at: Instant, occurrence: Occurrence)?
}

/// No occurrences besides pickups (Scroll Off).
public struct NoOccurrences: OccurrenceProcess {
    public enum Occurrence: Sendable {}
    public static var isEmpty: Bool { true }
    public static var stream: StreamName { "no-occurrences" }
    public init(person: Person) {}
    public func next(after t: Instant, zone: ZoneCalendar, rng: RandomStream) -> (at: Instant, occurrence: Occurrence)? { nil }
}
