import Testing
@testable import RulesCore

/// Parses `YYYY-MM-DDTHH:MM:SSZ` (UTC) for readable expectations.
func utc(_ text: String) -> Instant {
    let date = LocalDate(iso: String(text.prefix(10)))!
    let time = LocalTimeOfDay(text: String(text.dropFirst(11).prefix(8)))!
    return Instant(millisecondsSinceEpoch: date.dayNumber * 86_400_000 + Int64(time.secondsSinceMidnight) * 1000)
}

func zone(_ id: String) throws -> ZoneCalendar {
    try ZoneCalendar(identifier: id, startingOn: LocalDate(iso: "2026-01-01")!, days: 365)
}

@Suite("Local calendar")
struct CalendarTests {
    @Test func civilDatesRoundTrip() {
        for day in Int64(-800_000)...Int64(800_000) where day % 997 == 0 {
            let d = LocalDate(dayNumber: day)
            let c = d.components
            #expect(LocalDate(year: c.year, month: c.month, day: c.day) == d)
        }
        #expect(LocalDate(iso: "1970-01-01")!.weekday == .thursday)
        #expect(LocalDate(iso: "2026-11-22")!.weekday == .sunday)
        #expect(LocalDate(iso: "2026-02-29") == nil)
        #expect(LocalDate(iso: "2028-02-29") != nil)
    }

    @Test func localMidnightAndFourAMBoundaryInNewYork() throws {
        let ny = try zone("America/New_York")
        // 2026-06-10 03:30 EDT = 07:30Z: still the previous app day for a 04:00 boundary.
        let t = utc("2026-06-10T07:30:00Z")
        #expect(ny.localDate(t) == LocalDate(iso: "2026-06-10"))
        #expect(ny.startOfDay(containing: t) == utc("2026-06-10T04:00:00Z"))
        let four = LocalTimeOfDay(hour: 4, minute: 0)!
        #expect(ny.day(containing: t, boundary: four) == LocalDate(iso: "2026-06-09"))
        #expect(ny.startOfDay(containing: t, boundary: four) == utc("2026-06-09T08:00:00Z"))
        #expect(ny.startOfNextDay(after: t, boundary: four) == utc("2026-06-10T08:00:00Z"))
        #expect(ny.startOfNextDay(after: t) == utc("2026-06-11T04:00:00Z"))
    }

    @Test func newYorkSpringForwardAndFallBack() throws {
        let ny = try zone("America/New_York")
        let tr = ny.transitions
        #expect(tr.count == 2)
        #expect(tr[0].at == utc("2026-03-08T07:00:00Z") && tr[0].offset == .hours(-4))
        #expect(tr[1].at == utc("2026-11-01T06:00:00Z") && tr[1].offset == .hours(-5))
        // Spring forward: the local day of 2026-03-08 is 23 hours long.
        let mar8 = LocalDate(iso: "2026-03-08")!
        #expect(ny.instant(on: mar8 + 1, at: .midnight) - ny.instant(on: mar8, at: .midnight) == .hours(23))
        // 02:30 does not exist: shifted forward by the gap to 03:30 EDT = 07:30Z.
        #expect(ny.instant(on: mar8, at: LocalTimeOfDay(hour: 2, minute: 30)!) == utc("2026-03-08T07:30:00Z"))
        // Fall back: 2026-11-01 is 25 hours long; 01:30 happens twice, the earlier (EDT) is chosen.
        let nov1 = LocalDate(iso: "2026-11-01")!
        #expect(ny.instant(on: nov1 + 1, at: .midnight) - ny.instant(on: nov1, at: .midnight) == .hours(25))
        #expect(ny.instant(on: nov1, at: LocalTimeOfDay(hour: 1, minute: 30)!) == utc("2026-11-01T05:30:00Z"))
        #expect(ny.hour(utc("2026-11-01T06:30:00Z")) == 1)
        #expect(ny.localDateTime(utc("2026-11-01T06:30:00Z")).description == "2026-11-01T01:30:00")
    }

    @Test func berlinSpringForwardAndFallBack() throws {
        let berlin = try zone("Europe/Berlin")
        let tr = berlin.transitions
        #expect(tr.count == 2)
        #expect(tr[0].at == utc("2026-03-29T01:00:00Z") && tr[0].offset == .hours(2))
        #expect(tr[1].at == utc("2026-10-25T01:00:00Z") && tr[1].offset == .hours(1))
        #expect(berlin.hour(utc("2026-03-29T00:59:59Z")) == 1)
        #expect(berlin.hour(utc("2026-03-29T01:00:00Z")) == 3)
        let mar29 = LocalDate(iso: "2026-03-29")!
        #expect(berlin.instant(on: mar29 + 1, at: .midnight) - berlin.instant(on: mar29, at: .midnight) == .hours(23))
        let oct25 = LocalDate(iso: "2026-10-25")!
        #expect(berlin.instant(on: oct25 + 1, at: .midnight) - berlin.instant(on: oct25, at: .midnight) == .hours(25))
        // next 02:30 after Saturday evening skips the missing hour and lands on 03:30 CEST.
        #expect(berlin.nextOccurrence(of: LocalTimeOfDay(hour: 2, minute: 30)!, after: utc("2026-03-28T20:00:00Z")) == utc("2026-03-29T01:30:00Z"))
    }

    @Test func windowAcrossMidnightWithWeekdayMask() throws {
        let berlin = try zone("Europe/Berlin")
        // 23:00–07:00 on weekdays: a Friday-night window runs into Saturday; a Saturday night has none.
        let w = DailyWindow(start: LocalTimeOfDay(hour: 23, minute: 0)!, end: LocalTimeOfDay(hour: 7, minute: 0)!, days: .weekdays)
        #expect(w.crossesMidnight && w.nominalLength == .hours(8))
        // 2026-06-05 is a Friday. Local 23:30 Fri = 21:30Z; local 06:59 Sat = 04:59Z.
        #expect(w.contains(utc("2026-06-05T21:30:00Z"), in: berlin))
        #expect(w.contains(utc("2026-06-06T04:59:00Z"), in: berlin))
        #expect(!w.contains(utc("2026-06-06T05:00:00Z"), in: berlin))     // 07:00 Sat: end is exclusive
        #expect(!w.contains(utc("2026-06-06T21:30:00Z"), in: berlin))     // Sat 23:30: not a weekday start
        #expect(!w.contains(utc("2026-06-07T04:00:00Z"), in: berlin))     // Sun 06:00 (from Sat night): none
        #expect(!w.contains(utc("2026-06-08T04:00:00Z"), in: berlin))     // Mon 06:00: Sunday night is not in the mask
        #expect(w.contains(utc("2026-06-08T21:00:00Z"), in: berlin))      // Mon 23:00 starts
        let next = w.nextOccurrence(after: utc("2026-06-06T12:00:00Z"), in: berlin)!
        #expect(next.lowerBound == utc("2026-06-08T21:00:00Z") && next.upperBound == utc("2026-06-09T05:00:00Z"))
    }

    @Test func sixteenHourWindowOnDSTNightsIsOneHourShorterOrLonger() throws {
        let ny = try zone("America/New_York")
        let w = DailyWindow(start: LocalTimeOfDay(hour: 18, minute: 0)!, end: LocalTimeOfDay(hour: 10, minute: 0)!, days: .everyDay)
        #expect(w.nominalLength == .hours(16))
        let spring = w.occurrence(startingOn: LocalDate(iso: "2026-03-07")!, in: ny)!
        #expect(spring.upperBound - spring.lowerBound == .hours(15))
        let fall = w.occurrence(startingOn: LocalDate(iso: "2026-10-31")!, in: ny)!
        #expect(fall.upperBound - fall.lowerBound == .hours(17))
        let plain = w.occurrence(startingOn: LocalDate(iso: "2026-06-01")!, in: ny)!
        #expect(plain.upperBound - plain.lowerBound == .hours(16))
    }

    @Test func monthIDsAtMonthEnds() throws {
        let ny = try zone("America/New_York")
        // 2026-01-31 23:59 local (04:59Z Feb 1) is still January locally.
        #expect(ny.monthID(utc("2026-02-01T04:59:00Z")).description == "2026-01")
        #expect(ny.monthID(utc("2026-02-01T05:00:00Z")).description == "2026-02")
        #expect(ny.monthID(utc("2026-03-01T04:59:59Z")).description == "2026-02")
        #expect(ZoneCalendar.utc.monthID(utc("2026-12-31T23:59:59Z")).description == "2026-12")
        #expect(ZoneCalendar.utc.monthID(utc("2027-01-01T00:00:00Z")).description == "2027-01")
        #expect(MonthID(year: 2026, month: 12).next.description == "2027-01")
        #expect(ny.startOfMonth(MonthID(year: 2026, month: 3)) == utc("2026-03-01T05:00:00Z"))
    }

    @Test func isoWeeks() {
        #expect(LocalDate(iso: "2026-01-01")!.isoWeek.description == "2026-W01")   // Thursday
        #expect(LocalDate(iso: "2027-01-01")!.isoWeek.description == "2026-W53")   // Friday
        #expect(LocalDate(iso: "2024-12-30")!.isoWeek.description == "2025-W01")   // Monday
        #expect(LocalDate(iso: "2026-01-05")!.isoWeek.description == "2026-W02")
    }

    @Test func unknownZoneSuggestsTheNearestName() {
        #expect(throws: ZoneCalendar.ZoneError.unknownZone("Europe/Berln", suggestion: "Europe/Berlin")) {
            _ = try ZoneCalendar(identifier: "Europe/Berln", startingOn: LocalDate(iso: "2026-01-01")!, days: 10)
        }
    }

    @Test func moneyFormatsExactly() {
        #expect(Money(usd: 4.99).formatted() == "4.99")
        #expect(Money(usd: 4.99).fraction(0.3).formatted(decimals: 4) == "1.4970")
        #expect(Money(usd: -0.005).formatted() == "-0.01")
        #expect(Money(usd: 59.99).formatted(decimals: 0) == "60")
        #expect((Money(usd: 0.1) + Money(usd: 0.2)) == Money(usd: 0.3))
    }
}
