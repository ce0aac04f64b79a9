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
        let drawn = count != nil   // N worlds drawn from --plausible-set, not a file
        var file = drawn ? plausibleSet : argument
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: file, isDirectory: &isFolder), isFolder.boolValue {
            file = URL(fileURLWithPath: file).appendingPathComponent("plausible-set.csv").path
        }
        let text: String
        do { text = try InputFile.text(file, maxBytes: 64 << 20, binaryHint: "a plausible set is CSV text") } catch {
            throw HabitatError.refused("--robustness: cannot read the plausible set \(file.echoedPath): \(error.description)"
                                       + (drawn ? " (give --plausible-set FILE, written by habitat calibrate --plausible)" : ""))
        }
        guard let all = PlausibleWorld.read(csv: text), !all.isEmpty else {
            throw HabitatError.refused("--robustness: \(file.echoedPath) is not a plausible set (a world column, behavior.* columns of finite numbers, one row or more)")
        }
        let parameters = Dictionary(Products.behaviorParameters.map { (Calibration.behaviorPrefix + $0.keyPath, $0) }, uniquingKeysWith: { a, _ in a })
        for key in all[0].values.keys where parameters[key] == nil {
            throw HabitatError.refused("--robustness: \(file.echoedPath): column \(key.echoed()) is not a behaviour parameter of this version")
        }
        var seen = Set<Int>()
        for w in all where !seen.insert(w.id).inserted {
            throw HabitatError.refused("--robustness: \(file.echoedPath): world \(w.id) appears twice; each world once")
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
        // A value outside a parameter's range: refused now, naming the set and the world, not after the run.
        for w in worlds {
            for (key, v) in w.values.sorted(by: { $0.key < $1.key }) {
                if case .number(let r)? = parameters[key]?.kind, !r.contains(v) {
                    throw HabitatError.refused("--robustness: \(file.echoedPath): world \(w.id): \(key) = \(v) is outside its range; allowed \(r.lowerBound)…\(r.upperBound)")
                }
            }
            _ = try scenario.withBehavior(w.catalogueValues)
        }
        let size = RunSize(scenario, threads: threads)
        let estimated = size.estimatedSeconds * Double(worlds.count)
        say("robustness: \(worlds.count) plausible world(s) from \(file), each \(scenario.arms.count) arms re-run: about \(SensitivityCommand.duration(estimated)) more")
        if !allowLarge && estimated > RunSize.maxSeconds {
            throw HabitatError.refused("\(scenarioFile): --robustness would take about \(SensitivityCommand.duration(estimated)); use fewer worlds or pass --allow-large")
        }
    }

    func say(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }

    /// The comparisons judged: every arm against the control (experiment.csv) and, in a product comparison with a
    /// `none` arm, every product against none (product-comparison.csv's `vs_none_diff`, everyone).
    static func comparisons(_ run: any ProductRun) -> (experiment: [ExperimentComparison], versusNone: [ExperimentComparison]) {
        (run.experiment(), run.versusNone())
    }

    /// Re-runs the worlds and writes experiment.csv (with the verdicts), robustness.csv, robustness-leader.csv and,
    /// for a product comparison, product-comparison-robustness.csv.
    func write(into report: ReportDirectory, base run: any ProductRun) throws {
        let base = Self.comparisons(run)
        let all = base.experiment + base.versusNone
        let baseIndex = Dictionary(all.map { (RobustnessTable.key($0), $0) }, uniquingKeysWith: { a, _ in a })
        func keys(_ arm: String) -> ReportKeys {
            ReportKeys(scenario: scenario.name, arm: arm, replication: nil,
                       product: scenario.arm(named: arm).map { scenario.product(of: $0).rawValue } ?? scenario.product.rawValue)
        }
        var table = CSVTable(header: RobustnessTable.header)
        table.append(contentsOf: RobustnessTable.rows(world: 0, comparisons: all, base: baseIndex, keys: keys))
        var perWorld: [(PlausibleWorld, [String: ExperimentComparison])] = []
        let clock = ContinuousClock()
        let started = clock.now
        for (n, w) in worlds.enumerated() {
            try StopRequest.checkpoint()
            var r = try Products.run(try scenario.withBehavior(w.catalogueValues), threads: threads)
            try r.simulate(progress: nil)
            let c = Self.comparisons(r)
            let comparisons = c.experiment + c.versusNone
            table.append(contentsOf: RobustnessTable.rows(world: w.id, comparisons: comparisons, base: baseIndex, keys: keys))
            perWorld.append((w, Dictionary(comparisons.map { (RobustnessTable.key($0), $0) }, uniquingKeysWith: { a, _ in a })))
            say(String(format: "  world %d/%d (plausible world %d)  %.1f s", n + 1, worlds.count, w.id, (clock.now - started).seconds))
        }
        func judged(_ list: [ExperimentComparison], what: String) -> CSVTable {
            var t = CSVTable(header: ExperimentComparison.header + RobustnessVerdict.columns)
            var robust = 0
            var notes: [String] = []
            for c in list {
                let v = RobustnessVerdict(base: c, worlds: perWorld.map { ($0.0, $0.1[RobustnessTable.key(c)]) })
                t.append(c.row(keys(c.arm)) + v.fields)
                if v.verdict == "robust" { robust += 1 }
                if v.verdict.hasPrefix("depends") {
                    notes.append("  \(c.arm) − \(c.controlArm), \(c.kpi): \(v.verdict) (sign held in "
                                 + "\(v.signShare.map { String(format: "%.0f %%", 100 * $0) } ?? "—") of \(v.worlds) worlds)")
                }
            }
            summary.append("\(what): \(robust) of \(list.count) differences robust over \(worlds.count) plausible world(s) (\(source))"
                           + (notes.isEmpty ? "" : "; those whose sign depends on the world:"))
            summary += notes
            return t
        }
        try report.write("experiment.csv", table: judged(base.experiment, what: "Robustness, each arm against \(scenario.arms[0].name)"))
        if !base.versusNone.isEmpty {
            try report.write("product-comparison-robustness.csv", table: judged(base.versusNone, what: "Robustness, each product against none"))
        }
        // Which arm moves each KPI most (largest |paired difference|; against none in a product comparison), and in
        // how many worlds the same arm does.
        let ranked = base.versusNone.isEmpty ? base.experiment : base.versusNone
        var leaders = CSVTable(header: ReportKeys.header + ["kpi", "unit", "control_arm", "leader_share", "worlds", "verdict"])
        let arms = ranked.map(\.arm).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        if arms.count >= 2 {
            for kpi in ranked.map(\.kpi).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } } {
                let control = ranked.first { $0.kpi == kpi }!.controlArm
                func leader(_ cs: [String: ExperimentComparison]) -> String? {
                    arms.compactMap { a in cs[RobustnessTable.key(arm: a, control: control, kpi: kpi)]?.diff.map { (a, abs($0)) } }.max { $0.1 < $1.1 }?.0
                }
                guard let l0 = leader(baseIndex), let c0 = baseIndex[RobustnessTable.key(arm: l0, control: control, kpi: kpi)] else { continue }
                let ls = perWorld.compactMap { leader($0.1) }
                let share = ls.isEmpty ? nil : Double(ls.filter { $0 == l0 }.count) / Double(ls.count)
                let verdict = share.map { $0 >= RobustnessVerdict.robustShare ? "robust" : "depends on the world" } ?? "undefined"
                leaders.append(keys(l0).fields + [.text(kpi), .text(c0.unit), .text(control), .optional(share, decimals: 4), .integer(Int64(ls.count)), .text(verdict)])
            }
        }
        try report.write("robustness.csv", table: table)
        try report.write("robustness-leader.csv", table: leaders)
    }

    func printSummary() { for line in summary { print(line) } }
}
