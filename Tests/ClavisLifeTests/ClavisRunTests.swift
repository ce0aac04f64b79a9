import Foundation
import HabitatTestSupport
import LifeHarness
import ClavisLife
import ProductRegistry
import Reports
import ScenarioFormat
import Simulation
import Testing

/// Clavis end to end, in-process (as `habitat run Scenarios/clavis-baseline.yaml` does, smaller): its decision kinds
/// reach decisions.csv with their opportunities, its three files are written with their columns and add up, and being
/// free it writes no money file.
@Suite("Clavis runs end to end", .serialized)
struct ClavisRunTests {
    static func scenario(_ file: String = "clavis-baseline.yaml", installs: Int = 400, days: Int = 21) throws -> ResolvedScenario {
        let url = CLIProcess.packageRoot.appendingPathComponent("Scenarios/\(file)")
        var text = try String(contentsOf: url, encoding: .utf8)
        text = text.replacingOccurrences(of: "installs: 2000", with: "installs: \(installs)")
            .replacingOccurrences(of: "horizon_days: 45", with: "horizon_days: \(days)")
            .replacingOccurrences(of: "horizon_days: 28", with: "horizon_days: \(days)")
        return try ScenarioLoader(catalogues: Products.catalogues).load(yaml: text, fileName: file)
    }

    static func written(_ scenario: ResolvedScenario, into root: URL) throws -> [String: String] {
        try WrittenRun.csvFiles(of: try #require(Products.registration(for: "clavis")), scenario, into: root, processes: Products.personProcesses)
    }

    static func rows(_ text: String) -> [[String]] { WrittenRun.rows(text) }

    /// The pooled rows (`replication` = all) of a file, as dictionaries by column.
    static func pooled(_ text: String) -> [[String: String]] {
        let r = rows(text)
        return r.dropFirst().filter { $0[2] == "all" }.map { Dictionary(uniqueKeysWithValues: zip(r[0], $0)) }
    }

    @Test("the baseline's people: every Clavis decision kind in decisions.csv, its three files written and adding up, no money file")
    func runsEndToEnd() throws {
        try withTemporaryDirectory(prefix: "habitat-clavis") { root in
            let files = try Self.written(try Self.scenario(), into: root)
            #expect(files["revenue.csv"] == nil && files["forecast.csv"] == nil, "a free product writes no money file")
            let decisions = Self.pooled(try #require(files["decisions.csv"]))
            for k in ["onboarding_step", "clavis_lock", "clavis_unlock", "clavis_locked", "clavis_scan_retry", "churn"] {
                let made = decisions.filter { $0["decision"] == k }.compactMap { Int($0["decisions"] ?? "") }.first ?? 0
                #expect(made > 0, "\(k): \(made) decisions")
            }
            let locked = decisions.filter { $0["decision"] == "clavis_locked" }
            #expect(locked.first?["opportunity"] == "blocked_app_while_locked")
            // Scans: the pooled cells add up to scan-policy.csv's totals; a false reject is a key scan unmatched.
            let scans = Self.pooled(try #require(files["scans.csv"]))
            #expect(scans.count == 3 * 4 * 2)
            func sum(_ rows: [[String: String]], _ c: String) -> Int { rows.compactMap { Int($0[c] ?? "") }.reduce(0, +) }
            let keys = scans.filter { $0["object"] == "key" }, lookAlikes = scans.filter { $0["object"] == "look_alike" }
            let policyFile = try #require(files["scan-policy.csv"])
            let policy = try #require(Self.pooled(policyFile).first)
            #expect(Int(policy["key_scans"] ?? "") == sum(keys, "attempts") && sum(keys, "attempts") > 0)
            #expect(Int(policy["false_rejects"] ?? "") == sum(keys, "false_rejects"))
            #expect(sum(keys, "false_rejects") == sum(keys, "attempts") - sum(keys, "matches"))
            #expect(sum(lookAlikes, "false_accepts") == sum(lookAlikes, "matches"))
            #expect(sum(keys, "false_accepts") == 0)
            // The dark fails far more often than a lit room (the frame model's quality gate).
            func share(_ light: String) -> Double {
                let r = keys.filter { $0["lighting"] == light }
                return Double(sum(r, "false_rejects")) / Double(max(1, sum(r, "attempts")))
            }
            #expect(share("dark") > share("indoor") + 0.5)
            // Lock cycles: urges met at the lock all ended one way.
            let weeks = Self.pooled(try #require(files["lock-cycles.csv"]))
            #expect(sum(weeks, "cycles_started") > 0 && sum(weeks, "cycles_closed") <= sum(weeks, "cycles_started"))
            let ended = ["endured", "leaked", "unlocked_on_urge", "went_home", "temporary_tries", "bypass_focus_off", "bypass_reset",
                         "bypass_replace", "look_alike_tries"].map { sum(weeks, $0) }.reduce(0, +)
            #expect(sum(weeks, "urges_locked") == ended)
        }
    }

    @Test("the threshold sweep: a stricter threshold rejects the real key more and accepts look-alikes less, on the same people")
    func sweepTradeOff() throws {
        try withTemporaryDirectory(prefix: "habitat-clavis-sweep") { root in
            let files = try Self.written(try Self.scenario("clavis-threshold-sweep.yaml", installs: 400, days: 14), into: root)
            let policy = Self.pooled(try #require(files["scan-policy.csv"]))
            #expect(policy.count == 10, "the as-shipped control and nine swept arms: \(policy.map { $0["arm"] ?? "" })")
            func figure(_ arm: (String) -> Bool, _ c: String) throws -> Double {
                let row = try #require(policy.first { arm($0["arm"] ?? "") })
                return try #require(Double(row[c] ?? ""))
            }
            // Arm names carry the swept values.
            let loose = { (a: String) in a.contains("0.85") && a.contains("=2") }, strict = { (a: String) in a.contains("0.95") && a.contains("=5") }
            #expect(try figure(strict, "false_reject_share") > figure(loose, "false_reject_share"))
            #expect(try figure(strict, "false_accept_share") <= figure(loose, "false_accept_share"))
        }
    }

    @Test("Clavis − none on minutes in target apps comes from the lock alone: never locking, Clavis's people spend exactly the minutes they spend with no app")
    func theLockIsTheMechanism() throws {
        let yaml = """
            name: clavis-mechanism
            seed: 20261122
            start: 2026-01-05
            horizon_days: 14
            replications: 1
            population:
              installs: 300
            arms:
              - name: never-locked
                product: clavis
                behavior:
                  clavis.lock.leaving_probability: 0
                  clavis.lock.bedtime_probability: 0
                  clavis.lock.on_open_probability: 0
              - name: clavis
                product: clavis
              - name: none
                product: none
            """
        let scenario = try ScenarioLoader(catalogues: Products.catalogues).load(yaml: yaml, fileName: "clavis-mechanism.yaml")
        try withTemporaryDirectory(prefix: "habitat-clavis-mechanism") { root in
            let learning = Self.rows(try #require(try Self.writtenArms(scenario, into: root)["learning.csv"]))
            let h = learning[0]
            let arm = try #require(h.firstIndex(of: "arm")), status = try #require(h.firstIndex(of: "status"))
            let week = try #require(h.firstIndex(of: "week_since_install")), minutes = try #require(h.firstIndex(of: "target_app_minutes_per_day"))
            func series(_ a: String) -> [String: String] {
                Dictionary(uniqueKeysWithValues: learning.dropFirst().filter { $0[arm] == a && $0[status] == "all" }.map { ("\($0[2])/\($0[week])", $0[minutes]) })
            }
            #expect(!series("none").isEmpty)
            #expect(series("never-locked") == series("none"), "a Clavis that never locks changes no minute")
            #expect(series("clavis") != series("none"), "the lock does")
        }
    }

    /// A run of every arm with its own product (`Products.run`, as `habitat run` does), its CSVs by name.
    static func writtenArms(_ scenario: ResolvedScenario, into root: URL) throws -> [String: String] {
        try WrittenRun.csvFiles(of: try Products.run(scenario, threads: 2), into: root)
    }
}
