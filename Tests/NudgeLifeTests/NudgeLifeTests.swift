import Behavior
import LifeHarness
import NudgeLife
import NudgeRules
import RulesCore
import Simulation
import Testing

/// Nudge's people followed through its adapter (the life harness): typed occurrences, events and decisions.
struct NudgeLifeTests {
    @Test("every capture decision is taken at a thing to do arising, once per thing (issue 29: the moment is the person's)")
    func captureHasItsMoment() throws {
        let harness = try LifeHarness(NudgeAdapter.self, people: 20, days: 7)
        var captures = 0
        for person in harness.people {
            let life = harness.live(person: person)
            let arose = life.journal.occurrences.filter { $0.occurrence.value(as: ThingToDo.self) != nil }.map(\.at)
            let decided = life.journal.decisions("capture").map(\.at)
            captures += decided.count
            // At most one capture decision per thing arisen, each at an instant a thing arose.
            #expect(Set(decided).isSubset(of: Set(arose)), "person \(person)")
            #expect(decided.count <= arose.count, "person \(person)")
        }
        #expect(captures > 0)
    }

    @Test("with nothing to do scripted and no pickup, the person captures nothing and is reminded of nothing")
    func nothingScriptedNothingCaptured() throws {
        let harness = try LifeHarness(NudgeAdapter.self, people: 10, days: 5)
        for person in harness.people {
            let life = harness.live(person: person, script: LifeScript())
            #expect(life.journal.occurrences.isEmpty, "person \(person)")
            #expect(life.journal.decisions("capture").isEmpty, "person \(person)")
            #expect(life.journal.decisions("reminder_reply").isEmpty, "person \(person)")
        }
    }
}

/// Nudge restricts no app (issue 42 item 3): it holds no blocker bookkeeping and keeps no true time saved.
struct NudgeNoBlockerLifeTests {
    @Test("Nudge's people have no blocker bookkeeping and no true time saved")
    func noBlocker() throws {
        let harness = try LifeHarness(NudgeAdapter.self, people: 6, days: 5)
        #expect(PersonLife(world: harness.world, person: 0).blocker == nil)
        for person in harness.people {
            #expect(harness.live(person: person).summary.trueMinutesSavedPerDay.isEmpty, "person \(person)")
        }
    }

    @Test("opening Nudge on a cue is the shared draw: never at scale 0, never while dormant")
    func opensAppOnCue() throws {
        let problems = try LifeHarness<NudgeAdapter>.opensAppOnCueProblems(.notification)
        #expect(problems.isEmpty, "\(problems)")
    }
}
