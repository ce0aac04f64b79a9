import ArgumentParser
import Foundation
import ProductRegistry
import Reports
import RulesCore
import ScenarioFormat
import Simulation

/// `habitat check [SCENARIO.yaml] --baseline DIR [--record --reason TEXT]`: regression check against a stored run.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Regression check: re-run a scenario and compare it with a stored baseline (or record one with --record).",
        discussion: """
        With --record, runs the scenario (at the size given by --people/--days/--replications) and stores the
        reports, the manifest and baseline.json (how to re-run it, and --reason) in --baseline.
        Without it, re-runs the scenario (by default the file the baseline was recorded from) at the baseline's
        recorded size and compares:
          exact        when the resolved scenario (every rule parameter, the population, the size) is unchanged,
                       every CSV must be byte-identical; the first difference is named by file, row and column.
          statistical  when the scenario changed, each KPI's difference is judged against its Monte Carlo
                       uncertainty (paired when the people are the same) and its tolerance (default 1% of the
                       baseline mean; --tolerances FILE with columns kpi,abs,rel). The rule parameters that
                       differ are listed, and the first person whose life diverged is replayed under both rule
                       sets to show the first diverging event.
        --out FILE writes the check's comparison as CSV (experiment.csv's columns, the baseline as the control,
        then tolerance, beyond_tolerance and check: exact or statistical), in both modes, pass or fail;
        `make plots RUN=FILE` draws its page.
        Exit status 0 when the check passes, 1 when it fails, 2 for bad input.
        """
    )

    @OptionGroup var options: ScenarioOptions

    @Option(help: "The baseline directory (e.g. Reports/baselines/<scenario>).")
    var baseline: String

    @Flag(help: "Record (or re-record) the baseline instead of checking against it.")
    var record = false

    @Option(help: "Why the baseline is (re-)recorded; stored in baseline.json (required with --record).")
    var reason: String?

    @Option(help: "A CSV of per-KPI tolerances: kpi,abs,rel.")
    var tolerances: String?

    @Option(help: "Where to write the check's KPI comparison as CSV (not with --record).")
    var out: String?

    /// `--out`'s columns: experiment.csv's, then the tolerance, whether the difference is beyond it, and the mode.
    static let outHeader = ExperimentComparison.header + ["tolerance", "beyond_tolerance", "check"]
    static let outHeaderLine = CSVTable(header: outHeader).headerLine

    @OptionGroup var execution: ExecutionOptions<QuietExecution>

    func run() throws {
        let dir = URL(fileURLWithPath: baseline)
        if let out {
            guard !record else {
                throw HabitatError.refused("--out writes a check's comparison; with --record the baseline folder is the output")
            }
            do { try SingleFileOutput.check(out, headerLine: Self.outHeaderLine) } catch {
                throw HabitatError.refused("--out: \(error)")
            }
        }
        if record { try recordBaseline(dir) } else { try check(dir) }   // a ComparisonError: exit status 2 (HabitatError)
    }

    /// The size flags a baseline was recorded with, for the re-record hint.
    static func sizeFlags(_ r: RegressionCheck.BaselineRecord) -> String {
        [r.people.map { "--people \($0)" }, r.days.map { "--days \($0)" }, r.replications.map { "--replications \($0)" },
         r.seed.map { "--seed \($0)" }].compactMap { $0 }.joined(separator: " ")
    }

    func recordBaseline(_ dir: URL) throws {
        guard let reason, !reason.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ComparisonError("--record needs --reason TEXT: say why the baseline changes (it is kept in baseline.json)")
        }
        let scenario = try options.load()
        let record = RegressionCheck.BaselineRecord(scenarioFile: options.scenario, seed: options.seed, people: options.people,
                                                    days: options.days, replications: options.replications, reason: reason)
        // baseline.json goes into the staging folder with the reports: the new baseline is complete before the old goes.
        _ = try ReportRun.simulate(scenario, scenarioFile: options.scenario, into: dir, shownPath: baseline, kind: .baseline,
                                   threads: execution.threads, progress: execution.progress,
                                   finish: { try $0.write(RegressionCheck.BaselineRecord.fileName, text: try record.json()) })
        print("Recorded baseline \(dir.path) for \(scenario.name) (scenario hash \(scenario.scenarioHash)): \(reason)")
    }

    func check(_ dir: URL) throws {
        let stored = try FinishedRun(directory: dir)
        let record = try RegressionCheck.BaselineRecord.read(from: dir)
        // Re-run at the baseline's size unless the command line says otherwise.
        var opts = options
        opts.scenario = opts.scenario ?? record.scenarioFile   // no file given: the one the baseline was recorded from
        opts.seed = opts.seed ?? record.seed
        opts.people = opts.people ?? record.people
        opts.days = opts.days ?? record.days
        opts.replications = opts.replications ?? record.replications
        let scenario = try opts.load()
        // A baseline checks its own product (issue 30): a scenario of another product is not a regression of it.
        let storedProducts = Self.products(of: stored)
        let scenarioProducts = scenario.products.map(\.rawValue)
        // A product without an engine is refused as every command refuses it (by the run below), first.
        for p in scenario.products {
            do { _ = try Products.requireAdapter(p) } catch { throw HabitatError.refused("\(error)") }
        }
        if storedProducts != scenarioProducts {
            throw HabitatError.refused("--baseline \(dir.path) holds a run of \(storedProducts.joined(separator: ", ")); "
                + "the scenario runs \(scenarioProducts.joined(separator: ", ")): a baseline checks its own product — "
                + "record one for this scenario with --record, or compare the two runs with habitat compare")
        }
        try RegressionCheck.checkStoredFiles(stored.manifest.files.filter { $0.hasSuffix(".csv") }, in: dir)
        let known = stored.arms.first?.definitions.map(\.id) ?? []
        let tolerance = try tolerances.map { try RegressionCheck.readTolerances(URL(fileURLWithPath: $0), known: known) } ?? [:]
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("habitat-check-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        _ = try ReportRun.simulate(scenario, scenarioFile: opts.scenario, into: scratch, threads: execution.threads, progress: execution.progress)
        let name = "\(scenario.name) against \(dir.path)"

        if scenario.scenarioHash == stored.manifest.scenarioHash {
            if out != nil {  // the exact check compares bytes; the KPI table is read back only for --out
                try writeOut(RegressionCheck.movements(baseline: stored, current: try FinishedRun(directory: scratch), tolerances: tolerance),
                             mode: "exact", scenario: scenario.name, product: CompareCommand.product(of: stored))
            }
            let files = stored.manifest.files.filter { $0.hasSuffix(".csv") }
            if let d = try RegressionCheck.firstDifference(files: files, baseline: dir, current: scratch) {
                print("FAIL (exact) \(name): the scenario and its rules are unchanged, but the reports differ.")
                print("  first difference: \(d)")
                print("  Something other than the rule parameters changed the simulation (engine code, behaviour model, tool).")
                print("  If that is intended, re-record: habitat check \(opts.scenario ?? "") --baseline \(dir.path) --record \(Self.sizeFlags(record)) --reason \"…\"")
                throw HabitatError.checkFailed
            }
            print("PASS (exact) \(name): all \(files.count) reports byte-identical (scenario hash \(scenario.scenarioHash)).")
            return
        }

        print("Scenario changed since the baseline (hash \(stored.manifest.scenarioHash) → \(scenario.scenarioHash)); comparing statistically.")
        let manifestPath = dir.appendingPathComponent("manifest.json").path
        let old: ResolvedScenario
        do {
            old = try ScenarioLoader(catalogues: Products.catalogues, allowLarge: true)
                .load(yaml: stored.manifest.resolvedScenario, fileName: "\(manifestPath) (resolved_scenario)")
        } catch {
            throw ComparisonError("the baseline's resolved scenario cannot be loaded:\n\(error)")
        }
        let changes = RegressionCheck.ruleChanges(baseline: old, current: scenario)
        if changes.isEmpty {
            print("No rule or behaviour parameter differs (population, size or other settings changed).")
        } else {
            print("Rule and behaviour parameters that differ:")
            for c in changes { print("  \(c)") }
        }
        let current = try FinishedRun(directory: scratch)
        let movements = RegressionCheck.movements(baseline: stored, current: current, tolerances: tolerance)
        let moved = movements.filter(\.beyondTolerance)
        try writeOut(movements, mode: "statistical", scenario: scenario.name, product: CompareCommand.product(of: current))
        print(FinishedRun.samePeople(stored, current)
              ? "Same people as the baseline: differences are paired replication by replication."
              : "Different people from the baseline (seed or population changed): unpaired comparison.")
        if !changes.isEmpty, let divergence = try RegressionCheck.firstDivergence(baseline: old, current: scenario, run: { try Products.run($0, threads: 1) }) {
            print("First divergence: \(divergence)")
        }
        if moved.isEmpty {
            print("PASS (statistical) \(name): \(movements.count) KPI comparisons, none beyond tolerance.")
            return
        }
        print("FAIL (statistical) \(name): \(moved.count) KPI(s) moved beyond tolerance:")
        for m in moved { print("  \(m)") }
        print("If the change is intended, re-record: habitat check \(opts.scenario ?? "") --baseline \(dir.path) --record \(Self.sizeFlags(record)) --reason \"…\"")
        throw HabitatError.checkFailed
    }

    /// The distinct products of a finished run's arms, in arm order (from `kpis.csv`; the manifest's scenario product
    /// for a run written before arms named theirs).
    static func products(of run: FinishedRun) -> [String] {
        var ids: [String] = []
        for arm in run.arms.map(\.arm) {
            let p = run.armProducts[arm] ?? CompareCommand.product(of: run)
            if !ids.contains(p) { ids.append(p) }
        }
        return ids.isEmpty ? [CompareCommand.product(of: run)] : ids
    }

    /// Writes the check's comparison to `--out` (when given): one row per KPI and arm, the baseline as the control.
    func writeOut(_ movements: [RegressionCheck.Movement], mode: String, scenario: String, product: String) throws {
        guard let out else { return }
        var table = CSVTable(header: Self.outHeader)
        for m in movements {
            var c = m.comparison
            c.controlArm = "baseline \(c.arm)"
            let keys = ReportKeys(scenario: scenario, arm: c.arm, replication: nil, product: product)
            table.append(c.row(keys) + [.optional(m.allowed, decimals: 6), .text(m.beyondTolerance ? "true" : "false"), .text(mode)])
        }
        try SingleFileOutput.write(table.text, to: out, headerLine: Self.outHeaderLine)   // a full disk: exit status 1
        print("Comparison written to \(out) (page: make plots RUN=\(out))")
    }
}
