import Behavior
import Reports
import RulesCore
import ScenarioFormat
import Testing
@testable import Simulation
import ProductRegistry
@testable import ScrollOffLife
@testable import EarnedAccessLife

/// Issue 27: money is one ledger, costs included. A toy product that sells a plan at onboarding and pays for an AI
/// request per task (`LedgerEntry.serviceCost`), with a per-user cost ceiling as the target of `cost_per_dau_day` in
/// its descriptor's KPI list; the free toy (`Toy`) shows that a product selling nothing reports no money KPIs.
enum CostToy {
    /// The AI request per task: 1 234 tokens at $0.60 per million tokens = 740 micro-dollars.
    static let request = (tokens: Int64(1_234), pricePerMillion: Money(usd: 0.60))
    static let plan = Money(usd: 4.99)

    struct Engine: RuleEngine {
        typealias Parameters = Toy.Parameters
        typealias Input = Toy.Input
        typealias Event = Toy.Event
        typealias Outcome = Toy.Outcome
        typealias Funnel = Toy.Funnel
        typealias Decision = Int
        typealias TimerKind = Int
        var open = 0
        var subscribed = false
        init(parameters: Parameters, zone: ZoneCalendar, installedAt: Instant) {}
        mutating func handle(_ input: Input, at now: Instant, into out: inout Outcome) {
            out = Outcome()
            switch input {
            case .opened:
                guard !subscribed else { return }
                subscribed = true
                out.ledger.append(LedgerEntry(at: now, amount: CostToy.plan, productID: "toy.pro.lifetime", kind: .subscriptionPurchase))
            case .taskArrived:
                open += 1
                out.events.append(.taskCaptured(open))
                out.ledger.append(.serviceCost(at: now, tokens: CostToy.request.tokens, price: CostToy.request.pricePerMillion,
                                               perTokens: 1_000_000, productID: "toy.ai.plan"))
            case .timer: break
            }
        }
        mutating func invariantViolations(at now: Instant) -> [String] { [] }
        static func timerInput(_ timer: Toy.Timer) -> Input { .timer(timer) }
        /// A one-time Pro purchase: `pro`, but no recurring revenue (the default `mrrAtHorizon`, nil).
        var standing: PlanStanding { subscribed ? PlanStanding(segment: "pro", monthlyPrice: .zero) : .unpaid() }
        static var descriptor: ProductDescriptor {
            ProductDescriptor(id: "toy", name: "Costly toy", seedFile: "none", summary: "tasks planned by an AI", parameters: [],
                              funnel: Toy.Engine.descriptor.funnel,
                              kpis: [KPIDefinition("tasks_per_person", unit: "count"),
                                     // The per-user cost ceiling: a KPI target like any other.
                                     KPIDefinition("cost_per_dau_day", unit: "usd", targetMax: 0.002, name: "AI cost per active day",
                                                   source: .assumption("a toy's ceiling"))],
                              batteryBudgets: .none, revenue: RevenueModel(planSegments: ["free", "pro"], costSource: "ai"),
                              reports: [], inputs: [EngineInputInfo("taskArrived", driven: true)])
        }
    }

    enum Adapter: ProductAdapter {
        typealias Engine = CostToy.Engine
        typealias Metrics = Toy.Metrics
        static func initialState() -> Int { 0 }
        static func initialTally() -> Counters<Toy.Count> { Counters() }
        static func onboard(_ life: inout PersonLife<Self>, at now: Instant) { life.send(.opened, at: now) }
        static func urge(for app: AppID, pickup: Pickup, _ life: inout PersonLife<Self>, at now: Instant) {}
        static func occurrence(_ o: PersonOccurrence, _ life: inout PersonLife<Self>, at now: Instant) { life.send(.taskArrived, at: now) }
        static func observe(_ event: Toy.Event, _ life: inout PersonLife<Self>, at now: Instant) {
            life.summary.tally[.tasks] += 1
            life.recordActiveDay()
        }
    }
}

@Suite("Money KPIs: gross margin, cost per DAU-day, and none for a product that sells nothing (issue 27)")
struct MoneyKPITests {
    static let yaml = """
        name: costly-toy
        horizon_days: 6
        replications: 1
        population:
          installs: 40
        """

    static func value(_ values: [(KPIDefinition, Double)], _ id: String) -> Double? { values.first { $0.0.id == id }?.1 }

    @Test("Gross margin and cost per DAU-day follow their formulas on a hand-made ledger")
    func formulasOnAHandMadeLedger() {
        var acc = RunAccumulator<CostToy.Adapter>(horizonDays: 6)
        let jan = MonthID(year: 2026, month: 1)
        var person = PersonRevenue()
        person.add(month: jan, source: "subscriptions", gross: Money(usd: 10), fee: Money(usd: 10).fraction(0.3))   // net 7.00
        person.add(month: jan, source: "subscriptions", gross: .zero, refund: Money(usd: 1), fee: .zero)             // net 6.00
        person.add(month: jan, source: "ai", gross: .zero, fee: .zero, cost: Money(usd: 1.5))
        person.add(month: jan, source: "ai", gross: .zero, fee: .zero, cost: Money(micros: 500_000))              // costs 2.00
        acc.revenue.add(person)
        acc.common[.inUseDays] = 8
        let values = acc.kpiValues()
        #expect(Self.value(values, "gross_margin") == (6.0 - 2.0) / 6.0)
        #expect(Self.value(values, "cost_per_dau_day") == 2.0 / 8.0)
        #expect(Self.value(values, "gross_revenue_usd") == 10 && Self.value(values, "net_revenue_usd") == 6)
        // No net revenue: no margin to take (NaN, reported empty).
        var free = RunAccumulator<CostToy.Adapter>(horizonDays: 6)
        var rider = PersonRevenue()
        rider.add(month: jan, source: "ai", gross: .zero, fee: .zero, cost: Money(usd: 1))
        free.revenue.add(rider)
        #expect(Self.value(free.kpiValues(), "gross_margin")!.isNaN)
        #expect(Self.value(free.kpiValues(), "cost_per_dau_day")!.isNaN)   // no person-day with the product in use
    }

    @Test("A product that sells nothing reports no money KPIs; its KPI ids are its accumulator's")
    func freeProductHasNoMoneyKPIs() {
        let ids = RunAccumulator<Toy.Adapter>(horizonDays: 6).kpiValues().map(\.0.id)
        for money in ["mrr_usd_at_horizon", "gross_revenue_usd", "net_revenue_usd", "subscriber_share", "gross_margin", "cost_per_dau_day"] {
            #expect(!ids.contains(money), "\(money)")
        }
        #expect(ids.contains("pickups_per_day") && ids.contains("battery_idle_pct_per_hour_p90"))
        #expect(RunAccumulator<Toy.Adapter>.kpiIDs == ids)
        // A product that sells: the four money KPIs and the gross margin after them, before the battery.
        let sells = RunAccumulator<ScrollOffProduct>(horizonDays: 6).kpiValues().map(\.0.id)
        let i = sells.firstIndex(of: "mrr_usd_at_horizon")!
        #expect(Array(sells[i...].prefix(6)) == ["mrr_usd_at_horizon", "gross_revenue_usd", "net_revenue_usd", "subscriber_share",
                                                "gross_margin", "battery_idle_pct_per_hour_p90"])
        #expect(!sells.contains("cost_per_dau_day"))
    }

    @Test("Service costs booked by the engine reach revenue.csv under the cost source, with no store fee, and the KPIs")
    func costsThroughAWholeRun() throws {
        let scenario = try ScenarioLoader(catalogues: Products.catalogues).load(yaml: Self.yaml, fileName: "costly-toy.yaml")
        var run = SimulationRun<CostToy.Adapter>(scenario: scenario, threads: 2, processes: [Toy.Tasks.self])
        try run.simulate()
        let pooled = run.arms[0].pooled
        let tasks = pooled.product.counts[.tasks]
        #expect(tasks > 40)
        let ai = pooled.revenue.cells.filter { $0.key.source == "ai" }.values.reduce(into: RevenueAccumulator.Totals()) { $0.add($1) }
        #expect(ai.cost == Money(micros: 740) * Int64(tasks))   // 1 234 tokens × $0.60 per million, each
        #expect(ai.gross == .zero && ai.storeFee == .zero && ai.payingPeople == 0 && ai.transactions == tasks)
        let subscriptions = pooled.revenue.cells.filter { $0.key.source == "subscriptions" }.values
        #expect(subscriptions.reduce(Money.zero) { $0 + $1.cost } == .zero)
        #expect(pooled.revenue.total.gross == CostToy.plan * Int64(pooled.people))
        let values = pooled.kpiValues()
        let net = pooled.revenue.total.net.usd, cost = pooled.revenue.total.cost.usd
        #expect(Self.value(values, "gross_margin") == (net - cost) / net)
        #expect(Self.value(values, "cost_per_dau_day") == cost / Double(pooled.common[.inUseDays]))
        // The ceiling is the descriptor's target, reported once, in Habitat's money block, not among the product's KPIs.
        let ceiling = values.filter { $0.0.id == "cost_per_dau_day" }
        #expect(ceiling.count == 1 && ceiling.first?.0.targetMax == 0.002 && ceiling.first?.0.name == "AI cost per active day")
        #expect(values.first?.0.id == "tasks_per_person" && values[1].0.id != "cost_per_dau_day")
        #expect(RunAccumulator<CostToy.Adapter>.kpiIDs == values.map(\.0.id))
        // A one-time plan: segment pro, no MRR.
        #expect(Self.value(values, "mrr_usd_at_horizon") == 0)
        // validate --explain names the cost source and its ceiling.
        #expect(ProductContract.explain(CostToy.Engine.descriptor).contains("service costs: ai (per-user ceiling: cost_per_dau_day ≤ 0.002 USD)"))
        #expect(ProductContract.explain(Toy.Engine.descriptor).contains("service costs: none"))
    }
}
