import RulesCore

extension Product {
    /// No app at all (issue 28): the counterfactual every product is compared with — the same people, untreated.
    public static let noApp: Product = "none"
}

/// The engine of `none`: nothing to decide. It exists because every product conforms to `RuleEngine`, and a life
/// with no app never calls it (`ProductAdapter.hasApp` is false for `none`: no onboarding, no inputs, no timers). It
/// has no parameters, no funnel, no KPIs of its own, no budgets and no money; its runs write the product-neutral
/// reports only.
public struct NoAppEngine: RuleEngine {
    public typealias Outcome = StandardOutcome<NoAppDecision, NoAppEvent, NoAppEffect, NoAppTimer>
    public typealias Funnel = NoAppFunnel

    public init(parameters: NoAppParameters, zone: ZoneCalendar, installedAt: Instant) {}

    /// Never called with an input a person could send (`NoAppInput` has none); resets the outcome.
    public mutating func handle(_ input: NoAppInput, at now: Instant, into out: inout Outcome) { out = Outcome() }

    public mutating func invariantViolations(at now: Instant) -> [String] { [] }

    public static func timerInput(_ timer: NoAppTimer) -> NoAppInput { switch timer.kind {} }

    public static var descriptor: ProductDescriptor {
        ProductDescriptor(id: Product.noApp.rawValue, name: "No app", seedFile: "none",
                          summary: "no app at all: the same people, untreated — the counterfactual of every product",
                          parameters: [], funnel: [], kpis: [], batteryBudgets: .none, revenue: .free, reports: [], inputs: [])
    }
}

/// `none` has no parameters.
public struct NoAppParameters: EngineParameters {
    public init(values: ParameterValues) {}
}

/// `none` takes no input.
public enum NoAppInput: Sendable {}

/// `none` decides nothing.
public enum NoAppDecision: OutcomeDecision {
    case ok
}

/// `none` emits no event.
public enum NoAppEvent: AnalyticsEvent, Hashable {
    public var name: String { switch self {} }
    public var fields: [(String, String)] { switch self {} }
}

/// `none` has no device effect.
public enum NoAppEffect: EnergyPriced, Hashable {
    public var energyCharge: EnergyCharge { switch self {} }
}

/// `none` arms no timer.
public struct NoAppTimer: EngineTimer, Hashable {
    public enum Kind: Hashable, Sendable {}
    public let at: Instant
    public let kind: Kind
}

/// `none` has no funnel.
public struct NoAppFunnel: FunnelTracking {
    public init() {}
    public mutating func observe(_ event: NoAppEvent, at t: Instant) {}
    public var reached: [Bool] { [] }
}
