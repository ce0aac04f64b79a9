import Testing
import RulesCore
@testable import SimKernel
import HabitatTestSupport

/// The hand-written heap under `EventQueue` (issue 41) against a sorted-array oracle: random schedules with many
/// equal times and priorities, timer slots re-armed and disarmed, handles cancelled, pops interleaved with pushes.
/// Small sizes, fixed seeds, no timing.
@Suite("EventHeap against a sorted-array oracle")
struct EventHeapTests {
    @Test(arguments: [1, 2, 3, 7, 42, 1001])
    func heapPopsInTimeThenOrder(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var heap = EventHeap<Int>(capacity: 1)   // grows from the smallest buffer
        var oracle: [(time: Int64, order: UInt64, payload: Int)] = []
        var popped: [Int] = [], expected: [Int] = []
        for step in 0..<400 {
            if heap.count > 0 && rng.below(3) == 0 {
                popped.append(heap.removeMin().payload)
                let i = oracle.indices.min { (oracle[$0].time, oracle[$0].order) < (oracle[$1].time, oracle[$1].order) }!
                expected.append(oracle.remove(at: i).payload)
            } else {
                let time = Int64(rng.below(8))                      // few distinct times: many ties
                let order = UInt64(rng.below(3)) << 56 | UInt64(step) // priority, then insertion
                heap.insert(EventEntry(time: time, order: order, slot: 0, generation: 0, payload: step))
                oracle.append((time, order, step))
            }
            #expect(heap.count == oracle.count)
        }
        while heap.count > 0 { popped.append(heap.removeMin().payload) }
        expected += oracle.sorted { ($0.time, $0.order) < ($1.time, $1.order) }.map(\.payload)
        #expect(popped == expected)
    }

    /// What the oracle knows of one scheduled event.
    struct Pending {
        var time: Int64
        var priority: UInt8
        var sequence: Int
        var slot: Int?
        var id: EventID
    }

    @Test(arguments: [5, 6, 19, 77, 2024])
    func queueMatchesOracleWithSlotsAndCancellation(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var q = EventQueue<Int>(timerSlots: 2, capacity: 2)
        var live: [Pending] = []
        var withdrawn = 0, sequence = 0
        var fired: [Int] = [], expected: [Int] = []
        for _ in 0..<500 {
            let now = q.now.millisecondsSinceEpoch
            switch rng.below(10) {
            case 0...3:   // schedule a plain event
                let at = now + Int64(rng.below(6)), priority = UInt8(rng.below(3) * 127)
                let id = q.schedule(sequence, at: Instant(millisecondsSinceEpoch: at), priority: priority)
                live.append(Pending(time: at, priority: priority, sequence: sequence, slot: nil, id: id))
                sequence += 1
            case 4, 5:    // (re-)arm one of three slots (the third beyond the initial two)
                let slot = rng.below(3), at = now + Int64(rng.below(6))
                if let i = live.firstIndex(where: { $0.slot == slot }) { live.remove(at: i); withdrawn += 1 }
                let id = q.arm(slot: slot, sequence, at: Instant(millisecondsSinceEpoch: at))
                live.append(Pending(time: at, priority: EventQueue<Int>.defaultPriority, sequence: sequence, slot: slot, id: id))
                sequence += 1
            case 6:       // disarm a slot
                let slot = rng.below(3)
                q.disarm(slot: slot)
                if let i = live.firstIndex(where: { $0.slot == slot }) { live.remove(at: i); withdrawn += 1 }
            case 7:       // cancel a pending plain event by its handle
                if let i = live.indices.filter({ live[$0].slot == nil }).first {
                    q.cancel(live[i].id)
                    live.remove(at: i)
                    withdrawn += 1
                }
            default:      // fire the next event
                let next = live.indices.min { (live[$0].time, live[$0].priority, live[$0].sequence) < (live[$1].time, live[$1].priority, live[$1].sequence) }
                let e = q.next()
                #expect(e?.payload == next.map { live[$0].sequence })
                if let e, let next {
                    #expect(e.time.millisecondsSinceEpoch == live[next].time)
                    #expect(e.id == live[next].id)
                    fired.append(e.payload)
                    expected.append(live.remove(at: next).sequence)
                }
            }
        }
        while let e = q.next() { fired.append(e.payload) }
        expected += live.sorted { ($0.time, $0.priority, $0.sequence) < ($1.time, $1.priority, $1.sequence) }.map(\.sequence)
        #expect(fired == expected)
        #expect(q.firedCount == fired.count)
        #expect(q.staleCount == withdrawn)
        #expect(q.isEmpty)
    }

    @Test func peekTimeMatchesNextWithStaleEntriesOnTop() {
        var q = EventQueue<String>(timerSlots: 1)
        q.arm(slot: 0, "superseded", at: Instant(millisecondsSinceEpoch: 1))
        let id = q.schedule("cancelled", at: Instant(millisecondsSinceEpoch: 2))
        q.schedule("live", at: Instant(millisecondsSinceEpoch: 3))
        q.arm(slot: 0, "re-armed", at: Instant(millisecondsSinceEpoch: 4))
        q.cancel(id)
        #expect(q.next(until: Instant(millisecondsSinceEpoch: 2)) == nil)   // both early entries are stale
        #expect(q.peekTime() == Instant(millisecondsSinceEpoch: 3))
        #expect(q.next()?.payload == "live")
        #expect(q.next()?.payload == "re-armed")
        #expect(q.staleCount == 2)
    }

    @Test func aCopyIsIndependent() {
        var a = EventQueue<String>()
        for (i, t) in [5, 1, 4, 2, 3].enumerated() { a.schedule("e\(i)", at: Instant(millisecondsSinceEpoch: Int64(t))) }
        var b = a                                    // shares the buffer until one side mutates
        #expect(b.next()?.payload == "e1")
        b.schedule("only-in-b", at: Instant(millisecondsSinceEpoch: 2))
        var fromA: [String] = [], fromB: [String] = []
        while let e = a.next() { fromA.append(e.payload) }
        while let e = b.next() { fromB.append(e.payload) }
        #expect(fromA == ["e1", "e3", "e4", "e2", "e0"])
        #expect(fromB == ["e3", "only-in-b", "e4", "e2", "e0"])
    }

    /// Counts its live instances, to check that the heap releases every payload it held.
    final class Tracked {
        nonisolated(unsafe) static var alive = 0
        init() { Tracked.alive += 1 }
        deinit { Tracked.alive -= 1 }
    }

    @Test func payloadsAreReleasedWhenPoppedResetOrDropped() {
        let before = Tracked.alive
        do {
            var q = EventQueue<Tracked>(capacity: 1)
            for t in 0..<20 { q.schedule(Tracked(), at: Instant(millisecondsSinceEpoch: Int64(t % 7))) }
            #expect(Tracked.alive == before + 20)
            for _ in 0..<5 { _ = q.next() }
            #expect(Tracked.alive == before + 15)
            var copy = q                             // the copy is made unique by its first mutation
            _ = copy.next()
            #expect(Tracked.alive == before + 15)    // the popped one still lives in `q`
            copy.reset(start: .epoch)
            #expect(Tracked.alive == before + 15)
        }
        #expect(Tracked.alive == before)
    }
}
