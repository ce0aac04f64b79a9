import HabitatTestSupport
import Reports
import Testing
@testable import HabitatCLI

/// Issue 27 item 8: the one-file outputs the report pages read (`habitat compare --out`, `habitat check --out`) have
/// the columns docs/report-spec.json gives them (its `outputs`); Tests/SimulationTests/ReportSpecTests.swift holds a
/// run's own files to it.
@Suite("The report specification's outputs")
struct ReportSpecOutputTests {
    @Test("compare --out and check --out write the specification's columns")
    func outputHeaders() throws {
        let spec = try ReportSpecFile.load()
        #expect(spec.header(output: "comparison") == ExperimentComparison.header)
        #expect(spec.header(output: "check") == CheckCommand.outHeader)
    }
}
