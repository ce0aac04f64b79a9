/// A mergeable, deterministic histogram of non-negative values on log-spaced bins, with an exact count, sum,
/// minimum and maximum; quantiles are interpolated within bins.
///
/// Bins: 200 per decade from 1e-6 to 1e4 (2 000 bins, each `ratio` = 10^(1/200) ≈ 1.0116 wide), plus a bin for
/// exact zeros (a day the app cost nothing, a day without time saved), an underflow bin for values in (0, 1e-6)
/// and an overflow bin for values ≥ 1e4. Memory is fixed (about 16 KB once the first value arrives), whatever the
/// number of values.
///
/// Precision: for a quantile whose type-7 value Q lies in [1e-6, 1e4], the estimate lies in [Q / ratio, Q · ratio],
/// i.e. its relative error is below 1.16%. (Each order statistic is placed inside its own bin; linear
/// interpolation between two estimates within a factor `ratio` of the truth stays within that factor.) Zeros are
/// exact; in the underflow bin the absolute error is below 1e-6; in the overflow bin the estimate lies between
/// 1e4 and the maximum.
///
/// Determinism: bin counts are integers and the sum is kept in fixed point (1e-12 units, `Int128`), so merging
/// gives bit-identical results in any grouping or order. The reported mean therefore carries a quantisation
/// error below 1e-12.
public struct LogHistogram: Hashable, Sendable {
    /// Bins per decade.
    public static let binsPerDecade = 200
    /// Lower edge of the first log bin.
    public static let lowestEdge = 1e-6
    /// Decades covered by log bins.
    public static let decades = 10
    /// Upper edge of the last log bin.
    public static let highestEdge = 1e4
    /// Width ratio of a bin.
    public static let ratio = pow10(1.0 / Double(binsPerDecade))
    static let logBins = binsPerDecade * decades
    static let fixedPointScale = 1e12

    /// counts[0] zeros, counts[1] underflow, counts[2...logBins + 1] log bins, counts[logBins + 2] overflow;
    /// empty until the first value.
    private var counts: [Int] = []
    /// Number of values.
    public private(set) var count = 0
    /// Smallest value; +∞ when empty.
    public private(set) var min = Double.infinity
    /// Largest value; −∞ when empty.
    public private(set) var max = -Double.infinity
    private var fixedSum: Int128 = 0

    public init() {}

    /// A histogram of `values`.
    public init<S: Sequence>(_ values: S) where S.Element == Double { for v in values { add(v) } }

    /// The bin index of `x`.
    static func bin(_ x: Double) -> Int {
        if x == 0 { return 0 }
        if x < lowestEdge { return 1 }
        if x >= highestEdge { return logBins + 2 }
        let i = Int((log10Value(x / lowestEdge) * Double(binsPerDecade)).rounded(.down))
        return Swift.min(Swift.max(i, 0), logBins - 1) + 2
    }

    /// The lower edge of log bin `b` (2…logBins + 1).
    static func lowerEdge(_ b: Int) -> Double { lowestEdge * pow10(Double(b - 2) / Double(binsPerDecade)) }

    /// Adds a value. Negative, NaN or infinite values are programming errors.
    public mutating func add(_ x: Double) {
        precondition(x >= 0 && x.isFinite, "LogHistogram.add: need a finite non-negative value, got \(x)")
        if counts.isEmpty { counts = [Int](repeating: 0, count: LogHistogram.logBins + 3) }
        counts[LogHistogram.bin(x)] += 1
        count += 1
        if x < min { min = x }
        if x > max { max = x }
        // Values up to 9.2e6 fit an Int64 in fixed point; beyond that, saturate (far outside any battery or time figure).
        fixedSum += Int128(fixedPoint: x, scale: LogHistogram.fixedPointScale)
    }

    /// Folds `other` in; the result does not depend on grouping or order.
    public mutating func merge(_ other: LogHistogram) {
        guard other.count > 0 else { return }
        guard count > 0 else { self = other; return }
        for i in counts.indices { counts[i] += other.counts[i] }
        count += other.count
        fixedSum += other.fixedSum
        if other.min < min { min = other.min }
        if other.max > max { max = other.max }
    }

    /// Sum of the values (to 1e-12 per value).
    public var sum: Double { Double(fixedSum) / LogHistogram.fixedPointScale }
    /// Mean; nil when empty.
    public var mean: Double? { count == 0 ? nil : Double(fixedSum) / LogHistogram.fixedPointScale / Double(count) }

    /// The estimate of the j-th smallest value (0-based).
    private func orderStatistic(_ j: Int) -> Double {
        var before = 0
        for b in counts.indices {
            let c = counts[b]
            if c == 0 { continue }
            if j < before + c {
                let f = (Double(j - before) + 0.5) / Double(c)
                let v: Double
                if b == 0 {
                    v = 0
                } else if b == 1 {
                    let lo = Swift.max(min, 0)
                    v = lo + f * (Swift.min(max, LogHistogram.lowestEdge) - lo)
                } else if b == LogHistogram.logBins + 2 {
                    v = LogHistogram.highestEdge + f * (max - LogHistogram.highestEdge)
                } else {
                    v = LogHistogram.lowerEdge(b) * pow10(f / Double(LogHistogram.binsPerDecade))
                }
                return Swift.min(Swift.max(v, min), max)
            }
            before += c
        }
        return max
    }

    /// The type-7 p-quantile estimate (see the type's precision note); nil when empty. p = 0 and p = 1 give the
    /// exact minimum and maximum.
    public func quantile(_ p: Double) -> Double? {
        precondition(p >= 0 && p <= 1, "quantile(\(p)): need 0 <= p <= 1")
        guard count > 0 else { return nil }
        if p == 0 { return min }
        if p == 1 { return max }
        let h = Double(count - 1) * p
        let k = Int(h.rounded(.down))
        let frac = h - Double(k)
        let lo = orderStatistic(k)
        guard frac > 0, k + 1 < count else { return lo }
        return lo + frac * (orderStatistic(k + 1) - lo)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

@inline(__always) private func pow10(_ x: Double) -> Double { pow(10, x) }
@inline(__always) private func log10Value(_ x: Double) -> Double { log10(x) }

/// A histogram's state in a shard file (`habitat run --shard`): only the bins that hold values, as `[bin, count]`
/// pairs, the fixed-point sum as a decimal string (JSON numbers cannot hold every `Int128`), and the extremes
/// (absent when empty). Decoding gives back the same histogram, bit for bit.
extension LogHistogram: Codable {
    enum CodingKeys: String, CodingKey { case count, bins, sum, min, max }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        let n = try c.decode(Int.self, forKey: .count)
        guard n >= 0 else { throw DecodingError.dataCorruptedError(forKey: .count, in: c, debugDescription: "a negative count \(n)") }
        guard n > 0 else { return }
        var bins = [Int](repeating: 0, count: LogHistogram.logBins + 3)
        var total = 0
        for pair in try c.decode([[Int]].self, forKey: .bins) {
            guard pair.count == 2, bins.indices.contains(pair[0]), pair[1] > 0, bins[pair[0]] == 0 else {
                throw DecodingError.dataCorruptedError(forKey: .bins, in: c, debugDescription: "bad bin \(pair)")
            }
            bins[pair[0]] = pair[1]
            let (sum, overflow) = total.addingReportingOverflow(pair[1])
            guard !overflow else { throw DecodingError.dataCorruptedError(forKey: .bins, in: c, debugDescription: "bins beyond 64 bits") }
            total = sum
        }
        guard total == n else {
            throw DecodingError.dataCorruptedError(forKey: .count, in: c, debugDescription: "bins hold \(total) values, count says \(n)")
        }
        guard let sum = Int128(try c.decode(String.self, forKey: .sum)) else {
            throw DecodingError.dataCorruptedError(forKey: .sum, in: c, debugDescription: "not an integer")
        }
        counts = bins
        count = n
        fixedSum = sum
        min = try c.decode(Double.self, forKey: .min)
        max = try c.decode(Double.self, forKey: .max)
    }

    /// What makes a decoded histogram one no values can produce, or nil: extremes that are not finite, negative
    /// or out of order, or whose bins hold no value; a fixed-point sum outside 0 … count × 2^63 (each value adds at
    /// most `Int64.max` units) or outside count × [min, max] by more than a unit per value. A histogram within these
    /// limits merges with any other of a run without overflow (counts ≤ 2^63, sums ≤ 2^126).
    public var inconsistency: String? {
        guard count > 0 else { return nil }
        guard min.isFinite, max.isFinite, min >= 0, min <= max else { return "minimum \(min) and maximum \(max) are not 0 ≤ min ≤ max" }
        guard counts[LogHistogram.bin(min)] > 0, counts[LogHistogram.bin(max)] > 0 else {
            return "minimum \(min) or maximum \(max) lies in a bin holding no value"
        }
        let n = Int128(count)
        guard fixedSum >= 0, fixedSum <= n * Int128(Int64.max) else { return "sum \(fixedSum) is outside 0 … count × 2^63" }
        let scale = LogHistogram.fixedPointScale
        let low = Double(count) * min * scale - Double(count), high = Double(count) * max * scale + Double(count)
        let sum = Double(fixedSum)
        guard sum >= low * (1 - 1e-12), max * scale >= Double(Int64.max) || sum <= high * (1 + 1e-12) else {
            return "sum \(Double(fixedSum) / scale) is not between count × minimum and count × maximum"
        }
        return nil
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(count, forKey: .count)
        guard count > 0 else { return }
        try c.encode(counts.indices.filter { counts[$0] > 0 }.map { [$0, counts[$0]] }, forKey: .bins)
        try c.encode(String(fixedSum), forKey: .sum)
        try c.encode(min, forKey: .min)
        try c.encode(max, forKey: .max)
    }
}
