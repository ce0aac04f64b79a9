import Behavior
import Foundation
import NoAppLife
import NudgeLife
import NudgeRules
import ProductRegistry
import Reports
import RulesCore
import ScenarioFormat
import LifeHarness
import Testing
@testable import Simulation

/// Issue 29: Nudge's people and their things to do — tests that would catch a dishonest task tool: things to do
/// that are the product's rather than the person's, a product that takes away what the person would have done
/// anyway, AI cost that is not money, decisions without their moment.
struct NudgeAdapterTests {
    /// The person's pace held still: it does not move with what got done (tasks.efficacy_*) or the list's length
    /// (tasks.queue_weight), so their unaided fate is exactly the no-app one.
    static let stillTasks = "  tasks:\n    efficacy_gain: 0\n    efficacy_loss: 0\n    queue_weight: 0\n"
    /// Issue 39's costs of using a task tool, every one off (`TaskToolModel.costKeys` at 0).
    static let costsOff = "  attention:\n    card_seconds: 0\n    capture_seconds: 0\n    reminder_seconds: 0\n    resumption_lag_seconds: 0\n"
        + "  reminder:\n    cued_urge_scale: 0\n    fatigue_per_ignored: 0\n"

    @Test("with the costs of using it off (issue 39) and the person's pace held still, Nudge only adds: every thing is done no later than with no app")
    func nudgeNeverTakesAway() throws {
        let still = "behavior:\n" + Self.stillTasks + Self.costsOff
        let nudge = try TaskToolLives.lives(NudgeAdapter.self, TaskToolLives.scenario(product: "nudge", extra: still))
        let none = try TaskToolLives.lives(NoAppAdapter.self, TaskToolLives.scenario(product: "none", extra: still))
        var sooner = 0, rescued = 0, captured = 0
        for i in nudge.indices {
            for (n, u) in zip(nudge[i].tasks, none[i].tasks) {
                #expect(n.unaidedDoneAt == u.doneAt, "the unaided fate is the same person's")
                if let unaided = u.doneAt {
                    #expect(n.doneAt != nil && n.doneAt! <= unaided, "person \(i) thing \(n.task.ref) done later with Nudge")
                    if n.doneAt! < unaided { sooner += 1 }
                } else if n.doneAt != nil {
                    rescued += 1
                }
                if n.captured { captured += 1 }
            }
        }
        #expect(captured > 0 && sooner > 0 && rescued > 0, "captured \(captured), sooner \(sooner), rescued \(rescued)")
    }

    @Test("with its costs on (issue 39), Nudge can take away: attention spent in it makes things in progress later than with no app")
    func nudgeCanTakeAway() throws {
        // Pace held still, every cost at its default: the unaided fate differs from the no-app one only by the time
        // Nudge took (TaskMind.spendAttention), and only ever later.
        let still = "behavior:\n" + Self.stillTasks
        let s = try TaskToolLives.scenario(product: "nudge", extra: still)
        let world = try World<NudgeAdapter>(scenario: s, arm: s.arms[0], replication: 1)
        let none = try TaskToolLives.lives(NoAppAdapter.self, TaskToolLives.scenario(product: "none", extra: still))
        var later = 0, delayedByAttention = 0, seconds = 0.0
        for i in none.indices {
            var life = PersonLife(world: world, person: i)
            _ = life.run()
            delayedByAttention += life.state.thingsDelayed
            seconds += life.state.attentionSecondsTotal
            for (n, u) in zip(life.mind(TaskProcess.self).records, none[i].tasks) {
                if let a = n.unaidedDoneAt, let b = u.doneAt { #expect(a >= b, "person \(i) thing \(n.task.ref): the person's own means sped up") }
                #expect((n.unaidedDoneAt == nil) == (u.doneAt == nil), "what is forgotten is the person's")
                if let d = n.doneAt, let b = u.doneAt, d > b { later += 1 }
            }
        }
        #expect(seconds > 0 && delayedByAttention > 0 && later > 0, "attention \(seconds) s, delayed \(delayedByAttention), later \(later)")
    }

    @Test("with the costs set high (issue 39), Nudge's paired effect on things done on time against no app is negative")
    func highCostsMakeTheEffectNegative() throws {
        // Three hours of attention for each card, capture and reminder, and a day lost by the thing in progress to each
        // episode (resumption lag): the person's plans slide past their deadlines often enough to outweigh what Nudge
        // gets done (at the defaults — seconds — they do not; at an hour each it is about even).
        let high = "behavior:\n  attention:\n    card_seconds: 10800\n    capture_seconds: 10800\n    reminder_seconds: 10800\n"
            + "    resumption_lag_seconds: 86400\n"
        let nudge = try TaskToolLives.lives(NudgeAdapter.self, TaskToolLives.scenario(product: "nudge", extra: high))
        let none = try TaskToolLives.lives(NoAppAdapter.self, TaskToolLives.scenario(product: "none", extra: high))
        let onTime = (nudge.reduce(0) { $0 + $1.summary.neutral.measures[.tasksDoneOnTime] }, none.reduce(0) { $0 + $1.summary.neutral.measures[.tasksDoneOnTime] })
        #expect(onTime.0 < onTime.1, "on time with Nudge \(onTime.0), with no app \(onTime.1)")
    }

    @Test("a reminder seen is a pickup that can bring a target-app session (issue 39): with it off, Nudge leaves time in target apps exactly as no app")
    func remindersBringPickups() throws {
        func minutes<A: ProductAdapter>(_ a: A.Type, _ product: String, _ extra: String) throws -> (Int64, Int) {
            let lives = try TaskToolLives.lives(a, TaskToolLives.scenario(product: product, extra: extra))
            return (lives.reduce(0) { $0 + $1.summary.neutral.targetAppMs }, lives.reduce(0) { $0 + $1.summary.common[.pickups] })
        }
        let none = try minutes(NoAppAdapter.self, "none", "")
        let off = try minutes(NudgeAdapter.self, "nudge", "behavior:\n  reminder:\n    cued_urge_scale: 0\n")
        let on = try minutes(NudgeAdapter.self, "nudge", "behavior:\n  reminder:\n    cued_urge_scale: 3\n")
        #expect(off.0 == none.0 && off.1 == none.1, "off: \(off) against none \(none)")
        #expect(on.0 > none.0 && on.1 > none.1, "on: \(on) against none \(none)")
    }

    @Test("ignored reminders lose their pull (issue 39): with fatigue on, fewer reminders are acted on")
    func remindersTire() throws {
        func acted(_ fatigue: Double) throws -> Double {
            let lives = try TaskToolLives.lives(NudgeAdapter.self, TaskToolLives.scenario(product: "nudge", extra: "behavior:\n  reminder:\n    fatigue_per_ignored: \(fatigue)\n"))
            let sent = lives.reduce(0) { $0 + $1.summary.tally.counts[.remindersSent] }
            return Double(lives.reduce(0) { $0 + $1.summary.tally.counts[.remindersActed] }) / Double(max(1, sent))
        }
        let off = try acted(0), strong = try acted(2)
        #expect(strong < off, "acted share with fatigue \(strong), without \(off)")
    }

    @Test("with the person's pace free, Nudge moves it only through what got done: more things done on time, never fewer")
    func nudgeThroughThePersonsPace() throws {
        let nudge = try TaskToolLives.lives(NudgeAdapter.self, TaskToolLives.scenario(product: "nudge"))
        let none = try TaskToolLives.lives(NoAppAdapter.self, TaskToolLives.scenario(product: "none"))
        let onTime = (nudge.reduce(0) { $0 + $1.summary.neutral.measures[.tasksDoneOnTime] }, none.reduce(0) { $0 + $1.summary.neutral.measures[.tasksDoneOnTime] })
        #expect(onTime.0 > onTime.1, "on time with Nudge \(onTime.0), with no app \(onTime.1)")
        // The unaided fates differ only where the person's confidence or list moved (some do).
        let moved = zip(nudge, none).reduce(0) { acc, p in acc + zip(p.0.tasks, p.1.tasks).filter { $0.0.unaidedDoneAt != $0.1.doneAt }.count }
        #expect(moved > 0)
    }

    @Test("with nobody writing anything down, Nudge changes no thing to do and costs nothing")
    func noCaptureNoEffect() throws {
        let extra = "behavior:\n  capture:\n    constant: -20\n"
        let nudge = try TaskToolLives.lives(NudgeAdapter.self, TaskToolLives.scenario(product: "nudge", extra: extra), ledger: true)
        let none = try TaskToolLives.lives(NoAppAdapter.self, TaskToolLives.scenario(product: "none", extra: extra))
        for i in nudge.indices {
            #expect(nudge[i].tasks.map(\.doneAt) == none[i].tasks.map(\.doneAt), "person \(i)")
            #expect(nudge[i].summary.neutral.measures[.tasksDoneOnTime] == none[i].summary.neutral.measures[.tasksDoneOnTime])
            #expect(!nudge[i].ledger.contains { $0.kind == .serviceCost }, "no capture, no AI request")
        }
    }

    @Test("AI cost is money: every split and draft is a service-cost ledger line, and ai-cost.csv books them all")
    func aiCostIsMoney() throws {
        let lives = try TaskToolLives.lives(NudgeAdapter.self, TaskToolLives.scenario(product: "nudge"), ledger: true)
        var ledgerMicros: Int64 = 0, talliedMicros: Int64 = 0, requests = 0
        for l in lives {
            let lines = l.ledger.filter { $0.kind == .serviceCost }
            ledgerMicros += lines.reduce(0) { $0 + $1.amount.micros }
            for cells in l.summary.tally.ai.values {
                talliedMicros += cells[0].costMicros + cells[1].costMicros
                requests += cells[0].splits + cells[0].drafts + cells[1].splits + cells[1].drafts
            }
        }
        #expect(requests > 50, "AI requests happen: \(requests)")
        #expect(ledgerMicros == talliedMicros, "the report's cost is the ledger's")
        // Seed 001 §6: ~$0.00004 a split, ~$0.00003 a draft — the mean request costs between the two.
        let mean = Double(ledgerMicros) / Double(requests) / 1_000_000
        #expect(mean > 0.000025 && mean < 0.000045, "mean request cost \(mean)")
    }

    @Test("a tighter Free limit refuses more dumps on the same people")
    func freeLimitBinds() throws {
        func limitHits(_ n: Int) throws -> Int {
            let s = try TaskToolLives.scenario(product: "nudge", extra: "rules:\n  limits:\n    free_dumps_per_day: \(n)\nbehavior:\n  capture:\n    constant: 2\n")
            return try TaskToolLives.lives(NudgeAdapter.self, s).reduce(0) { $0 + $1.summary.tally.counts[.dumpLimitHits] }
        }
        let one = try limitHits(1), five = try limitHits(5)
        #expect(one > five, "limit 1: \(one) hits, limit 5: \(five)")
        #expect(one > 0)
    }

    @Test("Nudge's people leave by uninstalling or going dormant — it restricts nothing to revoke or lift")
    func leavingWithoutARestriction() throws {
        let lives = try TaskToolLives.lives(NudgeAdapter.self, TaskToolLives.scenario(product: "nudge", installs: 200, days: 40))
        let kinds = Set(lives.compactMap(\.summary.churn))
        #expect(kinds.isSubset(of: [ChurnKind.uninstall.rawValue, ChurnKind.dormant.rawValue]), "\(kinds)")
        #expect(!kinds.isEmpty)
        // Every decision had its moment (the audit stops a life otherwise).
        #expect(lives.allSatisfy { $0.summary.violation == nil })
    }
}
