import ArgumentParser
import Foundation
import ProductRegistry
import Reports
import RulesCore
import ScenarioFormat
import Simulation

/// `habitat compare A_DIR [B_DIR] [--arm-a NAME] [--arm-b NAME] [--out FILE]`: KPI deltas between two finished
/// runs, or between two arms of one run, with the same columns as `experiment.csv`.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "KPI deltas between two finished runs (or two arms of one run), paired where the people are the same.",
        discussion: """
        Reads kpis.csv (its per-replication rows) and manifest.json from each run directory. The difference is
        B − A per KPI. When both runs used the same seed and the same population (or they are two arms of one
        run), replication r of A and of B simulated the same people with the same urges, so the difference is
        paired and its 95% interval comes from the per-replication differences; the unpaired (Welch) interval is
        shown beside it. Otherwise only the unpaired interval is given.
        Writes the table as CSV (experiment.csv columns) to --out and prints it.
        """
    )

    @Argument(help: "The baseline run directory (A).")
    var a: String

    @Argument(help: "The run directory to compare with A (B); omit it to compare two arms of A.")
    var b: String?

    @Option(name: .customLong("arm-a"), help: "Arm of A (default: A's first arm).")
    var armA: String?

    @Option(name: .customLong("arm-b"), help: "Arm of B (default: B's first arm, or A's second arm when B is omitted).")
    var armB: String?

    @Option(help: "Where to write the comparison CSV.")
    var out = "comparison.csv"

    func run() throws {
        let headerLine = CSVTable(header: ExperimentComparison.header).headerLine
        do { try SingleFileOutput.check(out, headerLine: headerLine) } catch {
            throw HabitatError.refused("--out: \(error)")
        }
        do {   // a ComparisonError (a run folder that cannot be read, an unknown arm): exit status 2 (HabitatError)
            let runA = try FinishedRun(directory: URL(fileURLWithPath: a))
            let runB = try b.map { try FinishedRun(directory: URL(fileURLWithPath: $0)) } ?? runA
            for (dir, run) in [(a, runA), (b ?? a, runB)] { try Self.requireEngine(of: run, in: dir) }
            let nameA = armA ?? runA.arms[0].arm
            let nameB: String
            if let armB { nameB = armB } else if b == nil {
                guard runA.arms.count > 1 else {
                    throw ComparisonError("\(a) has one arm (\(nameA)); give a second run directory or --arm-b")
                }
                nameB = runA.arms.first { $0.arm != nameA }!.arm
            } else {
                nameB = runB.arms[0].arm
            }
            let paired = b == nil || FinishedRun.samePeople(runA, runB)
            var control = try runA.arm(nameA)
            var treatment = try runB.arm(nameB)
            let labelA = b == nil ? nameA : "\(runA.manifest.scenarioName)/\(nameA)"
            let labelB = b == nil ? nameB : "\(runB.manifest.scenarioName)/\(nameB)"
            control.arm = labelA
            treatment.arm = labelB
            let comparisons = ArmKPIValues.compare(control: control, arm: treatment, paired: paired)
            var table = CSVTable(header: ExperimentComparison.header)
            let keys = ReportKeys(scenario: runB.manifest.scenarioName, arm: labelB, replication: nil,
                                  product: runB.armProducts[nameB] ?? Self.product(of: runB))
            for c in comparisons { table.append(c.row(keys)) }
            do { try SingleFileOutput.write(table.text, to: out, headerLine: headerLine) } catch let e as OutputRefused {
                throw HabitatError.refused("--out: \(e)")
            }
            let productA = runA.armProducts[nameA] ?? Self.product(of: runA)
            let productB = runB.armProducts[nameB] ?? Self.product(of: runB)
            if productA != productB {
                // Products as arms (issue 28): a legitimate comparison, of the KPIs both report (issue 30).
                print("Different products: \(labelB) is \(productB), \(labelA) is \(productA); the \(comparisons.count) KPIs both report are compared.")
            }
            print("\(labelB) − \(labelA): " + (paired
                ? "paired (same seed, population and Habitat version: replication r of both simulated the same people)"
                : "unpaired (different seed, population or Habitat version: the people may differ, so only Welch's interval applies)"))
            print(ExperimentPrinter.render(comparisons))
            print("Written to \(out)")
        }
    }

    /// Refuses (exit 2) a run of a product this version has no engine for, as every command does.
    static func requireEngine(of run: FinishedRun, in dir: String) throws {
        // The scenario's product and every arm's (a run's arms may be different products).
        var ids = [product(of: run)]
        for arm in run.arms.map(\.arm) { if let p = run.armProducts[arm], !ids.contains(p) { ids.append(p) } }
        for id in ids {
            let product = Product(rawValue: id)
            guard Products.all.contains(where: { $0.id == product }) else {
                throw ComparisonError("\(dir): manifest.json names an unknown product '\(id.echoed())'; products: "
                                      + Products.all.map(\.id.rawValue).joined(separator: ", "))
            }
            do { _ = try Products.requireAdapter(product) } catch { throw ComparisonError("\(dir): \(error)") }
        }
    }

    static func product(of run: FinishedRun) -> String {
        for line in run.manifest.resolvedScenario.split(separator: "\n") where line.hasPrefix("product:") {
            return line.dropFirst("product:".count).trimmingCharacters(in: .whitespaces)
        }
        return ""
    }
}

/// Renders paired comparisons as an aligned text table for the terminal.
enum ExperimentPrinter {
    static func render(_ comparisons: [ExperimentComparison]) -> String {
        func f(_ v: Double?) -> String { v.map { String(format: "%.4f", $0) } ?? "—" }
        func ci(_ c: ConfidenceIntervalText?) -> String { c.map { "[\(f($0.0)), \(f($0.1))]" } ?? "" }
        let header = ["kpi", "A", "B", "B − A", "paired 95% CI", "relative", "unpaired 95% CI"]
        var rows = [header]
        for c in comparisons {
            rows.append([c.kpi, f(c.controlMean), f(c.armMean), f(c.diff), ci(c.paired.map { ($0.lower, $0.upper) }),
                         c.relativeDiff.map { String(format: "%+.1f%%", $0 * 100) } ?? "—",
                         ci(c.unpaired.map { ($0.lower, $0.upper) })])
        }
        let widths = header.indices.map { i in rows.map { $0[i].count }.max()! }
        return rows.map { r in r.indices.map { r[$0].padding(toLength: widths[$0] + 2, withPad: " ", startingAt: 0) }.joined() }
            .joined(separator: "\n")
    }

    typealias ConfidenceIntervalText = (Double, Double)
}
