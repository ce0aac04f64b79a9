import RulesCore
import Stochastics

/// A reusable box holding one occurrence of some type (issue 42): a process's slot fills its box with each occurrence
/// it hands out, so `PersonOccurrence` carries a reference and a type id, not a boxed existential. Reading it as a type
/// is a comparison of `valueType` and an unchecked downcast to `TypedOccurrenceBox<T>` (`PersonOccurrence.value(as:)`).
public class OccurrenceBox: @unchecked Sendable {   // filled and read by one life, on one thread
    /// `ObjectIdentifier` of the occurrence's type.
    @usableFromInline final let valueType: ObjectIdentifier

    init(valueType: ObjectIdentifier) { self.valueType = valueType }

    /// The value, boxed (traces and tests).
    var anyValue: any Sendable { preconditionFailure("abstract") }
    /// A copy in a box of its own.
    func detached() -> OccurrenceBox { preconditionFailure("abstract") }
}

/// A box holding an occurrence of type `T`.
public final class TypedOccurrenceBox<T: Sendable>: OccurrenceBox, @unchecked Sendable {
    /// The occurrence (nil before the first and after the process stopped).
    @usableFromInline @exclusivity(unchecked) final var value: T?

    init(_ value: T?) {
        self.value = value
        super.init(valueType: ObjectIdentifier(T.self))
    }

    override var anyValue: any Sendable { value! }
    override func detached() -> OccurrenceBox { TypedOccurrenceBox(value) }
}

/// One person process of one person as the life holds it: the process, its mind, its next occurrence drawn ahead and
/// the box the current one is handed out in. The base class the life's list holds (one virtual call per occurrence,
/// no existential); `ProcessSlot<P>` does the work.
public class ProcessSlotBase: @unchecked Sendable {   // one life's, on one thread; copied on write (`PersonProcesses.writable`)
    final let processType: ObjectIdentifier
    final let occurrenceType: ObjectIdentifier
    final let stream: StreamName
    final let rng: RandomStream
    final let index: Int
    /// The next occurrence's time (nil when the process has none left).
    @exclusivity(unchecked) final var nextAt: Instant?

    init(processType: ObjectIdentifier, occurrenceType: ObjectIdentifier, stream: StreamName, rng: RandomStream, index: Int) {
        self.processType = processType
        self.occurrenceType = occurrenceType
        self.stream = stream
        self.rng = rng
        self.index = index
    }

    var type: any PersonProcess.Type { preconditionFailure("abstract") }
    /// Draws the next occurrence after `t` (from the mind as it is now).
    func draw(after t: Instant, zone: ZoneCalendar) { preconditionFailure("abstract") }
    /// Hands out the occurrence drawn ahead (moved into the box).
    func take() -> PersonOccurrence { preconditionFailure("abstract") }
    /// Lives `box`'s occurrence unaided; its timeline row when `tracing`.
    func live(_ box: OccurrenceBox, zone: ZoneCalendar, tracing: Bool) -> (kind: String, detail: String)? { preconditionFailure("abstract") }
    /// Draws nothing more.
    func stop() { preconditionFailure("abstract") }
    /// A copy sharing nothing mutable with this one.
    func copy() -> ProcessSlotBase { preconditionFailure("abstract") }
}

public final class ProcessSlot<P: PersonProcess>: ProcessSlotBase, @unchecked Sendable {
    // Unchecked exclusivity: the slot is one life's, read and written on one thread, and never accessed while another
    // access to the same property is open (each step reads or writes a property once). Checked, the runtime's
    // `swift_beginAccess` cost about 3k instructions a person-day in the speed gate (issue 42).
    @exclusivity(unchecked) var process: P
    @exclusivity(unchecked) var mind: P.Mind
    @exclusivity(unchecked) var upcoming: P.Occurrence?
    let box: TypedOccurrenceBox<P.Occurrence>

    init(process: P, mind: P.Mind, rng: RandomStream, index: Int, upcoming: P.Occurrence? = nil, current: P.Occurrence? = nil) {
        self.process = process
        self.mind = mind
        self.upcoming = upcoming
        box = TypedOccurrenceBox(current)
        super.init(processType: ObjectIdentifier(P.self), occurrenceType: ObjectIdentifier(P.Occurrence.self), stream: P.stream, rng: rng, index: index)
    }

    override var type: any PersonProcess.Type { P.self }

    override func draw(after t: Instant, zone: ZoneCalendar) { P._draw(self, after: t, zone: zone) }

    override func take() -> PersonOccurrence { P._take(self) }

    override func live(_ b: OccurrenceBox, zone: ZoneCalendar, tracing: Bool) -> (kind: String, detail: String)? {
        P._live(self, b, zone: zone, tracing: tracing)
    }

    override func stop() {
        nextAt = nil
        upcoming = nil
    }

    override func copy() -> ProcessSlotBase {
        let c = ProcessSlot(process: process, mind: mind, rng: rng, index: index, upcoming: upcoming, current: box.value)
        c.nextAt = nextAt
        return c
    }
}
