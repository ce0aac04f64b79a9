/// A target range a figure should land in (inclusive); either end may be open.
public protocol TargetRanged {
    /// Lowest value that meets the target; nil: no lower bound.
    var targetMin: Double? { get }
    /// Highest value that meets the target; nil: no upper bound.
    var targetMax: Double? { get }
}

extension TargetRanged {
    /// True when the figure has any target.
    public var hasTarget: Bool { targetMin != nil || targetMax != nil }

    /// Whether `value` meets the target: nil when there is no target or no value (the single "meets target" rule of
    /// every report: `kpis.csv`, `activation-funnel.csv`, the run summary).
    public func isMet(by value: Double?) -> Bool? {
        guard hasTarget, let value, value.isFinite else { return nil }
        return value >= (targetMin ?? -.infinity) && value <= (targetMax ?? .infinity)
    }
}

/// What a funnel stage's rate, and so its target, is a share of (issue 38).
public enum FunnelBasis: Hashable, Sendable {
    /// The stage before it in the chain: the target is a step conversion (every stage of Scroll Off and Earned Access).
    case previousStage
    /// Installs: the target is a share of everyone who entered the funnel or, with `observedPastDay`, of the installs
    /// whose lives were observed past that local day since install (day 0 is the install day), as a day-N retention
    /// is measured (Nudge N6, seed 001 §11 "Day-7 retention 35%"; N7 "Free → Pro conversion 4%").
    case installs(observedPastDay: Int?)

    /// The basis as `activation-funnel.csv`'s `target_basis` writes it: `previous_stage`, `installs`,
    /// `installs_observed_past_day_7`.
    public var text: String {
        switch self {
        case .previousStage: return "previous_stage"
        case .installs(nil): return "installs"
        case .installs(let d?): return "installs_observed_past_day_\(d)"
        }
    }

    /// Whether a person whose life was observed for `observedDays` local days since install (install day included)
    /// belongs to the basis population: always, except for a share of installs observed past a day they did not reach.
    public func includes(observedDays: Int) -> Bool {
        if case .installs(let d?) = self { return observedDays > d }
        return true
    }
}

/// One stage of a product's activation funnel as data (Scroll Off: seed 000 §8.2 A0–A7).
public struct FunnelStage: Hashable, Sendable, TargetRanged {
    /// 1-based position.
    public var order: Int
    /// Stage id as the product's document writes it, e.g. `A1.5`.
    public var id: String
    /// The document's name of the stage.
    public var name: String
    /// Which event marks the stage (documentation; the product's `FunnelTracking` does the matching).
    public var event: String
    /// The stage whose time the window counts from (nil: none).
    public var windowAnchor: String?
    /// How long after the anchor the stage must be reached (nil: no limit).
    public var window: TimeSpan?
    /// Target of the rate on `basis` (a step conversion from the previous stage by default); nil where none is set.
    public var targetMin: Double?
    public var targetMax: Double?
    /// What the stage's rate and target are a share of (default: the previous stage).
    public var basis: FunnelBasis
    /// The stage counts a person only when the chain before it was reached (every earlier chained stage); false for
    /// a stage that stands apart from the chain, reached by anyone who meets its event (Nudge N6, N7). Default true.
    public var chained: Bool

    public init(order: Int, id: String, name: String, event: String, windowAnchor: String?, window: TimeSpan?,
                targetMin: Double?, targetMax: Double?, basis: FunnelBasis = .previousStage, chained: Bool = true) {
        self.order = order
        self.id = id
        self.name = name
        self.event = event
        self.windowAnchor = windowAnchor
        self.window = window
        self.targetMin = targetMin
        self.targetMax = targetMax
        self.basis = basis
        self.chained = chained
    }

    /// A stage whose window, if it has one, counts from the funnel's first stage `start` (Earned Access's E0, Nudge's
    /// N0), with a lower target at most: chained, its rate a step conversion from the previous stage — or, given
    /// `shareOfInstalls`, a share of installs standing apart from the chain (issue 38). Issue 42: the products'
    /// funnel tables share this one builder.
    public static func fromStart(_ start: String, _ order: Int, _ id: String, _ name: String, _ event: String, _ window: TimeSpan?,
                                 target: Double? = nil, shareOfInstalls basis: FunnelBasis? = nil) -> FunnelStage {
        FunnelStage(order: order, id: id, name: name, event: event, windowAnchor: window == nil ? nil : start, window: window,
                    targetMin: target, targetMax: nil, basis: basis ?? .previousStage, chained: basis == nil)
    }

    /// `24h from A0`, `7d from A5`; empty without a window.
    public var windowText: String {
        guard let w = window, let a = windowAnchor else { return "" }
        let h = w.milliseconds / 3_600_000
        return h % 24 == 0 && h > 24 ? "\(h / 24)d from \(a)" : "\(h)h from \(a)"
    }
}

/// A per-person activation-funnel tracker: fed every analytics event with its instant, it says which stages the
/// person reached within their windows. Each engine target publishes one for its own events.
public protocol FunnelTracking: Sendable {
    associatedtype Event
    /// A tracker for a new person.
    init()
    /// Records one event.
    mutating func observe(_ event: Event, at t: Instant)
    /// Which stages were reached, in stage order (a chained stage counts only when every earlier chained stage was
    /// reached; `FunnelStage.reached`).
    var reached: [Bool] { get }
}

extension FunnelStage {
    /// Which of `stages` a person reached, given the first time they met each stage's event (index = order − 1):
    /// a stage counts when it was met, when — if it is `chained` — the chain before it was reached (its
    /// `chainPredecessor`), and, if it has a window, when it came within `window` of its `windowAnchor` stage's time
    /// (an anchor not reached sets no limit). The one funnel rule of every product (the products' copies had
    /// diverged: one ignored the anchor). A funnel of chained stages only (Scroll Off, Earned Access) is a prefix.
    public static func reached(_ stages: [FunnelStage], firstAt: [Instant?]) -> [Bool] {
        var out = Array(repeating: false, count: stages.count)
        for (i, s) in stages.enumerated() {
            guard i < firstAt.count, let t = firstAt[i] else { continue }
            if s.chained, let p = chainPredecessor(of: i, in: stages), !out[p] { continue }
            if let w = s.window, let a = s.windowAnchor, let ai = stages.firstIndex(where: { $0.id == a }), ai < firstAt.count,
               let at = firstAt[ai], t > at + w { continue }
            out[i] = true
        }
        return out
    }

    /// The chained stage before stage `i` (nil for the first chained stage): the one a chained stage needs reached,
    /// and the "previous stage" of its step conversion.
    public static func chainPredecessor(of i: Int, in stages: [FunnelStage]) -> Int? {
        stages.indices.prefix(i).last { stages[$0].chained }
    }
}

extension FunnelTracking {
    /// The stages one person reached, from their whole event stream.
    public static func reached(_ events: some Sequence<(Instant, Event)>) -> [Bool] {
        var tracker = Self()
        for (t, e) in events { tracker.observe(e, at: t) }
        return tracker.reached
    }
}

/// A product's activation funnel as a definition: its stages, and which stage each analytics event marks. The
/// per-person tracker is then `StageFunnel<Definition>`, the same for every product.
public protocol FunnelDefinition {
    associatedtype Event
    /// What a tracker remembers besides the first times (Scroll Off's credit spent so far); `NoFunnelMemory` when
    /// nothing.
    associatedtype Memory: Hashable & Sendable
    /// The stages, in order (index = order − 1).
    static var stages: [FunnelStage] { get }
    /// The memory of a new person.
    static var initialMemory: Memory { get }
    /// The index of the stage `event` marks, or nil; `firstAt` is when each stage was first met so far.
    static func stage(of event: Event, memory: inout Memory, firstAt: [Instant?]) -> Int?
}

/// Nothing to remember besides the first times.
public struct NoFunnelMemory: Hashable, Sendable {
    public init() {}
}

extension FunnelDefinition where Memory == NoFunnelMemory {
    public static var initialMemory: NoFunnelMemory { NoFunnelMemory() }
}

/// The per-person funnel tracker of a `FunnelDefinition`: the first time each stage's event occurred, and the stages
/// reached within their windows (`FunnelStage.reached`).
public struct StageFunnel<Definition: FunnelDefinition>: FunnelTracking, Hashable, Sendable {
    @usableFromInline var first: [Instant?]
    @usableFromInline var memory: Definition.Memory

    /// First time each stage's event occurred (index = order − 1).
    @inlinable public var firstAt: [Instant?] { first }

    @inlinable public init() {
        first = Array(repeating: nil, count: Definition.stages.count)
        memory = Definition.initialMemory
    }

    /// Records an event.
    @inlinable public mutating func observe(_ event: Definition.Event, at t: Instant) {
        guard let k = Definition.stage(of: event, memory: &memory, firstAt: first), first[k] == nil else { return }
        first[k] = t
    }

    /// Which stages the person reached within their windows.
    public var reached: [Bool] { FunnelStage.reached(Definition.stages, firstAt: first) }
}
