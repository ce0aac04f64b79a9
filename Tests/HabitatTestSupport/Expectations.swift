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

/// Expects the failure an injected fault caused to be reported with `message`, shrunk below the original sequence,
/// to fail again when its minimal sequence is replayed, and to be 1-minimal: dropping any one input makes it pass.
public func expectShrunkToMinimal<Engine: RuleEngine>(_ failure: SweepFailure<Engine>, in sweep: EngineSweep<Engine>, reporting message: String,
                                                      sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(failure.problems.contains { $0.contains(message) }, "\(failure)", sourceLocation: sourceLocation)
    #expect(failure.minimal.count < failure.originalCount, "\(failure)", sourceLocation: sourceLocation)
    #expect(!sweep.replay(failure.start, failure.minimal, end: failure.end).problems.isEmpty, "the minimal sequence does not fail on replay",
            sourceLocation: sourceLocation)
    for i in failure.minimal.indices {
        var fewer = failure.minimal
        fewer.remove(at: i)
        #expect(sweep.replay(failure.start, fewer, end: failure.end).problems.isEmpty, "input \(i) of the minimal sequence could be dropped:\n\(failure)",
                sourceLocation: sourceLocation)
    }
}
