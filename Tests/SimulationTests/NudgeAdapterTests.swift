import Behavior
import Foundation
import NoAppLife
import NudgeLife
import NudgeRules
import ProductRegistry
import Reports
import RulesCore
import ScenarioFormat
import ScrollOffLife
import ScrollOffRules
import Testing
@testable import Simulation

/// Issue 29: Nudge's people and their things to do — tests that would catch a dishonest task tool: things to do
/// that are the product's rather than the person's, a product that takes away what the person would have done
/// anyway, AI cost that is not money, decisions without their moment.
struct NudgeAdapterTests {
    typealias ScrollOff = ScrollOffAdapter<ScrollOffEngine>

    static func scenario(product: String, installs: Int = 150, days: Int = 28, extra: String = "") throws -> ResolvedScenario {
        let yaml = "name: t\nproduct: \(product)\nhorizon_days: \(days)\npopulation:\n  installs: \(installs)\n"
            + "  personas: [{name: adhd-adult, share: 0.5}, {name: worker, share: 0.5}]\n" + extra
        return try ScenarioLoader(catalogues: Products.catalogues).load(yaml: yaml, fileName: "nudge.yaml")
    }

    /// Every person's life run to its horizon (replication 1), with what became of their things to do.
    static func lives<A: ProductAdapter>(_: A.Type, _ s: ResolvedScenario, ledger: Bool = false) throws -> [(summary: LifeSummary<A>, tasks: [TaskRecord], ledger: [LedgerEntry])] {
        let world = try World<A>(scenario: s, arm: s.arms[0], replication: 1)
        return (0..<s.arms[0].population.installs).map { id in
            var life = PersonLife(world: world, person: id)
            if ledger { life.ledgerLog = [] }
            let summary = life.run()
            return (summary, life.tasks.records, life.ledgerLog ?? [])
        }
    }

    @Test("things to do are the person's: the same things arise, due the same, under Nudge, Scroll Off and no app")
    func thingsToDoArePeoples() throws {
        let nudge = try Self.lives(NudgeAdapter.self, Self.scenario(product: "nudge"))
        let none = try Self.lives(NoAppAdapter.self, Self.scenario(product: "none"))
        let scrollOff = try Self.lives(ScrollOff.self, Self.scenario(product: "scroll-off"))
        var arisen = 0
        for i in nudge.indices {
            #expect(nudge[i].tasks.map(\.task) == none[i].tasks.map(\.task), "person \(i)")
            #expect(scrollOff[i].tasks.map(\.task) == none[i].tasks.map(\.task), "person \(i)")
            // Unaided, what the person does is the same with Scroll Off as with no app: nothing there touches tasks.
            #expect(scrollOff[i].tasks.map(\.doneAt) == none[i].tasks.map(\.doneAt), "person \(i)")
            arisen += none[i].tasks.count
        }
        // About six a day over 28 days (tasks_per_day median 6), minus the days before install.
        #expect(arisen > 150 * 20 * 3, "things to do arise: \(arisen)")
    }

    @Test("Nudge only adds: with the person's task confidence and list held still, every thing is done no later than with no app")
    func nudgeNeverTakesAway() throws {
        // Held still: the person's pace does not move with what got done (tasks.efficacy_*) or the list's length
        // (tasks.queue_weight), so their unaided fate is exactly the no-app one.
        let still = "behavior:\n  tasks:\n    efficacy_gain: 0\n    efficacy_loss: 0\n    queue_weight: 0\n"
        let nudge = try Self.lives(NudgeAdapter.self, Self.scenario(product: "nudge", extra: still))
        let none = try Self.lives(NoAppAdapter.self, Self.scenario(product: "none", extra: still))
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

    @Test("with the person's pace free, Nudge moves it only through what got done: more things done on time, never fewer")
    func nudgeThroughThePersonsPace() throws {
        let nudge = try Self.lives(NudgeAdapter.self, Self.scenario(product: "nudge"))
        let none = try Self.lives(NoAppAdapter.self, Self.scenario(product: "none"))
        let onTime = (nudge.reduce(0) { $0 + $1.summary.neutral.tasksDoneOnTime }, none.reduce(0) { $0 + $1.summary.neutral.tasksDoneOnTime })
        #expect(onTime.0 > onTime.1, "on time with Nudge \(onTime.0), with no app \(onTime.1)")
        // The unaided fates differ only where the person's confidence or list moved (some do).
        let moved = zip(nudge, none).reduce(0) { acc, p in acc + zip(p.0.tasks, p.1.tasks).filter { $0.0.unaidedDoneAt != $0.1.doneAt }.count }
        #expect(moved > 0)
    }

    @Test("with nobody writing anything down, Nudge changes no thing to do and costs nothing")
    func noCaptureNoEffect() throws {
        let extra = "behavior:\n  capture:\n    constant: -20\n"
        let nudge = try Self.lives(NudgeAdapter.self, Self.scenario(product: "nudge", extra: extra), ledger: true)
        let none = try Self.lives(NoAppAdapter.self, Self.scenario(product: "none", extra: extra))
        for i in nudge.indices {
            #expect(nudge[i].tasks.map(\.doneAt) == none[i].tasks.map(\.doneAt), "person \(i)")
            #expect(nudge[i].summary.neutral.tasksDoneOnTime == none[i].summary.neutral.tasksDoneOnTime)
            #expect(!nudge[i].ledger.contains { $0.kind == .serviceCost }, "no capture, no AI request")
        }
    }

    @Test("AI cost is money: every split and draft is a service-cost ledger line, and ai-cost.csv books them all")
    func aiCostIsMoney() throws {
        let lives = try Self.lives(NudgeAdapter.self, Self.scenario(product: "nudge"), ledger: true)
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
            let s = try Self.scenario(product: "nudge", extra: "rules:\n  limits:\n    free_dumps_per_day: \(n)\nbehavior:\n  capture:\n    constant: 2\n")
            return try Self.lives(NudgeAdapter.self, s).reduce(0) { $0 + $1.summary.tally.counts[.dumpLimitHits] }
        }
        let one = try limitHits(1), five = try limitHits(5)
        #expect(one > five, "limit 1: \(one) hits, limit 5: \(five)")
        #expect(one > 0)
    }

    @Test("Nudge's people leave by uninstalling or going dormant — it restricts nothing to revoke or lift")
    func leavingWithoutARestriction() throws {
        let lives = try Self.lives(NudgeAdapter.self, Self.scenario(product: "nudge", installs: 200, days: 40))
        let kinds = Set(lives.compactMap(\.summary.churn))
        #expect(kinds.isSubset(of: [ChurnKind.uninstall.rawValue, ChurnKind.dormant.rawValue]), "\(kinds)")
        #expect(!kinds.isEmpty)
        // Every decision had its moment (the audit stops a life otherwise).
        #expect(lives.allSatisfy { $0.summary.violation == nil })
    }
}
