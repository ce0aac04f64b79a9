import Foundation
import Stochastics
import Testing

/// The sensitivity estimators (`SaltelliDesign`, `SobolIndices`, `MorrisDesign`, `MorrisEffects`) against functions
/// whose indices are known in closed form. SALib checks the same estimators on the same designs in
/// `Tests/Oracles/test_salib_oracle.py`.
@Suite("sensitivity estimators")
struct SensitivityEstimatorTests {
    func sobol(_ f: SensitivityTestFunction, baseRows: Int, seed: UInt64 = 7) -> SobolIndices {
        let ranges = f.parameters.map(\.range)
        let design = SaltelliDesign(dimension: ranges.count, baseRows: baseRows, seed: seed)!
        let y = design.points.map { u in f.evaluate(zip(ranges, u).map { $0.lowerBound + $1 * ($0.upperBound - $0.lowerBound) }) }
        return SobolIndices(design: design, outputs: y, resamples: 200, seed: 3)
    }

    @Test("Ishigami: first-order and total indices within 0.03 of the published values at N = 8192", arguments: [UInt64(1), 2, 3])
    func ishigami(seed: UInt64) {
        let s = sobol(.ishigami, baseRows: 8192, seed: seed)
        let a = SensitivityTestFunction.ishigami.analytic
        for i in 0..<3 {
            #expect(abs(s.firstOrder[i] - a.firstOrder[i]) < 0.03, "S1[\(i)] \(s.firstOrder[i]) vs \(a.firstOrder[i])")
            #expect(abs(s.total[i] - a.total[i]) < 0.03, "ST[\(i)] \(s.total[i]) vs \(a.total[i])")
        }
        // Published (Ishigami & Homma 1990; Saltelli et al. 2008 table): the analytic formulas reproduce them.
        #expect(abs(a.firstOrder[0] - 0.3139) < 5e-4 && abs(a.firstOrder[1] - 0.4424) < 5e-4 && a.firstOrder[2] == 0)
        #expect(abs(a.total[0] - 0.5576) < 5e-4 && abs(a.total[1] - 0.4424) < 5e-4 && abs(a.total[2] - 0.2437) < 5e-4)
    }

    @Test("Sobol's g-function: indices within 0.02 of the analytic ones; the a = 99 inputs indistinguishable from 0")
    func gFunction() {
        let s = sobol(.gFunction, baseRows: 8192)
        let a = SensitivityTestFunction.gFunction.analytic
        for i in 0..<8 {
            #expect(abs(s.firstOrder[i] - a.firstOrder[i]) < 0.02, "S1[\(i)]")
            #expect(abs(s.total[i] - a.total[i]) < 0.02, "ST[\(i)]")
        }
        for i in 4..<8 { #expect(s.totalInterval[i].lowerBound < 0.002, "ST[\(i)] interval \(s.totalInterval[i])") }
        // The bootstrap interval covers the analytic total index of the important inputs.
        for i in 0..<2 { #expect(s.totalInterval[i].contains(a.total[i]) || abs(s.total[i] - a.total[i]) < 0.01) }
    }

    @Test("an input the function does not read has indices of exactly 0; a constant output has every index 0")
    func unreadInput() {
        let design = SaltelliDesign(dimension: 3, baseRows: 64, seed: 5)!
        let y = design.points.map { 3 * $0[0] + $0[1] * $0[1] }   // x3 is never read
        let s = SobolIndices(design: design, outputs: y, resamples: 50)
        #expect(s.total[2] == 0 && s.firstOrder[2] == 0)
        #expect(s.totalInterval[2] == 0...0)
        let flat = SobolIndices(design: design, outputs: Array(repeating: 4.2, count: y.count), resamples: 10)
        #expect(flat.total == [0, 0, 0] && flat.firstOrder == [0, 0, 0])
    }

    @Test("Saltelli's design: SALib's layout — per base row A, AB¹…ABᴰ (A with column i from B), B")
    func saltelliLayout() {
        let d = 4
        let design = SaltelliDesign(dimension: d, baseRows: 16, seed: 9)!
        #expect(design.points.count == 16 * (d + 2))
        for j in 0..<16 {
            let block = Array(design.points[(j * (d + 2))..<((j + 1) * (d + 2))])
            let a = block[0], b = block[d + 1]
            for i in 0..<d {
                var expected = a
                expected[i] = b[i]
                #expect(block[1 + i] == expected)
            }
        }
        #expect(SaltelliDesign(dimension: 21, baseRows: 16, seed: 1) == nil)   // 42 Sobol dimensions: more than GSL's 40
    }

    @Test("the scrambled Sobol sequence: the same seed gives the same points, each coordinate's first 2^m points fill the 2^m cells once")
    func sobolSequence() {
        var a = SobolSequence(dimension: 6, seed: 11)!, b = SobolSequence(dimension: 6, seed: 11)!, c = SobolSequence(dimension: 6, seed: 12)!
        let pa = (0..<256).map { _ in a.next() }, pb = (0..<256).map { _ in b.next() }, pc = (0..<256).map { _ in c.next() }
        #expect(pa == pb)
        #expect(pa != pc)
        for dim in 0..<6 {
            let cells = Set(pa.map { Int($0[dim] * 256) })
            #expect(cells.count == 256, "dimension \(dim): \(cells.count) cells of 256")
            #expect(pa.allSatisfy { $0[dim] > 0 && $0[dim] < 1 })
        }
        #expect(SobolSequence(dimension: 41, seed: 1) == nil)
    }

    @Test("Morris: trajectories move one parameter by Δ at a time inside the cube; a linear function's μ* is its slope × Δ-scale, σ 0")
    func morrisLinear() {
        let design = MorrisDesign(dimension: 3, trajectories: 20, levels: 4, seed: 4)!
        #expect(design.points.count == 20 * 4)
        for t in 0..<20 {
            for s in 0..<3 {
                let p = design.points[t * 4 + s], q = design.points[t * 4 + s + 1]
                let moved = (0..<3).filter { p[$0] != q[$0] }
                #expect(moved.count == 1)
                #expect(abs(abs(p[moved[0]] - q[moved[0]]) - design.delta) < 1e-12)
            }
            // Each parameter moves exactly once a trajectory.
            let first = design.points[t * 4], last = design.points[t * 4 + 3]
            #expect((0..<3).allSatisfy { first[$0] != last[$0] })
        }
        #expect(design.points.allSatisfy { $0.allSatisfy { (0...1).contains($0) } })
        let y = design.points.map { 2 * $0[0] - 5 * $0[2] }
        let m = MorrisEffects(design: design, outputs: y, resamples: 50)
        #expect(abs(m.muStar[0] - 2) < 1e-9 && abs(m.mu[0] - 2) < 1e-9 && abs(m.sigma[0]) < 1e-9)
        #expect(m.muStar[1] == 0 && m.mu[1] == 0)
        #expect(abs(m.muStar[2] - 5) < 1e-9 && abs(m.mu[2] + 5) < 1e-9)
    }

    @Test("Morris on Ishigami ranks x1 and x2 above x3 by μ and shows x3's interaction by σ > μ*/2")
    func morrisIshigami() {
        let f = SensitivityTestFunction.ishigami
        let design = MorrisDesign(dimension: 3, trajectories: 200, levels: 4, seed: 8)!
        let y = design.points.map { u in f.evaluate(u.map { -Double.pi + $0 * 2 * Double.pi }) }
        let m = MorrisEffects(design: design, outputs: y, resamples: 100)
        #expect(m.mu[0] > 3 * abs(m.mu[2]))           // x1 acts on its own; x3 only through x1
        #expect(m.sigma[2] > m.muStar[2] / 2)
        #expect(m.muStarInterval.indices.allSatisfy { m.muStarInterval[$0].contains(m.muStar[$0]) })
    }
}
