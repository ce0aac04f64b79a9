import Testing
@testable import HabitatCLI

@Suite("Kernel workloads")
struct KernelWorkloadTests {
    /// Seed 42, 1 000 000 customers, 5 % warm-up, 20 batches: the 99 % batch-means interval for Wq must contain
    /// the analytic 9.0 and be narrower than ±10 % (±0.9). Waits at ρ = 0.9 are strongly autocorrelated, hence
    /// batch means rather than a plain standard error.
    @Test func mm1BatchMeansIntervalContainsTheAnalyticWait() {
        let r = MM1Workload(customers: 1_000_000, seed: 42).run()
        let ci = r.wqBatches.interval(level: 0.99)
        #expect(r.departures == 1_000_000)
        #expect(ci.batches == 20)
        #expect(abs(ci.mean - 9.0) <= ci.halfWidth, "Wq \(ci.mean) ± \(ci.halfWidth)")
        #expect(ci.halfWidth < 0.9)
        #expect(abs(r.meanW - r.meanWq - 1.0) < 0.02)   // W = Wq + mean service (1.0) within 2 %
    }

    @Test func agentTotalsAreIdenticalForAnyThreadCountAndMatchTheRates() throws {
        let one = try AgentsWorkload(agents: 3000, days: 3, seed: 7, threads: 1).run()
        let two = try AgentsWorkload(agents: 3000, days: 3, seed: 7, threads: 2).run()
        let four = try AgentsWorkload(agents: 3000, days: 3, seed: 7, threads: 4).run()
        #expect(one == two && two == four)
        let expectedUrges = 3000.0 * 40 * 3
        #expect(abs(Double(one.urges) - expectedUrges) / expectedUrges < 0.01)          // Poisson: sd ≈ 0.3 %
        #expect(abs(Double(one.resists) / Double(one.urges) - 0.3) < 0.01)
        #expect(one.rollovers == 3000 * 3)
        #expect(one.urges == one.resists + one.gives)
        // Each urge cancels the pending earn timer, so stale pops ≈ urges.
        #expect(one.stale > one.urges * 9 / 10)
    }
}
