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
    /// This price `count` times, when it is quoted per `unit` items (default 1), rounded half away from zero to the
    /// micro-dollar, in exact integer arithmetic (no floating point; the product is formed at 128 bits): an AI request
    /// of 1 234 tokens at $0.60 per million tokens is `Money(usd: 0.60).times(1_234, per: 1_000_000)` = $0.00074
    /// (740.4 micro-dollars, rounded to 740). `unit` must be positive; a result beyond `Int64` micro-dollars traps.
    public func times(_ count: Int64, per unit: Int64 = 1) -> Money {
        precondition(unit > 0, "a price is quoted per a positive number of items")
        let negative = (micros < 0) != (count < 0)
        let d = UInt64(unit)
        let (q, r) = d.dividingFullWidth(micros.magnitude.multipliedFullWidth(by: count.magnitude))
        let m = q + (r >= d - r ? 1 : 0)          // round half away from zero: 2r ≥ d without overflow
        precondition(m <= UInt64(Int64.max), "an amount beyond Int64 micro-dollars")
        return Money(micros: negative ? -Int64(m) : Int64(m))
    }

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
