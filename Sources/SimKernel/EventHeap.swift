/// One entry of the future-event list: when it fires, its tie-break key, its timer slot and what it carries.
@usableFromInline struct EventEntry<Payload> {
    /// Firing time in ms since the epoch.
    @usableFromInline var time: Int64
    /// Priority in the top 8 bits, insertion sequence in the low 56: unique within a queue, so (time, order) is a
    /// strict total order and every correct heap pops the same sequence.
    @usableFromInline var order: UInt64
    /// Timer slot + 1 (0 = none).
    @usableFromInline var slot: UInt32
    /// Generation of the slot when armed.
    @usableFromInline var generation: UInt32
    @usableFromInline var payload: Payload

    @inlinable @inline(__always)
    init(time: Int64, order: UInt64, slot: UInt32, generation: UInt32, payload: Payload) {
        self.time = time
        self.order = order
        self.slot = slot
        self.generation = generation
        self.payload = payload
    }
}

/// The heap's bookkeeping, kept in the storage object's header.
@usableFromInline struct EventHeapHeader {
    @usableFromInline var count: Int
    @usableFromInline var capacity: Int
    @inlinable init(count: Int, capacity: Int) {
        self.count = count
        self.capacity = capacity
    }
}

/// The heap's storage: one allocation holding the header and the entries `0..<count` in heap order.
@usableFromInline final class EventHeapStorage<Payload>: ManagedBuffer<EventHeapHeader, EventEntry<Payload>> {
    @inlinable deinit {
        _ = withUnsafeMutablePointers { h, e in e.deinitialize(count: h.pointee.count) }
    }
}

/// A binary min-heap of `EventEntry` keyed on (time, order), written out by hand for the kernel's hot path: one
/// contiguous buffer of small structs, the comparison inlined, entries moved into a hole rather than swapped, no
/// closures or protocol calls, and one uniqueness check (copy-on-write) per mutation. Value semantics: a copy of the
/// heap shares its buffer until either side mutates.
@usableFromInline struct EventHeap<Payload> {
    @usableFromInline typealias Entry = EventEntry<Payload>
    @usableFromInline var storage: EventHeapStorage<Payload>

    @inlinable init(capacity: Int) {
        storage = Self.allocate(capacity: Swift.max(capacity, 4))
    }

    @inlinable static func allocate(capacity: Int) -> EventHeapStorage<Payload> {
        let buffer = EventHeapStorage<Payload>.create(minimumCapacity: capacity) { _ in
            EventHeapHeader(count: 0, capacity: capacity)
        }
        return unsafeDowncast(buffer, to: EventHeapStorage<Payload>.self)
    }

    @inlinable var count: Int {
        @inline(__always) get { storage.withUnsafeMutablePointerToHeader { $0.pointee.count } }
    }

    /// Strict order of two entries: earlier time first, then lower `order`.
    @inlinable @inline(__always)
    static func precedes(_ a: UnsafeMutablePointer<Entry>, _ b: UnsafeMutablePointer<Entry>) -> Bool {
        a.pointee.time < b.pointee.time || (a.pointee.time == b.pointee.time && a.pointee.order < b.pointee.order)
    }

    /// Reads the minimum entry in place (the heap must not be empty).
    @inlinable @inline(__always)
    func withMin<R>(_ body: (UnsafeMutablePointer<Entry>) -> R) -> R {
        storage.withUnsafeMutablePointerToElements { body($0) }
    }

    /// Makes the buffer unique and large enough for `count + extra` entries.
    @inlinable @inline(__always) mutating func prepare(extra: Int) {
        let (count, capacity) = storage.withUnsafeMutablePointerToHeader { ($0.pointee.count, $0.pointee.capacity) }
        if _slowPath(count + extra > capacity || !isKnownUniquelyReferenced(&storage)) {
            reallocate(capacity: count + extra > capacity ? Swift.max(2 * capacity, count + extra) : capacity)
        }
    }

    /// Copies (when shared) or moves (when unique) the entries into a new buffer of `capacity`.
    @inlinable @inline(never) mutating func reallocate(capacity: Int) {
        let fresh = Self.allocate(capacity: capacity)
        let unique = isKnownUniquelyReferenced(&storage)
        storage.withUnsafeMutablePointers { h, old in
            let n = h.pointee.count
            fresh.withUnsafeMutablePointers { fh, new in
                if unique { new.moveInitialize(from: old, count: n) } else { new.initialize(from: old, count: n) }
                fh.pointee.count = n
            }
            if unique { h.pointee.count = 0 }
        }
        storage = fresh
    }

    /// Inserts an entry: the hole climbs from the end while the parent comes later.
    @inlinable @inline(__always) mutating func insert(_ entry: Entry) {
        prepare(extra: 1)
        storage.withUnsafeMutablePointers { h, base in
            var hole = h.pointee.count
            h.pointee.count = hole &+ 1
            while hole > 0 {
                let parent = (hole &- 1) >> 1
                let p = base + parent
                if !(entry.time < p.pointee.time || (entry.time == p.pointee.time && entry.order < p.pointee.order)) { break }
                (base + hole).initialize(to: p.move())
                hole = parent
            }
            (base + hole).initialize(to: entry)
        }
    }

    /// Removes and returns the minimum entry (the heap must not be empty): the last entry sinks from the root.
    @inlinable @inline(__always) mutating func removeMin() -> Entry {
        if _slowPath(!isKnownUniquelyReferenced(&storage)) {
            reallocate(capacity: storage.withUnsafeMutablePointerToHeader { $0.pointee.capacity })
        }
        return storage.withUnsafeMutablePointers { h, base in
            let n = h.pointee.count &- 1
            h.pointee.count = n
            let top = base.move()
            if n == 0 { return top }
            let tail = base + n
            var hole = 0
            while true {
                var child = 2 &* hole &+ 1
                if child >= n { break }
                if child &+ 1 < n && Self.precedes(base + (child &+ 1), base + child) { child &+= 1 }
                if !Self.precedes(base + child, tail) { break }
                (base + hole).initialize(to: (base + child).move())
                hole = child
            }
            (base + hole).initialize(to: tail.move())
            return top
        }
    }

    /// Empties the heap, keeping its buffer when unique.
    @inlinable mutating func removeAll() {
        if isKnownUniquelyReferenced(&storage) {
            storage.withUnsafeMutablePointers { h, e in
                e.deinitialize(count: h.pointee.count)
                h.pointee.count = 0
            }
        } else {
            storage = Self.allocate(capacity: storage.withUnsafeMutablePointerToHeader { $0.pointee.capacity })
        }
    }
}
