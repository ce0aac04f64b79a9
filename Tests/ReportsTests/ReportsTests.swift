import Foundation
import Testing
import HabitatTestSupport
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
    func tempDir() -> URL { TemporaryDirectory.make(prefix: "habitat-reports") }
    func contents(_ dir: URL) -> [String: String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return Dictionary(uniqueKeysWithValues: names.map { ($0, (try? String(contentsOf: dir.appendingPathComponent($0), encoding: .utf8)) ?? "") })
    }

    /// A report as Habitat writes one: its files and a manifest that lists them.
    func writeReport(_ dir: ReportDirectory, _ files: [String: String]) throws {
        for (name, text) in files.sorted(by: { $0.key < $1.key }) { try dir.write(name, text: text) }
        let m = RunManifest(command: "run", scenarioName: "s", scenarioHash: "", resolvedScenario: "", seed: 1, replications: 1,
                            people: 1, personDays: 1, eventsSimulated: 1, threads: 1, wallSeconds: 0, files: files.keys.sorted(), kind: dir.kind)
        try dir.write("manifest.json", text: try m.json())
    }
    func withoutManifest(_ c: [String: String]) -> [String: String] { c.filter { $0.key != "manifest.json" } }

    @Test func commitReplacesThePreviousReportWhole() throws {
        let root = tempDir()
        let dest = root.appendingPathComponent("run")
        let first = try ReportDirectory(destination: dest)
        try writeReport(first, ["a.csv": "old a", "b.csv": "old b"])
        try first.commit()
        let second = try ReportDirectory(destination: dest)
        try writeReport(second, ["a.csv": "new a"])
        try second.commit()
        #expect(withoutManifest(contents(dest)) == ["a.csv": "new a"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["run"])
    }

    @Test func aFailureMidwayLeavesThePreviousReportIntactAndNoPartialFile() throws {
        let root = tempDir()
        let dest = root.appendingPathComponent("run")
        let first = try ReportDirectory(destination: dest)
        try writeReport(first, ["a.csv": "old a", "b.csv": "old b"])
        try first.commit()

        struct Boom: Error {}
        func failingRun() throws {
            let dir = try ReportDirectory(destination: dest)
            try dir.write("a.csv", text: "new a")
            throw Boom()     // the run fails after writing one of its files
        }
        #expect(throws: Boom.self) { try failingRun() }
        #expect(withoutManifest(contents(dest)) == ["a.csv": "old a", "b.csv": "old b"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["run"])
    }

    @Test func abandonedStagingFromAKilledWriterIsCleanedUp() throws {
        let root = tempDir()
        let dest = root.appendingPathComponent("run")
        // A writer killed hard leaves its staging directory behind (pid 999999 is not running).
        let orphan = root.appendingPathComponent(".run.partial-999999")
        try FileManager.default.createDirectory(at: orphan, withIntermediateDirectories: true)
        try Data("half".utf8).write(to: orphan.appendingPathComponent("a.csv"))
        try Data().write(to: orphan.appendingPathComponent(".habitat-staging"))
        let dir = try ReportDirectory(destination: dest)
        try writeReport(dir, ["a.csv": "whole"])
        try dir.commit()
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["run"])
    }

    @Test("the user's files in a previous report survive its replacement; a clash with a new report file is refused")
    func foreignEntriesAreKept() throws {
        let root = tempDir()
        let dest = root.appendingPathComponent("run")
        let first = try ReportDirectory(destination: dest)
        try writeReport(first, ["a.csv": "old a", "b.csv": "old b"])
        try first.commit()
        try Data("mine".utf8).write(to: dest.appendingPathComponent("notes.txt"))
        try FileManager.default.createDirectory(at: dest.appendingPathComponent("plots"), withIntermediateDirectories: true)
        try Data("png".utf8).write(to: dest.appendingPathComponent("plots/p.png"))
        let second = try ReportDirectory(destination: dest)
        try writeReport(second, ["a.csv": "new a"])
        try second.commit()
        let c = contents(dest)
        #expect(c["a.csv"] == "new a" && c["b.csv"] == nil && c["notes.txt"] == "mine")
        #expect(FileManager.default.contents(atPath: dest.appendingPathComponent("plots/p.png").path) == Data("png".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["run"])
        // A user file named like a file the new report writes is not overwritten.
        try Data("mine too".utf8).write(to: dest.appendingPathComponent("c.csv"))
        let third = try ReportDirectory(destination: dest)
        try writeReport(third, ["c.csv": "new c"])
        #expect(throws: ReportWriteError.self) { try third.commit() }
        #expect(contents(dest)["c.csv"] == "mine too" && contents(dest)["a.csv"] == "new a")
    }

    @Test("a swapped-out report left by a writer killed mid-commit gives the user's files back")
    func killedMidCommitRestoresUserFiles() throws {
        let root = tempDir()
        let dest = root.appendingPathComponent("run")
        let first = try ReportDirectory(destination: dest)
        try writeReport(first, ["a.csv": "new"])
        try first.commit()
        // What a kill between the swap and the move-back leaves: the old report, with the user's file, beside it.
        let old = root.appendingPathComponent(".run.partial-999999-1")
        try FileManager.default.createDirectory(at: old, withIntermediateDirectories: true)
        let oldWriter = try ReportDirectory(destination: root.appendingPathComponent("scratch"))
        try writeReport(oldWriter, ["a.csv": "old"])
        try oldWriter.commit()
        for name in ["a.csv", "manifest.json"] {
            try FileManager.default.moveItem(at: root.appendingPathComponent("scratch/\(name)"), to: old.appendingPathComponent(name))
        }
        try Data("mine".utf8).write(to: old.appendingPathComponent("notes.txt"))
        let next = try ReportDirectory(destination: dest)
        try writeReport(next, ["a.csv": "newer"])
        try next.commit()
        #expect(contents(dest)["notes.txt"] == "mine" && contents(dest)["a.csv"] == "newer")
        #expect(!FileManager.default.fileExists(atPath: old.path))
    }

    @Test("a folder Habitat did not write, a file, a link, the working directory and / are refused before any work")
    func refusals() throws {
        let root = tempDir()
        let foreign = root.appendingPathComponent("foreign")
        try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: foreign.appendingPathComponent("a.txt"))
        let file = root.appendingPathComponent("notes.txt")
        try Data("keep".utf8).write(to: file)
        let link = root.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: foreign)
        for target in [foreign, file, link, URL(fileURLWithPath: FileManager.default.currentDirectoryPath), URL(fileURLWithPath: "/")] {
            #expect(throws: OutputRefused.self) { _ = try ReportDirectory(destination: target) }
        }
        #expect(throws: OutputRefused.self) { try OutputSafety.checkReportFolder("", kind: .report) }
        #expect(throws: OutputRefused.self) { try OutputSafety.checkReportFolder("/dev/null", kind: .report) }
        #expect(contents(foreign) == ["a.txt": "keep"])
        #expect(try String(contentsOf: file, encoding: .utf8) == "keep")
        // A baseline is not replaced by a run report, nor a report by a baseline.
        let baseline = root.appendingPathComponent("baseline")
        let b = try ReportDirectory(destination: baseline, kind: .baseline)
        try writeReport(b, ["a.csv": "x"])
        try b.commit()
        #expect(throws: OutputRefused.self) { _ = try ReportDirectory(destination: baseline, kind: .report) }
        #expect(throws: Never.self) { _ = try ReportDirectory(destination: baseline, kind: .baseline) }
    }

    @Test func manifestRoundTripsAsSortedJSON() throws {
        let m = RunManifest(command: "run", scenarioName: "s", scenarioHash: "abc", resolvedScenario: "name: s\n", seed: 7,
                            replications: 2, people: 10, personDays: 900, eventsSimulated: 1234, threads: 2,
                            wallSeconds: 0.5, files: ["kpis.csv"])
        let json = try m.json()
        #expect(json.contains("\"scenario_hash\" : \"abc\""))
        try withTemporaryDirectory(prefix: "habitat-manifest") { dir in
            let url = dir.appendingPathComponent("manifest.json")
            try Data(json.utf8).write(to: url)
            #expect(try RunManifest.read(from: url) == m)
        }
    }
}
