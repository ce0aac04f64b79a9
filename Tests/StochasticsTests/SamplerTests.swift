#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import Testing
import HabitatTestSupport
@testable import Stochastics

/// Moment checks. Each test states its seed (the stream's raw seed or key) and tolerance; tolerances are about
/// 5 standard errors of the estimate, so they hold for any sound generator, not just the recorded sequence.
@Suite("Samplers")
struct SamplerTests {
    static let n = 200_000

    static func moments(seed: UInt64, _ draw: (RandomStream) -> Double) -> Summary {
        let stream = RandomStream(seed: seed)
        var s = Summary()
        for _ in 0..<n { s.add(draw(stream)) }
        return s
    }

    @Test("uniform(from: 2, to: 5): mean 3.5 ± 0.01, variance 0.75 ± 0.01, range [2, 5); seed 1")
    func uniformRange() {
        let s = Self.moments(seed: 1) { $0.uniform(from: 2, to: 5) }
        expectClose(s.mean, 3.5, within: 0.01, "mean")
        expectClose(s.variance!, 0.75, within: 0.01, "variance")
        #expect(s.min >= 2 && s.max < 5)
    }

    @Test("exponential(rate: 0.5): mean 2 ± 0.025, variance 4 ± 0.1; exponential(mean:) agrees; seed 2")
    func exponential() {
        let s = Self.moments(seed: 2) { $0.exponential(rate: 0.5) }
        expectClose(s.mean, 2, within: 0.025, "mean")
        expectClose(s.variance!, 4, within: 0.1, "variance")
        let a = RandomStream(seed: 2), b = RandomStream(seed: 2)
        for _ in 0..<100 { #expect(a.exponential(rate: 0.5) == b.exponential(mean: 2)) }
    }

    @Test("poisson(mean: 3.7): mean 3.7 ± 0.025, variance 3.7 ± 0.06; poisson(mean: 0) = 0; seed 3")
    func poisson() {
        let s = Self.moments(seed: 3) { Double($0.poisson(mean: 3.7)) }
        expectClose(s.mean, 3.7, within: 0.025, "mean")
        expectClose(s.variance!, 3.7, within: 0.06, "variance")
        #expect(RandomStream(seed: 3).poisson(mean: 0) == 0)
    }

    @Test("normal(mean: -1, sd: 2.5): mean -1 ± 0.03, variance 6.25 ± 0.1; seed 4")
    func normal() {
        let s = Self.moments(seed: 4) { $0.normal(mean: -1, standardDeviation: 2.5) }
        expectClose(s.mean, -1, within: 0.03, "mean")
        expectClose(s.variance!, 6.25, within: 0.1, "variance")
    }

    @Test("lognormal(mu: 0.5, sigma: 0.6): mean e^0.68 ± 1%, median e^0.5 ± 1%; seed 5")
    func lognormal() throws {
        let p = try LognormalParameters(mu: 0.5, sigma: 0.6)
        let stream = RandomStream(seed: 5)
        var values = SampleQuantiles(), s = Summary()
        for _ in 0..<Self.n { let x = stream.lognormal(p); values.add(x); s.add(x) }
        expectClose(s.mean, p.mean, within: 0.01 * p.mean, "mean")
        expectClose(values.median!, p.median, within: 0.01 * p.median, "median")
        // Variance (e^σ² − 1)·e^(2μ+σ²) within 5%.
        let v = (exp(0.36) - 1) * exp(1.36)
        expectClose(s.variance!, v, within: 0.05 * v, "variance")
    }

    @Test("LognormalParameters from median/mean and mean/sd round-trip; invalid inputs throw")
    func lognormalParameters() throws {
        let a = try LognormalParameters(median: 20, mean: 45)
        expectClose(a.median, 20, within: 1e-12, "median")
        expectClose(a.mean, 45, within: 1e-10, "mean")
        let b = try LognormalParameters(mean: 10, standardDeviation: 4)
        expectClose(b.mean, 10, within: 1e-12, "mean")
        let sd = (exp(b.sigma * b.sigma) - 1).squareRoot() * b.mean
        expectClose(sd, 4, within: 1e-12, "sd")
        #expect(throws: StochasticsError.self) { try LognormalParameters(median: 20, mean: 10) }
        #expect(throws: StochasticsError.self) { try LognormalParameters(mu: 0, sigma: -1) }
        #expect(throws: StochasticsError.self) { try LognormalParameters(mean: -3, standardDeviation: 1) }
    }

    @Test("gamma(shape: 2.5, scale: 1.5): mean 3.75 ± 0.025, variance 5.625 ± 0.15; seed 6")
    func gamma() {
        let s = Self.moments(seed: 6) { $0.gamma(shape: 2.5, scale: 1.5) }
        expectClose(s.mean, 3.75, within: 0.025, "mean")
        expectClose(s.variance!, 5.625, within: 0.15, "variance")
    }

    @Test("beta(2, 5): mean 2/7 ± 0.002, variance 10/392 ± 0.0005; seed 7")
    func beta() {
        let s = Self.moments(seed: 7) { $0.beta(2, 5) }
        expectClose(s.mean, 2.0 / 7, within: 0.002, "mean")
        expectClose(s.variance!, 10.0 / 392, within: 0.0005, "variance")
        #expect(s.min >= 0 && s.max <= 1)
    }

    @Test("bernoulli(0.3): frequency 0.3 ± 0.005; p = 0 and 1 are certain; seed 8")
    func bernoulli() {
        let s = Self.moments(seed: 8) { $0.bernoulli(0.3) ? 1 : 0 }
        expectClose(s.mean, 0.3, within: 0.005, "frequency")
        let stream = RandomStream(seed: 8)
        for _ in 0..<1000 { #expect(!stream.bernoulli(0)); #expect(stream.bernoulli(1)) }
    }

    @Test("uniformInt(below: 7): each value 1/7 ± 0.005; seed 9")
    func uniformInt() {
        let stream = RandomStream(seed: 9)
        var counts = [Int](repeating: 0, count: 7)
        for _ in 0..<Self.n { counts[stream.uniformInt(below: 7)] += 1 }
        for c in counts { expectClose(Double(c) / Double(Self.n), 1.0 / 7, within: 0.005, "frequency") }
    }

    @Test("categorical over weights [1, 2, 3, 0, 4] (scan and alias table): frequencies ± 0.005, zero weight never; seed 10")
    func categorical() throws {
        let weights: [Double] = [1, 2, 3, 0, 4]
        let table = try CategoricalTable(weights: weights)
        #expect(table.count == 5)
        for i in 0..<5 { expectClose(table.probability(of: i), weights[i] / 10, within: 1e-12, "table probability") }
        #expect(table.probability(of: 7) == 0)
        let stream = RandomStream(seed: 10)
        var scan = [Int](repeating: 0, count: 5), alias = [Int](repeating: 0, count: 5)
        for _ in 0..<Self.n {
            scan[stream.categorical(weights: weights)] += 1
            alias[stream.categorical(table)] += 1
        }
        #expect(scan[3] == 0 && alias[3] == 0)
        for i in 0..<5 {
            expectClose(Double(scan[i]) / Double(Self.n), weights[i] / 10, within: 0.005, "scan[\(i)]")
            expectClose(Double(alias[i]) / Double(Self.n), weights[i] / 10, within: 0.005, "alias[\(i)]")
        }
    }

    @Test("CategoricalTable rejects empty, negative, non-finite and all-zero weights with a typed error")
    func categoricalTableValidation() {
        #expect(throws: StochasticsError.self) { try CategoricalTable(weights: []) }
        #expect(throws: StochasticsError.self) { try CategoricalTable(weights: [1, -1]) }
        #expect(throws: StochasticsError.self) { try CategoricalTable(weights: [1, .nan]) }
        #expect(throws: StochasticsError.self) { try CategoricalTable(weights: [0, 0]) }
        do {
            _ = try CategoricalTable(weights: [1, -2])
        } catch {
            #expect(error.description.contains("weights[1]"))
        }
    }

    @Test("Logit probabilities: softmax, stable for huge utilities, -∞ means unavailable, temperature flattens")
    func logitProbabilities() {
        let p = Choice.logitProbabilities(utilities: [1, 0, -1])
        let z = exp(1.0) + 1 + exp(-1.0)
        expectClose(p[0], exp(1.0) / z, within: 1e-15, "p0")
        expectClose(p[2], exp(-1.0) / z, within: 1e-15, "p2")
        let huge = Choice.logitProbabilities(utilities: [1000, 1000, -.infinity])
        #expect(huge == [0.5, 0.5, 0])
        let hot = Choice.logitProbabilities(utilities: [1, 0], temperature: 100)
        expectClose(hot[0], 0.5, within: 0.01, "high temperature")
        expectClose(Choice.logSumExp(utilities: [1000, 1000]), 1000 + log(2.0), within: 1e-12, "log-sum-exp")
    }

    @Test("logitChoice frequencies match softmax probabilities ± 0.005 (utilities [1, 0, -1, 2, -∞], T = 0.8); seed 11")
    func logitChoiceFrequencies() {
        let utilities: [Double] = [1, 0, -1, 2, -.infinity]
        let p = Choice.logitProbabilities(utilities: utilities, temperature: 0.8)
        let stream = RandomStream(seed: 11)
        var counts = [Int](repeating: 0, count: utilities.count)
        for _ in 0..<Self.n { counts[stream.logitChoice(utilities: utilities, temperature: 0.8)] += 1 }
        #expect(counts[4] == 0)
        for i in utilities.indices { expectClose(Double(counts[i]) / Double(Self.n), p[i], within: 0.005, "option \(i)") }
    }
}

@Test("The inline exponential equals gsl_ran_exponential within 4e-16 relative for the same generator state; seed 12")
func inlineExponentialMatchesGSL() {
    let a = GSLGenerator(taus2State: 12, 34, 56), b = GSLGenerator(taus2State: 12, 34, 56)
    for _ in 0..<100_000 {
        let x = a.exponential(mean: 3), y = b.exponentialGSL(mean: 3)
        #expect(abs(x - y) <= 4e-16 * max(y, 1e-300), "\(x) vs \(y)")
    }
}
