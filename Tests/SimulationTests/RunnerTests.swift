import Synchronization
import Testing
import Reports
@testable import Simulation

/// A floating-point accumulator whose result depends on the order of additions.
struct FloatSum: Mergeable, Sendable, Equatable {
    var sum = 0.0
    var count = 0
    var firstPeople: [Int] = []
    mutating func merge(_ o: FloatSum) {
        sum += o.sum
        count += o.count
        if firstPeople.count < 5 { firstPeople += o.firstPeople.prefix(5 - firstPeople.count) }
    }
}

@Suite("Person-parallel runner")
struct RunnerTests {
    func simulate(_ person: Int, _ acc: inout FloatSum) {
        // Values spanning many magnitudes, so the floating-point sum is order-sensitive.
        var x = Double(person &* 2_654_435_761 % 1_000_003)
        for _ in 0..<10 { x = x * 1.000001 + 1e-7 }
        acc.sum += x * (person % 3 == 0 ? 1e9 : 1e-9)
        acc.count += 1
        if acc.firstPeople.count < 5 { acc.firstPeople.append(person) }
    }

    @Test(arguments: [1, 2, 3, 8])
    func resultsAreBitIdenticalForAnyThreadCount(threads: Int) throws {
        let reference = try PersonParallelRunner(threads: 1, blockSize: 16).run(people: 10_007, makeAccumulator: { FloatSum() }) { p, a in simulate(p, &a) }
        let parallel = try PersonParallelRunner(threads: threads, blockSize: 16).run(people: 10_007, makeAccumulator: { FloatSum() }) { p, a in simulate(p, &a) }
        #expect(parallel.sum.bitPattern == reference.sum.bitPattern)
        #expect(parallel.count == 10_007)
        #expect(parallel.firstPeople == [0, 1, 2, 3, 4])
    }

    @Test func aStopRequestInterruptsTheRun() {
        let done = Atomic<Int>(0)
        #expect(throws: RunInterrupted.self) {
            _ = try PersonParallelRunner(threads: 2, blockSize: 4).run(
                people: 100_000, makeAccumulator: { FloatSum() },
                shouldStop: { done.load(ordering: .relaxed) >= 50 }
            ) { p, a in
                simulate(p, &a)
                done.add(1, ordering: .relaxed)
            }
        }
        #expect(done.load(ordering: .relaxed) < 100_000)
    }

    @Test func aPersonsErrorStopsTheRunAndIsReported() {
        struct Broken: Error, Equatable { let person: Int }
        #expect(throws: Broken(person: 77)) {
            _ = try PersonParallelRunner(threads: 2, blockSize: 8).run(people: 1000, makeAccumulator: { FloatSum() }) { p, a in
                if p == 77 { throw Broken(person: 77) }
                simulate(p, &a)
            }
        }
    }

    @Test func progressIsReportedUpToTheTotal() throws {
        let maxSeen = Atomic<Int>(0)
        _ = try PersonParallelRunner(threads: 2, blockSize: 10).run(people: 95, makeAccumulator: { FloatSum() },
                                                                    progress: { n in maxSeen.max(n, ordering: .relaxed) }) { p, a in simulate(p, &a) }
        #expect(maxSeen.load(ordering: .relaxed) == 95)
    }
}
