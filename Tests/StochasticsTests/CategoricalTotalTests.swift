import Testing
@testable import Stochastics

/// `categorical(weights:total:)` (issue 41) draws what `categorical(weights:)` draws, draw for draw.
@Suite("Categorical draws with a total summed once")
struct CategoricalTotalTests {
    @Test("the same stream gives the same indices with the total summed once as with it summed at every draw",
          arguments: [[0.15, 0.25, 0.15, 0.3, 0.15], [1, 0, 2, 0, 0.5], [0.1], [3e-9, 1e9, 7]])
    func sameIndices(weights: [Double]) {
        let a = RandomStream(seed: 41), b = RandomStream(seed: 41)
        let total = RandomStream.total(of: weights)
        for _ in 0..<2000 { #expect(a.categorical(weights: weights) == b.categorical(weights: weights, total: total)) }
        #expect(a.nextUInt32() == b.nextUInt32())   // one uniform a draw on both sides
    }

    @Test("the total is the weights' sum in order")
    func totalIsTheSum() {
        #expect(RandomStream.total(of: [0.1, 0.2, 0.3]) == 0.1 + 0.2 + 0.3)
    }
}
