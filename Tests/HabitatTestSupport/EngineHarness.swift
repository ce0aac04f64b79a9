import RulesCore

/// A tiny host for an engine's example tests, for any `RuleEngine`: the engine, its pending timers (one per kind,
/// superseded on re-arm, delivered in time order), and logs of events, effects, ledger lines and decisions, with the
/// engine's invariants audited after every call. (Random sweeps use `EngineSweep`, which hosts timers the same way
/// and shrinks failures.) Each engine's tests add their own helpers in an extension (onboarding, shields).
public struct EngineHarness<Engine: RuleEngine> {
    public var engine: Engine
    public var now: Instant
    public var pending: [Engine.Outcome.Timer] = []
    public var log: [(Instant, Engine.Event)] = []
    /// Every device effect, with the instant of the call that produced it.
    public var effectsLog: [(Instant, Engine.Outcome.Effect)] = []
    public var ledger: [LedgerEntry] = []
    public var decisions: [(Instant, Engine.Input, Engine.Decision)] = []
    public var out = Engine.Outcome()
    /// Timers armed in the past and invariant violations, each with the call that caused it.
    public var problems: [String] = []

    public let zone: ZoneCalendar
    public let day0: LocalDate

    /// An install at `hour:minute` local on `day0` in `zone`.
    public init(parameters: Engine.Parameters, zone: ZoneCalendar, day0: LocalDate, hour: Int, minute: Int = 0) {
        self.zone = zone
        self.day0 = day0
        let t = zone.instant(on: day0, at: LocalTimeOfDay(hour: hour, minute: minute)!)
        engine = Engine(parameters: parameters, zone: zone, installedAt: t)
        now = t
    }

    /// Local instant on day `d` (0 = install day) at `h:m:s`.
    public func at(_ d: Int64, _ h: Int, _ m: Int = 0, _ s: Int = 0) -> Instant {
        zone.instant(on: day0 + d, at: LocalTimeOfDay(hour: h, minute: m, second: s)!)
    }

    /// Delivers every timer due at or before `t`, in time order, then moves the clock to `t`.
    public mutating func run(until t: Instant) {
        while let i = pending.indices.min(by: { pending[$0].at < pending[$1].at }), pending[i].at <= t {
            let timer = pending.remove(at: i)
            dispatch(Engine.timerInput(timer), at: timer.at)
        }
        if t > now { now = t }
    }

    /// Runs timers up to `t`, then sends the input at `t`.
    @discardableResult
    public mutating func send(_ input: Engine.Input, at t: Instant) -> Engine.Outcome {
        run(until: t)
        dispatch(input, at: t)
        return out
    }

    /// Sends the input at `t` without delivering due timers first.
    public mutating func dispatch(_ input: Engine.Input, at t: Instant) {
        now = max(now, t)
        engine.handle(input, at: t, into: &out)
        for timer in out.timers {
            if timer.at <= t { problems.append("timer \(timer) not in the future of \(t)") }
            pending.removeAll { $0.kind == timer.kind }
            pending.append(timer)
        }
        for e in out.events { log.append((t, e)) }
        for e in out.effects { effectsLog.append((t, e)) }
        ledger += out.ledger.array
        decisions.append((t, input, out.decision))
        problems += engine.invariantViolations(at: t).map { "\(t) \(input): \($0)" }
    }

    /// Events of one name in the log.
    public func count(_ name: String) -> Int { log.filter { $0.1.name == name }.count }
    /// Events logged since index `from`, rendered `name(k=v,…)`.
    public func rendered(from: Int = 0) -> [String] { log[from...].map { Self.render($0.1) } }
    /// Events of one name, rendered.
    public func rendered(_ name: String) -> [String] { log.filter { $0.1.name == name }.map { Self.render($0.1) } }

    /// An event as `name(k=v,…)`.
    public static func render(_ e: Engine.Event) -> String {
        let f = e.fields
        return f.isEmpty ? e.name : e.name + "(" + f.map { "\($0.0)=\($0.1)" }.joined(separator: ",") + ")"
    }
}
