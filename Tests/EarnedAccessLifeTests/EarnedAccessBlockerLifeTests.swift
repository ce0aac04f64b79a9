import Behavior
@testable import EarnedAccessLife
import EarnedAccessRules
import LifeHarness
import RulesCore
import Simulation
import Testing

/// Earned Access through the shared blocker layer (issue 42 item 3): the permission step and leaving by unblocking.
struct EarnedAccessBlockerLifeTests {
    @Test("Screen Time refused at the permission step: the person drops out at step 0, is left dormant, picks no app and meets no shield")
    func permissionRefused() throws {
        let problems = try LifeHarness<EarnedAccessAdapter>.permissionRefusedProblems { $0.apps.isEmpty }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("leaving by unblocking: Earned Access's lift is done at once (no edit lock), so the person is not left leaving")
    func liftDoneAtOnce() throws {
        let harness = try LifeHarness(EarnedAccessAdapter.self, people: 2, days: 3)
        var life = PersonLife(world: harness.world, person: 0)
        #expect(life.blocker != nil)
        EarnedAccessAdapter.disableRestriction(&life, at: life.installedAt)
        #expect(life.blocker?.leavingByUnblocking == false)
        #expect(life.state.apps.isEmpty)
    }
}
