import Testing
@testable import RulesCore

/// A toy engine that sells `ToyPlan`s: it writes only the rules of its own (buy, a period's end) and takes its timer
/// input, its convenience `handle(_:at:)`, its `standing`, `mrrAtHorizon` and plan state from RulesCore.
struct ToySubscriptionEngine: SubscriptionEngine {
    struct Parameters: EngineParameters { init(values: ParameterValues) {}; init() {} }
    enum TimerKind: Hashable, Sendable { case periodEnd }
    enum Input: Hashable, Sendable, TimerDelivering { case buy(ToyPlan), timer(ArmedTimer<TimerKind>) }
    enum Decision: OutcomeDecision { case ok, refused }
    enum Effect: EnergyPriced, Hashable { var energyCharge: EnergyCharge { switch self {} } }
    typealias Outcome = StandardOutcome<Decision, ToyEvent, Effect, ArmedTimer<TimerKind>>
    struct Funnel: FunnelTracking {
        mutating func observe(_ event: ToyEvent, at t: Instant) {}
        var reached: [Bool] { [] }
    }

    let zone: ZoneCalendar
    var subscription = StoreSubscription<ToyPlan>()

    init(parameters: Parameters, zone: ZoneCalendar, installedAt: Instant) { self.zone = zone }

    mutating func handle(_ input: Input, at now: Instant, into out: inout Outcome) {
        out.reset()
        switch input {
        case .buy(let p) where plan == nil:
            subscription.purchase(p, price: p.price, months: p.months, at: now, in: zone, &out.ledger, &out.events)
            if p.months != nil { out.timers.append(ArmedTimer(.periodEnd, at: periodEnd)) }
        case .timer(let t) where t.at == periodEnd:
            guard let p = plan, let months = p.months else { return }
            if autoRenew { subscription.renew(p, price: p.price, months: months, at: t.at, in: zone, &out.ledger, &out.events) }
            else { subscription.expire(p, &out.events) }
        default: out.decision = .refused
        }
    }

    mutating func invariantViolations(at now: Instant) -> [String] { [] }
    func listPrice(of plan: ToyPlan) -> PlanPrice { PlanPrice(price: plan.price, periodMonths: plan.months) }
    var planSegment: String { plan == nil ? "free" : "pro" }
    static var descriptor: ProductDescriptor {
        ProductDescriptor(id: "toy-store", name: "Toy store", seedFile: "", summary: "a test engine", parameters: [], funnel: [],
                          kpis: [], batteryBudgets: BatteryBudgets(idlePctPerHour: nil, activePctPerHour: nil, pctPer24h: nil),
                          revenue: RevenueModel(planSegments: ["free", "pro"]), reports: [], inputs: [])
    }
}

/// What the simulator reads, through the protocol as the generic life does.
func standingAndMRR<E: RuleEngine>(_ e: E, horizon: Instant) -> (PlanStanding, Money?) { (e.standing, e.mrrAtHorizon(horizon)) }

/// Issue 42: an engine that sells plans writes no `standing`, `mrrAtHorizon`, `timerInput` or convenience `handle`.
@Suite("What a subscription engine gets from RulesCore (issue 42)")
struct SubscriptionEngineTests {
    @Test("Standing and MRR come from the subscription and the price list, also where the engine is only a RuleEngine")
    func standingThroughTheSeam() throws {
        let t0 = utc("2026-03-10T12:00:00Z")
        var e = ToySubscriptionEngine(parameters: .init(), zone: try zone("UTC"), installedAt: t0)
        #expect(standingAndMRR(e, horizon: t0) == (PlanStanding.unpaid("free"), nil))
        let out = e.handle(.buy(.annual), at: t0)                       // the convenience `handle(_:at:)`
        #expect(out.events.array == [.bought(.annual, price: ToyPlan.annual.price)])
        #expect(e.plan == .annual && e.autoRenew && e.periodStart == t0 && !e.inTrial && !e.trialUsed)
        let (standing, mrr) = standingAndMRR(e, horizon: e.periodEnd - .seconds(1))
        #expect(standing == PlanStanding(segment: "pro", monthlyPrice: Money(micros: 4_999_166)))
        #expect(mrr == Money(micros: 4_999_166))
        #expect(standingAndMRR(e, horizon: e.periodEnd).1 == nil)
    }

    @Test("A due timer comes back as the input's timer case, without a timerInput of the engine's own")
    func timerComesBack() throws {
        let t0 = utc("2026-03-10T12:00:00Z")
        var e = ToySubscriptionEngine(parameters: .init(), zone: try zone("UTC"), installedAt: t0)
        let timer = try #require(e.handle(.buy(.monthly), at: t0).timers.first)
        #expect(ToySubscriptionEngine.timerInput(timer) == .timer(timer))
        let renewal = e.handle(ToySubscriptionEngine.timerInput(timer), at: timer.at)
        #expect(renewal.ledger.array.map(\.kind) == [.subscriptionRenewal] && e.periodStart == timer.at)
    }
}
