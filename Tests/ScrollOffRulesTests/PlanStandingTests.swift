import HabitatTestSupport
import RulesCore
import Testing
@testable import ScrollOffRules

/// Issue 27: the engine states the plan and its price (`RuleEngine.standing`, `mrrAtHorizon`, `listPrice(of:)`), so
/// nothing outside it divides a price by its period again.
@Suite("Scroll Off's plan and price, as the engine states them (issue 27)")
struct PlanStandingTests {
    @Test("Free stands in `free`, worth nothing, with no MRR")
    func free() {
        let h = Harness()
        #expect(h.engine.standing == PlanStanding(segment: "free", monthlyPrice: .zero))
        #expect(h.engine.mrrAtHorizon(h.at(10, 0)) == nil)
    }

    @Test("A subscriber stands in the plan's tier at its price per month (seed 000 §5.1), MRR while the period runs past the horizon")
    func subscribed() {
        for plan in Plan.allCases {
            var h = Harness()
            h.subscribe(plan, at: h.at(0, 8))
            let price = ScrollOffParameters.defaults.price(of: plan)
            // What the adapter used to compute: the price ÷ the period's months, in micro-dollars truncated.
            let monthly = Money(micros: price.micros / Int64(plan.periodMonths))
            #expect(h.engine.standing == PlanStanding(segment: plan.tier == .pro ? "pro" : "premium", monthlyPrice: monthly))
            #expect(h.engine.mrrAtHorizon(h.engine.periodEnd - .seconds(1)) == monthly)
            #expect(h.engine.mrrAtHorizon(h.engine.periodEnd) == nil)
            #expect(h.engine.listPrice(of: plan) == PlanPrice(price: price, periodMonths: plan.periodMonths))
            #expect(h.engine.listPrice(of: plan).monthlyUSD == price.usd / Double(plan.periodMonths))
        }
        var h = Harness()
        h.subscribe(.proAnnual, at: h.at(0, 8))
        #expect(h.engine.standing.monthlyPrice == Money(micros: 4_999_166))   // $59.99 a year
    }

    @Test("Cancelled, the plan stands until its period ends, then Free; a refund ends it at once")
    func cancelledAndRefunded() {
        var h = Harness()
        h.subscribe(.premiumMonthly, at: h.at(0, 8))
        h.send(.cancelSubscription, at: h.at(3, 8))
        #expect(h.engine.standing.segment == "premium")
        #expect(h.engine.mrrAtHorizon(h.at(20, 0)) == Money(usd: 4.99))
        h.run(until: h.at(40, 0))
        #expect(h.engine.standing == .unpaid())
        var r = Harness()
        r.subscribe(.proMonthly, at: r.at(0, 8))
        r.send(.refundSubscription, at: r.at(1, 8))
        #expect(r.engine.standing == .unpaid() && r.engine.mrrAtHorizon(r.at(2, 0)) == nil)
    }
}
