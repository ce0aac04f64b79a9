import Foundation
#if canImport(Glibc)
import Glibc
#endif
import RulesCore
import Testing
import HabitatTestSupport
@testable import Reports

/// Issue 11: `compare` and `check` read finished runs that may have been truncated, edited or corrupted; each
/// such run is a clear error naming the file, never a silent result or a huge allocation.
@Suite("Reading finished runs defensively")
struct FinishedRunTests {
    /// A small, valid run folder: two replications of one arm.
    func makeRun(kpis: String? = nil, edit: (inout RunManifest) -> Void = { _ in }) throws -> URL {
        let dir = TemporaryDirectory.make(prefix: "habitat-finished")
        let resolved = "name: s\nseed: 1\n"
        var m = RunManifest(command: "run", scenarioName: "s", scenarioHash: FNV1a64.hex(resolved), resolvedScenario: resolved, seed: 1,
                            replications: 2, people: 2, personDays: 2, eventsSimulated: 2, threads: 1, wallSeconds: 0, files: ["kpis.csv"])
        edit(&m)
        try Data(try m.json().utf8).write(to: dir.appendingPathComponent("manifest.json"))
        let header = "scenario,arm,replication,product,kpi,unit,mean,ci_low,ci_high,replications,target_min,target_max,meets_target\r\n"
        let rows = kpis ?? "s,control,1,scroll-off,d1,fraction,0.5,,,1,,,\r\ns,control,2,scroll-off,d1,fraction,0.6,,,1,,,\r\n"
        try Data((header + rows).utf8).write(to: dir.appendingPathComponent("kpis.csv"))
        return dir
    }

    func error(_ dir: URL) -> String? {
        do { _ = try FinishedRun(directory: dir); return nil } catch { return "\(error)" }
    }

    @Test func aValidRunReads() throws {
        let run = try FinishedRun(directory: try makeRun())
        #expect(run.arms.count == 1 && run.arms[0].values["d1"] == [0.5, 0.6])
    }

    @Test("truncated, duplicated, absurd or non-finite rows are refused with file and line", arguments: [
        ("s,control,1,scroll-off,d1,fraction,0.5,,,1,,,\r\ns,control,2,scroll-off,d1,fra", "truncated"),
        ("s,control,1,scroll-off,d1,fraction,0.5,,,1,,,\r\ns,control,2,scroll\r\n", "fields where the header has"),
        ("s,control,1,scroll-off,d1,fraction,0.5,,,1,,,\r\ns,control,1,scroll-off,d1,fraction,0.5,,,1,,,\r\n", "given twice"),
        ("s,control,2000000000,scroll-off,d1,fraction,0.5,,,1,,,\r\n", "replication '2000000000' is neither 1…2"),
        ("s,control,1,scroll-off,d1,fraction,inf,,,1,,,\r\n", "is not a finite number"),
        ("s,control,1,scroll-off,d1,fraction,nan,,,1,,,\r\n", "is not a finite number"),
    ])
    func corruptKPIs(_ rows: String, _ phrase: String) throws {
        let e = try #require(error(try makeRun(kpis: rows)))
        #expect(e.contains("kpis.csv") && e.contains(phrase), "\(e)")
    }

    @Test("an edited manifest is refused: its hash no longer matches, or its files leave the folder")
    func tamperedManifest() throws {
        let edited = try #require(error(try makeRun { $0.resolvedScenario = "name: s\nseed: 1\nproduct: nudge\n" }))
        #expect(edited.contains("does not match its resolved_scenario"))
        let escape = try #require(error(try makeRun { $0.files = ["kpis.csv", "../../../etc/x.csv"] }))
        #expect(escape.contains("files: '../../../etc/x.csv' is not a file name inside the report folder"))
        let absurd = try #require(error(try makeRun { $0.replications = 2_000_000_000 }))
        #expect(absurd.contains("replications: 2000000000 is out of range"))
    }

    @Test("a kpis.csv that is a FIFO, a folder or a socket is named as one, not as missing (issue 40)")
    func kpisOfAnotherType() throws {
        let fifo = try makeRun()
        let kpis = fifo.appendingPathComponent("kpis.csv")
        try FileManager.default.removeItem(at: kpis)
        #expect(mkfifo(kpis.path, 0o600) == 0)
        let e1 = try #require(error(fifo))
        #expect(e1.contains("kpis.csv: it is a named pipe (FIFO), not a regular file"), "\(e1)")
        #expect(!e1.contains("no such file"))
        let folder = try makeRun()
        try FileManager.default.removeItem(at: folder.appendingPathComponent("kpis.csv"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("kpis.csv"), withIntermediateDirectories: false)
        let e2 = try #require(error(folder))
        #expect(e2.contains("kpis.csv: it is a folder, not a file"), "\(e2)")
        let missing = try makeRun()
        try FileManager.default.removeItem(at: missing.appendingPathComponent("kpis.csv"))
        #expect(try #require(error(missing)).contains("has no such file: the run is incomplete"))
    }

    @Test("a run with many arms lists a few of them for an unknown arm, under 1 KB (issue 40)")
    func unknownArmListIsShort() throws {
        var rows = ""
        for i in 0..<300 { rows += "s,arm-with-a-long-name-\(i),1,scroll-off,d1,fraction,0.5,,,1,,,\r\n" }
        let run = try FinishedRun(directory: try makeRun(kpis: rows))
        do { _ = try run.arm("nope"); Issue.record("an unknown arm was found") } catch {
            let text = "\(error)"
            #expect(text.utf8.count < 1024, "\(text.utf8.count) bytes")
            #expect(text.contains("more (see the arm column of its kpis.csv)"))
        }
    }

    @Test("an unreadable manifest names the problem, not a decoder dump")
    func unreadableManifest() throws {
        let dir = try makeRun()
        try Data("{}".utf8).write(to: dir.appendingPathComponent("manifest.json"))
        let e = try #require(error(dir))
        #expect(e.contains("manifest.json") && e.contains("missing") && !e.contains("DecodingError"), "\(e)")
        try Data("{\"tool\": ".utf8).write(to: dir.appendingPathComponent("manifest.json"))
        #expect(error(dir)?.contains("not valid JSON") == true)
    }
}
