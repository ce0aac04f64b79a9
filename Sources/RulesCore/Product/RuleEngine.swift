/// What every product's rule engine is (docs/DESIGN.md, "the product seam"): a pure, clock-injected state machine for
/// one person's install of one product.
///
/// An engine is built for a person at their install (`init(parameters:zone:installedAt:)`), then driven one input
/// at a time with the current instant (`handle(_:at:into:)`). It answers in a reusable outcome buffer: a decision
/// with a reason code, the product's analytics events, money ledger lines, device effects (each priced in energy)
/// and the timers it wants back. It never reads a clock or a random source and never imports the simulator; the
/// simulator owns time, the person and every report.
///
/// Conforming is all a new product engine does to join Habitat: the generic person life, run, accumulator, reports
/// and property sweeps (`HabitatTestSupport.sweep`) work with any conformance.
public protocol RuleEngine: Sendable {
    /// The engine's rule parameters, built from a scenario's `rules:` values (`init(values:)`).
    associatedtype Parameters: EngineParameters
    /// Everything a user, the OS or a due timer can do to the engine.
    associatedtype Input: Sendable
    /// The engine's answer to one input, with a reason code (the outcome's).
    associatedtype Decision: Hashable, Sendable = Outcome.Decision
    /// The product's analytics events (its own taxonomy, e.g. seed 000 §8.1; the outcome's).
    associatedtype Event: AnalyticsEvent = Outcome.Event
    /// What a timer the engine arms is for (the outcome's timers'); the simulator keeps one pending timer per kind
    /// (`SimKernel.TimerSlots`).
    associatedtype TimerKind: Hashable, Sendable = Outcome.Timer.Kind
    /// The outcome buffer one call writes into.
    associatedtype Outcome: EngineOutcome where Outcome.Decision == Decision, Outcome.Event == Event,
                                                Outcome.Timer.Kind == TimerKind
    /// The per-person activation-funnel tracker of the product, fed every event the engine emits.
    associatedtype Funnel: FunnelTracking where Funnel.Event == Event

    /// A new install at `installedAt`, in the person's local calendar `zone`.
    init(parameters: Parameters, zone: ZoneCalendar, installedAt: Instant)

    /// Handles one input at `now`, writing everything it produced into `out` (which it resets first).
    mutating func handle(_ input: Input, at now: Instant, into out: inout Outcome)

    /// The engine's own invariants checked against its state at `now`; empty when every one holds. The simulator
    /// checks them after every input (the invariant audit) and stops a life at the first violation. `mutating` only
    /// so the engine is passed by reference (no copy per audited call); it must change nothing.
    mutating func invariantViolations(at now: Instant) -> [String]

    /// The input that delivers a due timer back to the engine.
    static func timerInput(_ timer: Outcome.Timer) -> Input

    /// The product as plain data: parameters, funnel, KPIs, budgets, plans, revenue, inputs (`ProductDescriptor`).
    static var descriptor: ProductDescriptor { get }

    /// The person's plan segment (one of the descriptor's `revenue.planSegments`) and its monthly-equivalent price
    /// now, from the engine's own plan and prices — the simulator never re-derives a price. By default the unpaid
    /// segment, worth nothing: a product that sells no plan need not implement it.
    var standing: PlanStanding { get }

    /// The monthly-equivalent price of the paid period still running past `horizon` (a subscriber's MRR at the end
    /// of a run), nil when no paid period runs past it (Free, a free trial, a lapsed or one-time plan). By default nil.
    func mrrAtHorizon(_ horizon: Instant) -> Money?
}

extension RuleEngine {
    /// A product with no plans: everyone stands in its unpaid segment.
    public var standing: PlanStanding { .unpaid(Self.descriptor.revenue.unpaidSegment) }
    /// A product with no plans has no recurring revenue.
    public func mrrAtHorizon(_ horizon: Instant) -> Money? { nil }
}

/// An engine's rule parameters: built from a complete set of scenario values (every default filled in).
public protocol EngineParameters: Sendable {
    /// The parameters a complete set of `rules:` values describes (keys of the product's catalogue).
    init(values: ParameterValues)
}

/// One analytics event of a product, as a trace or an event log shows it.
public protocol AnalyticsEvent: Sendable {
    /// The event's name in the product's taxonomy, snake_case (e.g. `shield_shown`).
    var name: String { get }
    /// Its properties as (name, value) text pairs, in the taxonomy's order.
    var fields: [(String, String)] { get }
}

/// A device side effect an engine reports, priced by the simulator's energy model.
public protocol EnergyPriced: Sendable {
    /// The energy this effect costs.
    var energyCharge: EnergyCharge { get }
}

/// A timer an engine asks for: when it is due and what it is for.
public protocol EngineTimer: Sendable {
    associatedtype Kind: Hashable, Sendable
    /// When the timer is due (strictly after the instant of the call that armed it).
    var at: Instant { get }
    /// What it is for; arming a timer of a kind supersedes the earlier one of that kind.
    var kind: Kind { get }
}

/// Everything one engine call produced, in allocation-free `OutcomeList`s that a simulation reuses for millions of
/// calls. A product may add its own lists (Scroll Off adds its credit ledger) beside these.
public protocol EngineOutcome: Sendable {
    associatedtype Decision: Hashable, Sendable
    associatedtype Event: AnalyticsEvent
    associatedtype Effect: EnergyPriced
    associatedtype Timer: EngineTimer
    /// An empty outcome.
    init()
    /// The decision, with a reason code.
    var decision: Decision { get }
    /// Analytics events, in order.
    var events: OutcomeList<Event> { get }
    /// Money movements (gross), in order.
    var ledger: OutcomeList<LedgerEntry> { get }
    /// Device effects, each priced in energy.
    var effects: OutcomeList<Effect> { get }
    /// Timers to arm.
    var timers: OutcomeList<Timer> { get }
}
