/// An amount of US dollars held exactly as integer micro-dollars (1 USD = 1 000 000).
///
/// Micro-dollars keep store fees (30 % or 15 % of $4.99) exact, so ledgers add up to the last digit
/// whatever order they are merged in (docs/DESIGN.md, principle 6).
public struct Money: Hashable, Comparable, Sendable, CustomStringConvertible, AdditiveArithmetic, Codable {
    /// Micro-dollars.
    public var micros: Int64

    @inlinable public init(micros: Int64) { self.micros = micros }
    /// Creates an amount from dollars, rounded to the nearest micro-dollar (`Money(usd: 4.99)`).
    @inlinable public init(usd: Double) { self.micros = Int64((usd * 1_000_000).rounded()) }

    @inlinable public static var zero: Money { Money(micros: 0) }
    /// The amount in dollars as a floating-point number (for statistics, never for ledgers).
    @inlinable public var usd: Double { Double(micros) / 1_000_000 }

    @inlinable public static func < (a: Money, b: Money) -> Bool { a.micros < b.micros }
    @inlinable public static func + (a: Money, b: Money) -> Money { Money(micros: a.micros + b.micros) }
    @inlinable public static func - (a: Money, b: Money) -> Money { Money(micros: a.micros - b.micros) }
    @inlinable public static func * (a: Money, k: Int64) -> Money { Money(micros: a.micros * k) }
    /// A share of an amount (e.g. a 30 % store fee), rounded half away from zero to the micro-dollar.
    @inlinable public func fraction(_ f: Double) -> Money { Money(micros: Int64((Double(micros) * f).rounded())) }

    /// Fixed-point text with `decimals` places (default 2), e.g. `4.99`; byte-stable.
    public func formatted(decimals: Int = 2) -> String {
        precondition((0...6).contains(decimals))
        var scale: Int64 = 1
        for _ in 0..<(6 - decimals) { scale *= 10 }
        let negative = micros < 0
        var m = micros.magnitude
        let half = UInt64(scale / 2)
        m = (m + half) / UInt64(scale)          // round half away from zero
        var unit: UInt64 = 1
        for _ in 0..<decimals { unit *= 10 }
        let whole = m / unit, frac = m % unit
        let sign = negative && m != 0 ? "-" : ""
        guard decimals > 0 else { return "\(sign)\(whole)" }
        let digits = String(frac)
        return "\(sign)\(whole)." + String(repeating: "0", count: decimals - digits.count) + digits
    }

    /// `$4.99`.
    public var description: String { "$" + formatted() }
}
