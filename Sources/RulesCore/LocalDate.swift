/// A proleptic-Gregorian calendar date with no time zone, e.g. a person's local day.
///
/// Stored as a day number (days since 1970-01-01) so that day arithmetic and comparisons are integer operations.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01 (negative before it).
    public var dayNumber: Int64

    @inlinable public init(dayNumber: Int64) { self.dayNumber = dayNumber }

    /// Creates a date from its year, month (1–12) and day (1–31); returns nil for an impossible date.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= LocalDate.daysIn(year: year, month: month) else { return nil }
        self.dayNumber = LocalDate.daysFromCivil(Int64(year), Int64(month), Int64(day))
    }

    /// Parses `YYYY-MM-DD`.
    public init?(iso text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    @inlinable public static func < (a: LocalDate, b: LocalDate) -> Bool { a.dayNumber < b.dayNumber }
    @inlinable public static func + (a: LocalDate, days: Int64) -> LocalDate { LocalDate(dayNumber: a.dayNumber + days) }
    @inlinable public static func - (a: LocalDate, b: LocalDate) -> Int64 { a.dayNumber - b.dayNumber }

    /// Year, month and day (Howard Hinnant's `civil_from_days`).
    public var components: (year: Int, month: Int, day: Int) {
        let z = dayNumber + 719_468
        let era = IntMath.floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (Int(m <= 2 ? y + 1 : y), Int(m), Int(d))
    }

    public var year: Int { components.year }
    public var month: Int { components.month }
    public var day: Int { components.day }

    /// Day of the week (1970-01-01 was a Thursday).
    @inlinable public var weekday: Weekday { Weekday(rawValue: Int(IntMath.floorMod(dayNumber + 3, 7)) + 1)! }

    /// The calendar month this date lies in.
    public var monthID: MonthID { let c = components; return MonthID(year: c.year, month: c.month) }

    /// The ISO-8601 week (weeks start Monday; week 1 holds the year's first Thursday).
    public var isoWeek: ISOWeek {
        let thursday = LocalDate(dayNumber: dayNumber - Int64(weekday.rawValue - 1) + 3)
        let year = thursday.year
        let jan1 = LocalDate(year: year, month: 1, day: 1)!
        return ISOWeek(year: year, week: Int((thursday.dayNumber - jan1.dayNumber) / 7) + 1)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        let c = components
        let y = c.year >= 0 && c.year < 10000 ? String(repeating: "0", count: 4 - String(c.year).count) + String(c.year) : String(c.year)
        return "\(y)-\(pad2(Int64(c.month)))-\(pad2(Int64(c.day)))"
    }

    static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }
    /// Number of days in a month of a year.
    public static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
    /// Howard Hinnant's `days_from_civil`.
    static func daysFromCivil(_ y0: Int64, _ m: Int64, _ d: Int64) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = IntMath.floorDiv(y, 400)
        let yoe = y - era * 400
        let mp = m > 2 ? m - 3 : m + 9
        let doy = (153 * mp + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}

/// A day of the week, ISO numbering (Monday = 1 … Sunday = 7).
public enum Weekday: Int, Sendable, CaseIterable, Hashable, CustomStringConvertible {
    case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

    /// Three-letter English abbreviation, as used in scenario files (`mon` … `sun`).
    public var shortName: String { ["mon", "tue", "wed", "thu", "fri", "sat", "sun"][rawValue - 1] }
    public var description: String { shortName }
    /// Parses `mon`…`sun` (case-insensitive, also full names).
    public init?(name: String) {
        let n = name.lowercased()
        guard let i = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].firstIndex(where: { n.hasPrefix($0) }) else { return nil }
        self.init(rawValue: i + 1)
    }
    /// Saturday or Sunday.
    public var isWeekend: Bool { self == .saturday || self == .sunday }
}

/// A set of weekdays, e.g. the days a curfew applies.
public struct WeekdaySet: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The set holding one weekday.
    public init(_ day: Weekday) { self.rawValue = 1 << UInt8(day.rawValue - 1) }

    public static let monday = WeekdaySet(.monday), tuesday = WeekdaySet(.tuesday), wednesday = WeekdaySet(.wednesday)
    public static let thursday = WeekdaySet(.thursday), friday = WeekdaySet(.friday)
    public static let saturday = WeekdaySet(.saturday), sunday = WeekdaySet(.sunday)
    public static let weekdays: WeekdaySet = [.monday, .tuesday, .wednesday, .thursday, .friday]
    public static let weekend: WeekdaySet = [.saturday, .sunday]
    public static let everyDay: WeekdaySet = [.weekdays, .weekend]

    @inlinable public func contains(_ day: Weekday) -> Bool { rawValue & (1 << UInt8(day.rawValue - 1)) != 0 }
    public var description: String { Weekday.allCases.filter(contains).map(\.shortName).joined(separator: ",") }
}

/// A calendar month, e.g. `2026-03`: the unit of monthly caps (tokens) and monthly reports.
public struct MonthID: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    public var year: Int
    public var month: Int
    public init(year: Int, month: Int) { self.year = year; self.month = month }
    /// Months since year 0, for ordering and arithmetic.
    public var ordinal: Int { year * 12 + (month - 1) }
    public init(ordinal: Int) { self.init(year: ordinal.floorDivided(by: 12), month: ordinal - ordinal.floorDivided(by: 12) * 12 + 1) }
    public static func < (a: MonthID, b: MonthID) -> Bool { a.ordinal < b.ordinal }
    /// The month after this one.
    public var next: MonthID { MonthID(ordinal: ordinal + 1) }
    /// The first day of the month.
    public var firstDay: LocalDate { LocalDate(year: year, month: month, day: 1)! }
    /// `YYYY-MM`.
    public var description: String { "\(year)-\(pad2(Int64(month)))" }
}

/// An ISO-8601 week, e.g. `2026-W02`: the unit of install cohorts.
public struct ISOWeek: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    public var week: Int
    public init(year: Int, week: Int) { self.year = year; self.week = week }
    public static func < (a: ISOWeek, b: ISOWeek) -> Bool { (a.year, a.week) < (b.year, b.week) }
    /// `YYYY-Www`.
    public var description: String { "\(year)-W\(pad2(Int64(week)))" }
}

extension Int {
    func floorDivided(by b: Int) -> Int { Int(IntMath.floorDiv(Int64(self), Int64(b))) }
}

/// A wall-clock time of day, to the second (e.g. 04:00 day boundary, 23:00 curfew start).
public struct LocalTimeOfDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Seconds after local midnight, 0 ..< 86 400.
    public var secondsSinceMidnight: Int32

    public init(secondsSinceMidnight: Int32) {
        precondition((0..<86_400).contains(secondsSinceMidnight), "time of day out of range")
        self.secondsSinceMidnight = secondsSinceMidnight
    }
    /// Creates `hour:minute[:second]`; returns nil when out of range.
    public init?(hour: Int, minute: Int, second: Int = 0) {
        guard (0..<24).contains(hour), (0..<60).contains(minute), (0..<60).contains(second) else { return nil }
        self.secondsSinceMidnight = Int32(hour * 3600 + minute * 60 + second)
    }
    /// Parses `HH:MM` or `HH:MM:SS`.
    public init?(text: String) {
        let p = text.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        guard p.count == 2 || p.count == 3, p.allSatisfy({ $0 != nil }) else { return nil }
        self.init(hour: p[0]!, minute: p[1]!, second: p.count == 3 ? p[2]! : 0)
    }
    public static var midnight: LocalTimeOfDay { LocalTimeOfDay(secondsSinceMidnight: 0) }
    public var hour: Int { Int(secondsSinceMidnight) / 3600 }
    public var minute: Int { Int(secondsSinceMidnight) / 60 % 60 }
    public var second: Int { Int(secondsSinceMidnight) % 60 }
    public static func < (a: LocalTimeOfDay, b: LocalTimeOfDay) -> Bool { a.secondsSinceMidnight < b.secondsSinceMidnight }
    /// `HH:MM` (or `HH:MM:SS` when seconds are set).
    public var description: String {
        let base = "\(pad2(Int64(hour))):\(pad2(Int64(minute)))"
        return second == 0 ? base : base + ":\(pad2(Int64(second)))"
    }
}

/// A local date and wall-clock time, as a person's phone would show it.
public struct LocalDateTime: Hashable, Sendable, CustomStringConvertible {
    public var date: LocalDate
    /// Milliseconds after local midnight.
    public var millisecondsIntoDay: Int64
    public init(date: LocalDate, millisecondsIntoDay: Int64) { self.date = date; self.millisecondsIntoDay = millisecondsIntoDay }
    public var hour: Int { Int(millisecondsIntoDay / 3_600_000) }
    public var minute: Int { Int(millisecondsIntoDay / 60_000 % 60) }
    public var second: Int { Int(millisecondsIntoDay / 1000 % 60) }
    public var weekday: Weekday { date.weekday }
    public var timeOfDay: LocalTimeOfDay { LocalTimeOfDay(secondsSinceMidnight: Int32(millisecondsIntoDay / 1000)) }
    /// `YYYY-MM-DDTHH:MM:SS`.
    public var description: String {
        "\(date)T\(pad2(Int64(hour))):\(pad2(Int64(minute))):\(pad2(Int64(second)))"
    }
}
