import EarnedAccessRules
import HabitatTestSupport
import RulesCore
import ScenarioFormat
import ScrollOffRules
import Testing
@testable import Simulation
import ProductRegistry
@testable import ScrollOffLife
@testable import EarnedAccessLife

/// Issue 27: the generic life reads a person's plan and MRR from the engine (`RuleEngine.standing`,
/// `mrrAtHorizon`); the adapters no longer re-derive them. On whole lives of both products, the engine's answer at
/// the horizon is what the adapters used to compute from the plan held and the scenario's prices.
@Suite("The engine's standing and MRR on whole lives (issue 27)", .serialized)
struct EngineStandingTests {
    static func scenario(_ product: String, _ extra: String = "") -> ResolvedScenario {
        try! ScenarioLoader(catalogues: Products.catalogues).load(yaml: """
            name: standing
            product: \(product)
            start: 2026-01-05
            horizon_days: 40
            population:
              installs: 160
            """ + "\n" + MechanismBehavior.yaml() + extra, fileName: "standing.yaml")
    }

    @Test("Scroll Off: the segment is the plan's tier and MRR its price ÷ months, as ScrollOffAdapter computed")
    func scrollOff() throws {
        let s = Self.scenario("scroll-off")
        let world = try World<ScrollOffProduct>(scenario: s, arm: s.arms[0], replication: 1)
        var paying = 0, mrr = 0
        for person in 0..<s.arms[0].population.installs {
            var life = PersonLife(world: world, person: person)
            let summary = life.run()
            let e = life.engine
            // The adapter's former hooks, restated.
            let monthly = e.plan.map { Money(micros: world.parameters.price(of: $0).micros / Int64($0.periodMonths)) }
            let standing = e.plan.map { PlanStanding(segment: $0.tier == .pro ? "pro" : "premium", monthlyPrice: monthly!) } ?? .unpaid()
            let mrrAtHorizon = e.plan != nil && e.periodEnd > life.horizonEnd ? monthly : nil
            #expect(e.standing == standing, "person \(person)")
            #expect(e.mrrAtHorizon(life.horizonEnd) == mrrAtHorizon, "person \(person)")
            #expect(summary.mrrAtEnd == mrrAtHorizon ?? .zero, "person \(person)")
            if e.plan != nil { paying += 1 }
            if mrrAtHorizon != nil { mrr += 1 }
        }
        #expect(paying > 0 && mrr > 0, "\(paying) people on a plan, \(mrr) with MRR at the horizon")
    }

    @Test("Earned Access: `pro` at the plan's price ÷ months, nothing in the trial or on lifetime, as EarnedAccessAdapter computed")
    func earnedAccess() throws {
        let s = Self.scenario("earned-access", "rules:\n  prices:\n    lifetime_enabled: true\n")
        let world = try World<EarnedAccessProduct>(scenario: s, arm: s.arms[0], replication: 1)
        var paying = 0, mrr = 0
        for person in 0..<s.arms[0].population.installs {
            var life = PersonLife(world: world, person: person)
            let summary = life.run()
            let e = life.engine
            let monthly = e.plan.flatMap { p in p.periodMonths.map { Money(micros: world.parameters.price(of: p).micros / Int64($0)) } }
            let standing = e.plan.map { _ in PlanStanding(segment: "pro", monthlyPrice: e.inTrial ? .zero : monthly ?? .zero) } ?? .unpaid()
            let mrrAtHorizon = e.plan != nil && !e.inTrial && e.periodEnd > life.horizonEnd ? monthly : nil
            #expect(e.standing == standing, "person \(person)")
            #expect(e.mrrAtHorizon(life.horizonEnd) == mrrAtHorizon, "person \(person)")
            #expect(summary.mrrAtEnd == mrrAtHorizon ?? .zero, "person \(person)")
            if e.plan != nil { paying += 1 }
            if mrrAtHorizon != nil { mrr += 1 }
        }
        #expect(paying > 0 && mrr > 0, "\(paying) people on a plan, \(mrr) with MRR at the horizon")
    }
}
