import ArgumentParser
import Foundation
import ProductRegistry
import RulesCore
import ScenarioFormat
import Simulation

/// `habitat bench run`: the full simulation's speed on the embedded Scroll Off baseline — person-days per second
/// and peak memory (max resident set size). Nothing is written.
struct RunBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Measure a full simulation of one product: person-days per second and peak memory."
    )

    @Option(help: "The product to simulate (its engine's default rules; the embedded baseline's population).")
    var product: Product = Products.defaultProduct

    @Option(help: "People (installs).")
    var people: Int = 10_000

    @Option(help: "Simulated days.")
    var days: Int = 90

    @OptionGroup var execution: ExecutionOptions<InteractiveExecution>

    func validate() throws {
        guard people >= 1 else { throw ValidationError("--people must be at least 1 (got \(people))") }
        guard (1...3650).contains(days) else { throw ValidationError("--days must be in 1…3650 (got \(days))") }
    }

    func run() throws {
        // `--product` names the product: a planned one is refused as the option it is (exit 2), before the embedded
        // scenario is loaded with it.
        do { _ = try Products.requireAdapter(product) } catch { throw HabitatError.refused("--product: \(error)") }
        let overrides = ScenarioOverrides(replications: 1, people: people, days: days)
        let scenario = try ScenarioLoader(catalogues: Products.catalogues).load(yaml: DefaultScenario.yaml(product: product), fileName: DefaultScenario.fileName, overrides: overrides)
        try ReportRun.requireEngine(scenario, scenarioFile: DefaultScenario.fileName)
        var run = try Products.run(scenario, threads: execution.threads)
        let bar = ProgressBar(total: run.totalPeople, unit: "people", label: "bench", mode: execution.progress)
        let clock = ContinuousClock()
        let elapsed = try clock.measure { try run.simulate(progress: { bar.update($0) }) }
        bar.finish(run.totalPeople)
        let acc = run.totals
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let seconds = elapsed.seconds
        print([
            "workload=run", "impl=habitat", "people=\(people)", "days=\(days)", "threads=\(execution.threads)",
            // people × days is the workload as stated (the target); person_days counts only the days
            // people still had the app installed (uninstallers stop being simulated), so it is smaller.
            "people_x_days=\(people * days)", String(format: "people_x_days_per_s=%.0f", Double(people * days) / seconds),
            "person_days=\(acc.personDays)", "events=\(acc.events)", String(format: "seconds=%.3f", seconds),
            String(format: "person_days_per_s=%.0f", Double(acc.personDays) / seconds),
            String(format: "events_per_s=%.0f", Double(acc.events) / seconds),
            String(format: "peak_rss_mb=%.1f", Double(usage.ru_maxrss) / 1024),
        ].joined(separator: " "))
    }
}
