import ArgumentParser
import Foundation
import Reports
import ScenarioFormat
import Simulation

/// The embedded default scenario: Scroll Off with the charter's rules, a product team's first look.
enum DefaultScenario {
    static let fileName = "<embedded scroll-off-baseline>"
    static let yaml = """
    name: scroll-off-baseline
    product: scroll-off
    seed: 20261122
    start: 2026-01-05
    horizon_days: 90
    replications: 3
    population:
      installs: 10000
      personas:
        - name: student
          share: 0.35
        - name: worker
          share: 0.35
        - name: late-night-scroller
          share: 0.2
        - name: adhd-adult
          share: 0.1
      devices:
        - model: iphone-se-3
          share: 0.15
        - model: iphone-12
          share: 0.2
        - model: iphone-13
          share: 0.25
        - model: iphone-14
          share: 0.2
        - model: iphone-15
          share: 0.2
      time_zones:
        - zone: America/New_York
          share: 0.4
        - zone: America/Los_Angeles
          share: 0.25
        - zone: Europe/London
          share: 0.2
        - zone: Europe/Berlin
          share: 0.15

    """
}

/// Options shared by `run` and `trace`: the scenario and its command-line overrides.
struct ScenarioOptions: ParsableArguments {
    @Argument(help: "The scenario file (YAML). Omit to run the embedded Scroll Off baseline.")
    var scenario: String?

    @Option(help: "Override the scenario's seed.")
    var seed: UInt64?

    @Option(help: "Override the number of replications (1…10000).")
    var replications: Int?

    @Option(help: "Override the number of installs (people) per arm.")
    var people: Int?

    @Option(help: "Override the horizon in days (1…3650).")
    var days: Int?

    func load(outputDir: String? = nil) throws -> ResolvedScenario {
        let overrides = ScenarioOverrides(seed: seed, replications: replications, people: people, days: days, outputDir: outputDir)
        let loader = ScenarioLoader(catalogues: Products.catalogues)
        do {
            if let scenario { return try loader.load(path: scenario, overrides: overrides) }
            return try loader.load(yaml: DefaultScenario.yaml, fileName: DefaultScenario.fileName, overrides: overrides)
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            throw ExitCode(2)
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

    @Option(help: "Worker threads (default: the machine's cores).")
    var threads: Int = PersonParallelRunner.defaultThreads

    @Option(help: "Progress bar on stderr: auto, always, never.")
    var progress: ProgressMode = .auto

    func validate() throws {
        guard (1...1024).contains(threads) else { throw ValidationError("--threads must be in 1…1024 (got \(threads))") }
    }

    func run() throws {
        let scenario = try options.load(outputDir: out)
        let dir = URL(fileURLWithPath: out ?? scenario.outputs.dir)
        let (run, seconds) = try ReportRun.simulate(scenario, scenarioFile: options.scenario, into: dir, threads: threads, progress: progress)
        printSummary(run, seconds: seconds, dir: dir)
    }

    func printSummary(_ run: ScrollOffRun, seconds: Double, dir: URL) {
        for (arm, table) in run.kpiSummary() {
            print("\(run.scenario.name) — arm \(arm) — \(run.replicationsRun) replication(s), \(run.scenario.arms.first!.population.installs) people, \(run.scenario.horizonDays) days")
            print("kpi".padding(toLength: 36, withPad: " ", startingAt: 0) + "mean".padding(toLength: 14, withPad: " ", startingAt: 0) + "95% CI".padding(toLength: 26, withPad: " ", startingAt: 0) + "target")
            for d in table.definitions {
                let s = table.summary(d.kpi)
                let ci = s.confidenceInterval95()
                let mean = s.count > 0 ? String(format: "%.4f", s.mean) : "—"
                let interval = ci.map { String(format: "[%.4f, %.4f]", $0.lower, $0.upper) } ?? ""
                var target = ""
                if d.targetMin != nil || d.targetMax != nil {
                    target = "\(d.targetMin.map { String(format: "%.2f", $0) } ?? "")…\(d.targetMax.map { String(format: "%.2f", $0) } ?? "")"
                    if s.count > 0 { target += (s.mean >= (d.targetMin ?? -.infinity) && s.mean <= (d.targetMax ?? .infinity)) ? "  met" : "  not met" }
                }
                print(d.kpi.padding(toLength: 36, withPad: " ", startingAt: 0) + mean.padding(toLength: 14, withPad: " ", startingAt: 0)
                      + interval.padding(toLength: 26, withPad: " ", startingAt: 0) + target)
            }
            print("")
        }
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
        do { try ScrollOffWorld.check(scenario) } catch {
            FileHandle.standardError.write(Data("\(error.rendered(file: options.scenario ?? DefaultScenario.fileName))\n".utf8))
            throw ExitCode(2)
        }
        guard (1...scenario.replications).contains(replication) else {
            FileHandle.standardError.write(Data("habitat: --replication \(replication) is out of range; allowed 1…\(scenario.replications)\n".utf8))
            throw ExitCode(2)
        }
        let table: CSVTable
        do {
            table = try ScrollOffRun(scenario: scenario, threads: 1).trace(person: person, arm: arm ?? scenario.arms[0].name, replication: replication)
        } catch let e as TraceError {
            FileHandle.standardError.write(Data("habitat: \(e)\n".utf8))
            throw ExitCode(2)
        }
        if let out {
            try Data(table.text.utf8).write(to: URL(fileURLWithPath: out), options: .atomic)
        } else {
            print(table.text, terminator: "")
        }
    }
}
