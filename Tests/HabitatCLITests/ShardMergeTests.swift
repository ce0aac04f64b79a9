import Foundation
import HabitatTestSupport
import Testing

/// `habitat run --shard K/N` and `habitat merge` (issue 16): a run split into shards and merged is the whole run,
/// byte for byte, whatever the shard count or the order the shards are given in; and every set of shards that does
/// not make one run is refused, naming the shard.
@Suite("Shards and merge", .serialized)
struct ShardMergeTests {
    /// Arms, a sweep, an acquisition curve and traces: every report a run can write. 97 people do not divide by 3
    /// or 7, so the shards differ in size.
    static let scenario = """
    name: shard-identity
    product: scroll-off
    seed: 7
    start: 2026-01-05
    horizon_days: 30
    replications: 2
    population:
      installs: 97
      acquisition:
        ramp: {from: 50, to: 400, over_days: 20}
    arms:
      - name: control
      - name: premium-599
        rules:
          prices:
            premium_monthly: 5.99
    sweep:
      rules.earn.daily_cap_minutes.free: [30, 60]
    outputs:
      trace_people: [3, 15]

    """
    static let flags = ["--threads", "2", "--progress", "never"]

    /// Writes the scenario into `dir`.
    static func scenarioFile(in dir: URL, text: String = scenario) throws -> String {
        let path = dir.appendingPathComponent("scenario.yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs shards `indices` of `count` into `dir/shards-count/shard-k`; returns their paths.
    static func runShards(_ scenario: String, count: Int, indices: [Int]? = nil, in dir: URL, extra: [String] = []) throws -> [String] {
        try (indices ?? Array(1...count)).map { k in
            let out = dir.appendingPathComponent("shards-\(count)/shard-\(k)").path
            let r = try CLIProcess.run(["run", scenario, "--shard", "\(k)/\(count)", "--out", out] + flags + extra)
            #expect(r.status == 0, "shard \(k)/\(count): \(r.stderr)")
            return out
        }
    }

    /// The manifest without the fields a merged report may differ in.
    static func comparableManifest(_ dir: URL) throws -> NSDictionary {
        let data = try Data(contentsOf: dir.appendingPathComponent("manifest.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return json.filter { !["wall_seconds", "threads", "merged_shards", "shard"].contains($0.key) } as NSDictionary
    }

    @Test("1, 3 and 7 shards merged in any order give the whole run's files, byte for byte")
    func byteIdentity() throws {
        let dir = CLIProcess.tempDir()
        let file = try Self.scenarioFile(in: dir)
        // The same relative --out from different folders: outputs.dir (in the manifest's resolved scenario) is equal.
        let whole = dir.appendingPathComponent("whole")
        try FileManager.default.createDirectory(at: whole, withIntermediateDirectories: true)
        let w = try CLIProcess.run(["run", file, "--out", "report"] + Self.flags, cwd: whole)
        try #require(w.status == 0, "\(w.stderr)")
        let wholeReport = whole.appendingPathComponent("report")
        let names = try FileManager.default.contentsOfDirectory(atPath: wholeReport.path).sorted()
        #expect(names.contains("forecast.csv") && names.contains("experiment.csv") && names.contains("trace-control-person-15.csv"))

        for (count, order) in [(1, [1]), (3, [3, 1, 2]), (7, [5, 2, 7, 1, 6, 3, 4])] {
            let shards = try Self.runShards(file, count: count, in: dir)
            let here = dir.appendingPathComponent("merged-\(count)")
            try FileManager.default.createDirectory(at: here, withIntermediateDirectories: true)
            let m = try CLIProcess.run(["merge"] + order.map { shards[$0 - 1] } + ["--out", "report", "--progress", "never"], cwd: here)
            try #require(m.status == 0, "merge of \(count): \(m.stderr)")
            let merged = here.appendingPathComponent("report")
            #expect(try FileManager.default.contentsOfDirectory(atPath: merged.path).sorted() == names, "\(count) shards: the same files")
            for name in names where name != "manifest.json" {
                let a = try Data(contentsOf: wholeReport.appendingPathComponent(name))
                let b = try Data(contentsOf: merged.appendingPathComponent(name))
                #expect(a == b, "\(count) shards: \(name) differs from the whole run")
            }
            #expect(try Self.comparableManifest(merged) == Self.comparableManifest(wholeReport), "\(count) shards: manifest.json")
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: merged.appendingPathComponent("manifest.json"))) as? [String: Any]
            #expect(json?["merged_shards"] as? Int == count)
        }
    }

    @Test("Earned Access (its own unlocks.csv) merges byte for byte too")
    func earnedAccess() throws {
        let dir = CLIProcess.tempDir()
        let scenario = CLIProcess.packageRoot.appendingPathComponent("Scenarios/earned-access-baseline.yaml").path
        let size = ["--people", "45", "--days", "20", "--replications", "2"]
        let whole = dir.appendingPathComponent("whole"), merged = dir.appendingPathComponent("merged")
        for d in [whole, merged] { try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true) }
        try #require(try CLIProcess.run(["run", scenario, "--out", "report"] + size + Self.flags, cwd: whole).status == 0)
        let shards = try Self.runShards(scenario, count: 2, in: dir, extra: size)
        try #require(try CLIProcess.run(["merge", shards[1], shards[0], "--out", "report", "--progress", "never"], cwd: merged).status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: whole.appendingPathComponent("report").path).sorted()
        #expect(names.contains("unlocks.csv"))
        for name in names where name != "manifest.json" {
            #expect(try Data(contentsOf: whole.appendingPathComponent("report/\(name)")) == Data(contentsOf: merged.appendingPathComponent("report/\(name)")), "\(name)")
        }
        #expect(try Self.comparableManifest(merged.appendingPathComponent("report")) == Self.comparableManifest(whole.appendingPathComponent("report")))
    }

    @Test("A shard folder is not a report: it says which shard it is, and compare refuses it")
    func shardFolderIsNotAReport() throws {
        let dir = CLIProcess.tempDir()
        let file = try Self.scenarioFile(in: dir)
        let shard = try Self.runShards(file, count: 2, indices: [2], in: dir, extra: ["--people", "20", "--days", "10"])[0]
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: shard).appendingPathComponent("manifest.json"))) as? [String: Any]
        #expect(json?["kind"] as? String == "shard")
        #expect((json?["shard"] as? [String: Any])?["index"] as? Int == 2)
        #expect(json?["files"] as? [String] == ["shard-state.jsonl"])
        let header = try String(contentsOfFile: shard + "/shard-state.jsonl", encoding: .utf8).split(separator: "\n")[0]
        let h = try JSONSerialization.jsonObject(with: Data(header.utf8)) as? [String: Any]
        #expect(h?["format"] as? String == "habitat-shard-state" && h?["format_version"] as? Int == 10)
        #expect(h?["scenario_hash"] as? String == json?["scenario_hash"] as? String)
        let c = try CLIProcess.run(["compare", shard, shard, "--out", dir.appendingPathComponent("c.csv").path])
        #expect(c.status != 0 && c.stderr.contains("a shard folder"), "\(c.stderr)")
        // A run report cannot be written over a shard folder, nor a shard over a report.
        let r = try CLIProcess.run(["run", file, "--people", "20", "--days", "10", "--out", shard] + Self.flags)
        #expect(r.status == 2 && r.stderr.contains("a shard folder"), "\(r.stderr)")
    }

    @Test("Shards that do not make one run are refused, naming the shard")
    func refusals() throws {
        let dir = CLIProcess.tempDir()
        let file = try Self.scenarioFile(in: dir)
        let small = ["--people", "20", "--days", "10", "--replications", "1"]
        let shards = try Self.runShards(file, count: 3, in: dir, extra: small)
        let out = dir.appendingPathComponent("out").path
        func merge(_ paths: [String]) throws -> CLIProcess.Result {
            try CLIProcess.run(["merge"] + paths + ["--out", out, "--progress", "never"])
        }
        func expectRefused(_ paths: [String], _ words: String, _ comment: Comment) throws {
            let r = try merge(paths)
            #expect(r.status == 2 && r.stderr.contains(words), comment, sourceLocation: .__here())
            #expect(!FileManager.default.fileExists(atPath: out), "nothing written after a refusal")
            if !(r.stderr.contains(words)) { Issue.record("stderr: \(r.stderr)") }
        }
        try expectRefused([shards[0], shards[2]], "1 of 3 shards missing: 2/3", "a missing shard")
        try expectRefused([shards[0], shards[1], shards[2], shards[1]], "given twice", "the same folder twice")
        let copy = dir.appendingPathComponent("copy-of-2").path
        try FileManager.default.copyItem(atPath: shards[1], toPath: copy)
        try expectRefused([shards[0], shards[1], copy, shards[2]], "shard 2/3 is given twice", "two copies of a shard")
        let other = try Self.runShards(file, count: 3, indices: [2], in: dir.appendingPathComponent("other"), extra: small + ["--seed", "8"])[0]
        try expectRefused([shards[0], other, shards[2]], "another scenario", "a shard of another seed")
        let four = try Self.runShards(file, count: 4, indices: [4], in: dir, extra: small)[0]
        try expectRefused(shards + [four], "one run has one shard count", "a shard of another split")
        let report = dir.appendingPathComponent("a-report").path
        #expect(try CLIProcess.run(["run", file, "--out", report] + small + Self.flags).status == 0)
        try expectRefused([shards[0], report, shards[2]], "not a shard folder", "a report given as a shard")
        try expectRefused([shards[0], dir.appendingPathComponent("nope").path, shards[2]], "no such folder", "a missing folder")

        // A truncated state file and a tampered person count.
        let cut = dir.appendingPathComponent("cut").path
        try FileManager.default.copyItem(atPath: shards[1], toPath: cut)
        let state = cut + "/shard-state.jsonl"
        let lines = try String(contentsOfFile: state, encoding: .utf8).split(separator: "\n")
        try (lines.dropLast().joined(separator: "\n") + "\n").write(toFile: state, atomically: true, encoding: .utf8)
        try expectRefused([shards[0], cut, shards[2]], "truncated", "a truncated shard")
        let tampered = dir.appendingPathComponent("tampered").path
        try FileManager.default.copyItem(atPath: shards[1], toPath: tampered)
        let text = try String(contentsOfFile: tampered + "/shard-state.jsonl", encoding: .utf8)
        let header = String(text.split(separator: "\n")[0])
        let changed = header.replacingOccurrences(of: "\"installs\":20", with: "\"installs\":21")
        #expect(changed != header)
        try text.replacingOccurrences(of: header, with: changed).write(toFile: tampered + "/shard-state.jsonl", atomically: true, encoding: .utf8)
        try expectRefused([shards[0], tampered, shards[2]], "differ from", "a shard whose arms do not add up")

        let edited = dir.appendingPathComponent("edited").path
        try FileManager.default.copyItem(atPath: shards[1], toPath: edited)
        let recordText = try String(contentsOfFile: edited + "/shard-state.jsonl", encoding: .utf8)
        let changedRecord = recordText.replacingOccurrences(of: "\"mrr_at_end\":{\"micros\":", with: "\"mrr_at_end\":{\"micros\":1")
        #expect(changedRecord != recordText)
        try changedRecord.write(toFile: edited + "/shard-state.jsonl", atomically: true, encoding: .utf8)
        try expectRefused([shards[0], edited, shards[2]], "fails its seal", "an accumulator edited after it was written")

        // And then the real thing works.
        #expect(try merge(shards.reversed()).status == 0)
    }

    @Test("--shard values out of range and precision targets are refused before any work")
    func shardOptionRefusals() throws {
        let dir = CLIProcess.tempDir()
        let file = try Self.scenarioFile(in: dir)
        for bad in ["0/3", "4/3", "x", "1/0", "2", "-1/3"] {
            let r = try CLIProcess.run(["run", file, "--shard", bad, "--out", dir.appendingPathComponent("s").path])
            #expect(r.status == 2 && r.stderr.contains("--shard"), "--shard \(bad): \(r.stderr)")
        }
        let precision = try Self.scenarioFile(in: dir, text: Self.scenario + "precision:\n  kpis:\n    willpower_win_share: 0.01\n  max_replications: 4\n")
        let r = try CLIProcess.run(["run", precision, "--shard", "1/2", "--out", dir.appendingPathComponent("p").path])
        #expect(r.status == 2 && r.stderr.contains("precision target"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("p").path))
        let m = try CLIProcess.run(["merge", "--out", dir.appendingPathComponent("m").path])
        #expect(m.status == 2 && m.stderr.contains("shard folders"), "\(m.stderr)")
    }
}
