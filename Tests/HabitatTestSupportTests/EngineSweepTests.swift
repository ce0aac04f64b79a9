import Testing
import HabitatTestSupport
import RulesCore

/// The generic sweep driver on a toy engine with planted defects: it catches each one, shrinks the sequence to the
/// known minimal one, and passes a correct engine.
@Suite("EngineSweep: the generic property driver")
struct EngineSweepTests {
    static let t0 = Instant(secondsSinceEpoch: 1_767_571_200)   // 2026-01-05T00:00:00Z

    static func toySweep(_ parameters: ToyEngine.Parameters, steps: Int = 200,
                         properties: @escaping () -> (SweepStep<ToyEngine>) -> [String] = { { _ in [] } }) -> EngineSweep<ToyEngine> {
        EngineSweep(start: SweepStart(parameters: parameters, zone: .utc, installedAt: t0), steps: steps,
                    nextInstant: { r, _, now in now + .minutes(Int64(r.below(90))) }, drain: .hours(2), properties: properties) { r, _, _ in
            r.pick([ToyEngine.Input.a, .b, .c, .d, .d])
        }
    }

    static func letters(_ inputs: [SweepInput<ToyEngine.Input>]) -> [ToyEngine.Input] { inputs.map(\.input) }

    @Test("a correct engine passes every seed, and the sweep really drove it (events, timers delivered)")
    func correctEnginePasses() {
        let sweep = Self.toySweep(ToyEngine.Parameters())
        for seed in UInt64(1)...20 {
            let run = sweep.run(seed: seed)
            #expect(run.failure == nil, "seed \(seed): \(run.failure.map(String.init(describing:)) ?? "")")
            #expect(run.inputs.count == 200)
            #expect(run.events.contains { $0.event.name.hasPrefix("timer(") }, "seed \(seed): no timer was delivered")
            #expect(zip(run.events, run.events.dropFirst()).allSatisfy { $0.at <= $1.at }, "events out of time order")
        }
    }

    @Test("a broken invariant reached through a timer is caught and shrunk to exactly [a, b] and the timer",
          arguments: [UInt64(1), 2, 3, 7, 42])
    func plantedPatternShrinksToMinimal(seed: UInt64) throws {
        let run = Self.toySweep(ToyEngine.Parameters(patternDefect: true)).run(seed: seed)
        let failure = try #require(run.failure, "seed \(seed): the planted defect was not caught")
        #expect(failure.originalCount > 2, "the random sequence was already minimal: the test shows nothing")
        #expect(Self.letters(failure.minimal) == [.a, .b])
        // The failure is the timer's delivery an hour after `b`: the replay runs timers to exactly there.
        #expect(failure.end == failure.minimal[1].at + .hours(1))
        #expect(failure.problems.count == 1 && failure.problems[0].contains("progress reached 3 (planted defect)"), "\(failure.problems)")
        #expect(failure.trace.count == 3 && failure.trace[2].hasPrefix("· "), "\(failure.trace)")
        let report = failure.description
        #expect(report.contains("sweep failed for seed \(seed):"))
        #expect(report.contains("shrunk to 2"))
        #expect(report.contains("progress reached 3"))
        // The minimal sequence replays to the same failure from a fresh engine.
        let replay = Self.toySweep(ToyEngine.Parameters(patternDefect: true)).replay(failure.start, failure.minimal, end: failure.end)
        #expect(replay.problems == failure.problems)
    }

    @Test("a timer armed at the call's own instant is caught, shrunk to the single input that armed it")
    func timerNotInTheFuture() throws {
        let failure = try #require(Self.toySweep(ToyEngine.Parameters(pastTimerDefect: true)).run(seed: 5).failure)
        #expect(Self.letters(failure.minimal) == [.d])
        #expect(failure.problems.first?.contains("is not after the call") == true, "\(failure.problems)")
    }

    @Test("an input drawn before the clock (instants going backwards) is caught")
    func instantsNeverGoBackwards() throws {
        let sweep = EngineSweep<ToyEngine>(start: SweepStart(parameters: ToyEngine.Parameters(), zone: .utc, installedAt: Self.t0), steps: 50,
                                           nextInstant: { r, _, now in now + .minutes(Int64(r.below(30)) - 3) }) { r, _, _ in r.pick([.a, .c, .d]) }
        let failure = try #require(sweep.run(seed: 9).failure)
        #expect(failure.problems.first?.contains("instants went backwards") == true, "\(failure.problems)")
    }

    @Test("a stateful extra property gets a fresh checker per replay: 'at most three d per run' shrinks to four d")
    func statefulPropertyShrinks() throws {
        let sweep = Self.toySweep(ToyEngine.Parameters()) {
            var ds = 0
            return { step in
                if step.input == .d { ds += 1 }
                return ds > 3 ? ["\(ds) times d"] : []
            }
        }
        let failure = try #require(sweep.run(seed: 11).failure)
        #expect(Self.letters(failure.minimal) == [.d, .d, .d, .d])
        #expect(failure.problems.first?.hasSuffix("4 times d") == true, "\(failure.problems)")
    }

    @Test("the one-call form returns the shrunk failure of every failing seed, and nothing for a correct engine")
    func oneCallForm() {
        let start = SweepStart<ToyEngine>(parameters: ToyEngine.Parameters(patternDefect: true), zone: .utc, installedAt: Self.t0)
        let failures = sweep(engine: ToyEngine.self, seeds: 1...10, steps: 100, start: start, drain: .hours(2)) { r, _, _ in r.pick([.a, .b, .c, .d]) }
        #expect(!failures.isEmpty)
        #expect(failures.allSatisfy { Self.letters($0.minimal) == [.a, .b] }, "\(failures.map(\.minimal.count))")
        #expect(failures.map(\.seed) == failures.map(\.seed).sorted())
        var correct = start
        correct.parameters = ToyEngine.Parameters()
        #expect(sweep(engine: ToyEngine.self, seeds: 1...10, steps: 100, start: correct, drain: .hours(2)) { r, _, _ in r.pick([.a, .b, .c, .d]) }.isEmpty)
    }

    @Test("the same seed draws the same sequence; different seeds differ")
    func replayable() {
        let sweep = Self.toySweep(ToyEngine.Parameters(), steps: 60)
        let one = sweep.run(seed: 3), again = sweep.run(seed: 3), other = sweep.run(seed: 4)
        #expect(one.inputs.map(\.at) == again.inputs.map(\.at) && Self.letters(one.inputs) == Self.letters(again.inputs))
        #expect(Self.letters(one.inputs) != Self.letters(other.inputs))
    }
}
