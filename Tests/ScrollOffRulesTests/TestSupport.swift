import HabitatTestSupport
import RulesCore
@testable import ScrollOffRules

/// The example tests' host (`HabitatTestSupport.EngineHarness`) for Scroll Off: day 0 is Monday 2026-01-05 in
/// UTC−5 and the install at 06:00 unless told otherwise.
typealias Harness = EngineHarness<ScrollOffEngine>

extension EngineHarness where Engine == ScrollOffEngine {
    init(zone: ZoneCalendar = .fixed(offset: .hours(-5)), day0: LocalDate = LocalDate(year: 2026, month: 1, day: 5)!,
         parameters: ScrollOffParameters = .defaults, at hour: Int = 6) {
        self.init(parameters: parameters, zone: zone, day0: day0, hour: hour)
    }
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

func render(_ e: ScrollOffEvent) -> String { Harness.render(e) }

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

    /// Sets the plan via purchase.
    mutating func subscribe(_ p: Plan, at t: Instant) { send(.buyPlan(p), at: t) }
}
