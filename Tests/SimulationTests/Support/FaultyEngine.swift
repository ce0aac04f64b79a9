import RulesCore
import ScrollOffRules
import Simulation

/// A deliberate defect an engine wrapper reports: a problem text for an event the base engine emitted, or nil.
protocol EngineFault: Sendable {
    associatedtype Event
    static func problem(after event: Event) -> String?
}

/// Wraps any rule engine and injects a fault: every event its base emits is shown to `Fault`, and what the fault
/// finds is reported as a broken invariant after that call — so tests prove the simulator's invariant audit stops
/// a life, names the person and replays, without any test-only branch inside a real engine.
struct FaultyEngine<Base: RuleEngine, Fault: EngineFault>: RuleEngine where Fault.Event == Base.Event {
    typealias Parameters = Base.Parameters
    typealias Input = Base.Input
    typealias Decision = Base.Decision
    typealias Event = Base.Event
    typealias TimerKind = Base.TimerKind
    typealias Outcome = Base.Outcome
    typealias Funnel = Base.Funnel

    var base: Base
    var injected: [String] = []

    init(parameters: Base.Parameters, zone: ZoneCalendar, installedAt: Instant) {
        base = Base(parameters: parameters, zone: zone, installedAt: installedAt)
    }

    mutating func handle(_ input: Base.Input, at now: Instant, into out: inout Base.Outcome) {
        base.handle(input, at: now, into: &out)
        for e in out.events { if let p = Fault.problem(after: e) { injected.append(p) } }
    }

    mutating func invariantViolations(at now: Instant) -> [String] { base.invariantViolations(at: now) + injected }

    static func timerInput(_ timer: Base.Outcome.Timer) -> Base.Input { Base.timerInput(timer) }
    static var descriptor: ProductDescriptor { Base.descriptor }
}

/// The wrapped engine shows the person the same screens as Scroll Off's.
extension FaultyEngine: ScrollOffEngineView where Base == ScrollOffEngine {
    var tier: Tier { base.tier }
    var plan: Plan? { base.plan }
    var periodStart: Instant { base.periodStart }
    var periodEnd: Instant { base.periodEnd }
    var autoRenew: Bool { base.autoRenew }
    var pendingShield: ShieldEncounter? { base.pendingShield }
    var timeSavedToday: TimeSpan { base.timeSavedToday }
    func shieldOffer() -> ShieldOffer? { base.shieldOffer() }
    func balance(for app: AppID?) -> TimeSpan { base.balance(for: app) }
}
