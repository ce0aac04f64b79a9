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
