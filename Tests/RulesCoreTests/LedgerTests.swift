import Testing
@testable import RulesCore

/// Issue 27: money is one ledger, costs included — a service cost is a ledger line of tokens × price, exact to the
/// micro-dollar; the revenue model says where costs are reported and which KPI caps consumables' share.
@Suite("The ledger's costs and the revenue model (issue 27)")
struct LedgerTests {
    @Test("A price times a count, quoted per one or per many, in exact integer micro-dollars rounded half away from zero")
    func priceTimesCount() {
        #expect(Money(micros: 2).times(3) == Money(micros: 6))                                // per token
        #expect(Money(usd: 0.60).times(1_234, per: 1_000_000) == Money(micros: 740))        // 740.4 → 740
        #expect(Money(usd: 0.60).times(1_235, per: 1_000_000) == Money(micros: 741))        // 741.0
        #expect(Money(micros: 1).times(5, per: 10) == Money(micros: 1))                     // 0.5 → 1
        #expect(Money(micros: 1).times(4, per: 10) == .zero)                                // 0.4 → 0
        #expect(Money(micros: 1).times(15, per: 10) == Money(micros: 2))                    // 1.5 → 2
        #expect(Money(micros: -1).times(15, per: 10) == Money(micros: -2))                  // away from zero
        #expect(Money(usd: 3).times(0, per: 1_000_000) == .zero)
        // 10¹² tokens at $1,000 per million: 10²¹ before the division — beyond 64 bits, exact at 128.
        #expect(Money(usd: 1_000).times(1_000_000_000_000, per: 1_000_000) == Money(micros: 1_000_000_000_000_000))
    }

    @Test("A service cost is tokens × price: a positive ledger line of its own kind, never a charge")
    func serviceCost() {
        let t = Instant(millisecondsSinceEpoch: 1_767_600_000_000)
        let perToken = LedgerEntry.serviceCost(at: t, tokens: 2_500, price: Money(micros: 3), productID: "ai.small")
        #expect(perToken.amount == Money(micros: 7_500) && perToken.kind == .serviceCost && perToken.productID == "ai.small")
        let perMillion = LedgerEntry.serviceCost(at: t, tokens: 1_234, price: Money(usd: 0.60), perTokens: 1_000_000, productID: "ai.plan")
        #expect(perMillion.amount == Money(micros: 740))
        #expect(perMillion.at == t)
        #expect(!LedgerEntry.Kind.serviceCost.isCharge)
        #expect(LedgerEntry.Kind.serviceCost.rawValue == "service_cost")
    }

    @Test("Costs are reported under the cost source; a product without one neither incurs costs nor, if free, sells")
    func sources() {
        let nudge = RevenueModel(planSegments: ["free", "pro"], costSource: "ai")
        #expect(nudge.incursCosts && nudge.sellsAnything)
        #expect(nudge.source(of: .serviceCost) == "ai")
        #expect(nudge.source(of: .subscriptionRenewal) == "subscriptions")
        let tokens = RevenueModel(planSegments: ["free", "pro"], consumableSource: "tokens")
        #expect(!tokens.incursCosts)
        #expect(tokens.source(of: .consumablePurchase) == "tokens")
        #expect(tokens.source(of: .serviceCost) == "service")   // booked even so, under a name of its own
        #expect(!RevenueModel.free.sellsAnything && !RevenueModel.free.incursCosts)
    }

    @Test("The consumable-share ceiling is the target maximum of the KPI the revenue model names")
    func consumableCeilingIsAKPITarget() {
        func descriptor(_ revenue: RevenueModel, _ kpis: [KPIDefinition]) -> ProductDescriptor {
            ProductDescriptor(id: "p", name: "P", seedFile: "none", summary: "", parameters: [], funnel: [], kpis: kpis,
                              batteryBudgets: .none, revenue: revenue, reports: [], inputs: [])
        }
        let share = KPIDefinition("token_revenue_share", unit: "fraction", targetMax: 0.20)
        let capped = RevenueModel(planSegments: ["free", "pro"], consumableSource: "tokens", consumableShareKPI: "token_revenue_share")
        #expect(descriptor(capped, [share]).consumableCeiling == 0.20)
        #expect(descriptor(capped, [KPIDefinition("token_revenue_share", unit: "fraction")]).consumableCeiling == nil)
        #expect(descriptor(RevenueModel(planSegments: ["free"], consumableSource: "tokens"), [share]).consumableCeiling == nil)
    }
}
