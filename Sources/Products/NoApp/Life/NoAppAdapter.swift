import NoAppRules
import Reports
import RulesCore
import Simulation

/// The person side of `none` (issue 28): no app, so nothing to do — `hasApp` is false and the life is untreated
/// from the person's entry (their install day under every other product) to the horizon: the same urges, pickups
/// and habits, answered as the person meant. Its runs write the product-neutral reports only.
public enum NoAppAdapter: ProductAdapter {
    public typealias Engine = NoAppEngine
    public typealias Metrics = NoAppMetrics
    public static var hasApp: Bool { false }
    public static func initialState() -> Int { 0 }
    public static func initialTally() -> Int { 0 }
    /// No daily decision: there is no app to leave.
    public static var decisionKinds: [DecisionKind] { [] }
}

/// `none` has no figures of its own.
public struct NoAppMetrics: ProductMetrics {
    public init() {}
    public mutating func add(_ tally: Int) {}
    public mutating func merge(_ o: NoAppMetrics) {}
    public func validate(_ b: AccumulatorBounds, at path: String) throws(AccumulatorInvalid) {}
    public func kpiValues(_ run: RunFigures) -> [(KPIDefinition, Double)] { [] }
}
