import RulesCore
@testable import ScrollOffRules

/// A tiny host for example tests: an engine, its pending timers (one per kind, superseded on re-arm), and the event
/// log. (Random sweeps use `HabitatTestSupport.EngineSweep`, which hosts timers the same way and shrinks failures.)
struct Harness {
    var engine: ScrollOffEngine
    var now: Instant
    var pending: [ScrollOffTimer] = []
    var log: [(Instant, ScrollOffEvent)] = []
    /// Every device effect, with the instant of the call that produced it.
    var effectsLog: [(Instant, ScrollOffEffect)] = []
    var out = ScrollOffOutcome()
    var problems: [String] = []

    let zone: ZoneCalendar
    let day0: LocalDate

    init(zone: ZoneCalendar = .fixed(offset: .hours(-5)), day0: LocalDate = LocalDate(year: 2026, month: 1, day: 5)!,
         parameters: ScrollOffParameters = .defaults, at hour: Int = 6) {
        self.zone = zone
        self.day0 = day0
        let t = zone.instant(on: day0, at: LocalTimeOfDay(hour: hour, minute: 0)!)
        engine = ScrollOffEngine(parameters: parameters, zone: zone, installedAt: t)
        now = t
    }

    /// Local instant on day `d` (0 = install day) at `h:m:s`.
    func at(_ d: Int64, _ h: Int, _ m: Int = 0, _ s: Int = 0) -> Instant {
        zone.instant(on: day0 + d, at: LocalTimeOfDay(hour: h, minute: m, second: s)!)
    }

    /// Delivers every timer due at or before `t`, in time order, then moves the clock to `t`.
    mutating func run(until t: Instant) {
        while let i = pending.indices.min(by: { pending[$0].at < pending[$1].at }), pending[i].at <= t {
            let timer = pending.remove(at: i)
            dispatch(.timer(timer), at: timer.at)
        }
        if t > now { now = t }
    }

    /// Runs timers up to `t`, then sends the input at `t`.
    @discardableResult
    mutating func send(_ input: ScrollOffInput, at t: Instant) -> ScrollOffOutcome {
        run(until: t)
        dispatch(input, at: t)
        return out
    }

    mutating func dispatch(_ input: ScrollOffInput, at t: Instant) {
        now = max(now, t)
        engine.handle(input, at: t, into: &out)
        for timer in out.timers {
            if timer.at <= t { problems.append("timer \(timer) not in the future of \(t)") }
            pending.removeAll { $0.kind == timer.kind }
            pending.append(timer)
        }
        for e in out.events { log.append((t, e)) }
        for e in out.effects { effectsLog.append((t, e)) }
        problems += engine.invariantViolations(at: t).map { "\(t) \(input): \($0)" }
    }

    /// Events logged since index `from`, rendered `name(k=v,…)`.
    func rendered(from: Int = 0) -> [String] { log[from...].map { render($0.1) } }
}

/// The default parameters with some catalogue values changed.
func params(_ changes: [String: ParameterValue]) -> ScrollOffParameters {
    var v = ParameterValues(defaultsOf: ScrollOffParameters.catalogue)
    for (k, x) in changes { v[k] = x }
    return ScrollOffParameters(values: v)
}

/// Parameters under which a Free shield goes straight to the token step (no free or credit peeks, no mindfulness).
let straightToTokens: [String: ParameterValue] = [
    "bypass.free_peeks_per_day.free": .int(0), "bypass.free_peeks_per_day.premium": .int(0), "bypass.free_peeks_per_day.pro": .int(0),
    "bypass.credit_peeks_per_day": .int(0), "bypass.mindfulness_enabled_by_default": .bool(false),
]

func render(_ e: ScrollOffEvent) -> String {
    let f = e.fields
    return f.isEmpty ? e.name : e.name + "(" + f.map { "\($0.0)=\($0.1)" }.joined(separator: ",") + ")"
}

extension Harness {
    /// A standard onboarding at 07:00 on day 0 that blocks `apps`.
    mutating func onboard(blocking apps: [UInt16] = [1], at h: Int = 7) {
        send(.onboarding(.appOpened), at: at(0, h))
        send(.onboarding(.permissionGranted), at: at(0, h))
        send(.createIfThenPlan(trigger: "When I'm bored during work calls", response: "I will doodle"), at: at(0, h))
        for a in apps { send(.blockApp(AppID(a)), at: at(0, h)) }
        send(.onboarding(.finished), at: at(0, h))
    }

    /// Opens the app and meets the shield at `t`.
    @discardableResult
    mutating func meetShield(_ app: AppID = AppID(1), at t: Instant) -> ScrollOffOutcome { send(.appForeground(app), at: t) }

    /// Events of one kind in the log.
    func count(_ name: String) -> Int { log.filter { $0.1.name == name }.count }

    /// Sets the plan via purchase.
    mutating func subscribe(_ p: Plan, at t: Instant) { send(.buyPlan(p), at: t) }
}
