import Testing
import HabitatTestSupport
@testable import Stochastics

@Suite("Non-homogeneous Poisson process (thinning)")
struct NonHomogeneousPoissonTests {
    static let hourMs: Int64 = 3_600_000
    /// A circadian profile: a 03:00–05:00 trough of zero, an evening peak of 9/h.
    static let rates: [Double] = [2, 1, 0.5, 0, 0, 0.5, 1.5, 3, 4, 4, 3.5, 3, 4, 3.5, 3, 3, 3.5, 4, 5, 6, 8, 9, 6, 3]

    @Test("Counts per hour of day over 400 days match rate × 400 within 5√(expected) + 2; zero-rate hours get none; key (7, 0, 1, urges)")
    func countsPerHourMatchRates() throws {
        let sampler = try NonHomogeneousPoissonSampler(ratesPerHour: Self.rates)
        #expect(sampler.maxRatePerHour == 9)
        let stream = RandomStream(key: StreamKey(seed: 7, replication: 0, person: 1, stream: .urges))
        let days: Int64 = 400
        let end = days * 24 * Self.hourMs
        var counts = [Int](repeating: 0, count: 24)
        var t: Int64 = 0
        var previous: Int64 = -1
        while let next = sampler.next(after: t, notAfter: end - 1, pieceIndex: { Int(($0 / Self.hourMs) % 24) }, using: stream) {
            #expect(next > t && next > previous)
            counts[Int((next / Self.hourMs) % 24)] += 1
            previous = next
            t = next
        }
        for h in 0..<24 {
            let expected = Self.rates[h] * Double(days)
            expectClose(Double(counts[h]), expected, within: 5 * expected.squareRoot() + 2, "hour \(h)")
        }
        #expect(counts[3] == 0 && counts[4] == 0)
    }

    @Test("scale multiplies the intensity: scale 0.5 halves the count within 5%; key (7, 0, 2, urges)")
    func scaleHalvesCounts() throws {
        let sampler = try NonHomogeneousPoissonSampler(ratesPerHour: [10])
        let stream = RandomStream(key: StreamKey(seed: 7, replication: 0, person: 2, stream: .urges))
        var n = 0, t: Int64 = 0
        let end: Int64 = 2000 * Self.hourMs
        while let next = sampler.next(after: t, notAfter: end, scale: 0.5, pieceIndex: { _ in 0 }, using: stream) { n += 1; t = next }
        expectClose(Double(n), 10_000, within: 500, "count at 5/h over 2000 h")
    }

    @Test("All-zero rates and scale 0 never fire; the horizon is respected")
    func neverFires() throws {
        let stream = RandomStream(seed: 1)
        let zero = try NonHomogeneousPoissonSampler(ratesPerHour: [0, 0])
        #expect(zero.next(after: 0, pieceIndex: { _ in 0 }, using: stream) == nil)
        let some = try NonHomogeneousPoissonSampler(ratesPerHour: [1])
        #expect(some.next(after: 0, scale: 0, pieceIndex: { _ in 0 }, using: stream) == nil)
        #expect(some.next(after: 10, notAfter: 10, pieceIndex: { _ in 0 }, using: stream) == nil)
        for _ in 0..<100 {
            if let t = some.next(after: 0, notAfter: Self.hourMs / 10, pieceIndex: { _ in 0 }, using: stream) { #expect(t <= Self.hourMs / 10) }
        }
    }

    @Test("Invalid rates throw a typed error naming the piece")
    func validation() {
        #expect(throws: StochasticsError.self) { try NonHomogeneousPoissonSampler(ratesPerHour: []) }
        do {
            _ = try NonHomogeneousPoissonSampler(ratesPerHour: [1, 2, -3])
            Issue.record("expected an error")
        } catch {
            #expect(error == .invalidParameter(parameter: "rates_per_hour[2]", value: "-3.0", requirement: "rates must be finite and >= 0 events per hour"))
        }
        #expect(throws: StochasticsError.self) { try NonHomogeneousPoissonSampler(ratesPerHour: [.infinity]) }
    }
}
