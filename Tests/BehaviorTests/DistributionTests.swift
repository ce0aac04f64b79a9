import Foundation
import Testing
import Behavior
import RulesCore
import Stochastics

/// The one distribution type keeps the draws scenarios have always had.
@Suite("Distributions")
struct DistributionTests {
    /// mu values whose round trip log(exp(mu)) is not mu to the last bit (glibc), and some where it is.
    static let mus: [Double] = [-0.6, -0.2, 0.1, 0.3, 0.7, 0.8, 0, 1, 4.2]

    @Test("a scenario's lognormal(mu) draws exactly what its median exp(mu) drew before (bit for bit)")
    func lognormalByMuMatchesTheMedianTranslation() {
        #expect(Self.mus.contains { log(exp($0)) != $0 })   // the test would not notice a sampler using mu directly otherwise
        for mu in Self.mus {
            let byMu = RandomStream(seed: 91), byMedian = RandomStream(seed: 91)
            for _ in 0..<50 {
                let a = Distribution.lognormalMu(mu: mu, sigma: 0.5).draw(byMu)
                let b = Distribution.lognormal(median: exp(mu), sigma: 0.5).draw(byMedian)
                #expect(a.bitPattern == b.bitPattern, "mu \(mu)")
            }
        }
    }

    @Test("families are written with their scenario parameter names and read back")
    func families() {
        let d = Distribution(family: .uniform, values: [1, 2])
        #expect(d == .uniform(low: 1, high: 2))
        #expect(d.parts.family == .uniform && d.parts.values == [1, 2])
        #expect(Distribution.Family.beta.parameterNames == ["alpha", "beta"])
        #expect(Distribution.lognormalMu(mu: 1, sigma: 0.5).problem == nil)
        #expect(Distribution.lognormalMu(mu: 800, sigma: 0.5).problem != nil)   // exp(800) is not finite
    }
}
