import Testing
import RulesCore
@testable import EarnedAccessRules

/// Seed 003 §6 Day boundary: "Day starts at 04:00 local time"; "`day_id` is computed from local date with the 04:00
/// rule" (§11 `computeDayId(tsUtcMs, timezoneId)`), on DST nights, far from UTC and exactly at 04:00:00.
@Suite("Earned Access 04:00 day boundary and DST")
struct DayBoundaryTests {
    static func zone(_ id: String) throws -> ZoneCalendar {
        try ZoneCalendar(identifier: id, startingOn: LocalDate(year: 2026, month: 1, day: 1)!, days: 400)
    }
    static func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int = 0, _ s: Int = 0) -> Instant {
        ZoneCalendar.utc.instant(on: LocalDate(year: y, month: mo, day: d)!, at: LocalTimeOfDay(hour: h, minute: mi, second: s)!)
    }
    static func date(_ y: Int, _ m: Int, _ d: Int) -> LocalDate { LocalDate(year: y, month: m, day: d)! }

    /// New York springs forward on 2026-03-08: 02:00 EST → 03:00 EDT, so 02:00–03:00 does not exist and the day_id
    /// 2026-03-07 (04:00 EST → 04:00 EDT) lasts 23 hours.
    @Test("spring forward (New York, 2026-03-08): the 04:00 boundary is 23 h after the previous one")
    func springForward() throws {
        let ny = try Self.zone("America/New_York")
        #expect(EarnedAccessEngine.computeDayID(Self.utc(2026, 3, 8, 6, 59, 59), zone: ny) == Self.date(2026, 3, 7))  // 01:59:59 EST
        #expect(EarnedAccessEngine.computeDayID(Self.utc(2026, 3, 8, 7, 30), zone: ny) == Self.date(2026, 3, 7))      // 03:30 EDT
        #expect(EarnedAccessEngine.computeDayID(Self.utc(2026, 3, 8, 7, 59, 59), zone: ny) == Self.date(2026, 3, 7))  // 03:59:59 EDT
        #expect(EarnedAccessEngine.computeDayID(Self.utc(2026, 3, 8, 8), zone: ny) == Self.date(2026, 3, 8))          // 04:00 EDT

        var h = Harness(zone: ny, day0: Self.date(2026, 3, 7), at: 12)
        h.onboard(at: 12)
        h.focus(90, from: h.at(0, 13))
        #expect(h.engine.balance == 23)
        let boundary = try #require(h.pending.first { $0.kind == .dayBoundary })
        #expect(boundary.at == Self.utc(2026, 3, 8, 8))
        #expect(boundary.at - Self.utc(2026, 3, 7, 9) == .hours(23))
        h.run(until: Self.utc(2026, 3, 8, 7, 59, 59))
        #expect(h.engine.dayID == Self.date(2026, 3, 7) && h.engine.balance == 23)
        h.run(until: Self.utc(2026, 3, 8, 8))
        #expect(h.engine.dayID == Self.date(2026, 3, 8) && h.engine.balance == 10)
        // A schedule 01:00–05:00 runs across the missing hour.
        #expect(h.send(.editMode(1, workMode(time(1), time(5))), at: Self.utc(2026, 3, 8, 8)).decision == .modeUpdated)
        #expect(h.engine.shieldingSource(at: Self.utc(2026, 3, 9, 7, 30)) != nil)   // 03:30 EDT on the 9th
        #expect(h.problems.isEmpty, "\(h.problems)")
    }

    /// New York falls back on 2026-11-01: 02:00 EDT → 01:00 EST; 01:00–02:00 happens twice and the day_id 2026-10-31
    /// lasts 25 hours.
    @Test("fall back (New York, 2026-11-01): both 01:30s belong to the previous day_id; the day lasts 25 h")
    func fallBack() throws {
        let ny = try Self.zone("America/New_York")
        #expect(EarnedAccessEngine.computeDayID(Self.utc(2026, 11, 1, 5, 30), zone: ny) == Self.date(2026, 10, 31))  // 01:30 EDT
        #expect(EarnedAccessEngine.computeDayID(Self.utc(2026, 11, 1, 6, 30), zone: ny) == Self.date(2026, 10, 31))  // 01:30 EST
        #expect(EarnedAccessEngine.computeDayID(Self.utc(2026, 11, 1, 8, 59, 59), zone: ny) == Self.date(2026, 10, 31))
        #expect(EarnedAccessEngine.computeDayID(Self.utc(2026, 11, 1, 9), zone: ny) == Self.date(2026, 11, 1))

        var h = Harness(zone: ny, day0: Self.date(2026, 10, 31), at: 12)
        h.onboard(at: 12)
        let boundary = try #require(h.pending.first { $0.kind == .dayBoundary })
        #expect(boundary.at == Self.utc(2026, 11, 1, 9))
        #expect(boundary.at - Self.utc(2026, 10, 31, 8) == .hours(25))
        h.run(until: Self.utc(2026, 11, 1, 6, 30))
        #expect(h.engine.dayID == Self.date(2026, 10, 31))
        h.run(until: Self.utc(2026, 11, 1, 9))
        #expect(h.engine.dayID == Self.date(2026, 11, 1))
        #expect(h.count("day_rolled_over") == 1)
        #expect(h.problems.isEmpty, "\(h.problems)")
    }

    /// Far from UTC (UTC+14 and UTC−11): the UTC date differs from the local one; the day_id follows local 04:00.
    @Test("zones far from UTC: Kiritimati (+14) and Pago Pago (−11)")
    func farZones() throws {
        let kiri = try Self.zone("Pacific/Kiritimati")
        // 2026-03-10 03:59 local = 2026-03-09 13:59Z; 04:00 local = 14:00Z.
        #expect(EarnedAccessEngine.computeDayID(Self.utc(2026, 3, 9, 13, 59), zone: kiri) == Self.date(2026, 3, 9))
        #expect(EarnedAccessEngine.computeDayID(Self.utc(2026, 3, 9, 14), zone: kiri) == Self.date(2026, 3, 10))
        let pago = try Self.zone("Pacific/Pago_Pago")
        // 2026-03-10 04:00 local = 2026-03-10 15:00Z; 03:59 local = 14:59Z.
        #expect(EarnedAccessEngine.computeDayID(Self.utc(2026, 3, 10, 14, 59), zone: pago) == Self.date(2026, 3, 9))
        #expect(EarnedAccessEngine.computeDayID(Self.utc(2026, 3, 10, 15), zone: pago) == Self.date(2026, 3, 10))

        var h = Harness(zone: kiri, day0: Self.date(2026, 3, 9), at: 12)
        h.onboard(at: 12)
        h.run(until: Self.utc(2026, 3, 9, 14))
        #expect(h.engine.dayID == Self.date(2026, 3, 10))
        #expect(h.problems.isEmpty, "\(h.problems)")
    }

    /// The rollover happens exactly at 04:00:00.000: an emergency used at 03:59:59.999 blocks another until then.
    @Test("rollover exactly at 04:00:00: the day's emergency comes back at 04:00:00.000, not a millisecond earlier")
    func exactlyAtFour() {
        var h = Harness()
        h.onboard(apps: [1, 2])
        h.reachGate(AppID(1), at: h.at(1, 3, 58))
        h.send(.unlock(AppID(1), .emergency), at: h.at(1, 3, 58))
        h.run(until: h.at(1, 3, 59))
        #expect(h.engine.emergenciesToday == 1)
        let justBefore = h.at(1, 4) - .milliseconds(1)
        h.reachGate(AppID(2), at: justBefore)
        #expect(h.send(.unlock(AppID(2), .emergency), at: justBefore).decision == .emergencyUsed)
        #expect(h.engine.dayID == h.day0)
        #expect(h.send(.unlock(AppID(2), .emergency), at: h.at(1, 4)).decision == .emergencyWaitStarted)
        #expect(h.engine.dayID == h.day0 + 1)
        #expect(h.problems.isEmpty, "\(h.problems)")
    }

    /// day_id never goes backwards, even if an input arrives with an earlier instant (a clock set back).
    @Test("day_id never goes backwards")
    func neverBackwards() {
        var h = Harness()
        h.onboard()
        var e = h.engine
        _ = e.handle(.view(.progress), at: h.at(3, 12))
        let later = e.dayID
        _ = e.handle(.view(.progress), at: h.at(1, 12))
        #expect(e.dayID == later)
        #expect(e.invariantViolations(at: h.at(1, 12)).isEmpty)
    }
}
