import Foundation
import Reports
import RulesCore
import ScenarioFormat

/// A run whose arms are different products (issue 28): each product's arms run in that product's own specialised
/// run (a `part`, over a scenario holding only its arms), and this run puts them back in the scenario's order —
/// simulating replication by replication, writing every report with each arm's rows in place, comparing arms with
/// the first (`experiment.csv`, on the KPIs they share) and the products on the same people
/// (`product-comparison.csv`), sharding and merging with the arms numbered across products. Every person's streams
/// are keyed without arm or product, so the arms meet the same people: a product comparison is paired like a price
/// test.
public struct MultiProductRun: ProductRun {
    /// One product's arms, run by that product.
    public struct Part {
        public var product: Product
        /// The product's run over a scenario holding only its arms (in scenario order).
        public var run: any ProductRun
        /// The places of its arms in the whole scenario, in its run's order.
        public var arms: [Int]

        public init(product: Product, run: any ProductRun, arms: [Int]) {
            self.product = product
            self.run = run
            self.arms = arms
        }
    }

    public let scenario: ResolvedScenario
    public let threads: Int
    var parts: [Part]
    /// Arm (scenario order) → (part, arm within the part).
    let owner: [(part: Int, arm: Int)]
    /// The number of shards the run was merged from, nil for a run simulated whole.
    var mergedShards: Int?
    var replications = 0

    /// A run of `scenario` from `parts`, which together hold each of its arms once.
    public init(scenario: ResolvedScenario, threads: Int, parts: [Part]) {
        self.scenario = scenario
        self.threads = threads
        self.parts = parts
        var owner = [(part: Int, arm: Int)](repeating: (-1, -1), count: scenario.arms.count)
        for (p, part) in parts.enumerated() {
            for (j, i) in part.arms.enumerated() { owner[i] = (p, j) }
        }
        precondition(owner.allSatisfy { $0.part >= 0 }, "every arm belongs to one product's part")
        self.owner = owner
    }

    public var totalPeople: Int { scenario.arms.reduce(0) { $0 + $1.population.installs } * scenario.replications }
    public var replicationsRun: Int { replications }
    public var totals: (people: Int, personDays: Int, events: Int) {
        parts.reduce((0, 0, 0)) { let t = $1.run.totals; return ($0.0 + t.people, $0.1 + t.personDays, $0.2 + t.events) }
    }

    // MARK: Simulating

    public mutating func simulate(progress: (@Sendable (Int) -> Void)?) throws {
        var done = 0
        resetArms()
        for r in 1...scenario.replications { try simulateReplication(r, done: &done, progress: progress) }
        if let target = scenario.precision {
            while replications < target.maxReplications && !precisionReached(target) {
                try simulateReplication(replications + 1, done: &done, progress: progress)
            }
        }
    }

    /// Replication `r` of every arm, in scenario order.
    mutating func simulateReplication(_ r: Int, done: inout Int, progress: (@Sendable (Int) -> Void)?) throws {
        for i in scenario.arms.indices {
            let (p, j) = owner[i]
            try parts[p].run.simulateArm(j, replication: r, done: &done, progress: progress)
        }
        replications = r
    }

    func precisionReached(_ target: PrecisionTarget) -> Bool { ArmKPIs.reached(target, precisionHalfWidths(target)) }

    public func precisionHalfWidths(_ target: PrecisionTarget) -> [(arm: String, kpi: String, halfWidth: Double?)] {
        ArmKPIs.halfWidths(target, readings.map { ($0.name, $0.kpiValues) })
    }

    // MARK: Readings

    /// Every arm's readings, in scenario order.
    var readings: [ArmReadings] {
        let perPart = parts.map(\.run.armReadings)
        return owner.map { perPart[$0.part][$0.arm] }
    }

    public var armReadings: [ArmReadings] { readings }

    public func kpiSummary() -> [(arm: String, table: KPITable)] { readings.map { ($0.name, ArmKPIs.table($0.kpiValues)) } }

    /// Every arm after the first against the first, on the KPIs both report.
    public func experiment() -> [ExperimentComparison] { ArmKPIs.experiment(readings.map { ($0.name, $0.kpiValues) }) }

    public func worldCheck() -> [(arm: String, rows: [WorldCheckRow])] {
        let perPart = parts.map { Dictionary(uniqueKeysWithValues: $0.run.worldCheck().map { ($0.arm, $0.rows) }) }
        return scenario.arms.indices.map { i in (scenario.arms[i].name, perPart[owner[i].part][scenario.arms[i].name] ?? []) }
    }

    public func trace(person: Int, arm: String, replication: Int) throws -> CSVTable {
        guard let i = scenario.arms.firstIndex(where: { $0.name == arm }) else {
            throw TraceError(message: "--arm: no arm named '\(arm.echoed())'; arms: \(AllowedList.text(scenario.arms.map(\.name), seeAlso: "habitat validate"))")
        }
        return try parts[owner[i].part].run.trace(person: person, arm: arm, replication: replication)
    }

    // MARK: Writing

    /// Every product's report files, in the order each product's run writes them (`ReportOrder.merge`): Habitat's
    /// in their order, each product's own in its place, then in product order. A file only some products write holds
    /// only their arms' rows.
    public var reportFileList: [(name: String, header: [String])] {
        var headers: [String: [String]] = [:]
        for part in parts { for f in part.run.reportFileList where headers[f.name] == nil { headers[f.name] = f.header } }
        return ReportOrder.merge(parts.map { $0.run.reportFileList.map(\.name) }).map { ($0, headers[$0]!) }
    }

    public func write(to report: ReportDirectory, wallSeconds: Double, checkpoint: () throws -> Void,
                      extra: (ReportDirectory) throws -> Void) throws -> [String] {
        for (file, header) in reportFileList {
            try checkpoint()
            let sink = try report.open(file)
            try sink.write(CSVTable(header: header).headerLine)
            for i in scenario.arms.indices {
                try checkpoint()
                let (p, j) = owner[i]
                guard parts[p].run.reportFileList.contains(where: { $0.name == file }) else { continue }
                try parts[p].run.writeArmRows(file, arm: j, into: sink)
            }
            try report.close(sink, file)
        }
        for part in parts { part.run.removeSpool() }
        try checkpoint()
        func keys(_ i: Int) -> ReportKeys {
            ReportKeys(scenario: scenario.name, arm: scenario.arms[i].name, replication: nil, product: scenario.product(of: scenario.arms[i]).rawValue)
        }
        if scenario.arms.count > 1 {
            var table = CSVTable(header: ExperimentComparison.header)
            let index = Dictionary(uniqueKeysWithValues: scenario.arms.enumerated().map { ($1.name, $0) })
            for c in experiment() { table.append(c.row(keys(index[c.arm]!))) }
            try report.write("experiment.csv", table: table)
        }
        try checkpoint()
        var world = CSVTable(header: WorldCheck.fileHeader)
        for (i, (_, rows)) in worldCheck().enumerated() { world.append(contentsOf: WorldCheck.fileRows(keys(i), rows)) }
        try report.write("world-check.csv", table: world)
        // forecast.csv holds the arms of the products with money only (a free arm — `none` — has no rows, as a file
        // only some products write holds only their arms); none at all, no file (issue 42).
        let acquisition = scenario.arms.contains { $0.population.acquisition != nil }
        let forecasts = acquisition ? scenario.arms.indices.compactMap { i in parts[owner[i].part].run.forecastRows(arm: owner[i].arm, keys(i)) } : []
        if !forecasts.isEmpty {
            var table = CSVTable(header: ForecastTable.header)
            for rows in forecasts { table.append(contentsOf: rows) }
            try report.write("forecast.csv", table: table)
        }
        if parts.count > 1 {   // the arms differ in product
            var comparison = CSVTable(header: ProductComparison.header)
            comparison.append(contentsOf: ProductComparison.rows(scenario: scenario.name, arms: readings))
            try report.write("product-comparison.csv", table: comparison)
        }
        try checkpoint()
        try extra(report)
        let files = report.writtenFiles.filter { $0 != "manifest.json" }
        let t = totals
        var manifest = RunManifest(command: "run", scenarioName: scenario.name, scenarioHash: scenario.scenarioHash,
                                   resolvedScenario: scenario.yaml, seed: scenario.seed, replications: replicationsRun,
                                   people: t.people, personDays: t.personDays, eventsSimulated: t.events, threads: threads,
                                   wallSeconds: wallSeconds, files: files, kind: report.kind)
        manifest.mergedShards = mergedShards
        try report.write("manifest.json", text: try manifest.json())
        return files + ["manifest.json"]
    }

    // MARK: Parts of a run of several products (a run of runs is not nested)

    public mutating func simulateArm(_ i: Int, replication r: Int, done: inout Int, progress: (@Sendable (Int) -> Void)?) throws {
        let (p, j) = owner[i]
        try parts[p].run.simulateArm(j, replication: r, done: &done, progress: progress)
    }

    public func writeArmRows(_ file: String, arm i: Int, into sink: FileSink) throws {
        let (p, j) = owner[i]
        try parts[p].run.writeArmRows(file, arm: j, into: sink)
    }

    public func removeSpool() { for part in parts { part.run.removeSpool() } }

    public mutating func resetArms() {
        for p in parts.indices { parts[p].run.resetArms() }
        replications = 0
    }

    public func forecastRows(arm i: Int, _ keys: ReportKeys) -> [[CSVField]]? {
        let (p, j) = owner[i]
        return parts[p].run.forecastRows(arm: j, keys)
    }

    // MARK: Shards

    /// The shard header's `product`: the products joined with `+`, in arm order.
    var productLabel: String { scenario.products.map(\.rawValue).joined(separator: "+") }

    func shardHeader(_ shard: ShardSpec) -> ShardStateHeader { ShardStateHeader(scenario: scenario, product: productLabel, shard: shard) }

    public func simulateShard(_ shard: ShardSpec, emit: (Data) throws -> Void,
                              progress: (@Sendable (Int) -> Void)?) throws -> (people: Int, personDays: Int, events: Int) {
        try emitShard(shard, header: shardHeader(shard), emit: emit, progress: progress)
    }

    public func shardRecord(arm i: Int, recordArm: Int, replication r: Int, shard: ShardSpec, done: inout Int,
                            progress: (@Sendable (Int) -> Void)?) throws -> (line: Data, totals: (people: Int, personDays: Int, events: Int)) {
        let (p, j) = owner[i]
        return try parts[p].run.shardRecord(arm: j, recordArm: recordArm, replication: r, shard: shard, done: &done, progress: progress)
    }

    public func shardPeople(_ shard: ShardSpec) -> Int { shard.peopleInAll(of: scenario) }

    public mutating func prepareMerge(_ shards: ShardSet) {
        for p in parts.indices { parts[p].run.prepareMerge(shards) }
        mergedShards = shards.count
        replications = 0
    }

    public mutating func mergeArm(_ i: Int, recordArm: Int, replication r: Int, shards: ShardSet) throws {
        let (p, j) = owner[i]
        try parts[p].run.mergeArm(j, recordArm: recordArm, replication: r, shards: shards)
    }

    public mutating func merge(_ shards: ShardSet, progress: (@Sendable (Int) -> Void)?) throws {
        try shards.requireHeaders(like: shardHeader(ShardSpec(index: 1, count: shards.count)!), scenarioName: scenario.name)
        try foldShards(shards, progress: progress)
        replications = scenario.replications
    }
}

