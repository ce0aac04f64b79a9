import HabitatTestSupport
import RulesCore
@testable import EarnedAccessRules

/// The example tests' host (`HabitatTestSupport.EngineHarness`) for Earned Access: day 0 is Monday 2026-03-09 in
/// UTC−5 and the install at 08:00 unless told otherwise.
typealias Harness = EngineHarness<EarnedAccessEngine>

extension EngineHarness where Engine == EarnedAccessEngine {
    init(zone: ZoneCalendar = .fixed(offset: .hours(-5)), day0: LocalDate = LocalDate(year: 2026, month: 3, day: 9)!,
         parameters: EarnedAccessParameters = .defaults, at hour: Int = 8, minute: Int = 0) {
        self.init(parameters: parameters, zone: zone, day0: day0, hour: hour, minute: minute)
    }
}

/// The default parameters with some catalogue values changed.
func params(_ changes: [String: ParameterValue]) -> EarnedAccessParameters {
    var v = ParameterValues(defaultsOf: EarnedAccessParameters.catalogue)
    for (k, x) in changes { v[k] = x }
    return EarnedAccessParameters(values: v)
}

func render(_ e: EarnedAccessEvent) -> String { Harness.render(e) }

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
