import Testing
import ScenarioFormat
@testable import Simulation
import ProductRegistry

/// Issue 11 ("limits stated before work starts"): what cannot finish on the machine is refused with the numbers.
@Suite("Run size limits")
struct RunSizeTests {
    func size(_ overrides: ScenarioOverrides) throws -> RunSize {
        let s = try ScenarioLoader(catalogues: Products.catalogues).load(yaml: "name: s\n", fileName: "s.yaml", overrides: overrides)
        return RunSize(s, threads: 2)
    }

    @Test func ordinaryRunsPass() throws {
        #expect(try size(ScenarioOverrides(replications: 3, people: 10_000, days: 90)).refusal == nil)
        #expect(try size(ScenarioOverrides(replications: 1, people: 10_000_000, days: 1)).refusal == nil)
        #expect(try size(ScenarioOverrides(replications: 100, people: 1, days: 3650)).refusal == nil)
    }

    @Test("10,000 replications × 3,650 days is refused for its reports, with the numbers and the flag")
    func tooManyRows() throws {
        let r = try #require(try size(ScenarioOverrides(replications: 10_000, people: 1, days: 3650)).refusal)
        #expect(r.contains("1 arm × 10000 replications × 1 people × 3650 days"))
        #expect(r.contains("reports would take about") && r.contains("--allow-large"))
    }

    @Test("ten million people for ten years is refused for its time")
    func tooLong() throws {
        let r = try #require(try size(ScenarioOverrides(replications: 1, people: 10_000_000, days: 3650)).refusal)
        #expect(r.contains("it would take about"))
    }
}
