import RulesCore

/// A deliberate defect a `FaultyEngine` reports: a problem text for an event the base engine emitted, or nil.
public protocol EngineFault: Sendable {
    /// The base engine's analytics event type.
    associatedtype Event
    /// The problem this fault reports after `event`, or nil when the event is fine.
    static func problem(after event: Event) -> String?
}

/// Wraps any rule engine and injects a fault: every event its base emits is shown to `Fault`, and what the fault
/// finds is reported as a broken invariant after that call — so tests prove an invariant audit (the simulator's, or a
/// property sweep's) catches, names and replays a violation, without any test-only branch inside a real engine.
/// A product's tests add the conformances their adapter needs (e.g. forwarding the screens a person sees to `base`).
public struct FaultyEngine<Base: RuleEngine, Fault: EngineFault>: RuleEngine where Fault.Event == Base.Event {
    // Every associated type is the base engine's: the wrapper is a drop-in replacement wherever `Base` is used.
    public typealias Parameters = Base.Parameters
    public typealias Input = Base.Input
    public typealias Decision = Base.Decision
    public typealias Event = Base.Event
    public typealias TimerKind = Base.TimerKind
    public typealias Outcome = Base.Outcome
    public typealias Funnel = Base.Funnel

    /// The wrapped engine, which does all the work.
    public var base: Base
    /// Every problem the fault has reported so far (reported again on every later audit: a broken invariant stays).
    public var injected: [String] = []

    /// Wraps a new install of `Base`.
    public init(parameters: Base.Parameters, zone: ZoneCalendar, installedAt: Instant) {
        base = Base(parameters: parameters, zone: zone, installedAt: installedAt)
    }

    /// The base handles the input; the fault then looks at every event it emitted.
    public mutating func handle(_ input: Base.Input, at now: Instant, into out: inout Base.Outcome) {
        base.handle(input, at: now, into: &out)
        for e in out.events { if let p = Fault.problem(after: e) { injected.append(p) } }
    }

    /// The base's violations and every injected problem.
    public mutating func invariantViolations(at now: Instant) -> [String] { base.invariantViolations(at: now) + injected }

    /// The base's timer input.
    public static func timerInput(_ timer: Base.Outcome.Timer) -> Base.Input { Base.timerInput(timer) }
    /// The base's descriptor.
    public static var descriptor: ProductDescriptor { Base.descriptor }
    /// The base's plan and price.
    public var standing: PlanStanding { base.standing }
    /// The base's MRR at the horizon.
    public func mrrAtHorizon(_ horizon: Instant) -> Money? { base.mrrAtHorizon(horizon) }
}
