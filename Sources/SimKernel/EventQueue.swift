import RulesCore

/// A handle to a scheduled event, used to cancel it.
public struct EventID: Hashable, Sendable {
    /// The event's insertion sequence number (unique within its queue).
    public let sequence: UInt64
    @inlinable init(sequence: UInt64) { self.sequence = sequence }
}

/// An event popped from the queue: when it fires and what it carries.
public struct FiredEvent<Payload> {
    public let time: Instant
    public let payload: Payload
    public let id: EventID
    @inlinable init(time: Instant, payload: Payload, id: EventID) {
        self.time = time
        self.payload = payload
        self.id = id
    }
}

/// The future-event list of a discrete-event simulation, with a virtual clock.
///
/// Events are ordered by time, then priority (lower first), then insertion order, so equal-time events fire
/// deterministically. Storage is `EventHeap`, a hand-written binary heap over one contiguous buffer of small
/// structs (time, order, slot, generation, payload); in the steady state scheduling and firing allocate nothing.
///
/// Two ways to withdraw an event, both lazy (the entry stays in the heap and is dropped when it surfaces):
/// - **Timer slots** (`arm(slot:…)`, `disarm(slot:)`): a slot holds at most one live event; arming it again
///   supersedes the previous one. A generation counter per slot makes this O(1) with no allocation — the pattern
///   of an earn timer that every blocked-app open re-arms.
/// - **Cancel by handle** (`cancel(_:)`): for arbitrary events; the handle is remembered in a set until the entry
///   surfaces.
public struct EventQueue<Payload> {
    @usableFromInline typealias Entry = EventEntry<Payload>

    @usableFromInline var heap: EventHeap<Payload>
    @usableFromInline var nextSequence: UInt64 = 0
    @usableFromInline var slotGenerations: [UInt32]
    @usableFromInline var cancelled: Set<UInt64> = []

    @usableFromInline var clock: Instant
    @usableFromInline var fired: Int = 0
    @usableFromInline var stale: Int = 0
    @usableFromInline var peak: Int = 0

    /// The virtual clock: the time of the event fired last (or the start time).
    @inlinable public var now: Instant { clock }
    /// Events fired (popped live) so far.
    @inlinable public var firedCount: Int { fired }
    /// Entries dropped because they were cancelled or superseded.
    @inlinable public var staleCount: Int { stale }
    /// The largest number of entries the heap has held.
    @inlinable public var peakSize: Int { peak }

    /// Default priority: the middle of the 0…255 range.
    public static var defaultPriority: UInt8 { 128 }

    /// Creates an empty queue whose clock starts at `start`, with `timerSlots` keyed timer slots to begin with (arming
    /// a slot beyond them adds it).
    @inlinable public init(start: Instant = .epoch, timerSlots: Int = 0, capacity: Int = 16) {
        clock = start
        heap = EventHeap(capacity: capacity)
        slotGenerations = [UInt32](repeating: 0, count: timerSlots)
    }

    /// Entries in the heap, including stale ones not yet surfaced.
    @inlinable public var pendingCount: Int { heap.count }
    /// True when no entries remain (live or stale).
    @inlinable public var isEmpty: Bool { heap.count == 0 }

    @inlinable @inline(__always) mutating func push(_ payload: Payload, at time: Instant, priority: UInt8, slot: UInt32, generation: UInt32) -> EventID {
        precondition(time >= now, "event scheduled in the past: \(time) < now \(now)")
        let seq = nextSequence
        nextSequence &+= 1
        heap.insert(Entry(time: time.millisecondsSinceEpoch, order: UInt64(priority) << 56 | seq, slot: slot, generation: generation, payload: payload))
        let n = heap.count
        if n > peak { peak = n }
        return EventID(sequence: seq)
    }

    /// Schedules an event at an absolute time (not before `now`). Lower priority values fire first among equal times.
    @inlinable @inline(__always) @discardableResult
    public mutating func schedule(_ payload: Payload, at time: Instant, priority: UInt8 = 128) -> EventID {
        push(payload, at: time, priority: priority, slot: 0, generation: 0)
    }

    /// Schedules an event `delay` after `now`.
    @inlinable @discardableResult
    public mutating func schedule(_ payload: Payload, after delay: TimeSpan, priority: UInt8 = 128) -> EventID {
        push(payload, at: now + delay, priority: priority, slot: 0, generation: 0)
    }

    /// Arms a timer slot: the event fires at `time` unless the slot is armed again or disarmed first.
    @inlinable @discardableResult
    public mutating func arm(slot: Int, _ payload: Payload, at time: Instant, priority: UInt8 = 128) -> EventID {
        if slot >= slotGenerations.count { slotGenerations.append(contentsOf: repeatElement(0, count: slot + 1 - slotGenerations.count)) }
        slotGenerations[slot] &+= 1
        return push(payload, at: time, priority: priority, slot: UInt32(slot + 1), generation: slotGenerations[slot])
    }

    /// Withdraws whatever the slot holds (lazily).
    @inlinable public mutating func disarm(slot: Int) { if slot < slotGenerations.count { slotGenerations[slot] &+= 1 } }

    /// Cancels one event by handle (lazily). Cancelling an event that already fired has no effect.
    @inlinable public mutating func cancel(_ id: EventID) {
        if id.sequence < nextSequence { cancelled.insert(id.sequence) }
    }

    @inlinable @inline(__always) mutating func isStale(slot: UInt32, generation: UInt32, order: UInt64) -> Bool {
        if slot != 0 && slotGenerations[Int(slot &- 1)] != generation { return true }
        return !cancelled.isEmpty && isCancelled(order)
    }

    /// The set look-up of `cancel(_:)`, out of line: only queues with cancelled handles pay for hashing.
    @inlinable @inline(never) func isCancelled(_ order: UInt64) -> Bool {
        cancelled.contains(order & 0x00FF_FFFF_FFFF_FFFF)
    }

    /// Drops the minimum entry as stale (cancelled or superseded).
    @inlinable @inline(never) mutating func dropStale() {
        let e = heap.removeMin()
        stale &+= 1
        if !cancelled.isEmpty { cancelled.remove(e.order & 0x00FF_FFFF_FFFF_FFFF) }
    }

    /// Pops the next live event firing at or before `limit`, advancing the clock to its time; nil when none.
    /// The common case (the minimum is live) is inlined into the caller; stale entries are dropped out of line.
    @inlinable @inline(__always) public mutating func next(until limit: Instant = .distantFuture) -> FiredEvent<Payload>? {
        if heap.count == 0 { return nil }
        let (time, order, slot, generation) = heap.withMin { ($0.pointee.time, $0.pointee.order, $0.pointee.slot, $0.pointee.generation) }
        if time > limit.millisecondsSinceEpoch { return nil }
        if _slowPath(isStale(slot: slot, generation: generation, order: order)) { return nextAfterStale(until: limit) }
        let e = heap.removeMin()
        clock = Instant(millisecondsSinceEpoch: time)
        fired &+= 1
        return FiredEvent(time: clock, payload: e.payload, id: EventID(sequence: order & 0x00FF_FFFF_FFFF_FFFF))
    }

    /// `next(until:)` when the minimum is stale: drops stale entries until a live one or the limit.
    @inlinable @inline(never) mutating func nextAfterStale(until limit: Instant) -> FiredEvent<Payload>? {
        while heap.count > 0 {
            let (time, order, slot, generation) = heap.withMin { ($0.pointee.time, $0.pointee.order, $0.pointee.slot, $0.pointee.generation) }
            if time > limit.millisecondsSinceEpoch { return nil }
            if isStale(slot: slot, generation: generation, order: order) {
                dropStale()
                continue
            }
            let e = heap.removeMin()
            clock = Instant(millisecondsSinceEpoch: time)
            fired &+= 1
            return FiredEvent(time: clock, payload: e.payload, id: EventID(sequence: order & 0x00FF_FFFF_FFFF_FFFF))
        }
        return nil
    }

    /// The time of the next live event, dropping stale entries that have surfaced; nil when none is left.
    /// Lets a caller merge the queue with an outside stream of events (e.g. a person's pickups) without
    /// pushing each of them through the heap.
    @inlinable @inline(__always) public mutating func peekTime() -> Instant? {
        while heap.count > 0 {
            let (time, order, slot, generation) = heap.withMin { ($0.pointee.time, $0.pointee.order, $0.pointee.slot, $0.pointee.generation) }
            if isStale(slot: slot, generation: generation, order: order) {
                dropStale()
                continue
            }
            return Instant(millisecondsSinceEpoch: time)
        }
        return nil
    }

    /// Moves the clock to `t` for an event handled outside the queue; `t` must not precede `now` or the next
    /// event in the queue.
    @inlinable public mutating func advance(to t: Instant) {
        precondition(t >= clock, "clock moved backwards: \(t) < now \(clock)")
        clock = t
        fired &+= 1
    }

    /// Fires events in order until none is left at or before `limit`, then moves the clock to `limit`
    /// (when finite). The handler may schedule, arm and cancel events through the queue it is given.
    @inlinable public mutating func run(until limit: Instant, _ handle: (inout EventQueue<Payload>, FiredEvent<Payload>) throws -> Void) rethrows {
        while let e = next(until: limit) {
            try handle(&self, e)
        }
        if limit != .distantFuture && limit > clock { clock = limit }
    }

    /// Empties the queue and resets the clock and counters, keeping allocated capacity (for reuse across people).
    @inlinable public mutating func reset(start: Instant) {
        heap.removeAll()
        nextSequence = 0
        for i in slotGenerations.indices { slotGenerations[i] = 0 }
        cancelled.removeAll(keepingCapacity: true)
        clock = start
        fired = 0
        stale = 0
        peak = 0
    }
}
