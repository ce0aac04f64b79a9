import Behavior
import Foundation
import Reports
import RulesCore
import ScenarioFormat
import Stochastics
import Testing
@testable import Simulation
import ProductRegistry

/// A whole product in a page: a toy engine and adapter run through the generic life and run, to show the seam
/// needs no special case for a product with its own exogenous process (a to-do list, as Nudge will have), no
/// consumables and one plan segment.
enum Toy {
    struct Parameters: EngineParameters { init(values: ParameterValues) {} }
    enum Input: Sendable { case taskArrived, opened, timer(Timer) }
    enum Event: AnalyticsEvent, Hashable {
        case taskCaptured(Int)
        var name: String { "task_captured" }
        var fields: [(String, String)] { if case .taskCaptured(let n) = self { return [("open_tasks", "\(n)")] }; return [] }
    }
    struct Timer: EngineTimer { var at: Instant; var kind: Int }
    struct Effect: EnergyPriced { var energyCharge: EnergyCharge { EnergyCharge(.notification) } }
    struct Outcome: EngineOutcome {
        var decision = 0
        var events: OutcomeList<Event> = []
        var ledger: OutcomeList<LedgerEntry> = []
        var effects: OutcomeList<Effect> = []
        var timers: OutcomeList<Timer> = []
        init() {}
    }
    struct Funnel: FunnelTracking {
        var captured = false
        init() {}
        mutating func observe(_ event: Event, at t: Instant) { captured = true }
        var reached: [Bool] { [captured] }
    }

    /// Counts captured tasks; its invariant: never more than 1,000 open.
    struct Engine: RuleEngine {
        typealias Parameters = Toy.Parameters
        typealias Input = Toy.Input
        typealias Event = Toy.Event
        typealias Outcome = Toy.Outcome
        typealias Funnel = Toy.Funnel
        typealias Decision = Int
        typealias TimerKind = Int
        var open = 0
        init(parameters: Parameters, zone: ZoneCalendar, installedAt: Instant) {}
        mutating func handle(_ input: Input, at now: Instant, into out: inout Outcome) {
            out = Outcome()
            if case .taskArrived = input {
                open += 1
                out.events.append(.taskCaptured(open))
                out.effects.append(Effect())
                out.decision = open
            }
        }
        mutating func invariantViolations(at now: Instant) -> [String] { open > 1000 ? ["too many open tasks"] : [] }
        static func timerInput(_ timer: Timer) -> Input { .timer(timer) }
        static var descriptor: ProductDescriptor {
            ProductDescriptor(id: "toy", name: "Toy", seedFile: "none", summary: "tasks", parameters: [],
                              funnel: [FunnelStage(order: 1, id: "T0", name: "Task captured", event: "task_captured", windowAnchor: nil,
                                                   window: nil, targetMin: nil, targetMax: nil)],
                              kpis: [KPIDefinition("tasks_per_person", unit: "count")], batteryBudgets: .none, revenue: .free,
                              reports: [], inputs: [EngineInputInfo("taskArrived", driven: true)])
        }
    }

    /// A to-do every 6 hours after the install, from the person's own stream: a person process (`PersonProcess`),
    /// as Nudge's tasks will be — the person's, whatever product they meet.
    struct Tasks: PersonProcess {
        static var stream: StreamName { "toy-tasks" }
        init(person: Person) {}
        func next(after t: Instant, zone: ZoneCalendar, rng: RandomStream) -> (at: Instant, occurrence: Int)? {
            (t + .hours(6) + .minutes(Int64(rng.uniformInt(below: 30))), 1)
        }
    }

    enum Count: Int, CounterKey { case tasks }
    struct Metrics: ProductMetrics {
        var counts = Counters<Count>()
        init() {}
        mutating func add(_ t: Counters<Count>) { counts.merge(t) }
        mutating func merge(_ o: Metrics) { counts.merge(o.counts) }
        func validate(_ b: AccumulatorBounds, at path: String) throws(AccumulatorInvalid) { try counts.validate(b, at: "\(path).counts") }
        func kpiValues(_ run: RunFigures) -> [(KPIDefinition, Double)] {
            [(Engine.descriptor.kpis[0], Counters<Count>.ratio(counts[.tasks], run.common[.people]))]
        }
    }

    /// The whole person side: only what the protocol cannot default — every other hook is the neutral default
    /// (an urge: the person uses the app as meant; no paywall, money, restriction or trace columns).
    enum Adapter: ProductAdapter {
        typealias Engine = Toy.Engine
        typealias Metrics = Toy.Metrics
        static func initialState() -> Int { 0 }
        static func initialTally() -> Counters<Count> { Counters() }
        static func onboard(_ life: inout PersonLife<Self>, at now: Instant) { life.send(.opened, at: now) }
        static func occurrence(_ o: PersonOccurrence, _ life: inout PersonLife<Self>, at now: Instant) {
            guard o.value(as: Int.self) != nil else { return }
            life.state += 1
            life.send(.taskArrived, at: now)
        }
        static func observe(_ event: Event, _ life: inout PersonLife<Self>, at now: Instant) {
            life.summary.tally[.tasks] += 1
            life.recordActiveDay()
        }
    }
}

@Suite("A toy product on the seam")
struct ToyProductTests {
    static let yaml = """
        name: toy
        horizon_days: 6
        replications: 2
        population:
          installs: 30
        """

    @Test("the generic life delivers the product's own occurrences, and every report is written without a special case")
    func toyRunsEndToEnd() throws {
        let scenario = try ScenarioLoader(catalogues: Products.catalogues).load(yaml: Self.yaml, fileName: "toy.yaml")
        var run = SimulationRun<Toy.Adapter>(scenario: scenario, threads: 2, processes: [Toy.Tasks.self])
        try run.simulate()
        let pooled = run.arms[0].pooled
        #expect(pooled.people == 60)
        #expect(pooled.violation == nil)
        // A task every 6–6.5 h over what is left of the horizon after the install: between 2 and 24 per person.
        let perPerson = Double(pooled.product.counts[.tasks]) / Double(pooled.people)
        #expect(perPerson > 2 && perPerson < 24, "\(perPerson) tasks per person")
        #expect(pooled.funnel.reached[0] >= pooled.people * 9 / 10, "people who lived to their first task captured it")
        let values = pooled.kpiValues()
        #expect(values.first?.0.id == "tasks_per_person")
        #expect(values.contains { $0.0.id == "pickups_per_day" })
        // No consumable ceiling: no token-share report; one segment: no paid columns in a forecast.
        #expect(!SimulationRun<Toy.Adapter>.reportFiles.map(\.name).contains("token-revenue-share.csv"))
        #expect(ForecastTable(paidSegments: Toy.Engine.descriptor.revenue.paidSegments, consumableShareMetric: nil).metrics.map(\.name)
                == ["installs", "active_people", "paying_people", "mrr_usd", "gross_revenue_usd", "net_revenue_usd"])
    }

    @Test("occurrences come from the person's own stream: the same whatever else the life does")
    func occurrencesAreExogenous() throws {
        let scenario = try ScenarioLoader(catalogues: Products.catalogues).load(yaml: Self.yaml, fileName: "toy.yaml")
        let world = try World<Toy.Adapter>(scenario: scenario, arm: scenario.arms[0], replication: 1)
        var times: [[String]] = []
        for _ in 0..<2 {
            let box = TraceBox()
            var life = PersonLife(world: world, person: 3, trace: { box.rows.append($0) }, processes: [Toy.Tasks.self])
            _ = life.run()
            times.append(box.rows.filter { $0.detail.hasPrefix("task_captured") }.map { $0.time.description })
        }
        #expect(times[0] == times[1] && times[0].count >= 2)
    }
}

/// A toy adapter with intents: each task arrival plans a reminder an hour later, carrying the task's number.
enum RemindingToy: ProductAdapter {
    typealias Engine = Toy.Engine
    typealias Metrics = Toy.Metrics
    enum Intent: Sendable { case remind(task: Int, plannedAt: Instant) }
    struct State: Sendable { var tasks = 0; var reminded: [Int] = []; var late = 0 }
    static func initialState() -> State { State() }
    static func initialTally() -> Counters<Toy.Count> { Counters() }
    static func occurrence(_ o: PersonOccurrence, _ life: inout PersonLife<Self>, at now: Instant) {
        life.state.tasks += 1
        life.schedule(.remind(task: life.state.tasks, plannedAt: now), at: now + .hours(1))
    }
    static func carryOut(_ intent: Intent, _ life: inout PersonLife<Self>, at now: Instant) {
        guard case let .remind(task, plannedAt) = intent else { return }
        life.state.reminded.append(task)
        if now != plannedAt + .hours(1) { life.state.late += 1 }
    }
    static func finish(_ life: inout PersonLife<Self>) { life.summary.tally[.tasks] = life.state.reminded.count }
}

@Suite("Adapter intents on the person's queue")
struct AdapterIntentTests {
    @Test("an intent comes back at its time with its payload, in the order planned; none past the horizon")
    func intentsComeBack() throws {
        let scenario = try ScenarioLoader(catalogues: Products.catalogues).load(yaml: ToyProductTests.yaml, fileName: "toy.yaml")
        let world = try World<RemindingToy>(scenario: scenario, arm: scenario.arms[0], replication: 1)
        for person in 0..<10 {
            var life = PersonLife(world: world, person: person, processes: [Toy.Tasks.self])
            _ = life.run()
            #expect(life.state.tasks > 0)
            #expect(life.state.reminded == Array(1...life.state.reminded.count), "in order, each once")
            #expect(life.state.late == 0)
            // Only reminders due before the horizon came back (a task in the last hour has none).
            #expect(life.state.reminded.count >= life.state.tasks - 1 && life.state.reminded.count <= life.state.tasks)
        }
    }
}

/// A toy adapter over `Toy.Engine` whose people open the toy at install and ignore urges: what the toys of the
/// decision tests share (`DecidingToy`, `TrickToy`); each gives its own `occurrence`.
protocol TaskToyAdapter: ProductAdapter where Engine == Toy.Engine, Metrics == Toy.Metrics, PersonState == Int {}

extension TaskToyAdapter {
    static func initialState() -> Int { 0 }
    static func initialTally() -> Counters<Toy.Count> { Counters() }
    static func onboard(_ life: inout PersonLife<Self>, at now: Instant) { life.send(.opened, at: now) }
    static func urge(for app: AppID, pickup: Pickup, _ life: inout PersonLife<Self>, at now: Instant) {}
}
