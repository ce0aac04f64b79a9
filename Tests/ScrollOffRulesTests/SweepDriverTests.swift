import Testing
import HabitatTestSupport
import RulesCore
@testable import ScrollOffRules

/// The shared sweep driver on the real engine: a fault injected into Scroll Off (`FaultyEngine`) is caught by the
/// same sweep `PropertyTests` runs, and shrunk to a sequence from which no single input can be dropped.
@Suite("Scroll Off sweeps catch and shrink an injected fault")
struct SweepDriverTests {
    /// The injected defect: reaching the daily earn cap counts as a broken invariant.
    enum CapHitIsBroken: EngineFault {
        static func problem(after event: ScrollOffEvent) -> String? {
            if case .earnAward(_, _, dailyCapHit: true) = event { return "daily earn cap reached (injected fault)" }
            return nil
        }
    }
    typealias Faulty = FaultyEngine<ScrollOffEngine, CapHitIsBroken>

    @Test("the first failing seed shrinks to a 1-minimal sequence that still reaches the cap")
    func injectedFaultShrinks() throws {
        let sweep = PropertyTests.sweep(of: Faulty.self, { $0.base })
        let failure = try #require(PropertyTests.seeds.lazy.compactMap { sweep.run(seed: $0).failure }.first,
                                   "no seed reached the daily earn cap: the injected fault was never exercised")
        expectShrunkToMinimal(failure, in: sweep, reporting: "daily earn cap reached (injected fault)")
    }
}
