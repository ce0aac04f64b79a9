import Testing
import RulesCore
@testable import Behavior

/// The set-up and arrival caches of issue 41 give what they replace, bit for bit (the run's outputs must not move).
@Suite struct SetUpCacheTests {
    /// The full sum the base profile was built with before issue 41: every night, every week shift, zeros included.
    static func fullSum(hourOfWeek i: Int, _ p: PhoneUseParameters) -> Double {
        var asleep = 0.0
        let lo = Double(i), hi = Double(i + 1)
        for night in -1...7 {
            let d = ((night % 7) + 7) % 7
            let start = Double(night * 24) + p.sleepStartHour + ((d == 4 || d == 5) ? PhoneUseProcess.weekendSleepShiftHours : 0)
            let end = start + p.sleepHours
            for shift in [-168.0, 0, 168] { asleep += max(0, min(hi, end + shift) - max(lo, start + shift)) }
        }
        return min(1, asleep)
    }

    @Test("sleep windows give the full sum's fraction of every hour of the week, to the bit",
          arguments: [(23.5, 7.4), (18.0, 5.0), (30.0, 9.3), (21.17, 8.61), (0.0, 0.0), (25.25, 11.9)])
    func sleepWindowsMatchFullSum(start: Double, hours: Double) {
        var p = PhoneUseParameters()
        p.sleepStartHour = start
        p.sleepHours = hours
        let windows = SleepWindows(p)
        for i in 0..<168 {
            #expect(windows.asleepFraction(hourOfWeek: i).bitPattern == Self.fullSum(hourOfWeek: i, p).bitPattern, "hour \(i)")
        }
    }

    @Test("the midnight cache answers as the zone does, for dates asked in any order")
    func midnightCacheMatchesZone() throws {
        let start = try #require(LocalDate(year: 2026, month: 3, day: 25))
        let zone = try ZoneCalendar(identifier: "Europe/Berlin", startingOn: start, days: 20)   // a clock change inside
        var cache = MidnightCache()
        for offset: Int64 in [0, 1, 0, 1, 2, 3, 3, 1, 5, 4, 6, 7, 8, 9, 2, 10] {
            let d = start + offset
            #expect(cache.midnight(of: d, zone: zone) == zone.instant(on: d, at: .midnight), "day +\(offset)")
        }
    }
}
