import HabitatTestSupport
import RulesCore
@testable import LazuriRules

/// The example tests' host (`HabitatTestSupport.EngineHarness`) for Lazuri: London (DST on 2026-03-29 and 2026-10-25)
/// unless told otherwise, day 0 Monday 2026-03-02, install at 08:00.
typealias Harness = EngineHarness<LazuriEngine>

let london = try! ZoneCalendar(identifier: "Europe/London", startingOn: LocalDate(year: 2026, month: 1, day: 1)!, days: 400)

/// `h:m` as a local time of day.
func tod(_ h: Int, _ m: Int = 0) -> LocalTimeOfDay { LocalTimeOfDay(hour: h, minute: m)! }

/// A schedule `start`–`end` on `days` (every day by default).
func spec(_ start: LocalTimeOfDay, _ end: LocalTimeOfDay, _ days: WeekdaySet = .everyDay, name: String = "Focus") -> ScheduleSpec {
    ScheduleSpec(name: name, start: start, end: end, days: days)
}

/// The default parameters with some catalogue values changed.
func params(_ changes: [String: ParameterValue]) -> LazuriParameters {
    var v = ParameterValues(defaultsOf: LazuriParameters.catalogue)
    for (k, x) in changes { v[k] = x }
    return LazuriParameters(values: v)
}

extension EngineHarness where Engine == LazuriEngine {
    init(zone: ZoneCalendar = london, day0: LocalDate = LocalDate(year: 2026, month: 3, day: 2)!,
         parameters: LazuriParameters = .defaults, at hour: Int = 8, minute: Int = 0) {
        self.init(parameters: parameters, zone: zone, day0: day0, hour: hour, minute: minute)
    }

    /// Opens the app and the Focus tab, grants Screen Time (and notifications), selects `apps` apps and `domains`
    /// domains, at the current instant.
    mutating func setUp(apps: Int = 3, categories: Int = 0, domains: Int = 0, notifications: Bool = true) {
        let t = now
        send(.appOpened, at: t)
        send(.tabOpened(.focus), at: t)
        send(.screenTimeAuthorization(granted: true), at: t)
        send(.setSelection(BlockSelection(apps: apps, categories: categories, domains: domains)), at: t)
        if notifications { send(.notificationPermission(granted: true), at: t) }
    }

    /// Creates a schedule and returns its id (nil when refused).
    @discardableResult
    mutating func create(_ s: ScheduleSpec, at t: Instant? = nil) -> ScheduleID? {
        if case .scheduleCreated(let id) = send(.createSchedule(s), at: t ?? now).decision { return id }
        return nil
    }

    /// Creates a schedule and switches it on; returns its id.
    @discardableResult
    mutating func schedule(_ s: ScheduleSpec, at t: Instant? = nil) -> ScheduleID {
        let id = create(s, at: t)!
        send(.setScheduleEnabled(id, true), at: t ?? now)
        return id
    }

    var lastDecision: LazuriDecision { decisions.last!.2 }

    /// The instants of the events of one name.
    func times(_ name: String) -> [Instant] { log.filter { $0.1.name == name }.map(\.0) }
}

func render(_ e: LazuriEvent) -> String { Harness.render(e) }
