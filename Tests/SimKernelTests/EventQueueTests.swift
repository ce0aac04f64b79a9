import Testing
import RulesCore
@testable import SimKernel

@Suite("EventQueue ordering and cancellation")
struct EventQueueTests {
    func drain(_ q: inout EventQueue<String>) -> [String] {
        var out: [String] = []
        while let e = q.next() { out.append(e.payload) }
        return out
    }

    @Test func firesInTimeOrder() {
        var q = EventQueue<String>()
        q.schedule("c", at: Instant(millisecondsSinceEpoch: 30))
        q.schedule("a", at: Instant(millisecondsSinceEpoch: 10))
        q.schedule("b", at: Instant(millisecondsSinceEpoch: 20))
        #expect(drain(&q) == ["a", "b", "c"])
        #expect(q.now == Instant(millisecondsSinceEpoch: 30))
    }

    @Test func tiesBrokenByPriorityThenInsertionOrder() {
        var q = EventQueue<String>()
        let t = Instant(millisecondsSinceEpoch: 100)
        q.schedule("late-default-1", at: t)
        q.schedule("urgent", at: t, priority: 0)
        q.schedule("late-default-2", at: t)
        q.schedule("low", at: t, priority: 255)
        q.schedule("urgent-2", at: t, priority: 0)
        q.schedule("earlier", at: Instant(millisecondsSinceEpoch: 99), priority: 255)
        #expect(drain(&q) == ["earlier", "urgent", "urgent-2", "late-default-1", "late-default-2", "low"])
    }

    @Test func cancelByHandleDropsOnlyThatEvent() {
        var q = EventQueue<String>()
        q.schedule("keep", at: Instant(millisecondsSinceEpoch: 5))
        let id = q.schedule("drop", at: Instant(millisecondsSinceEpoch: 6))
        q.schedule("keep-too", at: Instant(millisecondsSinceEpoch: 7))
        q.cancel(id)
        #expect(drain(&q) == ["keep", "keep-too"])
        #expect(q.staleCount == 1)
        #expect(q.firedCount == 2)
    }

    @Test func rearmingATimerSlotSupersedesThePreviousArm() {
        var q = EventQueue<String>(timerSlots: 2)
        q.arm(slot: 0, "earn@60", at: Instant(millisecondsSinceEpoch: 60))
        q.arm(slot: 1, "other@50", at: Instant(millisecondsSinceEpoch: 50))
        q.arm(slot: 0, "earn@90", at: Instant(millisecondsSinceEpoch: 90))
        q.schedule("plain@70", at: Instant(millisecondsSinceEpoch: 70))
        #expect(drain(&q) == ["other@50", "plain@70", "earn@90"])
        #expect(q.staleCount == 1)
    }

    @Test func disarmWithdrawsTheSlot() {
        var q = EventQueue<String>(timerSlots: 1)
        q.arm(slot: 0, "x", at: Instant(millisecondsSinceEpoch: 10))
        q.disarm(slot: 0)
        #expect(drain(&q).isEmpty)
    }

    @Test func runUntilStopsAtTheLimitAndAdvancesTheClock() {
        var q = EventQueue<String>()
        q.schedule("in", at: Instant(millisecondsSinceEpoch: 10))
        q.schedule("at-limit", at: Instant(millisecondsSinceEpoch: 20))
        q.schedule("after", at: Instant(millisecondsSinceEpoch: 21))
        var seen: [String] = []
        q.run(until: Instant(millisecondsSinceEpoch: 20)) { _, e in seen.append(e.payload) }
        #expect(seen == ["in", "at-limit"])
        #expect(q.now == Instant(millisecondsSinceEpoch: 20))
        #expect(q.pendingCount == 1)
    }

    @Test func handlersScheduleFollowUpEvents() {
        var q = EventQueue<Int>()
        q.schedule(0, at: .epoch)
        var fired: [Int64] = []
        q.run(until: Instant(millisecondsSinceEpoch: 1000)) { queue, e in
            fired.append(e.time.millisecondsSinceEpoch)
            queue.schedule(e.payload + 1, after: .milliseconds(300))
        }
        #expect(fired == [0, 300, 600, 900])
    }

    @Test func resetEmptiesAndRestartsTheClock() {
        var q = EventQueue<String>(timerSlots: 1)
        q.arm(slot: 0, "x", at: Instant(millisecondsSinceEpoch: 10))
        _ = q.next()
        q.reset(start: Instant(millisecondsSinceEpoch: 5))
        #expect(q.isEmpty && q.now == Instant(millisecondsSinceEpoch: 5) && q.firedCount == 0)
        q.arm(slot: 0, "y", at: Instant(millisecondsSinceEpoch: 6))
        #expect(drain(&q) == ["y"])
    }

    @Test func peekSkipsStaleEntriesAndAdvanceMovesTheClockForOutsideEvents() {
        var q = EventQueue<String>(timerSlots: 1)
        q.arm(slot: 0, "old", at: Instant(millisecondsSinceEpoch: 10))
        q.arm(slot: 0, "new", at: Instant(millisecondsSinceEpoch: 30))
        q.schedule("plain", at: Instant(millisecondsSinceEpoch: 20))
        #expect(q.peekTime() == Instant(millisecondsSinceEpoch: 20))   // the superseded arm at 10 is dropped
        #expect(q.staleCount == 1)
        q.advance(to: Instant(millisecondsSinceEpoch: 15))             // an outside event at 15
        #expect(q.now == Instant(millisecondsSinceEpoch: 15))
        q.schedule("follow-up", at: Instant(millisecondsSinceEpoch: 16))
        #expect(drain(&q) == ["follow-up", "plain", "new"])
        #expect(q.peekTime() == nil)
    }
}
