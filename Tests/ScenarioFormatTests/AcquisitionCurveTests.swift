import Foundation
import Testing
import RulesCore
@testable import ScenarioFormat

/// Issue 5: install curves (per day, ramp, monthly, CSV, weekly seasonality) and the people they spread.
@Suite("Acquisition curves")
struct AcquisitionCurveTests {
    static let monday = LocalDate(year: 2026, month: 1, day: 5)!

    @Test("a ramp climbs linearly, then holds; weekly seasonality is normalised to mean 1")
    func rampAndSeasonality() {
        let ramp = AcquisitionCurve(form: .ramp(from: 10, to: 50, overDays: 4))
        #expect(ramp.realInstalls(start: Self.monday, days: 6) == [10, 20, 30, 40, 50, 50])
        let flat = AcquisitionCurve(form: .perDay(100), weeklySeasonality: [1, 1, 1, 1, 1, 2, 2])
        let week = flat.realInstalls(start: Self.monday, days: 7)
        let mean = 9.0 / 7
        #expect(week.map { ($0 * 1e9).rounded() } == [1, 1, 1, 1, 1, 2, 2].map { ((100 * $0 / mean) * 1e9).rounded() })
        #expect(abs(week.reduce(0, +) - 700) < 1e-9, "seasonality moves installs between days, not the total")
    }

    @Test("monthly figures spread evenly over each month's days; the last figure repeats")
    func monthly() {
        let curve = AcquisitionCurve(form: .monthly([310, 2800]))
        let start = LocalDate(year: 2026, month: 1, day: 1)!
        let days = curve.realInstalls(start: start, days: 31 + 28 + 31)
        #expect(days[0] == 10 && days[30] == 10)
        #expect(days[31] == 100 && days[58] == 100)
        #expect(abs(days[59] - 2800.0 / 31) < 1e-9)
        #expect(abs(days.prefix(59).reduce(0, +) - 3110) < 1e-9)
    }

    @Test("simulated people are spread over the days in proportion to the curve, every person placed once")
    func installDays() {
        let days = AcquisitionCurve.installDays(people: 100, realInstalls: [0, 10, 30, 0, 60])
        #expect(days.count == 100)
        #expect(days.filter { $0 == 1 }.count == 10 && days.filter { $0 == 2 }.count == 30 && days.filter { $0 == 4 }.count == 60)
        #expect(days == days.sorted(), "ids in install order")
    }

    @Test("a CSV of daily installs is read relative to the scenario; bad lines are named")
    func csv() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("acq-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try "date,installs\n2026-01-05,120\n2026-01-07,80\n".write(to: dir.appendingPathComponent("launch.csv"), atomically: true, encoding: .utf8)
        let scenario = dir.appendingPathComponent("s.yaml")
        try "start: 2026-01-05\nhorizon_days: 3\npopulation:\n  installs: 20\n  acquisition:\n    csv: launch.csv\n".write(to: scenario, atomically: true, encoding: .utf8)
        let s = try TestCatalogue.loader.load(path: scenario.path)
        let curve = try #require(s.population.acquisition)
        #expect(curve.realInstalls(start: s.start, days: 3) == [120, 0, 80])
        #expect(s.arms[0].population.acquisition == curve)
        try "date,installs\n2026-01-05,12\n2026-01-06,lots\n".write(to: dir.appendingPathComponent("launch.csv"), atomically: true, encoding: .utf8)
        let error = try #require(TestCatalogue.errorAt(path: scenario.path))
        #expect(error.issues[0].keyPath == "population.acquisition.csv")
        #expect(error.issues[0].message.contains("launch.csv:3: installs 'lots' is not a non-negative number"))
    }

    @Test("exactly one curve; seven seasonality multipliers; a curve with installs inside the horizon")
    func validation() throws {
        let two = try #require(TestCatalogue.error("population:\n  acquisition:\n    per_day: 5\n    monthly: [100]\n"))
        #expect(two.issues[0].message == "several install curves given: per_day, monthly")
        let week = try #require(TestCatalogue.error("population:\n  acquisition:\n    per_day: 5\n    weekly_seasonality: [1, 2]\n"))
        #expect(week.issues[0].keyPath == "population.acquisition.weekly_seasonality")
        let none = try #require(TestCatalogue.error("population:\n  acquisition:\n    per_day: 0\n"))
        #expect(none.issues[0].message.contains("no installs within the horizon"))
        let typo = try #require(TestCatalogue.error("population:\n  acquisition:\n    per_dya: 5\n"))
        #expect(typo.issues.first?.suggestion == "per_day")
    }

    @Test("the resolved YAML keeps the curve and loads back equal")
    func roundTrip() throws {
        let s = try TestCatalogue.loader.load(yaml: "population:\n  installs: 50\n  acquisition:\n    ramp: {from: 5, to: 40.5, over_days: 30}\n    weekly_seasonality: [1, 1, 1, 1, 1.2, 1.4, 1.3]\n")
        let again = try TestCatalogue.loader.load(yaml: s.yaml)
        #expect(again == s)
    }
}
