import Testing
@testable import Stochastics

/// Issue 40: an interval for a share stays inside 0…1 and contains the estimate (`ShareInterval`).
@Suite("Intervals made for shares")
struct ShareIntervalTests {
    @Test("Wilson's interval: inside 0…1 at 0/n and n/n, the textbook value at 5/10, nil without trials")
    func wilson() throws {
        let zero = try #require(ShareInterval.wilson95(0, 20))
        #expect(zero.lower == 0 && zero.upper > 0.1 && zero.upper < 0.2)   // 3.84 / 23.84 ≈ 0.161
        #expect(abs(zero.upper - 0.161125) < 1e-5)
        let all = try #require(ShareInterval.wilson95(20, 20))
        #expect(all.upper == 1 && abs(all.lower - (1 - 0.161125)) < 1e-5)
        let half = try #require(ShareInterval.wilson95(5, 10))
        #expect(abs(half.lower - 0.236590) < 1e-5 && abs(half.upper - 0.763410) < 1e-5)   // Brown, Cai & DasGupta 2001
        #expect(ShareInterval.wilson95(0, 0) == nil)
        #expect(ShareInterval.wilson95(3, 2) == nil)
    }

    @Test("over replications: the issue's three replications (0.25 read [−0.33, 0.84] by Student-t) stay inside 0…1")
    func issueCase() throws {
        // Three replication values with mean 0.25 and a Student-t interval reaching below 0.
        let s = Summary([0.0, 0.0, 0.75])
        let t = try #require(s.confidenceInterval95())
        #expect(t.lower < 0)
        let ci = try #require(ShareInterval.overReplications95(s))
        #expect(ci.lower > 0 && ci.lower <= 0.25 && ci.upper >= 0.25 && ci.upper < 1, "\(ci)")
    }

    @Test("over replications: random shares near 0 and 1 always give 0 ≤ low ≤ mean ≤ high ≤ 1")
    func alwaysInside() {
        let rng = RandomStream(seed: 40)
        for trial in 0..<2_000 {
            let r = 2 + trial % 6
            let centre = [0.001, 0.02, 0.5, 0.97, 0.999][trial % 5]
            let values = (0..<r).map { _ in min(1, max(0, centre + (rng.uniform() - 0.5) * 0.2)) }
            let s = Summary(values)
            guard let ci = ShareInterval.overReplications95(s) else { Issue.record("no interval for \(values)"); continue }
            #expect(0 <= ci.lower && ci.lower <= s.mean + 1e-15 && s.mean - 1e-15 <= ci.upper && ci.upper <= 1, "\(values): \(ci)")
        }
    }

    @Test("over replications: close to Student-t far from the bounds")
    func closeToStudentT() throws {
        let s = Summary([0.48, 0.52, 0.50, 0.49, 0.51])
        let t = try #require(s.confidenceInterval95())
        let ci = try #require(ShareInterval.overReplications95(s))
        #expect(abs(ci.lower - t.lower) < 1e-3 && abs(ci.upper - t.upper) < 1e-3)
    }

    @Test("0/n and n/n in every replication: Wilson on the pooled counts when known, else the replications' [p, p]")
    func atTheBounds() throws {
        let zeros = Summary([0, 0, 0])
        #expect(ShareInterval.overReplications95(zeros)! == (0, 0))
        let w = try #require(ShareInterval.overReplications95(zeros, pooledCounts: (0, 30)))
        #expect(w.lower == 0 && w.upper > 0 && w.upper < 0.2)
        let ones = Summary([1, 1])
        #expect(ShareInterval.overReplications95(ones)! == (1, 1))
        let w1 = try #require(ShareInterval.overReplications95(ones, pooledCounts: (40, 40)))
        #expect(w1.upper == 1 && w1.lower < 1 && w1.lower > 0.8)
    }

    @Test("one replication: no interval over replications (Wilson needs its counts); non-shares keep Student-t")
    func oneReplication() throws {
        #expect(ShareInterval.overReplications95(Summary([0.3])) == nil)
        #expect(ShareInterval.interval95(Summary([0.3]), isShare: true) == nil)
        let s = Summary([-0.4, 0.9, 0.2])
        let t = try #require(s.confidenceInterval95())
        let plain = try #require(ShareInterval.interval95(s, isShare: false))
        #expect(plain.lower == t.lower && plain.upper == t.upper)
        #expect(ShareInterval.isShare(unit: "fraction") && !ShareInterval.isShare(unit: "ratio"))
    }
}
