import Foundation
import Testing
@testable import Stochastics

@Suite("LogHistogram: log-spaced, mergeable quantiles")
struct LogHistogramTests {
    @Test func histogramQuantilesAreWithinTheStatedPrecision() {
        let rng = RandomStream(seed: 20_260_105)
        var exact = SampleQuantiles()
        var h = LogHistogram()
        for i in 0..<60_000 {
            let v = i % 50 == 0 ? 0 : rng.lognormal(mu: -3, sigma: 1.5)
            exact.add(v); h.add(v)
        }
        let tolerance = LogHistogram.ratio * (1 + 1e-9)
        for p in [0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999] {
            let q = exact.quantile(p)!, e = h.quantile(p)!
            if q == 0 { #expect(e == 0, "p=\(p): zeros are exact") } else {
                #expect(e >= q / tolerance && e <= q * tolerance, "p=\(p): exact \(q), histogram \(e)")
            }
        }
        #expect(h.quantile(0) == exact.sortedValues().first)
        #expect(h.quantile(1) == exact.sortedValues().last)
        #expect(h.quantile(0.01) == 0, "2% zeros: p1 is zero")
        let exactMean = Summary(exact.values).mean
        #expect(abs(h.mean! - exactMean) <= 1e-9 * exactMean)
        #expect(h.count == 60_000)
        #expect(LogHistogram.ratio > 1.0115 && LogHistogram.ratio < 1.0117)
    }

    @Test func histogramMergeIsIndependentOfGrouping() {
        let rng = RandomStream(seed: 7)
        let values = (0..<5_000).map { _ in rng.lognormal(mu: 0, sigma: 2) }
        let whole = LogHistogram(values)
        var grouped = LogHistogram()
        for chunk in stride(from: 0, to: values.count, by: 333).reversed() {
            grouped.merge(LogHistogram(values[chunk..<min(chunk + 333, values.count)]))
        }
        #expect(grouped == whole)
        #expect(grouped.mean!.bitPattern == whole.mean!.bitPattern)
    }
}

@Suite("LogHistogram: exact merge and shard-file encoding")
struct LogHistogramEncodingTests {
    static func values(_ n: Int, seed: UInt64) -> [Double] {
        var s = seed
        return (0..<n).map { i in
            s = s &* 6364136223846793005 &+ 1442695040888963407
            let u = Double(s >> 11) / Double(1 << 53)
            return i % 17 == 0 ? 0 : i % 29 == 0 ? 3e-7 : i % 31 == 0 ? 2e4 : -log(1 - u) * 40
        }
    }

    @Test("merging in any grouping and order gives the same histogram, bit for bit")
    func groupingDoesNotMatter() {
        let xs = Self.values(5_000, seed: 11)
        let whole = LogHistogram(xs)
        let parts = stride(from: 0, to: xs.count, by: 700).map { LogHistogram(xs[$0..<min(xs.count, $0 + 700)]) }
        var forward = LogHistogram(), backward = LogHistogram(), pairs = LogHistogram()
        for p in parts { forward.merge(p) }
        for p in parts.reversed() { backward.merge(p) }
        for i in stride(from: 0, to: parts.count, by: 2) {
            var pair = parts[i]
            if i + 1 < parts.count { pair.merge(parts[i + 1]) }
            pairs.merge(pair)
        }
        #expect(forward == whole && backward == whole && pairs == whole)
        #expect(forward.mean == whole.mean && backward.quantile(0.9) == whole.quantile(0.9))
    }

    @Test("a histogram survives JSON bit for bit, empty or full; a corrupt one is refused")
    func roundTrip() throws {
        for h in [LogHistogram(), LogHistogram([0]), LogHistogram(Self.values(3_000, seed: 5))] {
            let decoded = try JSONDecoder().decode(LogHistogram.self, from: JSONEncoder().encode(h))
            #expect(decoded == h)
            #expect(decoded.quantile(0.5) == h.quantile(0.5) && decoded.sum == h.sum && decoded.min == h.min)
        }
        let bad = #"{"count":3,"bins":[[5,2]],"sum":"10","min":1,"max":2}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(LogHistogram.self, from: Data(bad.utf8)) }
        let outside = #"{"count":1,"bins":[[99999,1]],"sum":"10","min":1,"max":2}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(LogHistogram.self, from: Data(outside.utf8)) }
    }
}
