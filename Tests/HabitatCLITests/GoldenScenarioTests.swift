import Foundation
import HabitatTestSupport
import RulesCore
import ScenarioFormat
import Simulation
import Testing
import ProductRegistry

/// Example scenarios are golden tests against the committed regression baselines, `Reports/baselines/<name>/` — the
/// one golden set (`make check-baselines` checks the same folders with `habitat check`). The CLI runs each example at
/// the size its `baseline.json` records, and every CSV must match the baseline's copy byte for byte; the manifest
/// must match but for what differs between runs (`wall_seconds`, `git_commit`, `kind`, `threads`, `outputs.dir` in
/// the resolved scenario and hence `scenario_hash`).
///
/// `RECORD_GOLDEN=1 RECORD_REASON="why"` re-records every example's baseline through `habitat check --record`
/// (the reason goes into `baseline.json`) and fails, as snapshot libraries do, so a recording run never passes.
@Suite("Golden example runs against Reports/baselines", .serialized)
struct GoldenScenarioTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let baselines = repo.appendingPathComponent("Reports/baselines")
    /// Flags every run of this suite shares (results do not depend on the thread count).
    static let runFlags = ["--threads", "2", "--progress", "never"]

    /// A committed baseline: its folder and the flags that reproduce its size, from its `baseline.json`.
    struct Baseline {
        var dir: URL
        var scenarioFile: String
        var sizeFlags: [String]

        init(example file: URL) throws {
            let name = file.deletingPathExtension().lastPathComponent
            dir = GoldenScenarioTests.baselines.appendingPathComponent(name)
            let json = try Data(contentsOf: dir.appendingPathComponent("baseline.json"))
            let record = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any], "\(name)/baseline.json")
            scenarioFile = try #require(record["scenario_file"] as? String, "\(name)/baseline.json: scenario_file")
            #expect(scenarioFile == "Scenarios/\(file.lastPathComponent)", "\(name)/baseline.json records \(scenarioFile)")
            sizeFlags = []
            for key in ["people", "days", "replications", "seed"] {
                if let value = record[key] as? NSNumber { sizeFlags += ["--\(key)", value.stringValue] }
            }
        }
    }

    @Test func everyExampleHasABaselineAndEveryBaselineAnExample() throws {
        let examples = ExampleScenarioTests.files.map { $0.deletingPathExtension().lastPathComponent }
        let dirs = try FileManager.default.contentsOfDirectory(atPath: Self.baselines.path).filter {
            var isDir: ObjCBool = false
            return FileManager.default.fileExists(atPath: Self.baselines.appendingPathComponent($0).path, isDirectory: &isDir) && isDir.boolValue
        }
        #expect(examples.count >= 5)
        #expect(Set(examples) == Set(dirs), "examples \(examples.sorted()), baselines \(dirs.sorted())")
    }

    @Test(arguments: ExampleScenarioTests.files)
    func exampleMatchesItsBaselineReports(_ file: URL) throws {
        let name = file.deletingPathExtension().lastPathComponent
        let baseline = try Baseline(example: file)
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" {
            guard let reason = ProcessInfo.processInfo.environment["RECORD_REASON"], !reason.isEmpty else {
                Issue.record("RECORD_GOLDEN=1 needs RECORD_REASON=\"why the baselines change\" (kept in baseline.json)")
                return
            }
            let r = try CLIProcess.run(["check", baseline.scenarioFile, "--baseline", "Reports/baselines/\(name)", "--record",
                                        "--reason", reason] + baseline.sizeFlags + Self.runFlags, cwd: Self.repo)
            #expect(r.status == 0, "\(name): \(r.stderr)")
            // As snapshot libraries do: a recording run never passes, so it cannot stand in for a check.
            Issue.record("\(name): re-recorded \(baseline.dir.path); review the diff, then run again without RECORD_GOLDEN")
            return
        }
        let out = CLIProcess.tempDir().appendingPathComponent(name)
        let r = try CLIProcess.run(["run", file.path, "--out", out.path] + baseline.sizeFlags + Self.runFlags)
        #expect(r.status == 0, "\(name): \(r.stderr)")
        func csvs(_ dir: URL) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".csv") }.sorted()
        }
        let produced = try csvs(out)
        let scenarioText = try String(contentsOf: file, encoding: .utf8)
        // The core reports every product with an app writes, and each product's own (its descriptor's `reports`); a
        // run whose arms are different products (`product:` on its arms) also compares them (issue 28).
        var productIDs: [String] = []
        for line in scenarioText.split(separator: "\n") {
            let t = line.trimmingCharacters(in: .whitespaces)
            if t.hasPrefix("product: "), !productIDs.contains(String(t.dropFirst(9))) { productIDs.append(String(t.dropFirst(9))) }
        }
        if productIDs.isEmpty { productIDs = ["scroll-off"] }
        var own: [String] = []
        var money = false
        for id in productIDs {
            let descriptor = try #require(Products.descriptor(Product(rawValue: id)), "\(name): product \(id)")
            for f in descriptor.reports where !own.contains(f) { own.append(f) }
            money = money || descriptor.revenue.hasMoney
        }
        if productIDs.count > 1 { own.append("product-comparison.csv") }
        // revenue.csv only when a product sells or pays for something (a free product writes no money file, issue 42).
        let core = ["activation-funnel.csv", "battery-budget.csv", "decisions.csv", "energy-by-effect.csv", "kpis.csv", "learning.csv", "retention.csv", "world-check.csv"]
            + (money ? ["revenue.csv"] : [])
        #expect(produced.filter { $0 != "experiment.csv" && $0 != "forecast.csv" } == (core + own).sorted())
        #expect(produced.contains("experiment.csv") == (scenarioText.contains("\narms:") || scenarioText.contains("\nsweep:")),
                "experiment.csv exactly when the scenario has arms")
        #expect(produced.contains("forecast.csv") == scenarioText.contains("acquisition:"), "forecast.csv exactly with an acquisition curve")
        #expect(produced == (try csvs(baseline.dir)), "\(name): the run and its baseline hold the same reports")
        let hint = "(an intended change: re-record with `habitat check \(baseline.scenarioFile) --baseline Reports/baselines/\(name) --record "
            + "\(baseline.sizeFlags.joined(separator: " ")) --reason TEXT`, or RECORD_GOLDEN=1 RECORD_REASON=TEXT for every example)"
        for f in produced {
            guard let expected = try? String(contentsOf: baseline.dir.appendingPathComponent(f), encoding: .utf8) else { continue }
            let actual = try String(contentsOf: out.appendingPathComponent(f), encoding: .utf8)
            if expected != actual {
                let e = expected.components(separatedBy: "\r\n"), a = actual.components(separatedBy: "\r\n")
                let row = (0..<min(e.count, a.count)).first { e[$0] != a[$0] } ?? min(e.count, a.count)
                Issue.record("\(name)/\(f) differs from Reports/baselines/\(name)/\(f) at line \(row + 1):\n  baseline: \(row < e.count ? e[row] : "<end>")\n  now:      \(row < a.count ? a[row] : "<end>")\n\(hint)")
            }
        }
        // The manifest: everything but what differs between two runs of the same scenario.
        func manifest(_ dir: URL) throws -> [String: Any] {
            var m = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("manifest.json"))) as? [String: Any])
            for key in ["wall_seconds", "git_commit", "kind", "threads", "scenario_hash"] { m[key] = nil }
            let resolved = try #require(m["resolved_scenario"] as? String)
            m["resolved_scenario"] = resolved.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.hasPrefix("  dir: ") }.joined(separator: "\n")
            return m
        }
        let now = try manifest(out), recorded = try manifest(baseline.dir)
        #expect(now["scenario_name"] as? String == name)
        for key in Set(now.keys).union(recorded.keys).sorted() {
            #expect("\(now[key] ?? "<missing>")" == "\(recorded[key] ?? "<missing>")", "\(name)/manifest.json: \(key)")
        }
    }

    @Test func runsAreIdenticalForAnyThreadCount() throws {
        let a = CLIProcess.tempDir().appendingPathComponent("one")
        let b = CLIProcess.tempDir().appendingPathComponent("two")
        let base = ["run", "--people", "30", "--days", "14", "--replications", "1", "--progress", "never"]
        #expect(try CLIProcess.run(base + ["--threads", "1", "--out", a.path]).status == 0)
        #expect(try CLIProcess.run(base + ["--threads", "3", "--out", b.path]).status == 0)
        for f in ["kpis.csv", "retention.csv", "activation-funnel.csv", "revenue.csv", "battery-budget.csv", "world-check.csv"] {
            #expect(try String(contentsOf: a.appendingPathComponent(f), encoding: .utf8) == String(contentsOf: b.appendingPathComponent(f), encoding: .utf8), "\(f)")
        }
    }

    @Test func traceShowsOnePersonsLife() throws {
        let r = try CLIProcess.run(["trace", "--people", "5", "--days", "3", "--person", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.components(separatedBy: "\r\n")
        #expect(lines[0] == "scenario,arm,replication,product,time_utc,local_time,kind,detail,wallet_seconds,scrolling_habit,resist_habit,self_efficacy,plan,frustration,perceived_value")
        // Issue 40: every row carries the report keys (the replication traced).
        #expect(lines.dropFirst().filter { !$0.isEmpty }.allSatisfy { $0.hasPrefix("scroll-off-baseline,control,1,scroll-off,") }, "\(lines.prefix(3))")
        // A trace written before issue 40 (no key columns) is still Habitat's: trace --out replaces it.
        let old = CLIProcess.tempDir().appendingPathComponent("old.csv")
        try "time_utc,local_time,kind,detail,wallet_seconds,scrolling_habit,resist_habit,self_efficacy,plan,frustration,perceived_value\r\nx\r\n"
            .write(to: old, atomically: true, encoding: .utf8)
        let replaced = try CLIProcess.run(["trace", "--people", "5", "--days", "3", "--person", "2", "--out", old.path])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try String(contentsOf: old, encoding: .utf8).hasPrefix("scenario,arm,replication,product,time_utc,"))
        #expect(lines.contains { $0.contains(",pickup,") })
        #expect(lines.contains { $0.contains("app_opened") })
        let bad = try CLIProcess.run(["trace", "--people", "5", "--days", "3", "--person", "9"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("out of range"))
    }

    @Test func anUnknownPersonaIsAScenarioErrorWithASuggestion() throws {
        let dir = CLIProcess.tempDir()
        let file = dir.appendingPathComponent("typo.yaml")
        try "name: typo\npopulation:\n  installs: 10\n  personas:\n    - name: studnet\n      share: 1\n".write(to: file, atomically: true, encoding: .utf8)
        let r = try CLIProcess.run(["run", file.path, "--out", dir.appendingPathComponent("out").path, "--progress", "never"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("student"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
    }

    /// Arms meet the same people with the same urges (keyed streams without the arm): two arms with the same rules
    /// must give identical reports but for the arm column. The people use the mechanism behaviour so that a run this
    /// small has purchases, and hence revenue rows, to compare.
    @Test func armsThatDoNotDifferGiveIdenticalReports() throws {
        let dir = CLIProcess.tempDir()
        let file = dir.appendingPathComponent("twins.yaml")
        try """
        name: twins
        horizon_days: 14
        population:
          installs: 30
        \(MechanismBehavior.yaml(indent: 0))arms:
          - name: left
          - name: right
            rules:
              prices:
                premium_monthly: 4.99

        """.write(to: file, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out")
        let r = try CLIProcess.run(["run", file.path, "--out", out.path, "--progress", "never"])
        #expect(r.status == 0, "\(r.stderr)")
        for f in ["kpis.csv", "retention.csv", "activation-funnel.csv", "revenue.csv", "token-revenue-share.csv", "battery-budget.csv", "world-check.csv"] {
            let rows = CSVTableRows.read(out.appendingPathComponent(f))
            let left = rows.filter { $0[1] == "left" }.map { Array($0.dropFirst(2)) }
            let right = rows.filter { $0[1] == "right" }.map { Array($0.dropFirst(2)) }
            #expect(!left.isEmpty, "\(f) has no rows for the arm")
            #expect(left == right, "\(f) differs between identical arms")
        }
    }
}

/// Reads a CSV report's data rows as fields (no quoted commas in these reports' key columns).
enum CSVTableRows {
    static func read(_ url: URL) -> [[String]] {
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }.map { $0.components(separatedBy: ",") }
    }
}
