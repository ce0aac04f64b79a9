import Foundation
import RulesCore
import Stochastics
import Testing
@testable import Behavior

/// Issue 39: what using a task tool costs the person, each mechanism against its source — attention taken from the
/// thing in progress (Altmann & Trafton 2004), reminders that lose their pull when ignored (Ancker et al. 2017), and
/// a notification pickup that can bring an urge for a target app (cue reactivity) — and each off at 0.
@Suite("Task tool costs (issue 39)")
struct TaskToolCostTests {
    static let zone = ZoneCalendar.utc
    static let noon = Instant(secondsSinceEpoch: 1_767_614_400)   // 2026-01-05 12:00 UTC, a Monday

    /// A person's mind holding one thing: arisen at `arisen`, of `effort` minutes, done unaided at once (start 0).
    static func mind(effort: Double = 30, arisen: Instant = noon) -> TaskMind {
        var person = Person.draw(persona: PersonaCatalog.worker, id: 1, seed: 7, replication: 0)
        person.tasks.forgetting = 0
        person.phoneUse.sleepStartHour = 23.5
        person.phoneUse.sleepHours = 7.5
        var m = TaskMind(person: person)
        let t = ThingToDo(ref: 1, kind: .errand, arisenAt: arisen, effortMinutes: effort, urgency: 0.5, deadline: arisen + .hours(2),
                          words: 4, recall: 0.9, start: 0)
        m.arise(t, model: TaskModel(), zone: zone)
        return m
    }

    @Test("attention spent while a thing is in progress delays it by the time spent plus the resumption lag (Altmann & Trafton 2004: 3.8 s)")
    func attentionDelaysTheThingInProgress() throws {
        var m = Self.mind()
        let done = try #require(m.record(1)?.doneAt)
        #expect(done == Self.noon + .minutes(30), "started at once, done after its effort")
        // Ten minutes in: in progress. 20 s read + 3.8 s lag.
        #expect(m.spendAttention(seconds: 20, resumptionLagSeconds: 3.8, at: Self.noon + .minutes(10)) == 1)
        #expect(m.record(1)?.doneAt == done + .milliseconds(23_800))
        #expect(m.record(1)?.unaidedDoneAt == done + .milliseconds(23_800), "the person's own means are slower by it")
    }

    @Test("a thing not started yet slides by the time spent, without the lag; one already done, one being helped, and attention of 0 do not move")
    func attentionSparesWhatIsNotInProgress() throws {
        var m = Self.mind(effort: 30)
        let done = try #require(m.record(1)?.doneAt)
        #expect(m.spendAttention(seconds: 0, resumptionLagSeconds: 0, at: Self.noon + .minutes(10)) == 0)
        #expect(m.record(1)?.doneAt == done)
        #expect(m.spendAttention(seconds: 60, resumptionLagSeconds: 3.8, at: done + .minutes(1)) == 0, "already done")
        // Not started yet (its effort is still all ahead): its time slides by the minute spent, no resumption lag.
        #expect(m.spendAttention(seconds: 60, resumptionLagSeconds: 3.8, at: Self.noon - .minutes(1)) == 1)
        #expect(m.record(1)?.doneAt == done + .seconds(60))
        // Done with a product's help: that episode is the help's own work, not delayed.
        m.doneWithHelp(1, at: Self.noon + .minutes(5))
        #expect(m.spendAttention(seconds: 60, resumptionLagSeconds: 3.8, at: Self.noon + .minutes(2)) == 0)
        #expect(m.record(1)?.doneAt == Self.noon + .minutes(5))
    }

    @Test("a notification pickup brings an urge at the phone's urge probability × the scale, from the caller's stream only")
    func cuedUrges() {
        let person = Person.draw(persona: PersonaCatalog.adhdAdult, id: 1, seed: 3, replication: 0)
        let process = PhoneUseProcess(person: person)
        let rng = RandomStream(seed: 5)
        var urges = 0
        let n = 20_000
        for _ in 0..<n {
            if let u = process.cuedUrge(scale: 1, at: Self.noon, rng: rng) {
                urges += 1
                if case let .urge(app) = u.source { #expect(person.apps.indices.contains(app)) } else { Issue.record("not an urge") }
                #expect(u.sessionLength.milliseconds >= 1000 && u.at == Self.noon)
            }
        }
        let share = Double(urges) / Double(n)
        #expect(abs(share - process.urgeProbability) < 0.015, "share \(share) vs \(process.urgeProbability)")
        #expect(process.cuedUrge(scale: 0, at: Self.noon, rng: rng) == nil)
        // The process's own pickups are untouched by cued urges drawn from another stream.
        var a = PhoneUseProcess(person: person), b = PhoneUseProcess(person: person)
        let ra = RandomStream(seed: 9), rb = RandomStream(seed: 9), other = RandomStream(seed: 10)
        var t = Self.noon
        for _ in 0..<200 {
            let pa = a.nextPickup(after: t, zone: Self.zone, rng: ra)
            _ = b.cuedUrge(scale: 2, at: t, rng: other)
            let pb = b.nextPickup(after: t, zone: Self.zone, rng: rb)
            #expect(pa == pb)
            t = pa.sessionEnd
        }
    }
}
