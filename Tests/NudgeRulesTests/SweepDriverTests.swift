import Testing
import HabitatTestSupport
import RulesCore
@testable import NudgeRules

/// The shared sweep driver on Nudge: a fault injected into the engine (`FaultyEngine`) is caught by the same sweep
/// `PropertyTests` runs, and shrunk to a sequence from which no single input can be dropped.
@Suite("Nudge sweeps catch and shrink an injected fault")
struct SweepDriverTests {
    /// The injected defect: a sent nudge counts as a broken invariant.
    enum NudgeIsBroken: EngineFault {
        static func problem(after event: NudgeEvent) -> String? {
            if case .nudgeSent = event { return "nudge sent (injected fault)" }
            return nil
        }
    }
    typealias Faulty = FaultyEngine<NudgeEngine, NudgeIsBroken>

    @Test("the first failing seed shrinks to a 1-minimal sequence that still sends a nudge")
    func injectedFaultShrinks() throws {
        let sweep = PropertyTests.sweep(of: Faulty.self, { $0.base })
        let failure = try #require(PropertyTests.seeds.lazy.compactMap { sweep.run(seed: $0).failure }.first,
                                   "no seed sent a nudge: the injected fault was never exercised")
        expectShrunkToMinimal(failure, in: sweep, reporting: "nudge sent (injected fault)")
    }
}
