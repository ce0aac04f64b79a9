import Behavior
import Foundation
import Reports
import RulesCore
import ScenarioFormat
import Stochastics
import Testing
@testable import Simulation
import ProductRegistry

/// The toy product's people, deciding at each task: once (as they should), or twice for one moment (a defect the
/// audit must catch, like audit 2026-11-25's E1 and E10), or without the product giving the moment at all.
enum DecidingToy {
    enum Fault: Sendable { case none, twice, withoutOpportunity }

    protocol Mode { static var fault: Fault { get } }
    enum Honest: Mode { static var fault: Fault { .none } }
    enum Twice: Mode { static var fault: Fault { .twice } }
    enum Unasked: Mode { static var fault: Fault { .withoutOpportunity } }

    enum Adapter<M: Mode>: TaskToyAdapter {
        static var decisionKinds: [DecisionKind] { [.paywallPurchase, .churn, .dormantResponse] }
        /// Each task shows a paywall (the opportunity); the person declines it.
        static func occurrence(_ o: PersonOccurrence, _ life: inout PersonLife<Self>, at now: Instant) {
            life.send(.taskArrived, at: now)
            if M.fault != .withoutOpportunity || life.state > 0 { life.offerDecision(.paywallPurchase, moment: now.millisecondsSinceEpoch) }
            life.state += 1
            life.decide(.paywallPurchase, .decline, at: now)
            if M.fault == .twice, life.state == 2 { life.decide(.paywallPurchase, .buyMonthly, at: now) }
        }
        static func observe(_ event: Toy.Event, _ life: inout PersonLife<Self>, at now: Instant) { life.summary.tally[.tasks] += 1 }
    }
}

@Suite("Every decision once, at its moment: the decision audit (issue 25)")
struct DecisionAuditTests {
    static let yaml = """
        name: toy
        horizon_days: 4
        replications: 1
        population:
          installs: 40
        """

    func scenario() throws -> ResolvedScenario {
        try ScenarioLoader(catalogues: Products.catalogues).load(yaml: Self.yaml, fileName: "toy.yaml")
    }

    @Test("honest decisions: one per opportunity, counted per kind and outcome, and a churn decision a day per person")
    func honestDecisionsAreCounted() throws {
        var run = SimulationRun<DecidingToy.Adapter<DecidingToy.Honest>>(scenario: try scenario(), threads: 2, processes: [Toy.Tasks.self])
        try run.simulate()
        let d = run.arms[0].pooled.decisions
        let tasks = run.arms[0].pooled.product.counts[.tasks]
        #expect(tasks > 40)
        #expect(d.opportunities(.paywallPurchase) == tasks && d.decisions(.paywallPurchase) == tasks)
        #expect(d.count(.paywallPurchase, .decline) == tasks && d.count(.paywallPurchase, .buyMonthly) == 0)
        #expect(d.opportunities(.churn) == d.decisions(.churn) && d.decisions(.churn) > 0)
        let rows = d.rows(ReportKeys(scenario: "toy", arm: "control", replication: 1, product: "toy"), kinds: [.paywallPurchase])
        #expect(rows.count == DecisionKind.paywallPurchase.outcomes.count)
        #expect(rows[0][4...] == [.text("paywall_purchase"), .text("paywall_shown"), .integer(1), .integer(Int64(tasks)),
                                  .integer(Int64(tasks)), .text("decline"), .integer(Int64(tasks)), .rate(1)])
    }

    @Test("an injected double decision stops the run with a replayable person id")
    func doubleDecisionStopsTheRun() throws {
        var run = SimulationRun<DecidingToy.Adapter<DecidingToy.Twice>>(scenario: try scenario(), threads: 2, processes: [Toy.Tasks.self])
        do {
            try run.simulate()
            Issue.record("a decision taken twice for one opportunity was not caught")
        } catch let v as InvariantViolation {
            #expect(v.invariant == "decision")
            #expect(v.problems == [v.problems[0]] && v.problems[0].contains("paywall_purchase (buy_monthly) beyond its opportunity's allowance of 1"))
            #expect(v.description.hasPrefix("decision invariant violated: person \(v.person)"))
            #expect(v.description.contains("replay: habitat trace SCENARIO --person \(v.person)"))
            // The lowest person id whose life broke it, as a sequential run would meet first.
            let world = try World<DecidingToy.Adapter<DecidingToy.Twice>>(scenario: try scenario(), arm: try scenario().arms[0], replication: 1)
            for p in 0..<v.person {
                var life = PersonLife(world: world, person: p, processes: [Toy.Tasks.self])
                #expect(life.run().violation == nil)
            }
            var life = PersonLife(world: world, person: v.person, processes: [Toy.Tasks.self])
            #expect(life.run().violation == v)
        }
    }

    @Test("a decision the product never gave the moment for is a violation too")
    func decisionWithoutOpportunity() throws {
        var run = SimulationRun<DecidingToy.Adapter<DecidingToy.Unasked>>(scenario: try scenario(), threads: 1, processes: [Toy.Tasks.self])
        #expect(throws: InvariantViolation.self) { try run.simulate() }
        do { try run.simulate() } catch let v as InvariantViolation {
            #expect(v.problems[0].contains("without its opportunity (paywall_shown)"))
        } catch { Issue.record("\(error)") }
    }
}
