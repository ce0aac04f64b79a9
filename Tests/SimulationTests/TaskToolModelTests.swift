import Behavior
import Foundation
import NudgeLife
import Testing

/// What people do with a task-capture tool (`TaskToolModel`, issue 29 and 39), Nudge's model in its own folder
/// since issue 42.
@Suite("Task tool model")
struct TaskToolModelTests {
    @Test("ignored reminders lose their pull: the odds of acting × 0.70 per reminder ignored (Ancker et al. 2017); none at weight 0")
    func remindersTire() {
        let m = TaskToolModel()
        #expect(abs(m.reminderFatiguePerIgnored - 0.357) < 1e-12)
        func odds(_ p: Double) -> Double { p / (1 - p) }
        let p0 = m.reminderActProbability(valueFelt: 0.6, urgency: 0.5, ignoredRecently: 0)
        let p1 = m.reminderActProbability(valueFelt: 0.6, urgency: 0.5, ignoredRecently: 1)
        let p4 = m.reminderActProbability(valueFelt: 0.6, urgency: 0.5, ignoredRecently: 4)
        #expect(p0 > p1 && p1 > p4)
        #expect(abs(odds(p1) / odds(p0) - 0.70) < 0.001, "odds ratio \(odds(p1) / odds(p0))")
        var off = m
        off.reminderFatiguePerIgnored = 0
        #expect(off.reminderActProbability(valueFelt: 0.6, urgency: 0.5, ignoredRecently: 9) == off.reminderActProbability(valueFelt: 0.6, urgency: 0.5))
    }

    @Test("every cost is a catalogued parameter whose 0 switches its mechanism off")
    func costsAreSwitches() {
        for key in TaskToolModel.costKeys {
            let p = NudgeAdapter.behaviorParameters.first { $0.keyPath == key }
            #expect(p != nil, "\(key) catalogued by Nudge")
            #expect((p?.defaultValue.doubleValue ?? 0) > 0, "\(key) on by default")
        }
        var values = BehaviorValues(catalogue: NudgeAdapter.behaviorCatalogue)
        for key in TaskToolModel.costKeys { values[key] = 0 }
        let m = TaskToolModel(values: values)
        #expect(m.cardSeconds == 0 && m.captureSeconds == 0 && m.reminderSeconds == 0 && m.resumptionLagSeconds == 0
                && m.reminderCuedUrgeScale == 0 && m.reminderFatiguePerIgnored == 0)
    }
}
