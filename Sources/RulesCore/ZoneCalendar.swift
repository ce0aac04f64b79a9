import Foundation

/// Local-calendar arithmetic for one IANA time zone over a precomputed horizon.
///
/// The zone's UTC-offset transitions (DST changes) are read once from the tz database through Foundation's
/// `TimeZone` when the calendar is made; afterwards every question — local date, hour, weekday, start of a
/// local day for any day boundary, next occurrence of a wall-clock time, ISO week, month id — is integer
/// arithmetic plus a binary search over a handful of transitions (docs/DESIGN.md, principle 2).
///
/// Instants outside `[from, through]` use the offset in force at the nearest end of the horizon.
///
/// Wall-clock times that do not exist (the spring-forward gap) resolve to the same wall time shifted forward by
/// the gap (02:30 → 03:30 in New York); ambiguous ones (the fall-back overlap) resolve to the earlier instant.
public struct ZoneCalendar: Sendable, Hashable {
    /// The IANA identifier, e.g. `Europe/Berlin`.
    public let identifier: String
    /// Instants (ms since epoch) at which the offset changes, ascending.
    @usableFromInline let transitionMs: [Int64]
    /// UTC offsets in ms: `offsetMs[i]` holds before `transitionMs[i]`; the last one after the last transition.
    @usableFromInline let offsetMs: [Int64]

    /// Errors raised while building a zone calendar.
    public enum ZoneError: Error, Equatable, CustomStringConvertible {
        /// The identifier is not in the tz database.
        case unknownZone(String, suggestion: String?)
        public var description: String {
            switch self {
            case let .unknownZone(id, suggestion):
                return "unknown time zone '\(id)'" + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
            }
        }
    }

    /// Coordinated Universal Time: no transitions.
    public static let utc = ZoneCalendar(identifier: "UTC", transitionMs: [], offsetMs: [0])

    /// A zone with a fixed offset from UTC and no DST, e.g. for tests.
    public static func fixed(offset: TimeSpan, name: String? = nil) -> ZoneCalendar {
        ZoneCalendar(identifier: name ?? "UTC\(offset.milliseconds >= 0 ? "+" : "")\(offset)", transitionMs: [], offsetMs: [offset.milliseconds])
    }

    init(identifier: String, transitionMs: [Int64], offsetMs: [Int64]) {
        self.identifier = identifier
        self.transitionMs = transitionMs
        self.offsetMs = offsetMs
    }

    /// Reads the zone's transitions between `from` and `through` from the tz database.
    public init(identifier: String, from: Instant, through: Instant) throws(ZoneError) {
        guard let tz = TimeZone(identifier: identifier) else {
            throw .unknownZone(identifier, suggestion: Suggestion.closest(to: identifier, among: TimeZone.knownTimeZoneIdentifiers))
        }
        let start = Date(timeIntervalSince1970: Double(from.millisecondsSinceEpoch) / 1000)
        var transitions: [Int64] = []
        var offsets: [Int64] = [Int64(tz.secondsFromGMT(for: start)) * 1000]
        var cursor = start
        let end = Double(through.millisecondsSinceEpoch) / 1000
        while let next = tz.nextDaylightSavingTimeTransition(after: cursor), next.timeIntervalSince1970 <= end {
            let ms = Int64((next.timeIntervalSince1970 * 1000).rounded())
            let offset = Int64(tz.secondsFromGMT(for: next)) * 1000
            if offset != offsets.last { transitions.append(ms); offsets.append(offset) }
            cursor = next
        }
        self.init(identifier: identifier, transitionMs: transitions, offsetMs: offsets)
    }

    /// Convenience: a calendar covering `days` local days from `start` (plus a margin either side).
    public init(identifier: String, startingOn start: LocalDate, days: Int) throws(ZoneError) {
        let from = Instant(millisecondsSinceEpoch: (start.dayNumber - 2) * 86_400_000)
        let through = Instant(millisecondsSinceEpoch: (start.dayNumber + Int64(days) + 3) * 86_400_000)
        try self.init(identifier: identifier, from: from, through: through)
    }

    /// Offset transitions in the horizon, for inspection and tests.
    public var transitions: [(at: Instant, offset: TimeSpan)] {
        zip(transitionMs, offsetMs.dropFirst()).map { (Instant(millisecondsSinceEpoch: $0), TimeSpan(milliseconds: $1)) }
    }

    // MARK: - UTC → local

    /// The UTC offset in force at an instant, in ms.
    @inlinable public func offsetMilliseconds(at t: Instant) -> Int64 {
        let ms = t.millisecondsSinceEpoch
        var lo = 0, hi = transitionMs.count
        while lo < hi {
            let mid = (lo &+ hi) >> 1
            if transitionMs[mid] <= ms { lo = mid &+ 1 } else { hi = mid }
        }
        return offsetMs[lo]
    }

    /// The UTC offset in force at an instant.
    @inlinable public func offset(at t: Instant) -> TimeSpan { TimeSpan(milliseconds: offsetMilliseconds(at: t)) }

    /// Local milliseconds since 1970-01-01T00:00 local wall time.
    @inlinable public func localMilliseconds(_ t: Instant) -> Int64 { t.millisecondsSinceEpoch &+ offsetMilliseconds(at: t) }

    /// The local calendar date of an instant.
    @inlinable public func localDate(_ t: Instant) -> LocalDate {
        LocalDate(dayNumber: IntMath.floorDiv(localMilliseconds(t), 86_400_000))
    }

    /// The local date and wall-clock time of an instant.
    public func localDateTime(_ t: Instant) -> LocalDateTime {
        let l = localMilliseconds(t)
        return LocalDateTime(date: LocalDate(dayNumber: IntMath.floorDiv(l, 86_400_000)), millisecondsIntoDay: IntMath.floorMod(l, 86_400_000))
    }

    /// Local hour 0–23.
    @inlinable public func hour(_ t: Instant) -> Int { Int(IntMath.floorMod(localMilliseconds(t), 86_400_000) / 3_600_000) }

    /// Local minute 0–59.
    @inlinable public func minute(_ t: Instant) -> Int { Int(IntMath.floorMod(localMilliseconds(t), 86_400_000) / 60_000 % 60) }

    /// Local weekday.
    @inlinable public func weekday(_ t: Instant) -> Weekday { localDate(t).weekday }

    /// The local calendar month, e.g. `2026-03` (the unit of monthly token caps).
    public func monthID(_ t: Instant) -> MonthID { localDate(t).monthID }

    /// The local ISO week (install cohorts).
    public func isoWeek(_ t: Instant) -> ISOWeek { localDate(t).isoWeek }

    // MARK: - Local → UTC

    /// The instant a local wall-clock time on a local date happens.
    ///
    /// A time in the spring-forward gap is shifted forward by the gap; a time in the fall-back overlap gives the
    /// earlier of its two instants.
    public func instant(on date: LocalDate, at time: LocalTimeOfDay) -> Instant {
        instant(localMilliseconds: date.dayNumber * 86_400_000 + Int64(time.secondsSinceMidnight) * 1000)
    }

    /// The instant for local milliseconds since the local epoch (see `instant(on:at:)` for gaps and overlaps).
    public func instant(localMilliseconds l: Int64) -> Instant {
        let before = offsetMilliseconds(at: Instant(millisecondsSinceEpoch: l - 86_400_000))
        let after = offsetMilliseconds(at: Instant(millisecondsSinceEpoch: l + 86_400_000))
        let t1 = l - before, t2 = l - after
        let ok1 = offsetMilliseconds(at: Instant(millisecondsSinceEpoch: t1)) == before
        let ok2 = offsetMilliseconds(at: Instant(millisecondsSinceEpoch: t2)) == after
        switch (ok1, ok2) {
        case (true, true): return Instant(millisecondsSinceEpoch: min(t1, t2))
        case (true, false): return Instant(millisecondsSinceEpoch: t1)
        case (false, true): return Instant(millisecondsSinceEpoch: t2)
        case (false, false): return Instant(millisecondsSinceEpoch: t1) // gap: wall time shifted forward by the gap
        }
    }

    // MARK: - Days with a boundary

    /// The "app day" an instant belongs to when days start at `boundary` local time (midnight, or 04:00 in
    /// Earned Access): the local date of the most recent boundary at or before the instant.
    public func day(containing t: Instant, boundary: LocalTimeOfDay = .midnight) -> LocalDate {
        let local = localDateTime(t)
        return local.millisecondsIntoDay >= Int64(boundary.secondsSinceMidnight) * 1000 ? local.date : local.date + -1
    }

    /// The instant the app day containing `t` started (local midnight by default).
    public func startOfDay(containing t: Instant, boundary: LocalTimeOfDay = .midnight) -> Instant {
        instant(on: day(containing: t, boundary: boundary), at: boundary)
    }

    /// The instant the next app day starts, strictly after `t`.
    public func startOfNextDay(after t: Instant, boundary: LocalTimeOfDay = .midnight) -> Instant {
        var d = day(containing: t, boundary: boundary) + 1
        var s = instant(on: d, at: boundary)
        while s <= t { d = d + 1; s = instant(on: d, at: boundary) } // only in pathological zones
        return s
    }

    /// The next instant strictly after `t` at which the local wall clock shows `time`.
    public func nextOccurrence(of time: LocalTimeOfDay, after t: Instant) -> Instant {
        var d = localDate(t) + -1
        while true {
            let s = instant(on: d, at: time)
            if s > t { return s }
            d = d + 1
        }
    }

    /// The first instant of a calendar month in this zone (local midnight of its first day).
    public func startOfMonth(_ m: MonthID) -> Instant { instant(on: m.firstDay, at: .midnight) }

    /// `months` calendar months after `t` (before it when negative) at the same local wall time, the day clamped to
    /// the month's length: how the App Store bills monthly and annual subscription periods (Jan 31 + 1 month =
    /// Feb 28 or 29). Every engine's subscription periods use it.
    public func adding(months: Int, to t: Instant) -> Instant {
        let l = localDateTime(t)
        let c = l.date.components
        let m = MonthID(ordinal: MonthID(year: c.year, month: c.month).ordinal + months)
        let day = min(c.day, LocalDate.daysIn(year: m.year, month: m.month))
        return instant(on: LocalDate(year: m.year, month: m.month, day: day)!, at: l.timeOfDay)
    }

    public static func == (a: ZoneCalendar, b: ZoneCalendar) -> Bool {
        a.identifier == b.identifier && a.transitionMs == b.transitionMs && a.offsetMs == b.offsetMs
    }
    public func hash(into h: inout Hasher) { h.combine(identifier); h.combine(transitionMs) }
}
