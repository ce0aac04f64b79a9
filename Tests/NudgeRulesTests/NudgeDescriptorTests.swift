import NudgeRules
import RulesCore
import Testing

/// The product as data: seed 001's identity and the KPI targets its §11 states (the engine's own rule tests sit
/// beside this file).
struct NudgeDescriptorTests {
    @Test func theDescriptorNamesTheSeedAndItsTargets() {
        let d = NudgeEngine.descriptor
        #expect(d.id == "nudge")
        #expect(d.seedFile == "001_2c48cacf5aaf28c7.txt")
        #expect(d.kpi("items_done_per_dau")?.targetMin == 3)
        #expect(d.kpi("items_done_per_dau")?.targetMax == 5)
        #expect(d.kpi("cost_per_dau_day")?.targetMax == 0.00018)
        #expect(d.revenue.costSource != nil)
        #expect(d.reports.contains("ai-cost.csv") && d.reports.contains("tasks.csv"))
    }
}
