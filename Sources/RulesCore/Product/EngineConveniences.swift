/// An engine's input type with a case that carries a due timer back (`case timer(SomeTimer)` witnesses the
/// requirement, SE-0280): the engine then needs no `timerInput(_:)` of its own (issue 42: no scaffold copied between
/// products).
public protocol TimerDelivering {
    associatedtype DeliveredTimer
    /// The input that delivers a due timer.
    static func timer(_ timer: DeliveredTimer) -> Self
}

extension RuleEngine where Input: TimerDelivering, Input.DeliveredTimer == Outcome.Timer {
    /// A due timer comes back as the input's `timer` case.
    @inlinable public static func timerInput(_ timer: Outcome.Timer) -> Input { .timer(timer) }
}

extension RuleEngine {
    /// Convenience (tests, tools): handles one input and returns a fresh outcome.
    @inlinable public mutating func handle(_ input: Input, at now: Instant) -> Outcome {
        var out = Outcome()
        handle(input, at: now, into: &out)
        return out
    }
}
