import Behavior
import Foundation
import Reports
import RulesCore
import ScenarioFormat
import Stochastics
import Testing
@testable import Simulation
import ProductRegistry

// A decision kind declared here, in a test file, not in Simulation (issue 42): the generic audit, counts, report
// rows and shard form take it as they take the life's own kinds.
extension DecisionKind {
    /// A toy's trick, two decisions an opportunity.
    static let toyTrick = DecisionKind("toy_trick", opportunity: "toy_task_arrived", perOpportunity: 2, outcomes: [.toyYes, .toyNo, .toyLater])
    /// Declared, but no toy lists it in `decisionKinds`.
    static let toyUnlisted = DecisionKind("toy_unlisted", opportunity: "never", outcomes: [.toyYes])
}

extension DecisionOutcome {
    static let toyYes = DecisionOutcome("toy_yes")
    static let toyNo = DecisionOutcome("toy_no")
    static let toyLater = DecisionOutcome("toy_later")
}

/// The toy product's people, at each task: the trick twice (yes, then no), or — faulty — a kind the toy does not
/// list, or an outcome its kind does not have.
enum TrickToy {
    enum Fault: Sendable { case none, unlistedKind, foreignOutcome }
    protocol Mode { static var fault: Fault { get } }
    enum Honest: Mode { static var fault: Fault { .none } }
    enum Unlisted: Mode { static var fault: Fault { .unlistedKind } }
    enum Foreign: Mode { static var fault: Fault { .foreignOutcome } }

    enum Adapter<M: Mode>: TaskToyAdapter {
        static var decisionKinds: [DecisionKind] { [.toyTrick, .churn, .dormantResponse] }
        static func occurrence(_ o: PersonOccurrence, _ life: inout PersonLife<Self>, at now: Instant) {
            life.send(.taskArrived, at: now)
            switch M.fault {
            case .none:
                life.offerDecision(.toyTrick, moment: now.millisecondsSinceEpoch)
                life.decide(.toyTrick, .toyYes, at: now)
                life.decide(.toyTrick, .toyNo, at: now)
            case .unlistedKind:
                life.decideAtMoment(.toyUnlisted, moment: now.millisecondsSinceEpoch, .toyYes, at: now)
            case .foreignOutcome:
                life.decideAtMoment(.toyTrick, moment: now.millisecondsSinceEpoch, .decline, at: now)
            }
        }
        static func observe(_ event: Toy.Event, _ life: inout PersonLife<Self>, at now: Instant) { life.summary.tally[.tasks] += 1 }
    }
}

@Suite("Decision kinds declared by their product, counted and written by id (issue 42)")
struct DeclaredDecisionTests {
    func scenario() throws -> ResolvedScenario {
        try ScenarioLoader(catalogues: Products.catalogues).load(yaml: DecisionAuditTests.yaml, fileName: "toy.yaml")
    }

    @Test("a kind declared outside Simulation is offered, decided, counted, reported, encoded and decoded")
    func declaredKindRoundTrip() throws {
        typealias A = TrickToy.Adapter<TrickToy.Honest>
        var run = SimulationRun<A>(scenario: try scenario(), threads: 2, processes: [Toy.Tasks.self])
        try run.simulate()
        let d = run.arms[0].pooled.decisions
        let tasks = run.arms[0].pooled.product.counts[.tasks]
        #expect(tasks > 40)
        #expect(d.layout === DecisionLayout.of(A.self) && d.layout.kinds.map(\.id) == ["toy_trick", "churn", "dormant_response"])
        #expect(d.opportunities(.toyTrick) == tasks && d.decisions(.toyTrick) == 2 * tasks)
        #expect(d.count(.toyTrick, .toyYes) == tasks && d.count(.toyTrick, .toyNo) == tasks && d.count(.toyTrick, .toyLater) == 0)
        #expect(d.opportunities(.paywallPurchase) == 0 && d.count(.paywallPurchase, .decline) == 0, "a kind the toy does not declare counts nothing")
        let rows = d.rows(ReportKeys(scenario: "toy", arm: "control", replication: 1, product: "toy"), kinds: A.decisionKinds)
        #expect(rows.count == 3 + 5 + 4)
        #expect(rows[1][4...] == [.text("toy_trick"), .text("toy_task_arrived"), .integer(2), .integer(Int64(tasks)),
                                  .integer(Int64(2 * tasks)), .text("toy_no"), .integer(Int64(tasks)), .rate(0.5)])

        // The shard form names kinds and outcomes by id and carries only what was counted.
        let json = String(decoding: try JSONEncoder().encode(d), as: UTF8.self)
        #expect(json.contains(#""kind":"toy_trick""#) && json.contains(#""outcome":"toy_no""#))
        #expect(!json.contains("toy_later") && !json.contains("paywall_purchase") && !json.contains("shield_choice"))
        let back = try JSONDecoder().decode(DecisionCounts.self, from: Data(json.utf8))
        #expect(back.count(.toyTrick, .toyNo) == tasks && back.decisions(.churn) == d.decisions(.churn))
        let bounds = AccumulatorBounds(people: 40, armPeople: 40, replications: 1, horizonDays: 4)
        try back.validate(bounds, at: "decisions", declared: .of(A.self))
        var merged = DecisionCounts(layout: .of(A.self))
        merged.merge(back)
        #expect(merged == d, "decoded counts merge by id into the declared layout, cell for cell")
        merged.merge(back)
        #expect(merged.count(.toyTrick, .toyYes) == 2 * tasks)
    }

    @Test("a decision of a kind the product does not list, or an outcome its kind does not have, stops the run")
    func undeclaredDecisions() throws {
        var unlisted = SimulationRun<TrickToy.Adapter<TrickToy.Unlisted>>(scenario: try scenario(), threads: 1, processes: [Toy.Tasks.self])
        do {
            try unlisted.simulate()
            Issue.record("a decision of an undeclared kind was not caught")
        } catch let v as InvariantViolation {
            #expect(v.invariant == "decision")
            #expect(v.problems == ["decision toy_unlisted of a kind the product does not declare (decisionKinds: toy_trick, churn, dormant_response)"])
        }
        var foreign = SimulationRun<TrickToy.Adapter<TrickToy.Foreign>>(scenario: try scenario(), threads: 1, processes: [Toy.Tasks.self])
        do {
            try foreign.simulate()
            Issue.record("an outcome its kind does not have was not caught")
        } catch let v as InvariantViolation {
            #expect(v.problems == ["decision toy_trick (decline): decline is not an outcome of toy_trick as the product declares it (toy_yes, toy_no, toy_later)"])
        }
    }

    @Test("a layout refuses a kind declared twice, an outcome listed twice and an allowance below 1")
    func invalidDeclarations() throws {
        let zero = DecisionKind("zero", opportunity: "o", perOpportunity: 0, outcomes: [.toyYes, .toyYes])
        do {
            _ = try DecisionLayout([.toyTrick, .churn, .toyTrick, zero])
            Issue.record("an invalid declaration made a layout")
        } catch let error as DecisionLayout.Invalid {
            #expect(error.problems == ["decision kind 'toy_trick' is declared twice", "decision kind 'zero' allows 0 decisions an opportunity; at least 1",
                                       "decision kind 'zero' lists outcome 'toy_yes' twice"])
        }
        #expect(try DecisionLayout([.toyTrick, .churn]).agrees(with: DecisionLayout([.toyTrick, .churn])))
        #expect(try !DecisionLayout([.toyTrick, .churn]).agrees(with: DecisionLayout([.churn, .toyTrick])))
    }

    @Test("read back from a shard, a kind or an outcome the product does not declare is refused, naming both")
    func unknownIdsAreRefused() throws {
        typealias A = TrickToy.Adapter<TrickToy.Honest>
        let bounds = AccumulatorBounds(people: 40, armPeople: 40, replications: 1, horizonDays: 4)
        func read(_ json: String) throws -> DecisionCounts { try JSONDecoder().decode(DecisionCounts.self, from: Data(json.utf8)) }
        let kind = try read(#"[{"kind":"toy_trick","opportunities":3,"decisions":3,"outcomes":[{"outcome":"toy_yes","count":3}]},"#
                            + #"{"kind":"made_up","opportunities":1,"decisions":1,"outcomes":[{"outcome":"toy_yes","count":1}]}]"#)
        #expect { try kind.validate(bounds, at: "decisions", declared: .of(A.self)) } throws: { error in
            "\(error)" == "decisions[made_up]: 'made_up' is not a decision kind of this product (it declares toy_trick, churn, dormant_response)"
        }
        let outcome = try read(#"[{"kind":"churn","opportunities":3,"decisions":3,"outcomes":[{"outcome":"stay","count":2},{"outcome":"levitate","count":1}]}]"#)
        #expect { try outcome.validate(bounds, at: "decisions", declared: .of(A.self)) } throws: { error in
            "\(error)" == "decisions[churn].levitate: 'levitate' is not an outcome of decision kind 'churn' (its outcomes: stay, uninstall, revoke_access, dormant, disable_restriction)"
        }
        let over = try read(#"[{"kind":"toy_trick","opportunities":1,"decisions":3,"outcomes":[{"outcome":"toy_yes","count":3}]}]"#)
        #expect { try over.validate(bounds, at: "decisions", declared: .of(A.self)) } throws: { error in
            "\(error)".hasPrefix("decisions[toy_trick].decisions: 3 > opportunities × 2")
        }
        #expect(throws: DecodingError.self) {
            try read(#"[{"kind":"churn","opportunities":0,"decisions":0,"outcomes":[]},{"kind":"churn","opportunities":0,"decisions":0,"outcomes":[]}]"#)
        }
    }
}
