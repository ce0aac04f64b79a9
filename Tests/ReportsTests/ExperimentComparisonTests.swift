import Testing
import RulesCore
import Stochastics
@testable import Reports

@Suite("experiment.csv comparisons")
struct ExperimentComparisonTests {
    @Test("a constant shift is a paired difference with no spread; Welch's interval matches the textbook value")
    func pairedAndWelch() throws {
        let c = ExperimentComparison(kpi: "k", unit: "fraction", controlArm: "control", arm: "b",
                                     control: [1, 2, 3, 4], treatment: [2, 3, 4, 5])
        #expect(c.pairs == 4)
        #expect(c.diff == 1)
        #expect(c.paired?.halfWidth == 0)
        #expect(c.relativeDiff == 0.4)
        // Means 3.5 − 2.5; variances 5/3 each; se = √(5/6); df = 6; t(0.975, 6) = 2.446912.
        let u = try #require(c.unpaired)
        #expect(abs(u.center - 1) < 1e-12)
        #expect(abs(u.halfWidth - 2.446912 * (5.0 / 6).squareRoot()) < 1e-5)
        #expect(c.precisionGain == 0)
    }

    @Test("replications where either arm is undefined are left out of the pairs; unrelated runs are not paired")
    func missingAndUnpaired() {
        let c = ExperimentComparison(kpi: "k", unit: "usd", controlArm: "a", arm: "b",
                                     control: [1, .nan, 3], treatment: [2, 5, .nan])
        #expect(c.pairs == 1)
        #expect(c.diff == 1)
        #expect(c.paired == nil)
        let u = ExperimentComparison(kpi: "k", unit: "usd", controlArm: "a", arm: "b", control: [1, 2, 3], treatment: [2, 4, 6], paired: false)
        #expect(u.pairs == 0)
        #expect(u.diff == 2)
        #expect(u.paired == nil)
        #expect(u.unpaired != nil)
    }

    @Test("ArmKPIValues aligns replications by index, NaN where a replication lacks a KPI")
    func alignment() {
        var v = ArmKPIValues(arm: "x")
        v.appendReplication([(KPIDefinition("a", unit: "u"), 1)])
        v.appendReplication([(KPIDefinition("a", unit: "u"), 2), (KPIDefinition("b", unit: "u"), 7)])
        #expect(v.values["a"] == [1, 2])
        #expect(v.values["b"]!.count == 2 && v.values["b"]![0].isNaN && v.values["b"]![1] == 7)
    }
}
