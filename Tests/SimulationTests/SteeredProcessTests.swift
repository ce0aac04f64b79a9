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

/// Person processes that hold a mind a decision steers (issue 42 item 2): steering one person's mind changes that
/// person's later occurrences of that process, and nothing else.
@Suite("Steered person processes")
struct SteeredProcessTests {
    /// Where the person goes back to (Clavis's "go back for the key", in small).
    struct Whereabouts: Sendable, Hashable {
        var place = "office"
        /// Set by a decision: the next move is a quick trip back home.
        var goBack = false
    }

    /// A toy process with a mind: a move every 1–3 hours to the mind's place, and a quick trip home (no draw) while
    /// the mind says to go back.
    struct Moves: PersonProcess {
        typealias Mind = Whereabouts
        static var stream: StreamName { "toy-moves" }
        init(person: Person) {}
        static func mind(person: Person, behavior: BehaviorValues) -> Whereabouts { Whereabouts() }
        mutating func next(after t: Instant, zone: ZoneCalendar, rng: RandomStream, mind: Whereabouts) -> (at: Instant, occurrence: String)? {
            if mind.goBack { return (t + .minutes(10), "home") }
            return (t + .hours(1) + .minutes(Int64(rng.uniformInt(below: 120))), mind.place)
        }
        /// Lived unaided: once home, the person no longer goes back.
        static func liveUnaided(_ o: String, mind: inout Whereabouts, zone: ZoneCalendar) {
            if o == "home" { mind.goBack = false }
        }
    }

    static func world<A: ProductAdapter>(_: A.Type, _ product: String, days: Int = 4) throws -> World<A> {
        let s = try ScenarioLoader(catalogues: Products.catalogues).load(
            yaml: "name: t\nproduct: \(product)\nhorizon_days: \(days)\npopulation: {installs: 4}\n", fileName: "t.yaml")
        return try World<A>(scenario: s, arm: s.arms[0], replication: 1)
    }

    /// The first `count` occurrences of person `id`'s processes (the standard ones and `Moves`), steering `Moves` to
    /// go back after the `steerAfter`-th occurrence (never when nil).
    static func lived(_ world: World<ScrollOffProduct>, person id: Int, count: Int, steerAfter: Int?) -> [(at: Instant, process: String, value: String)] {
        let p = Person.draw(persona: world.personas[0], id: UInt64(id), seed: world.seed, replication: 0)
        var processes = PersonProcesses(person: p, behavior: world.behavior, key: { world.key(id, $0) }, extra: [Moves.self])
        let zone = world.zones[0]
        processes.start(after: Instant(millisecondsSinceEpoch: 1_767_600_000_000), zone: zone)
        var out: [(at: Instant, process: String, value: String)] = []
        for i in 0..<count {
            guard let o = processes.take(zone: zone) else { break }
            _ = processes.liveUnaided(o.occurrence, zone: zone, tracing: false)
            out.append((o.at, o.occurrence.process.description, "\(o.occurrence.value)"))
            if i == steerAfter { processes.steer(Moves.self, now: o.at, zone: zone) { $0.goBack = true; $0.place = "café" } }
        }
        return out
    }

    @Test("steering a mind changes that process's later occurrences and nothing else")
    func steeringChangesOnlyItsProcess() throws {
        let world = try Self.world(ScrollOffProduct.self, "scroll-off")
        let plain = Self.lived(world, person: 2, count: 80, steerAfter: nil)
        let steered = Self.lived(world, person: 2, count: 80, steerAfter: 20)
        // Up to the decision, the same life.
        #expect(plain.prefix(21).map(\.at) == steered.prefix(21).map(\.at))
        // The moves after it differ: a trip home, then the café.
        let plainMoves = plain.filter { $0.process == "toy-moves" }, steeredMoves = steered.filter { $0.process == "toy-moves" }
        #expect(steeredMoves.contains { $0.value == "home" } && steeredMoves.contains { $0.value == "café" })
        #expect(!plainMoves.contains { $0.value != "office" })
        // The things to do are the same things at the same times.
        let plainTasks = plain.filter { $0.process == "tasks" }, steeredTasks = steered.filter { $0.process == "tasks" }
        let n = min(plainTasks.count, steeredTasks.count)
        #expect(n > 5)
        #expect(plainTasks.prefix(n).map(\.at) == steeredTasks.prefix(n).map(\.at))
        #expect(plainTasks.prefix(n).map(\.value) == steeredTasks.prefix(n).map(\.value))
        // Unsteered, the mind's process draws exactly what it would without a mind: the same person twice.
        let again = Self.lived(world, person: 2, count: 80, steerAfter: nil)
        #expect(again.map(\.at) == plain.map(\.at) && again.map(\.value) == plain.map(\.value))
    }

    @Test("a life hosts every process's mind: read by type, steered in place, booked at the end")
    func lifeHostsMinds() throws {
        let world = try Self.world(ScrollOffProduct.self, "scroll-off")
        var plain = PersonLife(world: world, person: 1, processes: [Moves.self])
        plain.journal = LifeJournal()
        var steered = PersonLife(world: world, person: 1, processes: [Moves.self])
        steered.journal = LifeJournal()
        #expect(steered.mind(Moves.self) == Whereabouts())
        steered.steer(Moves.self) { $0.place = "gym" }
        #expect(steered.mind(Moves.self).place == "gym")
        _ = plain.run()
        _ = steered.run()
        let moves = { (l: PersonLife<ScrollOffProduct>) in l.journal!.occurrences.compactMap { $0.occurrence.value(as: String.self) } }
        #expect(!moves(plain).isEmpty && moves(plain).allSatisfy { $0 == "office" })
        // Steered before the life began: every move goes to the gym, at the same times.
        #expect(moves(steered).allSatisfy { $0 == "gym" } && moves(steered).count == moves(plain).count)
        let tasks = { (l: PersonLife<ScrollOffProduct>) in l.journal!.occurrences.compactMap { $0.occurrence.value(as: ThingToDo.self) } }
        #expect(tasks(plain) == tasks(steered) && !tasks(plain).isEmpty)
        // The task process's mind lived every thing to do, and its measures were booked from it.
        #expect(plain.mind(TaskProcess.self).records.count == tasks(plain).count)
        #expect(plain.summary.neutral.measures[.tasksArisen] == tasks(plain).count)
        // A copy of a life owns its minds: steering the copy leaves the original alone.
        var copy = steered
        copy.steer(Moves.self) { $0.place = "park" }
        #expect(steered.mind(Moves.self).place == "gym" && copy.mind(Moves.self).place == "park")
    }

    @Test("an occurrence is read as its type by a type-id comparison: another type reads nil")
    func occurrenceValueAsType() {
        let o = PersonOccurrence(process: "toy", value: 42)
        #expect(o.value(as: Int.self) == 42)
        #expect(o.value(as: String.self) == nil)
        #expect(o.value(as: ThingToDo.self) == nil)
    }
}

/// "Busy until t" (issue 42 item 2): an urge due while the person is busy is dropped, one after is not.
@Suite("Busy until")
struct BusyUntilTests {
    @Test("an urge due while busy is dropped, one due after is answered")
    func urgeWhileBusyIsDropped() throws {
        var life = PersonLife(world: try SteeredProcessTests.world(ScrollOffProduct.self, "scroll-off"), person: 0)
        let t = life.installedAt + .minutes(1)
        life.state.blockedApps = [AppID(1)]
        life.beBusy(until: t + .minutes(5), with: "scan")
        life.treatedPickup(PickupMechanismTests.urge(at: t + .minutes(2)), at: t + .minutes(2))
        #expect(life.cue == nil, "dropped")
        #expect(life.learningToday.urges == 1, "it still counts as an urge")
        life.treatedPickup(PickupMechanismTests.urge(at: t + .minutes(6)), at: t + .minutes(6))
        #expect(life.cue != nil, "answered: busy ended at its time")
        #expect(life.learningToday.urges == 2)
        // Ending early: busy until the adapter says so, then not.
        life.beBusy(with: "exercise")
        #expect(life.isBusy)
        life.endBusy()
        #expect(!life.isBusy)
    }

    @Test("lives with busy steps never hand their engine an event earlier than a previous one")
    func clockNeverGoesBack() throws {
        for person in 0..<4 {
            var so = PersonLife(world: try SteeredProcessTests.world(ScrollOffProduct.self, "scroll-off", days: 10), person: person)
            so.journal = LifeJournal()
            _ = so.run()
            let a = so.journal!.events.map(\.at)
            #expect(zip(a, a.dropFirst()).allSatisfy { $0.0 <= $0.1 }, "scroll-off person \(person)")
            var ea = PersonLife(world: try SteeredProcessTests.world(EarnedAccessProduct.self, "earned-access", days: 10), person: person)
            ea.journal = LifeJournal()
            _ = ea.run()
            let b = ea.journal!.events.map(\.at)
            #expect(zip(b, b.dropFirst()).allSatisfy { $0.0 <= $0.1 }, "earned-access person \(person)")
        }
    }
}
