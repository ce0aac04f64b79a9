import ArgumentParser
import Foundation
import ProductRegistry
import Reports
import RulesCore
import ScenarioFormat
import Simulation

/// The embedded default scenario: the first registered product's own (`ProductAdapter.defaultScenario`; Scroll Off's
/// baseline with the charter's rules, a product team's first look).
enum DefaultScenario {
    /// The YAML text, from the registry.
    static let yaml: String = Products.registered.lazy.compactMap(\.defaultScenario).first ?? "name: default\n"
    /// How reports and errors name it: `<embedded NAME>`.
    static let fileName = "<embedded \(yaml.split(separator: "\n").first { $0.hasPrefix("name: ") }.map { String($0.dropFirst(6)) } ?? "default")>"
    /// The same scenario for another product (`bench run --product`): the same people, without the first product's
    /// rules.
    static func yaml(product: Product) -> String {
        guard !yaml.contains("product: \(product.rawValue)\n") else { return yaml }
        return yaml.components(separatedBy: "rules:\n")[0]
            .replacingOccurrences(of: "product: \(Products.defaultProduct)\n", with: "product: \(product.rawValue)\n")
    }
}

/// Options shared by `run` and `trace`: the scenario and its command-line overrides.
struct ScenarioOptions: ParsableArguments {
    @Argument(help: "The scenario file (YAML). Omit to run the embedded default scenario (the Scroll Off baseline).")
    var scenario: String?

    @Option(help: "Override the scenario's seed.")
    var seed: UInt64?

    @Option(help: "Override the number of replications (1…10000).")
    var replications: Int?

    @Option(help: "Override the number of installs (people) per arm.")
    var people: Int?

    @Option(help: "Override the horizon in days (1…3650).")
    var days: Int?

    @Option(name: .customLong("set"), help: ArgumentHelp(
        "Override one scenario value, KEY=VALUE (repeatable): behavior.<parameter> (e.g. behavior.churn.base_hazard=0.1), "
        + "rules.<parameter>, or a scalar such as start. Applies to every arm; checked like the file.", valueName: "KEY=VALUE"))
    var set: [String] = []

    /// `--set` as key → value text; a malformed assignment is refused (exit status 2).
    func assignments() throws -> [String: String] {
        var values: [String: String] = [:]
        for a in set {
            guard let eq = a.firstIndex(of: "="), eq != a.startIndex else {
                throw HabitatError.diagnostic(file: ScenarioLoader.commandLine, "--set '\(a.echoed())' is not KEY=VALUE (e.g. --set behavior.churn.base_hazard=0.1)")
            }
            let key = a[..<eq].trimmingCharacters(in: .whitespaces), value = a[a.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            if values[key] != nil {
                throw HabitatError.diagnostic(file: ScenarioLoader.commandLine, "--set \(key) is given twice")
            }
            values[key] = value
        }
        return values
    }

    /// Loads the scenario (or the embedded default) with the command line's overrides; a bad scenario is refused
    /// with its diagnostics (exit status 2).
    func load(outputDir: String? = nil, allowLarge: Bool = false) throws -> ResolvedScenario {
        let overrides = ScenarioOverrides(seed: seed, replications: replications, people: people, days: days, outputDir: outputDir,
                                          values: try assignments())
        let loader = ScenarioLoader(catalogues: Products.catalogues, allowLarge: allowLarge)
        do {
            if let scenario { return try loader.load(path: scenario, overrides: overrides) }
            return try loader.load(yaml: DefaultScenario.yaml, fileName: DefaultScenario.fileName, overrides: overrides)
        } catch {
            throw HabitatError.diagnostics(error)
        }
    }

    /// The scenario's name for messages: its file, or the embedded default.
    var shownFile: String { scenario ?? DefaultScenario.fileName }

    /// Loads another scenario file with the same command-line overrides (a joint calibration's `--also`).
    func load(other path: String) throws -> ResolvedScenario {
        let overrides = ScenarioOverrides(seed: seed, replications: replications, people: people, days: days, outputDir: nil,
                                          values: try assignments())
        do {
            return try ScenarioLoader(catalogues: Products.catalogues).load(path: path, overrides: overrides)
        } catch {
            throw HabitatError.diagnostics(error)
        }
    }
}

/// `habitat run [SCENARIO.yaml]`: simulates a scenario and writes the reports of CONTRACT.md.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a scenario and write its reports (CSV + manifest.json).",
        discussion: """
        With no file, runs the embedded Scroll Off baseline. Reports go to --out (default Reports/<scenario name>/),
        written atomically: an interrupted or failed run leaves the previous report and no partial file.
        """
    )

    @OptionGroup var options: ScenarioOptions

    @Option(help: "Directory for the reports (default: Reports/<scenario name>).")
    var out: String?

    @OptionGroup var execution: ExecutionOptions<InteractiveExecution>

    @Flag(help: "Run even when the run looks too large for this machine (time, reports, memory, sweep points).")
    var allowLarge = false

    @Option(help: ArgumentHelp(
        "Simulate only shard K of N (1 ≤ K ≤ N): a fixed block of person ids, the same in every arm and replication. "
        + "Writes a shard folder (not a report) to --out (default Reports/<scenario name>-shard-K-of-N); "
        + "`habitat merge` folds the N folders into the reports of a whole run, byte for byte.", valueName: "K/N"))
    var shard: String?

    @Option(help: ArgumentHelp(
        "Re-run every arm pair in each world of a plausible set (a plausible-set.csv, or its folder), or in N worlds "
        + "drawn evenly from --plausible-set; experiment.csv gains each difference's sign share, range and verdict "
        + "(robust, or depends on …), and robustness.csv every world's differences. Needs two or more arms.", valueName: "FILE|N"))
    var robustness: String?

    @Option(name: .customLong("plausible-set"), help: "The plausible set --robustness N draws from (default: \(RobustnessRun.defaultPlausibleSet)).")
    var plausibleSetGiven: String?
    var plausibleSet: String { plausibleSetGiven ?? RobustnessRun.defaultPlausibleSet }

    func validate() throws {
        if let shard { do { _ = try ShardSpec(parsing: shard) } catch { throw ValidationError(error.description) } }
        if shard != nil && robustness != nil { throw ValidationError("--robustness runs whole worlds; it cannot be sharded (--shard)") }
        if plausibleSetGiven != nil && robustness.map({ Int($0) == nil }) ?? true {
            throw ValidationError("--plausible-set is the set --robustness N draws from: give --robustness N with it (or --robustness FILE alone)")
        }
    }

    func run() throws {
        if let shard { return try runShard(try ShardSpec(parsing: shard)) }
        let scenario = try options.load(outputDir: out, allowLarge: allowLarge)
        let robust = try robustness.map { try RobustnessRun(scenario, argument: $0, plausibleSet: plausibleSet, threads: execution.threads,
                                                            scenarioFile: options.shownFile, allowLarge: allowLarge) }
        let path = out ?? scenario.outputs.resolvedDir
        let dir = URL(fileURLWithPath: path)
        let (run, seconds) = try ReportRun.simulate(scenario, scenarioFile: options.scenario, into: dir, shownPath: path,
                                                    threads: execution.threads, progress: execution.progress, allowLarge: allowLarge,
                                                    extra: { try TraceCommand.writeTraces(scenario, into: $0) },
                                                    extraAfterRun: robust.map { r in { try r.write(into: $0, base: $1) } })
        Self.printSummary(run, seconds: seconds, dir: dir)
        robust?.printSummary()
    }

    /// `--shard K/N`: one shard folder, and how to merge the shards.
    func runShard(_ spec: ShardSpec) throws {
        let scenario = try options.load(allowLarge: allowLarge)
        let path = out ?? "Reports/\(scenario.name)-\(spec.folderName)"
        let (totals, seconds) = try ReportRun.simulateShard(scenario, shard: spec, scenarioFile: options.scenario, into: URL(fileURLWithPath: path),
                                                            shownPath: path, threads: execution.threads, progress: execution.progress,
                                                            allowLarge: allowLarge)
        print(String(format: "%@ — shard %@: %d people, %d person-days simulated in %.1f s; shard folder written to %@",
                     scenario.name, spec.description, totals.people, totals.personDays, seconds, path))
        print("When all \(spec.count) shards are done: habitat merge SHARD_FOLDER... --out Reports/\(scenario.name)")
    }

    static func printSummary(_ run: any ProductRun, seconds: Double, dir: URL) {
        for (arm, table) in run.kpiSummary() {
            print("\(run.scenario.name) — arm \(arm) — \(run.replicationsRun) replication(s), \(run.scenario.arms.first!.population.installs) people, \(run.scenario.horizonDays) days")
            print("kpi".padding(toLength: 36, withPad: " ", startingAt: 0) + "mean".padding(toLength: 14, withPad: " ", startingAt: 0) + "95% CI".padding(toLength: 26, withPad: " ", startingAt: 0) + "target")
            for d in table.definitions {
                let s = table.summary(d.id)
                let ci = table.interval95(d)
                let mean = s.count > 0 ? String(format: "%.4f", s.mean) : "—"
                let interval = ci.map { String(format: "[%.4f, %.4f]", $0.lower, $0.upper) } ?? ""
                var target = ""
                if d.hasTarget {
                    target = "\(d.targetMin.map { String(format: "%.2f", $0) } ?? "")…\(d.targetMax.map { String(format: "%.2f", $0) } ?? "")"
                    if let met = d.isMet(by: s.count > 0 ? s.mean : nil) { target += met ? "  met" : "  not met" }
                }
                print(d.id.padding(toLength: 36, withPad: " ", startingAt: 0) + mean.padding(toLength: 14, withPad: " ", startingAt: 0)
                      + interval.padding(toLength: 26, withPad: " ", startingAt: 0) + target)
            }
            print("")
        }
        for (arm, rows) in run.worldCheck() {
            for line in WorldCheck.summaryLines(arm: arm, rows) { print(line) }
        }
        print("")
        if let target = run.scenario.precision {
            let widths = run.precisionHalfWidths(target)
            let met = widths.allSatisfy { w in w.halfWidth.map { $0 <= target.halfWidths[w.kpi]! } ?? false }
            print(met ? "Precision target met after \(run.replicationsRun) replications:"
                      : "Precision target NOT met: stopped at max_replications \(target.maxReplications):")
            for w in widths {
                print("  \(w.arm) \(w.kpi): ±\(w.halfWidth.map { String(format: "%.4g", $0) } ?? "—") (target ±\(String(format: "%.4g", target.halfWidths[w.kpi]!)))")
            }
        }
        print(String(format: "Reports written to %@ (%.1f s)", dir.path, seconds))
    }
}

/// `habitat trace SCENARIO --person ID [--arm NAME]`: one person's life as a timeline CSV.
struct TraceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "One person's life as a timeline CSV: urges, shields, choices, grants, purchases, habits, wallet, plan."
    )

    @OptionGroup var options: ScenarioOptions

    @Option(help: "The person's id (0-based).")
    var person: Int

    @Option(help: "The arm (default: the first arm).")
    var arm: String?

    @Option(help: "The replication (1-based).")
    var replication: Int = 1

    @Option(help: "Write the CSV to this file instead of standard output.")
    var out: String?

    func run() throws {
        let scenario = try options.load()
        try ReportRun.requireEngine(scenario, scenarioFile: options.shownFile)
        guard (1...scenario.replications).contains(replication) else {
            throw HabitatError.refused("--replication \(replication) is out of range; allowed 1…\(scenario.replications)")
        }
        let armName = arm ?? scenario.arms[0].name
        let traced = scenario.arm(named: armName).map { scenario.product(of: $0) } ?? scenario.product
        let headerLines = Products.traceHeaderLines(traced)
        if let out {
            do { try SingleFileOutput.check(out, headerLines: headerLines) } catch {
                throw HabitatError.refused("--out: \(error)")
            }
        }
        let timeline = try Products.run(scenario, threads: 1).trace(person: person, arm: armName, replication: replication)
        let table = TraceFormat.keyed(timeline, ReportKeys(scenario: scenario.name, arm: armName, replication: replication,
                                                           product: traced.rawValue))
        guard let out else { print(table.text, terminator: ""); return }
        do { try SingleFileOutput.write(table.text, to: out, headerLines: headerLines) } catch let e as OutputRefused {
            throw HabitatError.refused("--out: \(e)")
        }
    }

    /// `outputs.trace_people`: each named person's timeline in every arm (replication 1), written into the report
    /// as `trace-<arm>-person-<id>.csv`.
    static func writeTraces(_ scenario: ResolvedScenario, into report: ReportDirectory) throws {
        guard !scenario.outputs.tracePeople.isEmpty else { return }
        let run = try Products.run(scenario, threads: 1)
        for arm in scenario.arms {
            for person in scenario.outputs.tracePeople {
                try StopRequest.checkpoint()
                let timeline = try run.trace(person: person, arm: arm.name, replication: 1)
                let table = TraceFormat.keyed(timeline, ReportKeys(scenario: scenario.name, arm: arm.name, replication: 1,
                                                                   product: scenario.product(of: arm).rawValue))
                try report.write(traceFileName(arm: arm.name, person: person), table: table)
            }
        }
    }

    /// A trace file's name: the arm's name with anything but letters, digits, `-`, `_` and `.` made `_`.
    static func traceFileName(arm: String, person: Int) -> String {
        let safe = String(String.UnicodeScalarView(arm.unicodeScalars.map {
            CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0) ? $0 : "_"
        }))
        return "trace-\(safe.prefix(80))-person-\(person).csv"
    }
}
