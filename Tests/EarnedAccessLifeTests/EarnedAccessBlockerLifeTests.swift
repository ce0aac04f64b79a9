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
        let harness = try LifeHarness(EarnedAccessAdapter.self, people: 12, days: 6, yaml: "behavior:\n  onboarding.completion.permission: 0\n")
        var script = LifeScript()
        for hour in [20.0, 30, 44] { script.urge(app: 1, after: .minutes(Int64(hour * 60)), intensity: 0.9, minutes: 10) }
        for person in harness.people {
            let life = harness.live(person: person, script: script)
            #expect(life.journal.decisions("onboarding_step").map(\.outcome) == ["drop_out"], "person \(person)")
            // Dormant from then on (a dormant person may come back later: `DormantModel`): their first day ends with a
            // dormant person's response, not a churn decision.
            let firstDayEnd = life.journal.decisions.dropFirst().first?.kind
            #expect(firstDayEnd == "dormant_response", "person \(person)")
            #expect(life.state.apps.isEmpty, "person \(person)")
            #expect(life.journal.events(named: "shield_shown").isEmpty, "person \(person)")
        }
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
