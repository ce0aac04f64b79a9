import Foundation
import Reports
import RulesCore
import ScenarioFormat
import ScrollOffRules
import Stochastics

/// A whole Scroll Off run: every arm × replication of a resolved scenario, person-parallel, folded into the
/// contract's reports (CONTRACT.md) and written atomically with a manifest.
public struct ScrollOffRun {
    public let scenario: ResolvedScenario
    public let threads: Int

    /// The accumulators of every arm (outer) and replication (inner, 1…N).
    public internal(set) var results: [(arm: String, replications: [ScrollOffRunAccumulator])] = []

    /// Tests only: changes each world before it runs (e.g. injects an engine fault).
    var worldHook: ((inout ScrollOffWorld) -> Void)?

    public init(scenario: ResolvedScenario, threads: Int) {
        self.scenario = scenario
        self.threads = threads
    }

    /// People to simulate in all (arms × replications × installs), for progress bars.
    public var totalPeople: Int { scenario.arms.reduce(0) { $0 + $1.population.installs } * scenario.replications }

    /// Replications simulated so far (per arm): `scenario.replications`, or more under a precision target.
    public var replicationsRun: Int { results.first?.replications.count ?? 0 }

    /// Simulates everything: `replications` of every arm, then — under a precision target — one more replication of
    /// every arm at a time until each named KPI's 95 % half-width is at or below its target in every arm, or the
    /// maximum is reached. `progress` receives people done so far across the whole run.
    public mutating func simulate(progress: (@Sendable (Int) -> Void)? = nil) throws {
        results = scenario.arms.map { ($0.name, []) }
        var done = 0
        for r in 1...scenario.replications { try simulateReplication(r, done: &done, progress: progress) }
        if let target = scenario.precision {
            while replicationsRun < target.maxReplications && !precisionReached(target) {
                try simulateReplication(replicationsRun + 1, done: &done, progress: progress)
            }
        }
    }

    /// One replication of every arm (the arms share the replication's people and streams).
    mutating func simulateReplication(_ r: Int, done: inout Int, progress: (@Sendable (Int) -> Void)?) throws {
        for (i, arm) in scenario.arms.enumerated() {
            var built = try ScrollOffWorld(scenario: scenario, arm: arm, replication: r)
            worldHook?(&built)
            let world = built
            let base = done
            let horizon = scenario.horizonDays
            let acc = try PersonParallelRunner(threads: threads, blockSize: 64).run(
                people: arm.population.installs,
                makeAccumulator: { ScrollOffRunAccumulator(horizonDays: horizon) },
                progress: progress.map { p in { @Sendable n in p(base + n) } }
            ) { person, acc in
                var life = ScrollOffLife(world: world, person: person)
                acc.add(life.run())
            }
            done += arm.population.installs
            if let v = acc.violation { throw v }
            results[i].replications.append(acc)
        }
    }

    /// The 95 % half-width of each targeted KPI, per arm (nil while undefined, e.g. with one replication).
    public func precisionHalfWidths(_ target: PrecisionTarget) -> [(arm: String, kpi: String, halfWidth: Double?)] {
        results.flatMap { arm, reps in
            let table = Self.kpiTable(reps)
            return target.halfWidths.keys.sorted().map { (arm, $0, table.summary($0).confidenceInterval95()?.halfWidth) }
        }
    }

    /// Whether every targeted KPI is known to its half-width in every arm.
    func precisionReached(_ target: PrecisionTarget) -> Bool {
        precisionHalfWidths(target).allSatisfy { h in h.halfWidth.map { $0 <= target.halfWidths[h.kpi]! } ?? false }
    }

    /// One person's timeline under an arm and replication (`habitat trace`).
    public func trace(person: Int, arm: String, replication: Int) throws -> CSVTable {
        guard let a = scenario.arm(named: arm) else {
            throw TraceError(message: "no arm named '\(arm)'; arms: \(scenario.arms.map(\.name).joined(separator: ", "))")
        }
        guard (0..<a.population.installs).contains(person) else {
            throw TraceError(message: "person \(person) is out of range; allowed 0…\(a.population.installs - 1)")
        }
        var world = try ScrollOffWorld(scenario: scenario, arm: a, replication: replication)
        worldHook?(&world)
        var table = CSVTable(header: ["time_utc", "local_time", "kind", "detail", "wallet_seconds", "scrolling_habit", "resist_habit",
                                      "self_efficacy", "plan", "frustration", "perceived_value"])
        let box = TraceBox()
        var life = ScrollOffLife(world: world, person: person, trace: { box.rows.append($0) })
        _ = life.run()
        for r in box.rows {
            table.append([.text(r.time.description), .text(life.zone.localDateTime(r.time).description), .text(r.kind), .text(r.detail),
                          .integer(r.walletSeconds), .number(r.scrollingHabit, decimals: 4), .number(r.resistHabit, decimals: 4),
                          .number(r.selfEfficacy, decimals: 4), .text(r.plan), .number(r.frustration, decimals: 4),
                          .number(r.perceivedValue, decimals: 4)])
        }
        return table
    }

    /// Writes every report into `dir` atomically (a failed or interrupted write leaves the previous report).
    public func write(to report: ReportDirectory, wallSeconds: Double) throws -> [String] {
        let product = scenario.product.rawValue
        var funnel = CSVTable(header: FunnelAccumulator.header)
        var retention = CSVTable(header: RetentionAccumulator.header)
        var tokens = CSVTable(header: TokenShareAccumulator.header)
        var battery = CSVTable(header: BatteryBudgetAccumulator.header)
        var energy = CSVTable(header: BatteryBudgetAccumulator.energyHeader)
        var revenue = CSVTable(header: RevenueAccumulator.header)
        var kpis = CSVTable(header: KPITable.header)
        var armValues: [ArmKPIValues] = []
        let stages = ScrollOffFunnel.stages.map {
            FunnelStageInfo(order: $0.order, id: $0.id, name: $0.name, window: $0.windowText, targetMin: $0.targetMin, targetMax: $0.targetMax)
        }
        let threshold = 0.20   // seed 000 §5.2: tokens stay under 20 % of revenue
        var people = 0, personDays = 0, events = 0
        for (arm, reps) in results {
            var pooled = ScrollOffRunAccumulator(horizonDays: scenario.horizonDays)
            let values = reps.map { $0.kpiValues() }   // once per replication: rows, pooled table and pairs
            for (i, acc) in reps.enumerated() {
                let keys = ReportKeys(scenario: scenario.name, arm: arm, replication: i + 1, product: product)
                funnel.append(contentsOf: acc.funnel.rows(keys, stages: stages))
                retention.append(contentsOf: acc.retention.rows(keys))
                tokens.append(contentsOf: acc.tokens.rows(keys, threshold: threshold))
                battery.append(contentsOf: acc.battery.rows(keys))
                energy.append(contentsOf: acc.battery.energyRows(keys))
                revenue.append(contentsOf: acc.revenue.rows(keys))
                kpis.append(contentsOf: KPITable.replicationRows(values[i], keys))
                pooled.merge(acc)
                people += acc.people; personDays += acc.personDays; events += acc.events
            }
            if reps.count > 1 {
                let keys = ReportKeys(scenario: scenario.name, arm: arm, replication: nil, product: product)
                funnel.append(contentsOf: pooled.funnel.rows(keys, stages: stages))
                retention.append(contentsOf: pooled.retention.rows(keys))
                tokens.append(contentsOf: pooled.tokens.rows(keys, threshold: threshold))
                battery.append(contentsOf: pooled.battery.rows(keys))
                revenue.append(contentsOf: pooled.revenue.rows(keys))
            }
            kpis.append(contentsOf: Self.kpiTable(values).rows(ReportKeys(scenario: scenario.name, arm: arm, replication: nil, product: product)))
            armValues.append(Self.armValues(arm, values))
        }
        var forecast: CSVTable?
        if scenario.arms.contains(where: { $0.population.acquisition != nil }) {
            var table = CSVTable(header: ForecastTable.header)
            for (arm, reps) in results {
                let keys = ReportKeys(scenario: scenario.name, arm: arm, replication: nil, product: product)
                table.append(contentsOf: forecastTable(arm: arm, reps).rows(keys))
            }
            forecast = table
        }
        var experiment: CSVTable?
        if armValues.count > 1 {
            var table = CSVTable(header: ExperimentComparison.header)
            for c in Self.comparisons(armValues) {
                table.append(c.row(ReportKeys(scenario: scenario.name, arm: c.arm, replication: nil, product: product)))
            }
            experiment = table
        }
        var files: [(String, CSVTable)] = [
            ("activation-funnel.csv", funnel), ("retention.csv", retention), ("token-revenue-share.csv", tokens),
            ("battery-budget.csv", battery), ("kpis.csv", kpis), ("revenue.csv", revenue), ("energy-by-effect.csv", energy),
        ]
        if let experiment { files.append(("experiment.csv", experiment)) }
        if let forecast { files.append(("forecast.csv", forecast)) }
        for (name, t) in files { try report.write(name, table: t) }
        let manifest = RunManifest(command: "run", scenarioName: scenario.name, scenarioHash: scenario.scenarioHash,
                                   resolvedScenario: scenario.yaml, seed: scenario.seed, replications: replicationsRun,
                                   people: people, personDays: personDays, eventsSimulated: events, threads: threads,
                                   wallSeconds: wallSeconds, files: files.map(\.0))
        try report.write("manifest.json", text: try manifest.json())
        return files.map(\.0) + ["manifest.json"]
    }

    /// The KPI rows pooled per arm, for the summary table printed at the end of a run.
    public func kpiSummary() -> [(arm: String, table: KPITable)] {
        results.map { ($0.arm, Self.kpiTable($0.replications)) }
    }

    /// The month-by-month forecast of an arm, scaled to the real population of its acquisition curve.
    public func forecastTable(arm: String, _ replications: [ScrollOffRunAccumulator]) -> ForecastTable {
        var t = ForecastTable()
        let a = scenario.arm(named: arm)
        let real = a?.population.acquisition?.realInstalls(start: scenario.start, days: scenario.horizonDays).reduce(0, +)
        let weight = real.map { $0 / Double(max(1, a?.population.installs ?? 1)) } ?? 1
        for acc in replications { t.record(forecast: acc.forecast, revenue: acc.revenue, tokens: acc.tokens, peoplePerPerson: weight) }
        return t
    }

    /// Every KPI of an arm per replication, aligned for paired comparison (`experiment.csv`).
    static func armValues(_ arm: String, _ perReplication: [[(Reports.KPIDefinition, Double)]]) -> ArmKPIValues {
        var v = ArmKPIValues(arm: arm)
        for values in perReplication { v.appendReplication(values) }
        return v
    }

    /// Every arm after the first against the first (control) arm.
    static func comparisons(_ arms: [ArmKPIValues]) -> [ExperimentComparison] {
        guard let control = arms.first else { return [] }
        return arms.dropFirst().flatMap { ArmKPIValues.compare(control: control, arm: $0) }
    }

    /// The paired comparison of every arm with the first (control) arm.
    public func experiment() -> [ExperimentComparison] {
        Self.comparisons(results.map { Self.armValues($0.arm, $0.replications.map { $0.kpiValues() }) })
    }

    /// Every KPI of an arm, one value per replication, pooled by `KPITable`.
    static func kpiTable(_ replications: [ScrollOffRunAccumulator]) -> KPITable { kpiTable(replications.map { $0.kpiValues() }) }

    /// The same from values already computed, one list per replication.
    static func kpiTable(_ perReplication: [[(Reports.KPIDefinition, Double)]]) -> KPITable {
        var t = KPITable()
        for values in perReplication { for (d, v) in values { t.record(d, v) } }
        return t
    }
}

/// A `habitat trace` request that cannot be met.
public struct TraceError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// Collects trace rows from a life (single-threaded).
final class TraceBox { var rows: [TraceRow] = [] }
