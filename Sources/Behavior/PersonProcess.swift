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
    /// An occurrence as the life carries it: a kind the life knows without a dynamic cast (a thing to do), or any
    /// other (default).
    static func payload(_ o: Occurrence) -> PersonOccurrence.Payload
    /// `next(after:zone:rng:)` as the life carries it. A process on every life's path implements it itself (concrete,
    /// so no generic metadata is made per occurrence: issue 29); the default wraps `next` with `payload`.
    mutating func nextPayload(after t: Instant, zone: ZoneCalendar, rng: RandomStream) -> (at: Instant, payload: PersonOccurrence.Payload)?
}

extension PersonProcess {
    public static func payload(_ o: Occurrence) -> PersonOccurrence.Payload { .other(o) }
    public mutating func nextPayload(after t: Instant, zone: ZoneCalendar, rng: RandomStream) -> (at: Instant, payload: PersonOccurrence.Payload)? {
        guard let n = next(after: t, zone: zone, rng: rng) else { return nil }
        return (n.at, Self.payload(n.occurrence))
    }
}

/// One occurrence of a person process, as the life hands it to the product's adapter.
public struct PersonOccurrence: Sendable {
    /// What an occurrence carries: the kinds every life reads held as themselves (no box, no dynamic cast on the
    /// path of every occurrence: issue 29 measured 1.5k instructions per cast), any other boxed.
    public enum Payload: Sendable {
        case thingToDo(ThingToDo)
        case other(any Sendable)
    }

    /// The process it comes from (its stream name).
    public let process: StreamName
    /// What it carries, of the process's `Occurrence` type.
    public let payload: Payload

    public init(process: StreamName, payload: Payload) {
        self.process = process
        self.payload = payload
    }

    public init(process: StreamName, value: any Sendable) {
        self.init(process: process, payload: (value as? ThingToDo).map { .thingToDo($0) } ?? .other(value))
    }

    /// What it carries, of the process's `Occurrence` type.
    public var value: any Sendable {
        switch payload {
        case .thingToDo(let t): t
        case .other(let v): v
        }
    }

    /// The occurrence as a thing to do (`TaskProcess`), nil when it comes from another process.
    @inlinable public var thingToDo: ThingToDo? {
        if case .thingToDo(let t) = payload { return t }
        return nil
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
        /// The next occurrence's time, kept apart from what it carries so scans read only instants.
        var nextAt: Instant?
        var nextPayload: PersonOccurrence.Payload?
    }

    var clocks: [Clock]
    /// Occurrences a test scripts in place of the processes (`init(scripted:)`, the life harness), in time order, and
    /// the next one's index; empty in runs.
    var scripted: [(at: Instant, occurrence: PersonOccurrence)] = []
    var scriptedNext = 0

    /// The person's processes: `standard` then `extra` (a test's toy process), each with the stream `key` makes.
    public init(person: Person, key: (StreamName) -> StreamKey, extra: [any PersonProcess.Type] = []) {
        clocks = (Self.standard + extra).map { type in
            Clock(process: type.init(person: person), stream: type.stream, rng: RandomStream(key: key(type.stream)))
        }
    }

    /// No process: only `scripted`'s occurrences, in time order (a test following one person, `LifeScript`).
    public init(scripted: [(at: Instant, occurrence: PersonOccurrence)]) {
        clocks = []
        self.scripted = scripted.sorted { $0.at < $1.at }
    }

    /// True when the person has no process besides pickups.
    public var isEmpty: Bool { clocks.isEmpty && scripted.isEmpty }

    /// Draws each process's first occurrence after `t`.
    public mutating func start(after t: Instant, zone: ZoneCalendar) {
        for i in clocks.indices { Self.advance(&clocks[i], after: t, zone: zone) }
        updateNextTime()
    }

    /// The time of the next occurrence of any process, nil when none is left: kept up to date by `start`, `take` and
    /// `stop`, because the life's loop reads it at every event (recomputing it there copied each clock — its
    /// existential process — once per pickup: 104k instructions a person-day, issue 29).
    public private(set) var nextTime: Instant?

    /// The earliest next occurrence over the clocks (by index: no clock is copied).
    mutating func updateNextTime() {
        var best: Instant?
        if scriptedNext < scripted.count { best = scripted[scriptedNext].at }
        for i in clocks.indices {
            if let at = clocks[i].nextAt, best.map({ at < $0 }) ?? true { best = at }
        }
        nextTime = best
    }

    /// Takes the next occurrence (the earliest; the first process on a tie) and draws that process's following one.
    public mutating func take(zone: ZoneCalendar) -> (at: Instant, occurrence: PersonOccurrence)? {
        if scriptedNext < scripted.count {
            let next = scripted[scriptedNext]
            scriptedNext += 1
            updateNextTime()
            return next
        }
        var best: Int?
        for i in clocks.indices {
            guard let at = clocks[i].nextAt else { continue }
            if best.map({ at < clocks[$0].nextAt! }) ?? true { best = i }
        }
        // The payload is moved out (`take()`), not copied: a copy of the payload enum went through the runtime's
        // generic value witnesses, about 130 instructions a thing to do (issue 41).
        guard let i = best, let at = clocks[i].nextAt, let payload = clocks[i].nextPayload.take() else { return nil }
        Self.advance(&clocks[i], after: at, zone: zone)
        updateNextTime()
        return (at, PersonOccurrence(process: clocks[i].stream, payload: payload))
    }

    /// Stops every process (the life reached its horizon).
    public mutating func stop() {
        for i in clocks.indices { clocks[i].nextAt = nil; clocks[i].nextPayload = nil }
        scriptedNext = scripted.count
        nextTime = nil
    }

    /// Draws the clock's next occurrence after `t`.
    static func advance(_ clock: inout Clock, after t: Instant, zone: ZoneCalendar) {
        // Destructured, so the payload is moved into the clock rather than copied with its optional tuple (issue 41).
        if case let (at, payload)? = clock.process.nextPayload(after: t, zone: zone, rng: clock.rng) {
            clock.nextAt = at
            clock.nextPayload = payload
        } else {
            clock.nextAt = nil
            clock.nextPayload = nil
        }
    }
}
