import RulesCore
import Testing

/// Expects `|value − target| ≤ tolerance`, with both numbers and the tolerance in the failure message.
/// - Parameters:
///   - what: names the quantity in the message (e.g. "mean of Gamma(2, 3)").
///   - sourceLocation: where the failure is reported; defaults to the caller.
public func expectClose(_ value: Double, _ target: Double, within tolerance: Double, _ what: String = "",
                        sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(abs(value - target) <= tolerance, "\(what): \(value) vs \(target) (tolerance \(tolerance))", sourceLocation: sourceLocation)
}

/// Expects a sweep to have held on its seed; a failure is recorded with its readable report (seed, the minimal input
/// sequence as replayed, the problems; `SweepFailure.description`).
public func expectNoFailure<Engine: RuleEngine>(_ run: SweepRun<Engine>, sourceLocation: SourceLocation = #_sourceLocation) {
    if let failure = run.failure { Issue.record(Comment(rawValue: failure.description), sourceLocation: sourceLocation) }
}
