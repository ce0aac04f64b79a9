import Foundation
import RulesCore
import ProductRegistry
import Reports
import ScenarioFormat
import Simulation

/// `habitat run --robustness FILE|N`: the scenario's arms re-run in each plausible world, and a verdict on every
/// paired difference (`RobustnessVerdict`) in experiment.csv, with every world's differences in robustness.csv.
final class RobustnessRun {
    /// The plausible set Habitat ships (`Calibration/plausible/`, written by `habitat calibrate --plausible`).
    static let defaultPlausibleSet = "Calibration/plausible/plausible-set.csv"

    let scenario: ResolvedScenario
    let worlds: [PlausibleWorld]
    let threads: Int
    let source: String
    private var summary: [String] = []

    init(_ scenario: ResolvedScenario, argument: String, plausibleSet: String, threads: Int, scenarioFile: String, allowLarge: Bool) throws {
        self.scenario = scenario
        self.threads = threads
        guard scenario.arms.count > 1 else {
            throw HabitatError.refused("\(scenarioFile): --robustness judges differences between arms; this scenario has one arm")
        }
        let count = Int(argument)
        var file = count == nil ? argument : plausibleSet
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: file, isDirectory: &isFolder), isFolder.boolValue {
            file = URL(fileURLWithPath: file).appendingPathComponent("plausible-set.csv").path
        }
        let text: String
        do { text = try InputFile.text(file, maxBytes: 64 << 20, binaryHint: "a plausible set is CSV text") } catch {
            throw HabitatError.refused("--robustness: cannot read the plausible set \(file.echoedPath): \(error.description)"
                                       + (argument == String(count ?? -1) ? " (give --plausible-set FILE, written by habitat calibrate --plausible)" : ""))
        }
        guard let all = PlausibleWorld.read(csv: text), !all.isEmpty else {
            throw HabitatError.refused("--robustness: \(file.echoedPath) is not a plausible set (a world column, behavior.* columns of finite numbers, one row or more)")
        }
        let catalogue = Set(Products.behaviorParameters.map { Calibration.behaviorPrefix + $0.keyPath })
        for key in all[0].values.keys where !catalogue.contains(key) {
            throw HabitatError.refused("--robustness: \(file.echoedPath): column \(key.echoed()) is not a behaviour parameter of this version")
        }
        if let n = count {
            guard (1...all.count).contains(n) else {
                throw HabitatError.refused("--robustness \(n): the plausible set \(file.echoedPath) has \(all.count) world(s); allowed 1…\(all.count)")
            }
            worlds = (0..<n).map { all[$0 * all.count / n] }
        } else {
            worlds = all
        }
        source = file
        for w in worlds { _ = try scenario.withBehavior(w.catalogueValues) }   // a value outside a range: refused now, not after the run
        let size = RunSize(scenario, threads: threads)
        let estimated = size.estimatedSeconds * Double(worlds.count)
        say("robustness: \(worlds.count) plausible world(s) from \(file), each \(scenario.arms.count) arms re-run: about \(SensitivityCommand.duration(estimated)) more")
        if !allowLarge && estimated > RunSize.maxSeconds {
            throw HabitatError.refused("\(scenarioFile): --robustness would take about \(SensitivityCommand.duration(estimated)); use fewer worlds or pass --allow-large")
        }
    }

    func say(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }

    /// Re-runs the worlds and writes experiment.csv (with the verdicts) and robustness.csv.
    func write(into report: ReportDirectory, base run: any ProductRun) throws {
        let base = run.experiment()
        let baseIndex = Dictionary(base.map { (RobustnessTable.key($0), $0) }, uniquingKeysWith: { a, _ in a })
        func keys(_ arm: String) -> ReportKeys {
            ReportKeys(scenario: scenario.name, arm: arm, replication: nil,
                       product: scenario.arm(named: arm).map { scenario.product(of: $0).rawValue } ?? scenario.product.rawValue)
        }
        var table = CSVTable(header: RobustnessTable.header)
        table.append(contentsOf: RobustnessTable.rows(world: 0, comparisons: base, base: baseIndex, keys: keys))
        var perWorld: [(PlausibleWorld, [String: ExperimentComparison])] = []
        let clock = ContinuousClock()
        let started = clock.now
        for (n, w) in worlds.enumerated() {
            try StopRequest.checkpoint()
            var r = try Products.run(try scenario.withBehavior(w.catalogueValues), threads: threads)
            try r.simulate(progress: nil)
            let comparisons = r.experiment()
            table.append(contentsOf: RobustnessTable.rows(world: w.id, comparisons: comparisons, base: baseIndex, keys: keys))
            perWorld.append((w, Dictionary(comparisons.map { (RobustnessTable.key($0), $0) }, uniquingKeysWith: { a, _ in a })))
            say(String(format: "  world %d/%d (plausible world %d)  %.1f s", n + 1, worlds.count, w.id, (clock.now - started).seconds))
        }
        var experiment = CSVTable(header: ExperimentComparison.header + RobustnessVerdict.columns)
        var leaders = CSVTable(header: ReportKeys.header + ["kpi", "unit", "control_arm", "leader_share", "worlds", "verdict"])
        for c in base {
            let v = RobustnessVerdict(base: c, worlds: perWorld.map { ($0.0, $0.1[RobustnessTable.key(c)]) })
            experiment.append(c.row(keys(c.arm)) + v.fields)
            if v.verdict != "robust" && v.verdict != "no difference" && v.verdict != "undefined" || summary.count < 0 {
                summary.append("  \(c.arm) − \(c.controlArm), \(c.kpi): \(v.verdict) (sign held in \(v.signShare.map { String(format: "%.0f %%", 100 * $0) } ?? "—") of \(v.worlds) worlds)")
            }
        }
        // With three arms or more (the product comparison): which arm moves each KPI most, and in how many worlds.
        let arms = Array(Set(base.map(\.arm))).sorted()
        if arms.count >= 2 {
            for kpi in base.map(\.kpi).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } } {
                func leader(_ cs: [String: ExperimentComparison]) -> String? {
                    arms.compactMap { a in cs["\(a)\u{1F}\(kpi)"]?.diff.map { (a, abs($0)) } }.max { $0.1 < $1.1 }?.0
                }
                guard let l0 = leader(baseIndex), let c0 = baseIndex["\(l0)\u{1F}\(kpi)"] else { continue }
                let ls = perWorld.compactMap { leader($0.1) }
                let share = ls.isEmpty ? nil : Double(ls.filter { $0 == l0 }.count) / Double(ls.count)
                let verdict = share.map { $0 >= RobustnessVerdict.robustShare ? "robust" : "depends on the world" } ?? "undefined"
                leaders.append(keys(l0).fields + [.text(kpi), .text(c0.unit), .text(c0.controlArm), .optional(share, decimals: 4), .integer(Int64(ls.count)), .text(verdict)])
            }
        }
        try report.write("experiment.csv", table: experiment)
        try report.write("robustness.csv", table: table)
        try report.write("robustness-leader.csv", table: leaders)
        let robust = experiment.rows.filter { $0.last == .text("robust") }.count
        summary.insert("Robustness over \(worlds.count) plausible world(s) (\(source)): \(robust) of \(base.count) differences robust; those that are not:", at: 0)
    }

    func printSummary() { for line in summary { print(line) } }
}
