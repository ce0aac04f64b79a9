import HabitatTestSupport
import RulesCore

/// A toy `RuleEngine` with planted defects, small enough that the minimal failing sequence is known exactly.
///
/// Inputs are letters. `a` starts a pattern (progress 0 → 1), `b` continues it (1 → 2) and arms a `ripen` timer
/// an hour later, the timer completes it (2 → 3), `c` resets progress to 0, `d` does nothing. With `patternDefect`
/// the invariant breaks once progress reaches 3, so the unique minimal failing sequence is `[a, b]` followed by the
/// timer. With `pastTimerDefect`, `d` arms a timer at the call's own instant (not in the future).
struct ToyEngine: RuleEngine {
    typealias Input = ToyInput
    typealias Decision = ToyDecision
    typealias Event = ToyEvent
    typealias TimerKind = ToyTimer.Kind
    typealias Outcome = ToyOutcome
    typealias Funnel = ToyFunnel

    struct Parameters: EngineParameters {
        var patternDefect = false
        var pastTimerDefect = false
        init(patternDefect: Bool = false, pastTimerDefect: Bool = false) {
            self.patternDefect = patternDefect
            self.pastTimerDefect = pastTimerDefect
        }
        init(values: ParameterValues) {}
    }

    let parameters: Parameters
    var progress = 0

    init(parameters: Parameters, zone: ZoneCalendar, installedAt: Instant) { self.parameters = parameters }

    mutating func handle(_ input: Input, at now: Instant, into out: inout Outcome) {
        out = Outcome()
        out.decision = .ok
        switch input {
        case .a where progress == 0: progress = 1
        case .b where progress == 1:
            progress = 2
            out.timers.append(ToyTimer(at: now + .hours(1), kind: .ripen))
        case .timer(let t) where t.kind == .ripen && progress == 2: progress = 3
        case .c: progress = 0
        case .d where parameters.pastTimerDefect: out.timers.append(ToyTimer(at: now, kind: .echo))
        default: out.decision = .ignored
        }
        out.events.append(Event(name: "\(input)"))
    }

    mutating func invariantViolations(at now: Instant) -> [String] {
        parameters.patternDefect && progress == 3 ? ["progress reached 3 (planted defect)"] : []
    }

    static func timerInput(_ timer: ToyTimer) -> ToyInput { .timer(timer) }

    static var descriptor: ProductDescriptor {
        ProductDescriptor(id: "toy", name: "Toy", seedFile: "", summary: "a test engine", parameters: [], funnel: [], kpis: [],
                          batteryBudgets: BatteryBudgets(idlePctPerHour: nil, activePctPerHour: nil, pctPer24h: nil),
                          revenue: RevenueModel(planSegments: ["free"]), reports: [], inputs: [])
    }
}

enum ToyInput: Sendable, Equatable { case a, b, c, d, timer(ToyTimer) }
enum ToyDecision: Hashable, Sendable { case ok, ignored }
struct ToyEvent: AnalyticsEvent {
    var name: String
    var fields: [(String, String)] { [] }
}
struct ToyTimer: EngineTimer, Equatable {
    enum Kind: Hashable, Sendable { case ripen, echo }
    var at: Instant
    var kind: Kind
}
struct ToyEffect: EnergyPriced { var energyCharge: EnergyCharge { EnergyCharge(.databaseWrite) } }
struct ToyOutcome: EngineOutcome {
    var decision = ToyDecision.ok
    var events = OutcomeList<ToyEvent>()
    var ledger = OutcomeList<LedgerEntry>()
    var effects = OutcomeList<ToyEffect>()
    var timers = OutcomeList<ToyTimer>()
    init() {}
}
struct ToyFunnel: FunnelTracking {
    var reached: [Bool] { [] }
    mutating func observe(_ event: ToyEvent, at t: Instant) {}
}
