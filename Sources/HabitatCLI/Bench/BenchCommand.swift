import ArgumentParser
import Foundation
import ProductRegistry
import Reports
import RulesCore
import ScenarioFormat
import Simulation

/// `habitat bench …`: benchmarks that print figures (never asserted by timed tests).
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure Habitat's speed; prints one line of figures per workload.",
        subcommands: [KernelBench.self, RunBench.self]
    )
}

/// The workloads of `habitat bench kernel`.
enum KernelWorkload: String, ExpressibleByArgument, CaseIterable {
    case mm1, agents
}

/// `habitat bench kernel --workload mm1|agents`: the event-kernel workloads of `Benchmarks/`, for
/// side-by-side comparison with the plain-C and SimPy references (`make bench-kernel` runs all three).
struct KernelBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kernel",
        abstract: "Run an event-kernel workload (M/M/1 queue, or many independent agents).",
        discussion: """
        Prints `workload=<w> impl=habitat events=<n> seconds=<s> events_per_s=<r>` followed by the workload's checks.
        mm1: lambda 0.9, mu 1.0, until N customers depart; checks mean Wq and W against 9.0 and 10.0 and gives a
        99% batch-means interval for Wq. agents: urges at 40/day, hourly earn timer reset by each urge, midnight
        rollover, p(resist) 0.3; each agent has its own event queue; agents run across --threads workers.
        """
    )

    @Option(help: "Which workload: \(KernelWorkload.allCases.map(\.rawValue).joined(separator: ", ")).")
    var workload: KernelWorkload

    @Option(help: "mm1: customers to serve (departures).")
    var customers: Int = 1_000_000

    @Option(help: "agents: number of agents.")
    var agents: Int = 100_000

    @Option(help: "agents: simulated days.")
    var days: Int = 30

    @Option(help: "Random seed.")
    var seed: UInt64 = 42

    @OptionGroup var execution: ExecutionOptions<AgentsExecution>

    @Option(help: "Also write the figures as a report (bench-kernel.csv + manifest.json) into this directory, atomically.")
    var out: String?

    func validate() throws {
        guard customers >= 1 else { throw ValidationError("--customers must be at least 1 (got \(customers))") }
        guard agents >= 1 else { throw ValidationError("--agents must be at least 1 (got \(agents))") }
        guard (1...36_500).contains(days) else { throw ValidationError("--days must be in 1…36500 (got \(days))") }
    }

    func run() throws {
        try StopRequest.withCleanStop {
            try ReportRun.exitStatus {
                // Stage the report directory before the run, so an unwritable --out fails at once, not after the work.
                let report = try out.map { try ReportDirectory(destination: URL(fileURLWithPath: $0), shownPath: $0) }
                defer { report?.abort() }
                switch workload {
                case .mm1: try runMM1(report)
                case .agents: try runAgents(report)
                }
            }
        }
    }

    func runMM1(_ report: ReportDirectory?) throws {
        let model = MM1Workload(customers: customers, seed: seed)
        let clock = ContinuousClock()
        var result: MM1Workload.Result!
        let elapsed = clock.measure { result = model.run() }
        let seconds = elapsed.seconds
        let ci = result.wqBatches.interval(level: 0.99)
        try emit(report, [
            ("workload", "mm1"), ("impl", "habitat"), ("events", "\(result.events)"),
            ("seconds", String(format: "%.6f", seconds)), ("events_per_s", String(format: "%.0f", Double(result.events) / seconds)),
            ("N", "\(customers)"), ("seed", "\(seed)"), ("departures", "\(result.departures)"),
            ("Wq", String(format: "%.10f", result.meanWq)), ("W", String(format: "%.10f", result.meanW)),
            ("Wq_th", "9.0"), ("W_th", "10.0"),
            ("Wq_relerr", String(format: "%.5f", (result.meanWq - MM1Workload.analyticWq) / MM1Workload.analyticWq)),
            ("W_relerr", String(format: "%.5f", (result.meanW - MM1Workload.analyticW) / MM1Workload.analyticW)),
            ("Wq_batch_mean", String(format: "%.5f", ci.mean)), ("Wq_ci99_halfwidth", String(format: "%.5f", ci.halfWidth)),
            ("Wq_ci99_contains_th", "\(abs(ci.mean - MM1Workload.analyticWq) <= ci.halfWidth)"), ("batches", "\(ci.batches)"),
            ("heap_max", "\(result.heapPeak)"), ("queue_max", "\(result.queuePeak)"),
        ], events: result.events, people: 1, personDays: 0, wallSeconds: seconds)
    }

    func runAgents(_ report: ReportDirectory?) throws {
        let bar = ProgressBar(total: agents, unit: "agents", label: "agents", mode: execution.progress)
        let model = AgentsWorkload(agents: agents, days: days, seed: seed, threads: execution.threads)
        let clock = ContinuousClock()
        var totals: AgentsWorkload.Totals!
        do {
            let elapsed = try clock.measure { totals = try model.run(progress: { bar.update($0) }) }
            bar.finish(agents)
            let seconds = elapsed.seconds
            let expected = Double(agents) * AgentsWorkload.urgesPerDay * Double(days)
            try emit(report, [
                ("workload", "agents"), ("impl", "habitat"), ("events", "\(totals.events)"),
                ("seconds", String(format: "%.6f", seconds)), ("events_per_s", String(format: "%.0f", Double(totals.events) / seconds)),
                ("agents", "\(agents)"), ("days", "\(days)"), ("seed", "\(seed)"), ("threads", "\(execution.threads)"),
                ("urges", "\(totals.urges)"), ("resists", "\(totals.resists)"), ("gives", "\(totals.gives)"),
                ("earns", "\(totals.earns)"), ("rollovers", "\(totals.rollovers)"), ("daily_sumsq", "\(totals.dailySumOfSquares)"),
                ("resist_frac", String(format: "%.5f", Double(totals.resists) / Double(max(1, totals.urges)))),
                ("urges_relerr", String(format: "%.5f", (Double(totals.urges) - expected) / expected)),
                ("stale_pops", "\(totals.stale)"), ("heap_max_per_agent", "\(totals.heapPeak)"),
                ("person_days_per_s", String(format: "%.0f", Double(agents * days) / seconds)),
            ], events: totals.events, people: agents, personDays: agents * days, wallSeconds: seconds)
        } catch {
            bar.finish(0)
            throw error
        }
    }

    /// Prints the figures as one `key=value` line and, with `--out`, writes them as a report.
    func emit(_ report: ReportDirectory?, _ pairs: [(String, String)], events: Int, people: Int, personDays: Int, wallSeconds: Double) throws {
        print(pairs.map { "\($0.0)=\($0.1)" }.joined(separator: " "))
        guard let dir = report else { return }
        var table = CSVTable(header: ["workload", "impl", "metric", "value"])
        for (k, v) in pairs.dropFirst(2) { table.append([.text(workload.rawValue), "habitat", .text(k), .text(v)]) }
        let manifest = RunManifest(command: "bench kernel --workload \(workload.rawValue)", scenarioName: "bench-kernel-\(workload.rawValue)",
                                   scenarioHash: "", resolvedScenario: "", seed: seed, replications: 1, people: people,
                                   personDays: personDays, eventsSimulated: events, threads: execution.threads, wallSeconds: wallSeconds,
                                   files: ["bench-kernel.csv"])
        try dir.write("bench-kernel.csv", table: table)
        try dir.write("manifest.json", text: try manifest.json())
        try StopRequest.checkpoint()
        try dir.commit()
    }
}

extension ProgressMode: ExpressibleByArgument {}
extension Product: ExpressibleByArgument {
    public init?(argument: String) {
        guard Products.all.contains(where: { $0.id.rawValue == argument }) else { return nil }
        self.init(rawValue: argument)
    }
    public static var allValueStrings: [String] { Products.all.map(\.id.rawValue) }
}

extension Duration {
    /// The duration in seconds as a floating-point number.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}
