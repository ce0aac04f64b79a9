import RulesCore
@testable import EarnedAccessRules

/// A tiny host for example tests: an engine, its pending timers (one per kind, superseded on re-arm), and the event
/// log. Random sweeps use `HabitatTestSupport.EngineSweep`.
struct Harness {
    var engine: EarnedAccessEngine
    var now: Instant
    var pending: [EarnedAccessTimer] = []
    var log: [(Instant, EarnedAccessEvent)] = []
    var ledger: [LedgerEntry] = []
    var effectsLog: [(Instant, EarnedAccessEffect)] = []
    var decisions: [(Instant, EarnedAccessInput, EarnedAccessDecision)] = []
    var out = EarnedAccessOutcome()
    var problems: [String] = []

    let zone: ZoneCalendar
    let day0: LocalDate

    /// Day 0 is Monday 2026-03-09 in UTC−5 unless told otherwise.
    init(zone: ZoneCalendar = .fixed(offset: .hours(-5)), day0: LocalDate = LocalDate(year: 2026, month: 3, day: 9)!,
         parameters: EarnedAccessParameters = .defaults, at hour: Int = 8, minute: Int = 0) {
        self.zone = zone
        self.day0 = day0
        let t = zone.instant(on: day0, at: LocalTimeOfDay(hour: hour, minute: minute)!)
        engine = EarnedAccessEngine(parameters: parameters, zone: zone, installedAt: t)
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
    mutating func send(_ input: EarnedAccessInput, at t: Instant) -> EarnedAccessOutcome {
        run(until: t)
        dispatch(input, at: t)
        return out
    }

    mutating func dispatch(_ input: EarnedAccessInput, at t: Instant) {
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
    func count(_ name: String) -> Int { log.filter { $0.1.name == name }.count }
    /// Events of one name, rendered.
    func rendered(_ name: String) -> [String] { log.filter { $0.1.name == name }.map { render($0.1) } }
}

/// The default parameters with some catalogue values changed.
func params(_ changes: [String: ParameterValue]) -> EarnedAccessParameters {
    var v = ParameterValues(defaultsOf: EarnedAccessParameters.catalogue)
    for (k, x) in changes { v[k] = x }
    return EarnedAccessParameters(values: v)
}

func render(_ e: EarnedAccessEvent) -> String {
    let f = e.fields
    return f.isEmpty ? e.name : e.name + "(" + f.map { "\($0.0)=\($0.1)" }.joined(separator: ",") + ")"
}

func time(_ h: Int, _ m: Int = 0) -> LocalTimeOfDay { LocalTimeOfDay(hour: h, minute: m)! }

/// A Work mode over a local window, every day.
func workMode(_ start: LocalTimeOfDay, _ end: LocalTimeOfDay, priority: Int = 0, strictness: Strictness = .standard) -> ModeSpec {
    ModeSpec(template: .work, window: DailyWindow(start: start, end: end, days: .everyDay), strictness: strictness, priority: priority)
}

/// A mode that is active all day, every day (00:00–00:00).
let allDayMode = workMode(time(0), time(0))

extension Harness {
    /// Onboarding at `h:00` on day 0: authorization granted, `apps` picked, one mode created, home.
    mutating func onboard(apps: [UInt16] = [1], mode: ModeSpec = allDayMode, at h: Int = 8) {
        let t = at(0, h)
        send(.appOpened, at: t)
        send(.onboarding(.goalSelected), at: t)
        send(.authorization(.granted), at: t)
        send(.onboarding(.authorizationExplained), at: t)
        for a in apps { send(.addApp(AppID(a)), at: t) }
        send(.onboarding(.appsPicked), at: t)
        send(.createMode(mode), at: t)
        send(.onboarding(.firstModeCreated), at: t)
        send(.onboarding(.unlockStyleConfirmed), at: t)
        send(.onboarding(.home), at: t)
        send(.paywallResponse(.dismiss), at: t)
    }

    /// Completes a focus session of `minutes` starting at `t`; returns its end.
    @discardableResult
    mutating func focus(_ minutes: Int, from t: Instant) -> Instant {
        send(.startFocus(minutes: minutes), at: t)
        let end = t + .minutes(Int64(minutes))
        run(until: end)
        return end
    }

    /// Meets the shield, closes it and opens Earned Access (lands in the gate) at `t`.
    mutating func reachGate(_ app: AppID, at t: Instant) {
        send(.appForeground(app), at: t)
        send(.shieldClose(app), at: t)
        send(.appOpened, at: t)
    }
}
