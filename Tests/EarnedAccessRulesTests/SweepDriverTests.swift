import Testing
import HabitatTestSupport
import RulesCore
@testable import EarnedAccessRules

/// The shared sweep driver on Earned Access: a fault injected into the engine (`FaultyEngine`) is caught by the same
/// sweep `PropertyTests` runs, and shrunk to a sequence from which no single input can be dropped.
@Suite("Earned Access sweeps catch and shrink an injected fault")
struct SweepDriverTests {
    /// The injected defect: a granted emergency unlock counts as a broken invariant.
    enum EmergencyIsBroken: EngineFault {
        static func problem(after event: EarnedAccessEvent) -> String? {
            if case .unlockGranted(_, .emergency, _, _) = event { return "emergency granted (injected fault)" }
            return nil
        }
    }
    typealias Faulty = FaultyEngine<EarnedAccessEngine, EmergencyIsBroken>

    @Test("the first failing seed shrinks to a 1-minimal sequence that still reaches an emergency grant")
    func injectedFaultShrinks() throws {
        let sweep = PropertyTests.sweep(of: Faulty.self, { $0.base })
        let failure = try #require(PropertyTests.seeds.lazy.compactMap { sweep.run(seed: $0).failure }.first,
                                   "no seed granted an emergency unlock: the injected fault was never exercised")
        expectShrunkToMinimal(failure, in: sweep, reporting: "emergency granted (injected fault)")
    }
}
