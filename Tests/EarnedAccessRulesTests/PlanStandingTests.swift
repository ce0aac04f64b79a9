import HabitatTestSupport
import RulesCore
import Testing
@testable import EarnedAccessRules

/// Issue 27: the engine states the plan and its price (`RuleEngine.standing`, `mrrAtHorizon`, `listPrice(of:)`), so
/// nothing outside it divides a price by its period again.
@Suite("Earned Access's plan and price, as the engine states them (issue 27)")
struct PlanStandingTests {
    /// What the adapter used to compute: the price ÷ the period's months in micro-dollars truncated; nil for lifetime.
    static func monthly(_ plan: ProPlan, _ p: EarnedAccessParameters = .defaults) -> Money? {
        plan.periodMonths.map { Money(micros: p.price(of: plan).micros / Int64($0)) }
    }

    @Test("Free stands in `free`, worth nothing, with no MRR")
    func free() {
        var h = Harness()
        h.onboard()
        #expect(h.engine.standing == PlanStanding(segment: "free", monthlyPrice: .zero))
        #expect(h.engine.mrrAtHorizon(h.at(10, 0)) == nil)
    }

    @Test("The trial stands in `pro` worth nothing and without MRR; once charged, the plan's price per month")
    func trialThenPaid() {
        var h = Harness()
        h.onboard()
        h.send(.paywallResponse(.startTrial(.annual)), at: h.at(0, 9))
        #expect(h.engine.inTrial)
        #expect(h.engine.standing == PlanStanding(segment: "pro", monthlyPrice: .zero))
        #expect(h.engine.mrrAtHorizon(h.at(3, 0)) == nil)
        h.run(until: h.at(7, 10))
        #expect(!h.engine.inTrial)
        let monthly = Self.monthly(.annual)!
        #expect(monthly == Money(micros: 4_165_833))   // $49.99 a year
        #expect(h.engine.standing == PlanStanding(segment: "pro", monthlyPrice: monthly))
        #expect(h.engine.mrrAtHorizon(h.at(30, 0)) == monthly)
        #expect(h.engine.mrrAtHorizon(h.engine.periodEnd) == nil)
    }

    @Test("Every plan bought: the engine's standing and MRR are what the adapter computed; lifetime is worth no MRR")
    func everyPlan() {
        let p = params(["prices.lifetime_enabled": .bool(true)])
        for plan in ProPlan.allCases {
            var h = Harness(parameters: p)
            h.onboard()
            #expect(h.send(.paywallResponse(.buy(plan)), at: h.at(0, 9)).decision == .subscribed)
            #expect(h.engine.standing == PlanStanding(segment: "pro", monthlyPrice: Self.monthly(plan, p) ?? .zero))
            #expect(h.engine.mrrAtHorizon(h.at(20, 0)) == Self.monthly(plan, p))
            let price = h.engine.listPrice(of: plan)
            #expect(price == PlanPrice(price: p.price(of: plan), periodMonths: plan.periodMonths))
            #expect(price.monthlyUSD == plan.periodMonths.map { p.price(of: plan).usd / Double($0) })
        }
    }
}
