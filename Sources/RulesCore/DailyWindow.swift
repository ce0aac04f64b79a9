/// A recurring local-time window such as a curfew "23:00–07:00, Mon–Fri" or a blocking schedule.
///
/// An occurrence belongs to the day it starts on, so the weekday mask is tested against the start day
/// (a Friday 23:00–07:00 window runs into Saturday morning). When `end <= start` the window crosses midnight.
/// Occurrence bounds are computed through the zone, so a window on a DST day lasts one hour more or less
/// in real time, exactly as the phone's clock would make it.
public struct DailyWindow: Hashable, Sendable, CustomStringConvertible {
    /// Wall-clock start.
    public var start: LocalTimeOfDay
    /// Wall-clock end (on the next day when not after `start`).
    public var end: LocalTimeOfDay
    /// Days on which an occurrence may start.
    public var days: WeekdaySet

    public init(start: LocalTimeOfDay, end: LocalTimeOfDay, days: WeekdaySet = .everyDay) {
        self.start = start
        self.end = end
        self.days = days
    }

    /// True when the window runs past local midnight.
    public var crossesMidnight: Bool { end <= start }

    /// The nominal (wall-clock) length, ignoring DST: e.g. 8 h for 23:00–07:00, 24 h when start == end.
    public var nominalLength: TimeSpan {
        let s = Int64(start.secondsSinceMidnight), e = Int64(end.secondsSinceMidnight)
        return .seconds(e > s ? e - s : 86_400 - s + e)
    }

    /// The occurrence that starts on a local date, if the weekday mask allows one.
    public func occurrence(startingOn date: LocalDate, in zone: ZoneCalendar) -> Range<Instant>? {
        guard days.contains(date.weekday) else { return nil }
        let s = zone.instant(on: date, at: start)
        let e = zone.instant(on: crossesMidnight ? date + 1 : date, at: end)
        return s < e ? s..<e : nil
    }

    /// The occurrence containing `t` (start inclusive, end exclusive), if any.
    public func occurrence(containing t: Instant, in zone: ZoneCalendar) -> Range<Instant>? {
        let d = zone.localDate(t)
        for candidate in [d + -1, d] {
            if let r = occurrence(startingOn: candidate, in: zone), r.contains(t) { return r }
        }
        return nil
    }

    /// True when `t` lies inside an occurrence.
    public func contains(_ t: Instant, in zone: ZoneCalendar) -> Bool { occurrence(containing: t, in: zone) != nil }

    /// The first occurrence starting strictly after `t`; nil when the mask is empty.
    public func nextOccurrence(after t: Instant, in zone: ZoneCalendar) -> Range<Instant>? {
        guard !days.isEmpty else { return nil }
        let d = zone.localDate(t)
        for offset in Int64(-1)...8 {
            if let r = occurrence(startingOn: d + offset, in: zone), r.lowerBound > t { return r }
        }
        return nil
    }

    /// `23:00-07:00 mon,tue,…`.
    public var description: String { "\(start)-\(end) \(days)" }
}
