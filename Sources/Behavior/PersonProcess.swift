import RulesCore
import Stochastics

/// Something a person lives through besides phone pickups, whatever product they meet (or none): things to do
/// arising (Nudge's tasks), moving between places (Clavis's keys stay at home). A process is the person's, not the
/// product's: every person has every process in `PersonProcesses.standard`, and each draws only from its own
/// stream, keyed by seed, replication, person and the process's `stream` — never by arm or product — so the same
/// people live through the same occurrences whichever product (or none) they meet; only their responses differ.
///
/// A process may hold state, its `Mind` (issue 42): made per person, changed by what the person does unaided with each
/// occurrence (`liveUnaided`), read and steered by a product's decisions (`PersonLife.mind(_:)`, `steer(_:_:)`), and
/// read by the process when it draws its next occurrence (`next(after:zone:rng:mind:)`) — a steered mind may reshape
/// what comes next; an unsteered one draws exactly what the process drew before minds existed.
///
/// Adding a process (Behavior README, "Adding a person process"): conform a type here with its own `stream` name,
/// list it in `PersonProcesses.standard`, and let the adapters that care read its occurrences in
/// `ProductAdapter.occurrence(_:_:at:)` (`o.value(as: MyOccurrence.self)`); every other product ignores it.
public protocol PersonProcess: Sendable {
    /// What one occurrence carries (a task with its kind and deadline, a move to a place).
    associatedtype Occurrence: Sendable
    /// What the process holds for one person that their occurrences and a product's decisions change (the things to do
    /// and what became of them, `TaskMind`; where the person is and what they carry). `NoMind` when it holds nothing.
    associatedtype Mind: Sendable = NoMind
    /// The name of the person's stream the process draws from (unique among the processes and the life's streams).
    static var stream: StreamName { get }
    /// The process of one person (their persona's parameters are on `person`).
    init(person: Person)
    /// The mind of one person at their install, with the arm's behaviour values (`tasks.*`, …).
    static func mind(person: Person, behavior: BehaviorValues) -> Mind
    /// The first occurrence strictly after `t`, nil when there is none (a process whose draws do not read its mind).
    mutating func next(after t: Instant, zone: ZoneCalendar, rng: RandomStream) -> (at: Instant, occurrence: Occurrence)?
    /// The first occurrence strictly after `t` given the person's mind as it is now: what the life calls. Default: the
    /// mind is not read (`next(after:zone:rng:)`).
    mutating func next(after t: Instant, zone: ZoneCalendar, rng: RandomStream, mind: Mind) -> (at: Instant, occurrence: Occurrence)?
    /// An occurrence lived by the person's own means, as with no product (a thing to do forgotten or put off and
    /// done): it may change the mind. Default: nothing.
    static func liveUnaided(_ o: Occurrence, mind: inout Mind, zone: ZoneCalendar)
    /// The timeline row of an occurrence lived unaided (`habitat trace`): its kind and detail; nil writes none
    /// (default). Only called when a trace is written.
    static func traceRow(_ o: Occurrence, mind: Mind) -> (kind: String, detail: String)?

    // The life's steps on a process's slot, implemented once by the defaults below (not for a process to implement):
    // requirements, so each process's witness is the default specialised for it — no generic metadata made per
    // occurrence (issue 29), where the slot's own methods run unspecialised.
    static func _draw(_ slot: ProcessSlot<Self>, after t: Instant, zone: ZoneCalendar)
    static func _take(_ slot: ProcessSlot<Self>) -> PersonOccurrence
    static func _live(_ slot: ProcessSlot<Self>, _ box: OccurrenceBox, zone: ZoneCalendar, tracing: Bool) -> (kind: String, detail: String)?
}

/// The mind of a process that holds nothing.
public struct NoMind: Sendable, Hashable {
    public init() {}
}

extension PersonProcess where Mind == NoMind {
    public static func mind(person: Person, behavior: BehaviorValues) -> NoMind { NoMind() }
}

extension PersonProcess {
    public mutating func next(after t: Instant, zone: ZoneCalendar, rng: RandomStream) -> (at: Instant, occurrence: Occurrence)? {
        preconditionFailure("\(Self.self) implements neither next(after:zone:rng:) nor next(after:zone:rng:mind:)")
    }
    public mutating func next(after t: Instant, zone: ZoneCalendar, rng: RandomStream, mind: Mind) -> (at: Instant, occurrence: Occurrence)? {
        next(after: t, zone: zone, rng: rng)
    }
    public static func liveUnaided(_ o: Occurrence, mind: inout Mind, zone: ZoneCalendar) {}
    public static func traceRow(_ o: Occurrence, mind: Mind) -> (kind: String, detail: String)? { nil }

    public static func _draw(_ slot: ProcessSlot<Self>, after t: Instant, zone: ZoneCalendar) {
        // Destructured, so the occurrence is moved rather than copied with its optional tuple (issue 41).
        if case let (at, o)? = slot.process.next(after: t, zone: zone, rng: slot.rng, mind: slot.mind) {
            slot.nextAt = at
            slot.upcoming = o
        } else {
            slot.nextAt = nil
            slot.upcoming = nil
        }
    }

    public static func _take(_ slot: ProcessSlot<Self>) -> PersonOccurrence {
        slot.box.value = slot.upcoming.take()
        return PersonOccurrence(process: slot.stream, box: slot.box, source: slot.index)
    }

    public static func _live(_ slot: ProcessSlot<Self>, _ b: OccurrenceBox, zone: ZoneCalendar, tracing: Bool) -> (kind: String, detail: String)? {
        guard b.valueType == slot.occurrenceType, let o = unsafeDowncast(b, to: TypedOccurrenceBox<Occurrence>.self).value else { return nil }
        liveUnaided(o, mind: &slot.mind, zone: zone)
        return tracing ? traceRow(o, mind: slot.mind) : nil
    }
}

/// One occurrence of a person process, as the life hands it to the product's adapter. It points at the process's
/// reusable box (no allocation per occurrence, issue 42), whose value is this occurrence until the process's next one
/// is taken: read it during the call (`value(as:)`), and keep `detached()` to hold it longer.
public struct PersonOccurrence: @unchecked Sendable {   // the box is read by the life that took it, on one thread
    /// The process it comes from (its stream name).
    public let process: StreamName
    @usableFromInline let box: OccurrenceBox
    /// The index of its process among the person's (`PersonProcesses`), -1 for one a test scripted.
    let source: Int

    init(process: StreamName, box: OccurrenceBox, source: Int) {
        self.process = process
        self.box = box
        self.source = source
    }

    /// An occurrence of `process` carrying `value` (a test's script).
    public init<T: Sendable>(process: StreamName, value: T) {
        self.init(process: process, box: TypedOccurrenceBox<T>(value), source: -1)
    }

    /// What it carries, of the process's `Occurrence` type (boxed: for traces and tests).
    public var value: any Sendable { box.anyValue }

    /// The occurrence as `type`, nil when it comes from a process with another `Occurrence` type: a comparison of type
    /// ids and an unchecked downcast (a dynamic cast cost 1.5k instructions an occurrence, issue 29).
    @inlinable public func value<T: Sendable>(as type: T.Type) -> T? {
        guard box.valueType == ObjectIdentifier(T.self) else { return nil }
        return unsafeDowncast(box, to: TypedOccurrenceBox<T>.self).value
    }

    /// The occurrence in a box of its own, which later occurrences do not overwrite (a journal's record).
    public func detached() -> PersonOccurrence { PersonOccurrence(process: process, box: box.detached(), source: source) }
}

/// The exogenous processes of one person besides pickups, merged in time order: each with its own stream, its mind
/// and its next occurrence drawn ahead. Empty (and free) while no process is listed.
public struct PersonProcesses: Sendable {
    /// The processes every person has, in the order that breaks ties between equal times: things to do (issue 29);
    /// Clavis brings places (`docs/ARCHITECTURE.md`, "How to add a product").
    public static let standard: [any PersonProcess.Type] = [TaskProcess.self, WhereaboutsProcess.self]

    /// One slot per process (`standard` then the extra ones), holding its process, mind and next occurrence; shared
    /// between copies of the struct until one of them changes it (copy on write, `writable(_:)`).
    var slots: [ProcessSlotBase]
    /// Occurrences a test scripts in place of the processes (`script(_:)`, the life harness), in time order, and
    /// the next one's index; empty in runs. While scripted, the processes draw nothing (their minds stay).
    var scripted: [(at: Instant, occurrence: PersonOccurrence)] = []
    var scriptedNext = 0
    var isScripted = false

    /// The person's processes: `standard` then `extra` (a test's toy process), each with the stream `key` makes and the
    /// mind it makes for `person` with `behavior`.
    public init(person: Person, behavior: BehaviorValues, key: (StreamName) -> StreamKey, extra: [any PersonProcess.Type] = []) {
        slots = []
        for (i, type) in (Self.standard + extra).enumerated() {
            slots.append(Self.slot(type, person: person, behavior: behavior, rng: RandomStream(key: key(type.stream)), index: i))
        }
    }

    static func slot<P: PersonProcess>(_ type: P.Type, person: Person, behavior: BehaviorValues, rng: RandomStream, index: Int) -> ProcessSlotBase {
        ProcessSlot<P>(process: P(person: person), mind: P.mind(person: person, behavior: behavior), rng: rng, index: index)
    }

    /// No process: only `scripted`'s occurrences, in time order (a test following one person, `LifeScript`).
    public init(scripted: [(at: Instant, occurrence: PersonOccurrence)]) {
        slots = []
        script(scripted)
    }

    /// From now on the processes draw nothing: `occurrences` come instead, in time order (their minds stay, and live
    /// the scripted occurrences of their `Occurrence` types).
    public mutating func script(_ occurrences: [(at: Instant, occurrence: PersonOccurrence)]) {
        isScripted = true
        scripted = occurrences.sorted { $0.at < $1.at }
        scriptedNext = 0
        for i in slots.indices { writable(i).stop() }
        updateNextTime()
    }

    /// True when the person has no process besides pickups.
    public var isEmpty: Bool { isScripted ? scripted.isEmpty : slots.isEmpty }

    /// The slot at `i`, copied first when another copy of the struct shares it.
    @inline(__always)
    mutating func writable(_ i: Int) -> ProcessSlotBase {
        if !isKnownUniquelyReferenced(&slots[i]) { slots[i] = slots[i].copy() }
        return slots[i]
    }

    /// Draws each process's first occurrence after `t`.
    public mutating func start(after t: Instant, zone: ZoneCalendar) {
        if !isScripted { for i in slots.indices { writable(i).draw(after: t, zone: zone) } }
        updateNextTime()
    }

    /// The time of the next occurrence of any process, nil when none is left: kept up to date by `start`, `take` and
    /// `stop`, because the life's loop reads it at every event (issue 29).
    public private(set) var nextTime: Instant?

    /// The earliest next occurrence over the processes.
    mutating func updateNextTime() {
        var best: Instant?
        if scriptedNext < scripted.count { best = scripted[scriptedNext].at }
        for s in slots {
            if let at = s.nextAt, best.map({ at < $0 }) ?? true { best = at }
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
        for i in slots.indices {
            guard let at = slots[i].nextAt else { continue }
            if best.map({ at < slots[$0].nextAt! }) ?? true { best = i }
        }
        guard let i = best, let at = slots[i].nextAt else { return nil }
        let slot = writable(i)
        let o = slot.take()
        slot.draw(after: at, zone: zone)
        updateNextTime()
        return (at, o)
    }

    /// Stops every process (the life reached its horizon).
    public mutating func stop() {
        for i in slots.indices { writable(i).stop() }
        scriptedNext = scripted.count
        nextTime = nil
    }

    /// The slot of `o`'s process: its source, or for a scripted occurrence the process of its stream.
    func slotIndex(of o: PersonOccurrence) -> Int? {
        if o.source >= 0 { return o.source }
        return slots.firstIndex { $0.stream == o.process && $0.occurrenceType == o.box.valueType }
    }

    /// `o` lived by the person's own means (`PersonProcess.liveUnaided`); returns its timeline row when `tracing`.
    public mutating func liveUnaided(_ o: PersonOccurrence, zone: ZoneCalendar, tracing: Bool) -> (kind: String, detail: String)? {
        guard let i = slotIndex(of: o) else { return nil }
        return writable(i).live(o.box, zone: zone, tracing: tracing)
    }

    /// The index of process `P`'s slot (a scan of a few type ids).
    @inline(__always)
    func index<P: PersonProcess>(of _: P.Type) -> Int {
        let id = ObjectIdentifier(P.self)
        for i in slots.indices where slots[i].processType == id { return i }
        preconditionFailure("\(P.self) is not one of the person's processes")
    }

    /// The mind of process `P`.
    public func mind<P: PersonProcess>(_: P.Type) -> P.Mind {
        unsafeDowncast(slots[index(of: P.self)], to: ProcessSlot<P>.self).mind
    }

    /// Changes the mind of process `P`; with `redraw`, the occurrence it had drawn ahead is dropped and the next one
    /// drawn after `now` from the changed mind (its stream moves on: only a steered person's occurrences change).
    @discardableResult
    public mutating func steer<P: PersonProcess, R>(_: P.Type, redraw: Bool = false, now: Instant, zone: ZoneCalendar,
                                                    _ change: (inout P.Mind) -> R) -> R {
        let slot = unsafeDowncast(writable(index(of: P.self)), to: ProcessSlot<P>.self)
        let r = change(&slot.mind)
        if redraw && !isScripted && slot.nextAt != nil {
            slot.draw(after: now, zone: zone)
            updateNextTime()
        }
        return r
    }

    /// The processes' types, in order (`standard` then the extra ones).
    public var types: [any PersonProcess.Type] { slots.map(\.type) }
}
