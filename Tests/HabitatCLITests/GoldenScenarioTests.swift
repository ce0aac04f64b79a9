import Foundation
import Testing

/// Example scenarios are golden tests: the CLI runs each at a small size and every CSV must match the checked-in
/// copy byte for byte (`RECORD_GOLDEN=1` re-records, and fails so that a recording run never passes). The manifest
/// is compared without its wall time and commit.
@Suite("Golden example runs", .serialized)
struct GoldenScenarioTests {
    static let goldenRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let smallRun = ["--people", "40", "--days", "21", "--replications", "2", "--threads", "2", "--progress", "never"]

    @Test(arguments: ExampleScenarioTests.files)
    func exampleMatchesItsGoldenReports(_ file: URL) throws {
        let name = file.deletingPathExtension().lastPathComponent
        let out = CLIProcess.tempDir().appendingPathComponent(name)
        let r = try CLIProcess.run(["run", file.path, "--out", out.path] + Self.smallRun)
        #expect(r.status == 0, "\(name): \(r.stderr)")
        let golden = Self.goldenRoot.appendingPathComponent(name)
        let produced = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".csv") }.sorted()
        #expect(produced.filter { $0 != "experiment.csv" && $0 != "forecast.csv" } == ["activation-funnel.csv", "battery-budget.csv", "energy-by-effect.csv", "kpis.csv",
                                                               "retention.csv", "revenue.csv", "token-revenue-share.csv"])
        let scenarioText = try String(contentsOf: file, encoding: .utf8)
        #expect(produced.contains("experiment.csv") == (scenarioText.contains("\narms:") || scenarioText.contains("\nsweep:")),
                "experiment.csv exactly when the scenario has arms")
        #expect(produced.contains("forecast.csv") == scenarioText.contains("acquisition:"), "forecast.csv exactly with an acquisition curve")
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" {
            try? FileManager.default.removeItem(at: golden)
            try FileManager.default.createDirectory(at: golden, withIntermediateDirectories: true)
            for f in produced { try FileManager.default.copyItem(at: out.appendingPathComponent(f), to: golden.appendingPathComponent(f)) }
            // As snapshot libraries do: a recording run never passes, so it cannot stand in for a check.
            Issue.record("\(name): re-recorded \(produced.count) golden files in \(golden.path); review the diff, then run again without RECORD_GOLDEN")
            return
        }
        for f in produced {
            let expected = try String(contentsOf: golden.appendingPathComponent(f), encoding: .utf8)
            let actual = try String(contentsOf: out.appendingPathComponent(f), encoding: .utf8)
            if expected != actual {
                let e = expected.components(separatedBy: "\r\n"), a = actual.components(separatedBy: "\r\n")
                let row = (0..<min(e.count, a.count)).first { e[$0] != a[$0] } ?? min(e.count, a.count)
                Issue.record("\(name)/\(f) differs from its golden copy at line \(row + 1):\n  golden: \(row < e.count ? e[row] : "<end>")\n  now:    \(row < a.count ? a[row] : "<end>")\n(RECORD_GOLDEN=1 re-records after an intended change)")
            }
        }
        let manifest = try String(contentsOf: out.appendingPathComponent("manifest.json"), encoding: .utf8)
        #expect(manifest.contains("\"scenario_name\" : \"\(name)\""))
        #expect(manifest.contains("\"people\" : "))
    }

    @Test func runsAreIdenticalForAnyThreadCount() throws {
        let a = CLIProcess.tempDir().appendingPathComponent("one")
        let b = CLIProcess.tempDir().appendingPathComponent("two")
        let base = ["run", "--people", "30", "--days", "14", "--replications", "1", "--progress", "never"]
        #expect(try CLIProcess.run(base + ["--threads", "1", "--out", a.path]).status == 0)
        #expect(try CLIProcess.run(base + ["--threads", "3", "--out", b.path]).status == 0)
        for f in ["kpis.csv", "retention.csv", "activation-funnel.csv", "revenue.csv", "battery-budget.csv"] {
            #expect(try String(contentsOf: a.appendingPathComponent(f), encoding: .utf8) == String(contentsOf: b.appendingPathComponent(f), encoding: .utf8), "\(f)")
        }
    }

    @Test func traceShowsOnePersonsLife() throws {
        let r = try CLIProcess.run(["trace", "--people", "5", "--days", "3", "--person", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.components(separatedBy: "\r\n")
        #expect(lines[0] == "time_utc,local_time,kind,detail,wallet_seconds,scrolling_habit,resist_habit,self_efficacy,plan,frustration,perceived_value")
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
    /// must give identical reports but for the arm column.
    @Test func armsThatDoNotDifferGiveIdenticalReports() throws {
        let dir = CLIProcess.tempDir()
        let file = dir.appendingPathComponent("twins.yaml")
        try """
        name: twins
        horizon_days: 14
        population:
          installs: 30
        arms:
          - name: left
          - name: right
            rules:
              prices:
                premium_monthly: 4.99

        """.write(to: file, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out")
        let r = try CLIProcess.run(["run", file.path, "--out", out.path, "--progress", "never"])
        #expect(r.status == 0, "\(r.stderr)")
        for f in ["kpis.csv", "retention.csv", "activation-funnel.csv", "revenue.csv", "token-revenue-share.csv", "battery-budget.csv"] {
            let rows = CSVTableRows.read(out.appendingPathComponent(f))
            let left = rows.filter { $0[1] == "left" }.map { Array($0.dropFirst(2)) }
            let right = rows.filter { $0[1] == "right" }.map { Array($0.dropFirst(2)) }
            #expect(!left.isEmpty)
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
