import Behavior
import Foundation
import Reports
import RulesCore
import ScenarioFormat
import Stochastics

/// What a run keeps of one arm once a replication is folded in: the accumulator pooled over replications, each
/// replication's KPI values (intervals, pairing, precision targets) and the forecast. Per-replication report rows
/// go to the run's `RowSpool`, so memory does not grow with replications.
public struct ArmResult<Adapter: ProductAdapter> {
    public let name: String
    /// Every replication merged, in replication order.
    public internal(set) var pooled: RunAccumulator<Adapter>
    /// One list of KPI values per replication, in replication order.
    public internal(set) var kpiValues: [[(KPIDefinition, Double)]] = []
    /// The month-by-month forecast (runs with an acquisition curve).
    public internal(set) var forecast: ForecastTable
    /// Each replication's reading of the world-check figures (`world-check.csv`), in replication order.
    public internal(set) var worldReadings: [[String: WorldMeasurement]] = []
    /// Each replication's product-neutral outcomes and shared product figures per persona (`product-comparison.csv`).
    public internal(set) var comparisons: [ComparisonAccumulator] = []
    /// Replications folded in so far.
    public var replications: Int { kpiValues.count }
}

/// A whole run of one product: every arm × replication of a resolved scenario, person-parallel, folded into the
/// contract's reports (CONTRACT.md) and written atomically with a manifest. Generic over the product's adapter;
/// the same for every product.
public struct SimulationRun<Adapter: ProductAdapter> {
    public let scenario: ResolvedScenario
    public let threads: Int

    /// Every arm's folded results, in scenario order.
    public internal(set) var arms: [ArmResult<Adapter>] = []
    /// Per-replication rows of every report until `write` (on disk under a report's staging folder, else in memory).
    let spool: RowSpool
    /// The number of shards the run was merged from (`merge(_:)`), nil for a run simulated whole.
    public internal(set) var mergedShards: Int?

    /// One person's life folded into an accumulator: the run's hot path, specialised where the product is
    /// registered (`RegisteredProduct`).
    let kernel: LifeKernel<Adapter>
    /// The person processes every person has besides `PersonProcesses.standard` (`init(processes:)`).
    public let personProcesses: [any PersonProcess.Type]

    /// A run of `scenario`; `spoolFolder` holds per-replication report rows until they are written (nil: memory).
    /// `kernel` is the hot path (the registry passes the one specialised for the product; the default is the
    /// generic code, for tests).
    /// `spoolPrefix` names this run's spool files apart from another's in the same folder (a run of several products).
    /// `processes` are the person processes every person has besides `PersonProcesses.standard` (default: the
    /// product's own, `ProductAdapter.personProcesses`; the registry passes every registered product's).
    public init(scenario: ResolvedScenario, threads: Int, spoolFolder: URL? = nil, spoolPrefix: String = "",
                kernel: LifeKernel<Adapter> = .specialised, processes: [any PersonProcess.Type]? = nil) {
        self.scenario = scenario
        self.kernel = kernel
        personProcesses = processes ?? Adapter.personProcesses
        self.threads = threads
        spool = RowSpool(folder: spoolFolder, prefix: spoolPrefix)
    }

    /// People to simulate in all (arms × replications × installs), for progress bars.
    public var totalPeople: Int { scenario.arms.reduce(0) { $0 + $1.population.installs } * scenario.replications }

    /// Replications simulated so far (per arm): `scenario.replications`, or more under a precision target.
    public var replicationsRun: Int { arms.first?.replications ?? 0 }

    /// Simulates everything: `replications` of every arm, then — under a precision target — one more replication of
    /// every arm at a time until each named KPI's 95 % half-width is at or below its target in every arm, or the
    /// maximum is reached. `progress` receives people done so far across the whole run.
    public mutating func simulate(progress: (@Sendable (Int) -> Void)? = nil) throws {
        resetArms()
        var done = 0
        for r in 1...scenario.replications { try simulateReplication(r, done: &done, progress: progress) }
        if let target = scenario.precision {
            while replicationsRun < target.maxReplications && !precisionReached(target) {
                try simulateReplication(replicationsRun + 1, done: &done, progress: progress)
            }
        }
    }

    /// Empties the spool and gives every arm a fresh result, before a run is simulated or merged from shards.
    public mutating func resetArms() {
        spool.removeAll()
        let d = Adapter.Engine.descriptor
        arms = scenario.arms.map {
            ArmResult(name: $0.name, pooled: RunAccumulator(horizonDays: scenario.horizonDays),
                      forecast: ForecastTable(paidSegments: d.revenue.paidSegments,
                                             consumableShareMetric: d.consumableCeiling != nil ? Adapter.Metrics.forecastConsumableShare : nil))
        }
    }

    /// One replication of every arm (the arms share the replication's people and streams).
    mutating func simulateReplication(_ r: Int, done: inout Int, progress: (@Sendable (Int) -> Void)?) throws {
        for i in scenario.arms.indices { try simulateArm(i, replication: r, done: &done, progress: progress) }
    }

    /// Replication `r` of arm `i`, simulated and folded in.
    public mutating func simulateArm(_ i: Int, replication r: Int, done: inout Int, progress: (@Sendable (Int) -> Void)?) throws {
        let arm = scenario.arms[i]
        let acc = try simulate(arm, replication: r, people: 0..<arm.population.installs, done: &done, progress: progress)
        try fold(acc, arm: i, replication: r)
    }

    /// The people `people` of one arm and replication folded into one accumulator, person-parallel; `done` (people
    /// finished before, for `progress`) grows by their count. A broken engine invariant is thrown, lowest person first.
    func simulate(_ arm: ResolvedArm, replication r: Int, people: Range<Int>, done: inout Int,
                  progress: (@Sendable (Int) -> Void)?) throws -> RunAccumulator<Adapter> {
        let acc = try kernel.live(self, arm, r, people, done, progress)
        done += people.count
        if let v = acc.violation { throw v }
        return acc
    }

    /// The people `people` of one arm and replication lived person-parallel and folded into one accumulator: the
    /// body of the run's `LifeKernel`, called through it so that it runs specialised for the product.
    public func livePeople(_ arm: ResolvedArm, replication r: Int, people: Range<Int>, done base: Int,
                           progress: (@Sendable (Int) -> Void)?) throws -> RunAccumulator<Adapter> {
        let world = try World<Adapter>(scenario: scenario, arm: arm, replication: r)
        let horizon = scenario.horizonDays
        let processes = personProcesses
        return try PersonParallelRunner(threads: threads, blockSize: 64).run(
            people: people,
            makeAccumulator: { RunAccumulator<Adapter>(horizonDays: horizon) },
            progress: progress.map { p in { @Sendable n in p(base + n) } }
        ) { person, acc in
            var life = PersonLife(world: world, person: person, processes: processes)
            acc.add(life.run())
        }
    }

    /// The report files in the order they are written (issue 42: a list of writers, no switch over names):
    /// Habitat's own (`HabitatReports`: the neutral ones for every product, the app's for a product with an app,
    /// `revenue.csv` for one with money), then the reports of the product's own figures (`ProductMetrics.reports`).
    /// A product report that names the Habitat report it follows (`MetricsReport.after`) is written right after it.
    public static var reportFiles: [ReportWriter<Adapter>] {
        var files = HabitatReports<Adapter>.writers
        guard Adapter.hasApp else { return files }
        var end = files.count
        for report in Adapter.Metrics.reports {
            if let after = report.after, let i = files.prefix(end).firstIndex(where: { $0.name == after }) {
                // After its Habitat report and any product report already placed there.
                var j = i + 1
                while j < end, !HabitatReports<Adapter>.writers.contains(where: { $0.name == files[j].name }) { j += 1 }
                files.insert(ReportWriter(report), at: j)
                end += 1
            } else {
                files.append(ReportWriter(report))
            }
        }
        return files
    }

    /// Rows of one report file for an accumulator taken as a pool of replications (tests; `kpis.csv` needs the
    /// replications' KPI values and has none here).
    static func rows(_ file: String, _ acc: RunAccumulator<Adapter>, _ keys: ReportKeys) -> [[CSVField]] {
        guard let w = reportFiles.first(where: { $0.name == file }) else { preconditionFailure("no report \(file)") }
        return w.rows(ReportInput(run: acc, kpiValues: [], horizonDays: acc.retention.maxDay, pooled: true), keys)
    }

    /// Whether the run writes `forecast.csv`: an arm has an acquisition curve and the product has money (a free
    /// product's forecast would be installs and actives only; issue 42).
    var writesForecast: Bool {
        Adapter.Engine.descriptor.revenue.hasMoney && scenario.arms.contains { $0.population.acquisition != nil }
    }

    /// Folds a finished replication of arm `i` in: its rows go to the spool, its KPI values and forecast are kept,
    /// and it is merged into the arm's pool; the accumulator itself is then dropped.
    mutating func fold(_ acc: RunAccumulator<Adapter>, arm i: Int, replication r: Int) throws {
        let keys = ReportKeys(scenario: scenario.name, arm: arms[i].name, replication: r, product: scenario.product.rawValue)
        let values = acc.kpiValues()
        let input = ReportInput(run: acc, kpiValues: [values], horizonDays: scenario.horizonDays, pooled: false)
        for writer in Self.reportFiles {
            var table = CSVTable(header: writer.header)
            table.append(contentsOf: writer.rows(input, keys))
            try spool.append(arm: i, file: writer.name, table)
        }
        if writesForecast {
            arms[i].forecast.record(forecast: acc.forecast, revenue: acc.revenue, consumables: acc.consumables,
                                    peoplePerPerson: forecastWeight(arm: arms[i].name))
        }
        arms[i].kpiValues.append(values)
        arms[i].worldReadings.append(acc.worldMeasurements(horizonDays: scenario.horizonDays))
        arms[i].comparisons.append(acc.comparison)
        arms[i].pooled.merge(acc)
    }

    /// The 95 % half-width of each targeted KPI, per arm (nil while undefined, e.g. with one replication).
    public func precisionHalfWidths(_ target: PrecisionTarget) -> [(arm: String, kpi: String, halfWidth: Double?)] {
        ArmKPIs.halfWidths(target, arms.map { ($0.name, $0.kpiValues) })
    }

    /// Whether every targeted KPI is known to its half-width in every arm.
    func precisionReached(_ target: PrecisionTarget) -> Bool { ArmKPIs.reached(target, precisionHalfWidths(target)) }

    /// One person's timeline under an arm and replication (`habitat trace`).
    public func trace(person: Int, arm: String, replication: Int) throws -> CSVTable {
        guard let a = scenario.arm(named: arm) else {
            throw TraceError(message: "--arm: no arm named '\(arm.echoed())'; arms: \(AllowedList.text(scenario.arms.map(\.name), seeAlso: "habitat validate"))")
        }
        guard (0..<a.population.installs).contains(person) else {
            throw TraceError(message: "person \(person) is out of range; allowed 0…\(a.population.installs - 1)")
        }
        let world = try World<Adapter>(scenario: scenario, arm: a, replication: replication)
        var table = CSVTable(header: TraceFormat.header(Adapter.self))
        let box = TraceBox()
        var life = PersonLife(world: world, person: person, trace: { box.rows.append($0) }, processes: personProcesses)
        _ = life.run()
        let columns = Adapter.traceColumns
        for r in box.rows {
            var row: [CSVField] = [.text(r.time.description), .text(life.zone.localDateTime(r.time).description), .text(r.kind), .text(r.detail)]
            var next = r.product.makeIterator()
            for c in columns {
                switch c {
                case .product: row.append(next.next() ?? .text(""))
                case .person(let f): row.append(.number(r.value(f), decimals: 4))
                }
            }
            table.append(row)
        }
        return table
    }

    /// Writes every report into `report` (committed by the caller), streaming the spooled per-replication rows.
    /// `extra` writes further files (e.g. traces) before the manifest, which lists every file written.
    public func write(to report: ReportDirectory, wallSeconds: Double, checkpoint: () throws -> Void = {},
                      extra: (ReportDirectory) throws -> Void = { _ in }) throws -> [String] {
        let product = scenario.product.rawValue
        for writer in Self.reportFiles {
            try checkpoint()
            let sink = try report.open(writer.name)
            try sink.write(CSVTable(header: writer.header).headerLine)
            for i in arms.indices {
                try checkpoint()
                try writeArmRows(writer.name, arm: i, into: sink)
            }
            try report.close(sink, writer.name)
        }
        spool.removeAll()
        try checkpoint()
        if arms.count > 1 {
            var table = CSVTable(header: ExperimentComparison.header)
            for c in experiment() {
                table.append(c.row(ReportKeys(scenario: scenario.name, arm: c.arm, replication: nil, product: product)))
            }
            try report.write("experiment.csv", table: table)
        }
        try checkpoint()
        var world = CSVTable(header: WorldCheck.fileHeader)
        for (arm, rows) in worldCheck() {
            world.append(contentsOf: WorldCheck.fileRows(ReportKeys(scenario: scenario.name, arm: arm, replication: nil, product: product), rows))
        }
        try report.write("world-check.csv", table: world)
        if writesForecast {
            var table = CSVTable(header: ForecastTable.header)
            for arm in arms {
                table.append(contentsOf: arm.forecast.rows(ReportKeys(scenario: scenario.name, arm: arm.name, replication: nil, product: product)))
            }
            try report.write("forecast.csv", table: table)
        }
        try checkpoint()
        try extra(report)
        let files = report.writtenFiles.filter { $0 != "manifest.json" }
        let people = arms.reduce(0) { $0 + $1.pooled.people }
        let personDays = arms.reduce(0) { $0 + $1.pooled.personDays }
        let events = arms.reduce(0) { $0 + $1.pooled.events }
        var manifest = RunManifest(command: "run", scenarioName: scenario.name, scenarioHash: scenario.scenarioHash,
                                   resolvedScenario: scenario.yaml, seed: scenario.seed, replications: replicationsRun,
                                   people: people, personDays: personDays, eventsSimulated: events, threads: threads,
                                   wallSeconds: wallSeconds, files: files, kind: report.kind)
        manifest.mergedShards = mergedShards
        try report.write("manifest.json", text: try manifest.json())
        return files + ["manifest.json"]
    }

    /// Arm `i`'s rows of one report file: every replication's (spooled), then the pool of its replications.
    public func writeArmRows(_ file: String, arm i: Int, into sink: FileSink) throws {
        let arm = arms[i]
        guard let writer = Self.reportFiles.first(where: { $0.name == file }) else { preconditionFailure("no report \(file)") }
        try spool.copy(arm: i, file: file, into: sink)
        let keys = ReportKeys(scenario: scenario.name, arm: arm.name, replication: nil, product: scenario.product.rawValue)
        var pooled = CSVTable(header: writer.header)
        if writer.pools(replications: arm.replications) {
            let input = ReportInput(run: arm.pooled, kpiValues: arm.kpiValues, horizonDays: scenario.horizonDays, pooled: true)
            pooled.append(contentsOf: writer.rows(input, keys))
        }
        try sink.write(pooled.bodyText)
    }

    /// The world check of every arm: each published figure (`WorldFigures.all`) against this run's simulated
    /// people, pooled over replications (`world-check.csv`).
    public func worldCheck() -> [(arm: String, rows: [WorldCheckRow])] {
        arms.map { ($0.name, WorldCheck.pool($0.worldReadings)) }
    }

    /// The KPI rows pooled per arm, for the summary table printed at the end of a run.
    public func kpiSummary() -> [(arm: String, table: KPITable)] {
        arms.map { ($0.name, ArmKPIs.table($0.kpiValues)) }
    }

    /// Real installs per simulated person in an arm: the acquisition curve's total over the horizon ÷ installs (1
    /// without a curve), so the forecast is scaled to the real population.
    func forecastWeight(arm: String) -> Double {
        let a = scenario.arm(named: arm)
        let real = a?.population.acquisition?.realInstalls(start: scenario.start, days: scenario.horizonDays).reduce(0, +)
        return real.map { $0 / Double(max(1, a?.population.installs ?? 1)) } ?? 1
    }

    /// The paired comparison of every arm with the first (control) arm.
    public func experiment() -> [ExperimentComparison] { ArmKPIs.experiment(arms.map { ($0.name, $0.kpiValues) }) }
}

/// A `habitat trace` request that cannot be met.
public struct TraceError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// Collects trace rows from a life (single-threaded).
final class TraceBox { var rows: [TraceRow] = [] }
