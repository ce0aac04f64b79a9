import Foundation
import Testing
@testable import Reports

@Suite("CSV writing")
struct CSVTests {
    @Test func quotesPerRFC4180AndFormatsNumbersFixed() {
        var t = CSVTable(header: ["scenario", "arm", "value", "note"])
        t.append(["a,b", "say \"hi\"", .number(0.1 + 0.2, decimals: 4), .empty])
        t.append(["line\nbreak", "x", .number(-0.00001, decimals: 3), .number(.nan, decimals: 2)])
        t.append(["plain", "y", .integer(42), .rate(1.0 / 3.0)])
        #expect(t.text == "scenario,arm,value,note\r\n\"a,b\",\"say \"\"hi\"\"\",0.3000,\r\n\"line\nbreak\",x,0.000,\r\nplain,y,42,0.333333\r\n")
    }

    @Test func parsesWhatItWrites() {
        var t = CSVTable(header: ["k", "v"])
        t.append(["a,\"b\"\r\nc", "1"])
        t.append(["", "2.50"])
        let parsed = CSVTable.parse(t.text)
        #expect(parsed.header == ["k", "v"])
        #expect(parsed.rows == [["a,\"b\"\r\nc", "1"], ["", "2.50"]])
    }
}

@Suite("Atomic report directories")
struct ReportDirectoryTests {
    func tempDir() -> URL {
        let u = FileManager.default.temporaryDirectory.appendingPathComponent("habitat-reports-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
        return u
    }
    func contents(_ dir: URL) -> [String: String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return Dictionary(uniqueKeysWithValues: names.map { ($0, (try? String(contentsOf: dir.appendingPathComponent($0), encoding: .utf8)) ?? "") })
    }

    @Test func commitReplacesThePreviousReportWhole() throws {
        let root = tempDir()
        let dest = root.appendingPathComponent("run")
        let first = try ReportDirectory(destination: dest)
        try first.write("a.csv", text: "old a")
        try first.write("b.csv", text: "old b")
        try first.commit()
        let second = try ReportDirectory(destination: dest)
        try second.write("a.csv", text: "new a")
        try second.commit()
        #expect(contents(dest) == ["a.csv": "new a"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["run"])
    }

    @Test func aFailureMidwayLeavesThePreviousReportIntactAndNoPartialFile() throws {
        let root = tempDir()
        let dest = root.appendingPathComponent("run")
        let first = try ReportDirectory(destination: dest)
        try first.write("a.csv", text: "old a")
        try first.write("b.csv", text: "old b")
        try first.commit()

        struct Boom: Error {}
        func failingRun() throws {
            let dir = try ReportDirectory(destination: dest)
            try dir.write("a.csv", text: "new a")
            throw Boom()     // the run fails after writing one of its files
        }
        #expect(throws: Boom.self) { try failingRun() }
        #expect(contents(dest) == ["a.csv": "old a", "b.csv": "old b"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["run"])
    }

    @Test func abandonedStagingFromAKilledWriterIsCleanedUp() throws {
        let root = tempDir()
        let dest = root.appendingPathComponent("run")
        // A writer killed hard leaves its staging directory behind (pid 999999 is not running).
        let orphan = root.appendingPathComponent(".run.partial-999999")
        try FileManager.default.createDirectory(at: orphan, withIntermediateDirectories: true)
        try Data("half".utf8).write(to: orphan.appendingPathComponent("a.csv"))
        let dir = try ReportDirectory(destination: dest)
        try dir.write("a.csv", text: "whole")
        try dir.commit()
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["run"])
    }

    @Test func manifestRoundTripsAsSortedJSON() throws {
        let m = RunManifest(command: "run", scenarioName: "s", scenarioHash: "abc", resolvedScenario: "name: s\n", seed: 7,
                            replications: 2, people: 10, personDays: 900, eventsSimulated: 1234, threads: 2,
                            wallSeconds: 0.5, files: ["kpis.csv"])
        let json = try m.json()
        #expect(json.contains("\"scenario_hash\" : \"abc\""))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: url)
        #expect(try RunManifest.read(from: url) == m)
    }
}
