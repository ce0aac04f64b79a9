import RulesCore

extension Product {
    /// A toy product (issue 42): the seam's proof that a product is its folder and one registry line.
    public static let toy: Product = "toy"
}

/// The toy's engine: a notebook that keeps the notes a person chooses to write down. Pure: no clock, no randomness.
public struct ToyEngine: RuleEngine {
    public typealias Outcome = StandardOutcome<ToyDecision, ToyEvent, ToyEffect, ToyTimer>
    public typealias Funnel = ToyFunnel

    /// The notes kept so far.
    public private(set) var kept = 0

    public init(parameters: ToyParameters, zone: ZoneCalendar, installedAt: Instant) {}

    public mutating func handle(_ input: ToyInput, at now: Instant, into out: inout Outcome) {
        out = Outcome()
        switch input {
        case .opened:
            out.events.append(.appOpened)
        case .keep:
            kept += 1
            out.events.append(.noteKept(total: kept))
            out.effects.append(.write)
        }
    }

    /// A notebook never holds a negative number of notes.
    public mutating func invariantViolations(at now: Instant) -> [String] { kept < 0 ? ["negative notes"] : [] }

    public static func timerInput(_ timer: ToyTimer) -> ToyInput { switch timer.kind {} }

    public static var descriptor: ProductDescriptor {
        ProductDescriptor(id: Product.toy.rawValue, name: "Toy", seedFile: "none",
                          summary: "a toy notebook (issue 42's seam test)", parameters: [],
                          funnel: [FunnelStage(order: 1, id: "T0", name: "First note kept", event: "note_kept", windowAnchor: nil,
                                               window: nil, targetMin: nil, targetMax: nil)],
                          kpis: [KPIDefinition("notes_kept_per_person", unit: "count")], batteryBudgets: .none, revenue: .free,
                          reports: ["notes.csv"], inputs: [EngineInputInfo("keep", driven: true)])
    }
}

/// The toy has no rule parameters.
public struct ToyParameters: EngineParameters {
    public init(values: ParameterValues) {}
}

/// Open the notebook, or keep a note in it.
public enum ToyInput: Sendable { case opened, keep }

/// The toy decides nothing the person must answer.
public enum ToyDecision: OutcomeDecision { case ok }

/// The toy's analytics.
public enum ToyEvent: AnalyticsEvent, Hashable {
    case appOpened
    case noteKept(total: Int)
    public var name: String {
        switch self {
        case .appOpened: "app_opened"
        case .noteKept: "note_kept"
        }
    }
    public var fields: [(String, String)] {
        switch self {
        case .appOpened: []
        case .noteKept(let n): [("total", String(n))]
        }
    }
}

/// Writing a note lights the screen for a moment.
public enum ToyEffect: EnergyPriced, Hashable {
    case write
    public var energyCharge: EnergyCharge { EnergyCharge(.foregroundSecond, 5) }
}

/// The toy arms no timer.
public struct ToyTimer: EngineTimer, Hashable {
    public enum Kind: Hashable, Sendable {}
    public let at: Instant
    public let kind: Kind
}

/// The funnel: the first note kept.
public struct ToyFunnel: FunnelTracking {
    var first: Instant?
    public init() {}
    public mutating func observe(_ event: ToyEvent, at t: Instant) {
        if case .noteKept = event, first == nil { first = t }
    }
    public var reached: [Bool] { [first != nil] }
}
