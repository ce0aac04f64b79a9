import RulesCore
import Stochastics

/// Something a person lives through besides phone pickups, whatever product they meet (or none): things to do
/// arising (Nudge's tasks), moving between places (Clavis's keys stay at home). A process is the person's, not the
/// product's: every person has every process in `PersonProcesses.standard`, and each draws only from its own
/// stream, keyed by seed, replication, person and the process's `stream` — never by arm or product — so the same
/// people live through the same occurrences whichever product (or none) they meet; only their responses differ.
///
/// Adding a process (Behavior README, "Adding a person process"): conform a type here with its own `stream` name,
/// list it in `PersonProcesses.standard`, and let the adapters that care read its occurrences in
/// `ProductAdapter.occurrence(_:_:at:)` (`o.value(as: MyOccurrence.self)`); every other product ignores it.
public protocol PersonProcess: Sendable {
    /// What one occurrence carries (a task with its kind and deadline, a move to a place).
    associatedtype Occurrence: Sendable
    /// The name of the person's stream the process draws from (unique among the processes and the life's streams).
    static var stream: StreamName { get }
    /// The process of one person (their persona's parameters are on `person`).
    init(person: Person)
    /// The first occurrence strictly after `t`, nil when there is none.
    mutating func next(after t: Instant, zone: ZoneCalendar, rng: RandomStream) -> (at: Instant, occurrence: Occurrence)?
}

/// One occurrence of a person process, as the life hands it to the product's adapter.
public struct PersonOccurrence: Sendable {
    /// The process it comes from (its stream name).
    public let process: StreamName
    /// What it carries, of the process's `Occurrence` type.
    public let value: any Sendable

    public init(process: StreamName, value: any Sendable) {
        self.process = process
        self.value = value
    }

    /// The occurrence as `type`, nil when it comes from another process.
    public func value<T>(as type: T.Type) -> T? { value as? T }
}

/// The exogenous processes of one person besides pickups, merged in time order: each with its own stream and its
/// next occurrence drawn ahead. Empty (and free) while no process is listed.
public struct PersonProcesses: Sendable {
    /// The processes every person has, in the order that breaks ties between equal times: things to do (issue 29);
    /// Clavis brings places (`docs/ARCHITECTURE.md`, "How to add a product").
    public static let standard: [any PersonProcess.Type] = [TaskProcess.self]

    struct Clock: @unchecked Sendable {   // the stream is the person's own, used by one life on one thread
        var process: any PersonProcess
        let stream: StreamName
        let rng: RandomStream
        var next: (at: Instant, value: any Sendable)?
    }

    var clocks: [Clock]

    /// The person's processes: `standard` then `extra` (a test's toy process), each with the stream `key` makes.
    public init(person: Person, key: (StreamName) -> StreamKey, extra: [any PersonProcess.Type] = []) {
        clocks = (Self.standard + extra).map { type in
            Clock(process: type.init(person: person), stream: type.stream, rng: RandomStream(key: key(type.stream)))
        }
    }

    /// True when the person has no process besides pickups.
    public var isEmpty: Bool { clocks.isEmpty }

    /// Draws each process's first occurrence after `t`.
    public mutating func start(after t: Instant, zone: ZoneCalendar) {
        for i in clocks.indices { clocks[i].next = Self.draw(&clocks[i], after: t, zone: zone) }
    }

    /// The time of the next occurrence of any process, nil when none is left.
    public var nextTime: Instant? {
        var best: Instant?
        for c in clocks { if let n = c.next, best.map({ n.at < $0 }) ?? true { best = n.at } }
        return best
    }

    /// Takes the next occurrence (the earliest; the first process on a tie) and draws that process's following one.
    public mutating func take(zone: ZoneCalendar) -> (at: Instant, occurrence: PersonOccurrence)? {
        var best: Int?
        for i in clocks.indices {
            guard let n = clocks[i].next else { continue }
            if best.map({ n.at < clocks[$0].next!.at }) ?? true { best = i }
        }
        guard let i = best, let n = clocks[i].next else { return nil }
        clocks[i].next = Self.draw(&clocks[i], after: n.at, zone: zone)
        return (n.at, PersonOccurrence(process: clocks[i].stream, value: n.value))
    }

    /// Stops every process (the life reached its horizon).
    public mutating func stop() { for i in clocks.indices { clocks[i].next = nil } }

    static func draw(_ clock: inout Clock, after t: Instant, zone: ZoneCalendar) -> (at: Instant, value: any Sendable)? {
        let rng = clock.rng
        func open<P: PersonProcess>(_ p: inout P) -> (at: Instant, value: any Sendable)? {
            p.next(after: t, zone: zone, rng: rng).map { ($0.at, $0.occurrence) }
        }
        return open(&clock.process)
    }
}
