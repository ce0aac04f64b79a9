import Foundation
import Testing
@testable import Stochastics

@Suite struct NelderMeadTests {
    @Test func findsTheMinimumOfAShiftedQuadratic() throws {
        let r = try NelderMead.minimize(from: [0, 0, 0], steps: [1, 1, 1], maxEvaluations: 2000, sizeTolerance: 1e-7) { x in
            pow(x[0] - 1, 2) + 2 * pow(x[1] + 2, 2) + 3 * pow(x[2] - 0.5, 2)
        }
        #expect(r.stop == .converged)
        #expect(abs(r.minimum[0] - 1) < 1e-4 && abs(r.minimum[1] + 2) < 1e-4 && abs(r.minimum[2] - 0.5) < 1e-4)
        #expect(r.value < 1e-7)
    }

    @Test func rosenbrockFromTheClassicStart() throws {
        let r = try NelderMead.minimize(from: [-1.2, 1], steps: [0.5, 0.5], maxEvaluations: 5000, sizeTolerance: 1e-8) { x in
            100 * pow(x[1] - x[0] * x[0], 2) + pow(1 - x[0], 2)
        }
        #expect(abs(r.minimum[0] - 1) < 1e-3 && abs(r.minimum[1] - 1) < 1e-3)
    }

    @Test func neverSpendsMoreThanTheBudgetAndReturnsTheBestPointSeen() throws {
        var calls = 0
        var seen: [Double] = []
        let r = try NelderMead.minimize(from: [3, 3], steps: [1, 1], maxEvaluations: 9, objective: { x in
            calls += 1
            return x[0] * x[0] + x[1] * x[1]
        }, onEvaluation: { seen.append($0.value) })
        #expect(calls == 9)
        #expect(r.evaluations == 9)
        #expect(r.stop == .budgetSpent)
        #expect(r.value == seen.min())
    }

    @Test func aStopRequestEndsWithTheBestSoFarAndOtherErrorsPropagate() throws {
        struct Boom: Error {}
        var n = 0
        let r = try NelderMead.minimize(from: [1], steps: [0.5], maxEvaluations: 100) { x in
            n += 1
            if n == 6 { throw NelderMead.StopRequested() }
            return abs(x[0])
        }
        #expect(r.stop == .stopped && r.evaluations == 6)
        #expect(throws: Boom.self) {
            _ = try NelderMead.minimize(from: [1], steps: [0.5], maxEvaluations: 100) { _ in throw Boom() }
        }
    }

    @Test func refusesABudgetTooSmallForTheFirstSimplex() {
        #expect(throws: NelderMead.Failure.self) {
            _ = try NelderMead.minimize(from: [1, 2], steps: [1, 1], maxEvaluations: 2) { _ in 0 }
        }
    }

    @Test func boundedMapRoundTripsAndStaysInside() {
        for x in [0.001, 0.3, 0.5, 0.999] {
            let z = NelderMead.toUnbounded(x, lower: 0, upper: 1)
            #expect(abs(NelderMead.fromUnbounded(z, lower: 0, upper: 1) - x) < 1e-12)
        }
        #expect(NelderMead.fromUnbounded(1e6, lower: -2, upper: 3) <= 3)
        #expect(NelderMead.fromUnbounded(-1e6, lower: -2, upper: 3) >= -2)
    }
}
