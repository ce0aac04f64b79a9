import Testing
import HabitatTestSupport
@testable import Stochastics

@Suite("Summary statistics")
struct SummaryTests {
    @Test("Merging parts equals a single pass within 1e-12 (relative); same parts, same order → bit-identical; seed 21")
    func mergeMatchesSinglePass() {
        let stream = RandomStream(seed: 21)
        let values = (0..<10_000).map { _ in stream.lognormal(mu: 3, sigma: 1.2) }
        let single = Summary(values)
        let cuts = [0, 1, 17, 2500, 2501, 7000, 10_000]
        let parts = (0..<(cuts.count - 1)).map { Summary(values[cuts[$0]..<cuts[$0 + 1]]) }
        var merged = Summary()
        for p in parts { merged.merge(p) }
        #expect(merged.count == single.count)
        expectClose(merged.mean, single.mean, within: 1e-12 * abs(single.mean), "mean")
        expectClose(merged.variance!, single.variance!, within: 1e-12 * single.variance!, "variance")
        #expect(merged.min == single.min && merged.max == single.max)
        let again = parts.reduce(Summary()) { $0.merged(with: $1) }
        #expect(again == merged)  // bit-identical
        #expect(Summary().merged(with: single) == single)
        #expect(single.merged(with: Summary()) == single)
    }

    @Test("1…10: mean 5.5, s = 3.0276504, t(0.975, 9) = 2.262157, 95% CI half-width 2.1658506 (±1e-6)")
    func tConfidenceInterval() {
        let s = Summary((1...10).map(Double.init))
        #expect(s.mean == 5.5)
        expectClose(s.standardDeviation!, 3.0276504, within: 1e-6, "sd")
        expectClose(InverseCDF.studentT(0.975, degreesOfFreedom: 9), 2.262157, within: 1e-6, "t quantile")
        let ci = s.confidenceInterval95()!
        expectClose(ci.halfWidth, 2.262157 * 3.0276504 / 10.0.squareRoot(), within: 1e-6, "half-width")
        expectClose(ci.lower, 5.5 - 2.1658506, within: 1e-6, "lower")
        #expect(ci.contains(5.5) && ci.level == 0.95)
        let ci99 = s.confidenceInterval(level: 0.99)!
        expectClose(ci99.halfWidth, 3.249836 * 3.0276504 / 10.0.squareRoot(), within: 1e-5, "99% half-width (t = 3.249836)")
        expectClose(InverseCDF.standardNormal(0.975), 1.959964, within: 1e-6, "z quantile")
        #expect(Summary([1]).confidenceInterval95() == nil)
        #expect(Summary().variance == nil)
    }

    @Test("Type-7 quantiles of [3, 1, 4, 1, 5, 9, 2, 6]: 0→1, 0.25→1.75, 0.5→3.5, 0.9→6.9, 1→9 (±1e-12)")
    func quantiles() {
        let q = SampleQuantiles([3, 1, 4, 1, 5, 9, 2, 6])
        let got = q.quantiles([0, 0.25, 0.5, 0.9, 1])!
        for (g, w) in zip(got, [1, 1.75, 3.5, 6.9, 9]) { expectClose(g, w, within: 1e-12, "quantile") }
        #expect(q.median == 3.5)
        #expect(SampleQuantiles([7]).quantile(0.3) == 7)
        #expect(SampleQuantiles().quantile(0.5) == nil)
    }

    @Test("Quantile merging is concatenation and order-independent in result")
    func quantileMerge() {
        var a = SampleQuantiles([5, -0.0, 2]), b = SampleQuantiles([0.0, 8, 1])
        var ab = a; ab.merge(b)
        b.merge(a)
        #expect(ab.count == 6 && ab.values == [5, -0.0, 2, 0.0, 8, 1])
        #expect(ab.sortedValues().map(\.bitPattern) == b.sortedValues().map(\.bitPattern))
        #expect(ab.quantiles([0.1, 0.5, 0.75]) == b.quantiles([0.1, 0.5, 0.75]))
        a.add(100)
        #expect(a.quantile(1) == 100)
    }

    @Test("M/M/1 (λ 0.5, μ 1) waiting time in queue: 99% batch-means CI (20 batches, 300 000 customers) contains Wq = 1; streams (99, 0, 0, arrivals/services)")
    func mm1BatchMeans() throws {
        let arrivals = RandomStream(key: StreamKey(seed: 99, replication: 0, person: 0, stream: "arrivals"))
        let services = RandomStream(key: StreamKey(seed: 99, replication: 0, person: 0, stream: "services"))
        var waits = [Double]()
        waits.reserveCapacity(300_000)
        var w = 0.0
        for _ in 0..<300_000 {
            waits.append(w)
            // Lindley: W(n+1) = max(0, W(n) + S(n) − A(n+1))
            w = max(0, w + services.exponential(rate: 1) - arrivals.exponential(rate: 0.5))
        }
        let estimate = try BatchMeans.estimate(waits, batches: 20, level: 0.99, warmUp: 1000)
        #expect(estimate.batchCount == 20 && estimate.batchSize == 14_950 && estimate.discarded == 1000)
        #expect(estimate.interval.contains(1.0), "\(estimate.interval)")
        #expect(estimate.interval.halfWidth < 0.1)
    }

    @Test("Batch means validates its inputs")
    func batchMeansValidation() {
        #expect(throws: StochasticsError.self) { try BatchMeans.estimate([1, 2, 3], batches: 1) }
        #expect(throws: StochasticsError.self) { try BatchMeans.estimate([1, 2, 3], batches: 4) }
        #expect(throws: StochasticsError.self) { try BatchMeans.estimate([1, 2, 3], batches: 2, level: 1) }
        #expect(throws: StochasticsError.self) { try BatchMeans.estimate([1, 2, 3], batches: 2, warmUp: 5) }
    }
}
