import Behavior
import Foundation
import ProductRegistry
import RulesCore
import ScenarioFormat
import SimKernel
import Stochastics
import Testing
@testable import EarnedAccessLife
@testable import ScrollOffLife
@testable import Simulation

/// Person-owned processes (issue 27): a process is the person's, drawn from its own stream keyed without arm or
/// product, merged in time order with the rest of the life, and handed to whatever product the person meets.
@Suite("Person processes")
struct PersonProcessTests {
    /// A toy process: something every 2–3 hours, carrying its running number.
    struct Errands: PersonProcess {
        static var stream: StreamName { "toy-errands" }
        var n = 0
        init(person: Person) {}
        mutating func next(after t: Instant, zone: ZoneCalendar, rng: RandomStream) -> (at: Instant, occurrence: Int)? {
            n += 1
            return (t + .hours(2) + .minutes(Int64(rng.uniformInt(below: 60))), n)
        }
    }

    /// A second toy process at fixed times, to check the merge and its ties.
    struct Chimes: PersonProcess {
        static var stream: StreamName { "toy-chimes" }
        init(person: Person) {}
        func next(after t: Instant, zone: ZoneCalendar, rng: RandomStream) -> (at: Instant, occurrence: String)? {
            (t + .hours(3), "chime")
        }
    }

    static let yaml = """
        name: processes
        horizon_days: 5
        replications: 1
        population:
          installs: 20
        """

    static func world<A: ProductAdapter>(_: A.Type, product: String) throws -> World<A> {
        let scenario = try ScenarioLoader(catalogues: Products.catalogues).load(yaml: "product: \(product)\n" + yaml, fileName: "p.yaml")
        return try World<A>(scenario: scenario, arm: scenario.arms[0], replication: 1)
    }

    /// The first `count` occurrences of a person's processes, drawn with `world`'s stream keys.
    static func occurrences<A: ProductAdapter>(_ world: World<A>, person: Int, count: Int) -> [(Instant, String)] {
        let p = Person.draw(persona: world.personas[0], id: UInt64(person), seed: world.seed, replication: 0)
        var processes = PersonProcesses(person: p, behavior: world.behavior, key: { world.key(person, $0) }, extra: [Errands.self, Chimes.self])
        let start = Instant(millisecondsSinceEpoch: 1_767_600_000_000)
        processes.start(after: start, zone: world.zones[0])
        return (0..<count).compactMap { _ in processes.take(zone: world.zones[0]).map { ($0.at, "\($0.occurrence.process):\($0.occurrence.value)") } }
    }

    @Test("a person's occurrences are the same whatever product they meet: keyed by seed, replication, person and process")
    func sameForEveryProduct() throws {
        let so = try Self.world(ScrollOffProduct.self, product: "scroll-off")
        let ea = try Self.world(EarnedAccessProduct.self, product: "earned-access")
        for person in [0, 7, 19] {
            let a = Self.occurrences(so, person: person, count: 30), b = Self.occurrences(ea, person: person, count: 30)
            #expect(a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1))
        }
        // Another person lives other occurrences.
        #expect(Self.occurrences(so, person: 1, count: 10).map(\.0) != Self.occurrences(so, person: 2, count: 10).map(\.0))
    }

    @Test("occurrences are merged in time order; at equal times the process listed first comes first")
    func mergedInOrder() throws {
        let so = try Self.world(ScrollOffProduct.self, product: "scroll-off")
        let o = Self.occurrences(so, person: 3, count: 60)
        #expect(zip(o, o.dropFirst()).allSatisfy { $0.0 <= $1.0 })
        #expect(o.contains { $0.1.hasPrefix("toy-errands:") } && o.contains { $0.1 == "toy-chimes:chime" })
        // Each process keeps its own sequence: errand numbers run 1, 2, 3, … in time order.
        let errands = o.filter { $0.1.hasPrefix("toy-errands:") }.map { Int($0.1.dropFirst("toy-errands:".count))! }
        #expect(errands == Array(1...errands.count))
    }

    @Test("every person has things to do (issue 29) and places to be (issue 44): the standard processes are the task process and the whereabouts, each on its own stream")
    func standardHasTasks() {
        #expect(PersonProcesses.standard.map { "\($0)" } == ["TaskProcess", "WhereaboutsProcess"])
        #expect(TaskProcess.stream.description == "tasks")
        #expect(WhereaboutsProcess.stream.description == "places")
    }

    @Test("timer kinds get their own slots: no folding, one slot per kind, past the scan threshold too")
    func timerSlots() {
        var slots = TimerSlots<Int>()
        let kinds = [3, 12, 21, 3, 30, 12]   // 3, 12, 21, 30 all folded to one slot under `% 9`
        #expect(kinds.map { slots.slot(for: $0) } == [0, 1, 2, 0, 3, 1])
        for k in 100..<140 { _ = slots.slot(for: k) }
        #expect(slots.count == 44)
        #expect(slots.slot(for: 21) == 2 && slots.slot(for: 139) == 43 && slots.kind(of: 43) == 139)
        #expect(slots.slot(for: 500) == 44)
        // Re-arming a kind supersedes only that kind's timer.
        var q = EventQueue<String>(start: .epoch)
        let t = Instant(millisecondsSinceEpoch: 1_000)
        q.arm(slot: slots.slot(for: 3), "three", at: t)
        q.arm(slot: slots.slot(for: 12), "twelve", at: t)
        q.arm(slot: slots.slot(for: 3), "three again", at: t + .seconds(1))
        var fired: [String] = []
        while let e = q.next() { fired.append(e.payload) }
        #expect(fired == ["twelve", "three again"])
    }
}
