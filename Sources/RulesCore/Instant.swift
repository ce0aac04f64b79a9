/// A point in time: whole milliseconds since the Unix epoch (1970-01-01T00:00:00Z), UTC.
///
/// Integer time keeps every simulation exact and reproducible on every machine (docs/DESIGN.md, principle 2).
/// Rule engines receive instants as input; they never read a clock.
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Milliseconds since the Unix epoch.
    public var millisecondsSinceEpoch: Int64

    /// Creates an instant from milliseconds since the Unix epoch.
    @inlinable public init(millisecondsSinceEpoch: Int64) { self.millisecondsSinceEpoch = millisecondsSinceEpoch }

    /// Creates an instant from whole seconds since the Unix epoch.
    @inlinable public init(secondsSinceEpoch: Int64) { self.millisecondsSinceEpoch = secondsSinceEpoch &* 1000 }

    /// The Unix epoch.
    @inlinable public static var epoch: Instant { Instant(millisecondsSinceEpoch: 0) }
    /// The latest representable instant; useful as "never".
    @inlinable public static var distantFuture: Instant { Instant(millisecondsSinceEpoch: .max) }
    /// The earliest representable instant.
    @inlinable public static var distantPast: Instant { Instant(millisecondsSinceEpoch: .min) }

    @inlinable public static func < (a: Instant, b: Instant) -> Bool { a.millisecondsSinceEpoch < b.millisecondsSinceEpoch }
    @inlinable public static func + (a: Instant, d: TimeSpan) -> Instant { Instant(millisecondsSinceEpoch: a.millisecondsSinceEpoch &+ d.milliseconds) }
    @inlinable public static func - (a: Instant, d: TimeSpan) -> Instant { Instant(millisecondsSinceEpoch: a.millisecondsSinceEpoch &- d.milliseconds) }
    @inlinable public static func - (a: Instant, b: Instant) -> TimeSpan { TimeSpan(milliseconds: a.millisecondsSinceEpoch &- b.millisecondsSinceEpoch) }
    @inlinable public static func += (a: inout Instant, d: TimeSpan) { a = a + d }

    /// ISO-8601 UTC text, e.g. `2026-03-08T07:00:00.000Z`.
    public var description: String { UTCFormatting.iso8601(self) }
}

/// A signed length of time in whole milliseconds.
///
/// Named `TimeSpan` so as not to collide with the standard library's `Duration` and `Span`.
public struct TimeSpan: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Length in milliseconds (negative spans are allowed, e.g. a clock rollback).
    public var milliseconds: Int64

    @inlinable public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    @inlinable public static func milliseconds(_ v: Int64) -> TimeSpan { TimeSpan(milliseconds: v) }
    @inlinable public static func seconds(_ v: Int64) -> TimeSpan { TimeSpan(milliseconds: v &* 1000) }
    @inlinable public static func minutes(_ v: Int64) -> TimeSpan { TimeSpan(milliseconds: v &* 60_000) }
    @inlinable public static func hours(_ v: Int64) -> TimeSpan { TimeSpan(milliseconds: v &* 3_600_000) }
    @inlinable public static func days(_ v: Int64) -> TimeSpan { TimeSpan(milliseconds: v &* 86_400_000) }
    /// A span from fractional seconds, rounded to the nearest millisecond.
    @inlinable public static func fractionalSeconds(_ v: Double) -> TimeSpan { TimeSpan(milliseconds: Int64((v * 1000).rounded())) }

    /// No time at all.
    @inlinable public static var zero: TimeSpan { TimeSpan(milliseconds: 0) }

    /// Whole seconds, truncated toward zero.
    @inlinable public var wholeSeconds: Int64 { milliseconds / 1000 }
    /// Seconds as a floating-point number.
    @inlinable public var seconds: Double { Double(milliseconds) / 1000 }
    @inlinable public var minutes: Double { Double(milliseconds) / 60_000 }
    @inlinable public var hours: Double { Double(milliseconds) / 3_600_000 }

    @inlinable public static func < (a: TimeSpan, b: TimeSpan) -> Bool { a.milliseconds < b.milliseconds }
    @inlinable public static func + (a: TimeSpan, b: TimeSpan) -> TimeSpan { TimeSpan(milliseconds: a.milliseconds &+ b.milliseconds) }
    @inlinable public static func - (a: TimeSpan, b: TimeSpan) -> TimeSpan { TimeSpan(milliseconds: a.milliseconds &- b.milliseconds) }
    @inlinable public static func * (a: TimeSpan, k: Int64) -> TimeSpan { TimeSpan(milliseconds: a.milliseconds &* k) }
    @inlinable public static prefix func - (a: TimeSpan) -> TimeSpan { TimeSpan(milliseconds: -a.milliseconds) }
    @inlinable public static func += (a: inout TimeSpan, b: TimeSpan) { a = a + b }
    @inlinable public static func -= (a: inout TimeSpan, b: TimeSpan) { a = a - b }

    /// `1h02m03s`-style text; milliseconds shown only when present.
    public var description: String {
        let sign = milliseconds < 0 ? "-" : ""
        var ms = milliseconds.magnitude
        let h = ms / 3_600_000; ms %= 3_600_000
        let m = ms / 60_000; ms %= 60_000
        let s = ms / 1000; ms %= 1000
        var out = sign
        if h > 0 { out += "\(h)h" }
        if h > 0 || m > 0 { out += "\(m)m" }
        out += "\(s)s"
        if ms > 0 { out += "\(ms)ms" }
        return out
    }
}

/// Integer helpers shared by the calendar code.
@usableFromInline enum IntMath {
    /// Floor division (rounds toward negative infinity).
    @inlinable static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q
    }
    /// Non-negative remainder matching `floorDiv`.
    @inlinable static func floorMod(_ a: Int64, _ b: Int64) -> Int64 { a - floorDiv(a, b) * b }
}

/// UTC text formatting without Foundation's formatters (byte-stable everywhere).
enum UTCFormatting {
    static func iso8601(_ t: Instant) -> String {
        let ms = t.millisecondsSinceEpoch
        let day = IntMath.floorDiv(ms, 86_400_000)
        let rem = IntMath.floorMod(ms, 86_400_000)
        let date = LocalDate(dayNumber: day)
        let h = rem / 3_600_000, m = (rem / 60_000) % 60, s = (rem / 1000) % 60, f = rem % 1000
        return "\(date)T\(pad2(h)):\(pad2(m)):\(pad2(s)).\(pad3(f))Z"
    }
}

func pad2(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
func pad3(_ v: Int64) -> String { v < 10 ? "00\(v)" : (v < 100 ? "0\(v)" : "\(v)") }
