import Testing
import Reports
import ScenarioFormat
import HabitatTestSupport
import ScrollOffRules
@testable import Simulation
import ProductRegistry
@testable import ScrollOffLife

/// Issue 6: engine invariants are checked on every engine call of every run; a violation stops the run with a
/// person id, seed and event that `habitat trace` replays.
@Suite("Invariant audit", .serialized)
struct InvariantAuditTests {
    /// An injected defect: an earn award that hit the daily cap counts as a broken cap.
    enum CapBroken: EngineFault {
        static func problem(after event: ScrollOffEvent) -> String? {
            if case .earnAward(_, _, dailyCapHit: true) = event { return "earned above cap (injected fault)" }
            return nil
        }
    }
    typealias BrokenScrollOff = ScrollOffAdapter<FaultyEngine<ScrollOffEngine, CapBroken>>

    static let yaml = """
        name: audit
        horizon_days: 10
        replications: 1
        population:
          installs: 40
        """

    @Test("a deliberately broken engine (a wrapper reporting the earn cap broken) trips the audit with a replayable person id")
    func brokenEngineTrips() throws {
        let scenario = try ScenarioLoader(catalogues: Products.catalogues).load(yaml: Self.yaml, fileName: "audit.yaml")
        var run = SimulationRun<BrokenScrollOff>(scenario: scenario, threads: 2)
        let violation: InvariantViolation
        do {
            try run.simulate()
            Issue.record("the broken engine was not caught")
            return
        } catch let v as InvariantViolation {
            violation = v
        }
        #expect(violation.problems.contains { $0.contains("above cap") })
        #expect(violation.arm == "control" && violation.replication == 1 && violation.seed == scenario.seed)
        #expect(violation.description.contains("replay: habitat trace SCENARIO --person \(violation.person)"))
        // Replaying that person shows the violation at the same instant; earlier people broke nothing.
        let trace = CSVTable.parse(try run.trace(person: violation.person, arm: "control", replication: 1).text).rows
        let row = try #require(trace.first { $0[2] == "invariant_violation" })
        #expect(row[0] == violation.time.description)
        for earlier in 0..<violation.person {
            let t = CSVTable.parse(try run.trace(person: earlier, arm: "control", replication: 1).text).rows
            #expect(!t.contains { $0[2] == "invariant_violation" }, "person \(earlier) broke an invariant first")
        }
    }

    @Test("the real engine passes the audit")
    func realEnginePasses() throws {
        let scenario = try ScenarioLoader(catalogues: Products.catalogues).load(yaml: Self.yaml, fileName: "audit.yaml")
        var run = SimulationRun<ScrollOffProduct>(scenario: scenario, threads: 2)
        try run.simulate()
        #expect(run.arms[0].pooled.violation == nil)
    }
}
