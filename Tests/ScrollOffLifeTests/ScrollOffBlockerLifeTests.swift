import Behavior
import LifeHarness
import RulesCore
@testable import ScrollOffLife
import ScrollOffRules
import Simulation
import Testing

/// Scroll Off through the shared blocker layer (issue 42 item 3): the permission step, the urge prologue, leaving by
/// unblocking, true time saved.
struct ScrollOffBlockerLifeTests {
    typealias ScrollOff = ScrollOffAdapter<ScrollOffEngine>

    @Test("Screen Time refused at the permission step: the person drops out at step 0, is left dormant, blocks nothing and meets no shield")
    func permissionRefused() throws {
        let problems = try LifeHarness<ScrollOff>.permissionRefusedProblems { $0.blockedApps.isEmpty }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("Screen Time granted: the permission step is completed by everyone, and some urge then meets a shield")
    func permissionGranted() throws {
        let harness = try LifeHarness(ScrollOff.self, people: 12, days: 6, yaml: "behavior:\n  onboarding.completion.permission: 1\n")
        var script = LifeScript()
        for hour in [20.0, 30, 44] { script.urge(app: 1, after: .minutes(Int64(hour * 60)), intensity: 0.9, minutes: 10) }
        var shields = 0
        for person in harness.people {
            let life = harness.live(person: person, script: script)
            #expect(life.journal.decisions("onboarding_step").first?.outcome == "complete", "person \(person)")
            shields += life.journal.events(named: "shield_shown").count
        }
        #expect(shields > 0)
    }

    @Test("a person leaving by unblocking keeps leaving while a restriction remains; the layer's bookkeeping is Scroll Off's")
    func leavingByUnblocking() throws {
        let harness = try LifeHarness(ScrollOff.self, people: 2, days: 3)
        var life = PersonLife(world: harness.world, person: 0)
        #expect(life.blocker != nil)
        #expect(life.blocker?.leavingByUnblocking == false)
        ScrollOff.disableRestriction(&life, at: life.installedAt)
        // Nothing was blocked yet: nothing remains to lift, and the person is leaving.
        #expect(life.blocker?.leavingByUnblocking == true)
        #expect(!ScrollOff.restrictionRemains(&life))
    }

    @Test("true time saved is kept a day at a time for Scroll Off's people, never negative")
    func trueTimeSavedKept() throws {
        let harness = try LifeHarness(ScrollOff.self, people: 6, days: 5)
        for person in harness.people {
            let life = harness.live(person: person)
            #expect(!life.summary.trueMinutesSavedPerDay.isEmpty, "person \(person)")
            #expect(life.summary.trueMinutesSavedPerDay.allSatisfy { $0 >= 0 }, "person \(person)")
        }
    }

    @Test("opening the app on a cue: never while dormant, never at scale 0, sometimes at scale 1")
    func opensAppOnCue() throws {
        let problems = try LifeHarness<ScrollOff>.opensAppOnCueProblems(.afterShield)
        #expect(problems.isEmpty, "\(problems)")
    }
}
