import HabitatTestSupport
import ProductRegistry
import Reports
import RulesCore
import Simulation
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

    @Test("every product's trace file has the report keys and the specification's columns (issue 40)", arguments: Products.withEngines)
    func traceHeaders(product: Product) throws {
        let spec = try ReportSpecFile.load()
        let header = try #require(Products.traceHeaderLines(product).first)
        let described = try #require(spec.header(output: "trace", product: product.rawValue))
        #expect(header == CSVTable(header: described).headerLine, "\(product): \(header) vs \(described)")
        #expect(described.starts(with: ReportKeys.header))
    }

    @Test("the calibration's files have the specification's columns (issue 40)")
    func calibrationHeaders() throws {
        let spec = try ReportSpecFile.load()
        #expect(spec.header(output: "calibration") == CalibrationTrace.fixedHeader)
        #expect(spec.header(output: "identifiability") == CalibrationReport.identifiabilityHeader)
        #expect(spec.header(output: "calibration-world-check") == WorldCheck.fileHeader + ["role"])
    }
}
