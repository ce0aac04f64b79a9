import Foundation
import LifeHarness
import HabitatTestSupport
import LazuriLife
import ProductRegistry
import Reports
import ScenarioFormat
import Simulation
import Testing

/// Lazuri end to end, in-process (as `habitat run Scenarios/lazuri-baseline.yaml` does, smaller): its decision kinds
/// reach decisions.csv, its two files are written with their columns, and being free it writes no money file.
@Suite("Lazuri runs end to end", .serialized)
struct LazuriRunTests {
    static func scenario() throws -> ResolvedScenario {
        let url = CLIProcess.packageRoot.appendingPathComponent("Scenarios/lazuri-baseline.yaml")
        var text = try String(contentsOf: url, encoding: .utf8)
        text = text.replacingOccurrences(of: "installs: 2000", with: "installs: 300").replacingOccurrences(of: "horizon_days: 30", with: "horizon_days: 14")
        return try ScenarioLoader(catalogues: Products.catalogues).load(yaml: text, fileName: "lazuri-baseline.yaml")
    }

    /// The run's report folder: every CSV by name, as text.
    static func written(_ scenario: ResolvedScenario, into root: URL) throws -> [String: String] {
        try WrittenRun.csvFiles(of: try #require(Products.registration(for: "lazuri")), scenario, into: root, processes: Products.personProcesses)
    }

    static func rows(_ text: String) -> [[String]] { WrittenRun.rows(text) }

    @Test("the baseline's people: every Lazuri decision kind in decisions.csv, focus.csv and cards.csv written, no revenue.csv or forecast.csv")
    func runsEndToEnd() throws {
        try withTemporaryDirectory(prefix: "habitat-lazuri") { root in
            let files = try Self.written(try Self.scenario(), into: root)
            #expect(files["revenue.csv"] == nil && files["forecast.csv"] == nil, "a free product writes no money file")
            let decisions = Self.rows(try #require(files["decisions.csv"]))
            let h = decisions[0]
            let kind = try #require(h.firstIndex(of: "decision")), made = try #require(h.firstIndex(of: "decisions"))
            let replication = try #require(h.firstIndex(of: "replication"))
            let pooled = decisions.dropFirst().filter { $0[replication] == "all" }
            for k in ["onboarding_step", "lazuri_shield", "promise_write", "lazuri_visit", "lazuri_resume", "churn"] {
                let n = pooled.first { $0[kind] == k }.flatMap { Int($0[made]) } ?? 0
                #expect(n > 0, "\(k): \(n) decisions")
            }
            let focus = Self.rows(try #require(files["focus.csv"]))
            #expect(focus[0] == ReportKeys.header + ["day", "people", "windows_started", "windows_completed", "windows_switched_off", "windows_deleted",
                                                     "windows_revoked", "focus_minutes", "shields", "pressed", "left", "broke_switch_off",
                                                     "broke_delete", "broke_revoke"])
            let cards = Self.rows(try #require(files["cards.csv"]))
            #expect(cards[0] == ReportKeys.header + ["day", "people", "visits", "reading_visits", "cards_viewed", "unique_cards", "achievements", "score"])
            // Shields answered add up: every shield ended one way.
            let all = focus.dropFirst().filter { $0[2] == "all" }
            func sum(_ c: String) -> Int { let i = focus[0].firstIndex(of: c)!; return all.compactMap { Int($0[i]) }.reduce(0, +) }
            #expect(sum("shields") > 0)
            #expect(sum("shields") == sum("pressed") + sum("left") + sum("broke_switch_off") + sum("broke_delete") + sum("broke_revoke"))
            #expect(sum("focus_minutes") > 0 && sum("windows_completed") > 0)
        }
    }
}
