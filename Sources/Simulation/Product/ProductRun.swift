import Behavior
import Foundation
import Reports
import RulesCore
import ScenarioFormat

/// A run of some product, as the commands see it: one existential per command, never per event.
public protocol ProductRun {
    var scenario: ResolvedScenario { get }
    var threads: Int { get }
    /// People to simulate in all (arms × replications × installs), for progress bars.
    var totalPeople: Int { get }
    /// Replications simulated so far (per arm).
    var replicationsRun: Int { get }
    /// Simulates every arm × replication (more under a precision target).
    mutating func simulate(progress: (@Sendable (Int) -> Void)?) throws
    /// Writes every report into `report` and returns the files written.
    func write(to report: ReportDirectory, wallSeconds: Double, checkpoint: () throws -> Void,
               extra: (ReportDirectory) throws -> Void) throws -> [String]
    /// The KPI rows pooled per arm.
    func kpiSummary() -> [(arm: String, table: KPITable)]
    /// The paired comparison of every arm with the first (control) arm.
    func experiment() -> [ExperimentComparison]
    /// The world check of every arm (`world-check.csv`): published figures against the simulated people.
    func worldCheck() -> [(arm: String, rows: [WorldCheckRow])]
    /// The 95 % half-width of each targeted KPI, per arm.
    func precisionHalfWidths(_ target: PrecisionTarget) -> [(arm: String, kpi: String, halfWidth: Double?)]
    /// One person's timeline (`habitat trace`).
    func trace(person: Int, arm: String, replication: Int) throws -> CSVTable
    /// People, person-days and events simulated, over every arm.
    var totals: (people: Int, personDays: Int, events: Int) { get }
    /// Simulates one shard, handing `shard-state.jsonl`'s lines to `emit` (`SimulationRun+Shard`).
    func simulateShard(_ shard: ShardSpec, emit: (Data) throws -> Void,
                       progress: (@Sendable (Int) -> Void)?) throws -> (people: Int, personDays: Int, events: Int)
    /// People one shard simulates in all.
    func shardPeople(_ shard: ShardSpec) -> Int
    /// Folds checked shards into the state `simulate` would have reached.
    mutating func merge(_ shards: ShardSet, progress: (@Sendable (Int) -> Void)?) throws

    // MARK: What a run of several products composes of each product's part (`MultiProductRun`)

    /// The report files the run writes from its arms' accumulators, with their headers, in order.
    var reportFileList: [(name: String, header: [String])] { get }
    /// Empties the spool and gives every arm a fresh result, before arms are simulated one by one (`simulateArm`).
    mutating func resetArms()
    /// Replication `r` of arm `i`, simulated and folded in.
    mutating func simulateArm(_ i: Int, replication r: Int, done: inout Int, progress: (@Sendable (Int) -> Void)?) throws
    /// Arm `i`'s rows of one of `reportFileList`: every replication's, then their pool.
    func writeArmRows(_ file: String, arm i: Int, into sink: FileSink) throws
    /// Deletes the rows spooled for writing.
    func removeSpool()
    /// Each arm's readings for comparing products (`product-comparison.csv`), KPI values per replication.
    var armReadings: [ArmReadings] { get }
    /// Arm `i`'s rows of `forecast.csv`, keyed with `keys`; nil for a product with no money, which has no forecast
    /// (issue 42).
    func forecastRows(arm i: Int, _ keys: ReportKeys) -> [[CSVField]]?
    /// The shard's people of arm `i` in replication `r` as one record line, labelled arm `recordArm`.
    func shardRecord(arm i: Int, recordArm: Int, replication r: Int, shard: ShardSpec, done: inout Int,
                     progress: (@Sendable (Int) -> Void)?) throws -> (line: Data, totals: (people: Int, personDays: Int, events: Int))
    /// Empties the run before shards are folded in.
    mutating func prepareMerge(_ shards: ShardSet)
    /// Folds the shards' next records (arm `recordArm`, replication `r`) into arm `i`.
    mutating func mergeArm(_ i: Int, recordArm: Int, replication r: Int, shards: ShardSet) throws
}

extension SimulationRun: ProductRun {
    public var totals: (people: Int, personDays: Int, events: Int) {
        arms.reduce((0, 0, 0)) { ($0.0 + $1.pooled.people, $0.1 + $1.pooled.personDays, $0.2 + $1.pooled.events) }
    }

    public var reportFileList: [(name: String, header: [String])] { Self.reportFiles.map { ($0.name, $0.header) } }

    public func removeSpool() { spool.removeAll() }

    public var armReadings: [ArmReadings] {
        arms.map {
            ArmReadings(name: $0.name, product: scenario.product, hasApp: Adapter.hasApp, kpiValues: $0.kpiValues,
                        comparisons: $0.comparisons, claims: Adapter.Engine.descriptor.claims)
        }
    }

    public func forecastRows(arm i: Int, _ keys: ReportKeys) -> [[CSVField]]? {
        Adapter.Engine.descriptor.revenue.hasMoney ? arms[i].forecast.rows(keys) : nil
    }
}

/// The hot path of a product's run: a range of people of one arm and replication lived person-parallel and folded
/// into one accumulator. Made where the product is registered (`RegisteredProduct.init`), with the adapter a
/// concrete type, so the compiler specialises the runner, the life and the accumulators for the product there; the
/// generic run calls it once per block of people (docs/ARCHITECTURE.md, "Speed across modules").
public struct LifeKernel<Adapter: ProductAdapter>: Sendable {
    /// Lives `people` of `arm` in replication `replication` of `run` (`SimulationRun.livePeople`).
    public let live: @Sendable (_ run: SimulationRun<Adapter>, _ arm: ResolvedArm, _ replication: Int, _ people: Range<Int>,
                                _ done: Int, _ progress: (@Sendable (Int) -> Void)?) throws -> RunAccumulator<Adapter>

    /// The generic code, specialised by the compiler wherever this is read with a concrete adapter (the registry);
    /// read from generic code (a test's `SimulationRun<A>`), it runs unspecialised.
    @inlinable
    public static var specialised: LifeKernel<Adapter> {
        LifeKernel(live: { run, arm, r, people, done, progress in
            try run.livePeople(arm, replication: r, people: people, done: done, progress: progress)
        })
    }

    @inlinable
    public init(live: @escaping @Sendable (SimulationRun<Adapter>, ResolvedArm, Int, Range<Int>, Int, (@Sendable (Int) -> Void)?) throws -> RunAccumulator<Adapter>) {
        self.live = live
    }
}

/// One product as the registry holds it: its adapter type and the run made for it, whose per-person hot path is
/// specialised for the adapter (`LifeKernel`).
public struct RegisteredProduct: Sendable {
    /// The product's adapter (its person side); its engine and descriptor come with it.
    public let adapter: any ProductAdapter.Type
    /// The product's descriptor: plain data (parameters, funnel, KPIs, budgets, plans, reports).
    public let descriptor: ProductDescriptor
    /// The name of the adapter type, as the compiler spells it in a specialisation (the speed gate looks for it).
    public let adapterTypeName: String
    /// The product's own whole scenario (`ProductAdapter.defaultScenario`), if it has one.
    public let defaultScenario: String?
    let makeRun: @Sendable (ResolvedScenario, Int, URL?, String, [any PersonProcess.Type]?) -> any ProductRun

    /// Registers `adapter`; call it with the concrete type, once, in the registry.
    @inlinable
    public init<A: ProductAdapter>(_ adapter: A.Type) {
        let kernel = LifeKernel<A>.specialised
        self.init(adapter: adapter, makeRun: {
            SimulationRun<A>(scenario: $0, threads: $1, spoolFolder: $2, spoolPrefix: $3, kernel: kernel, processes: $4)
        })
    }

    @usableFromInline
    init<A: ProductAdapter>(adapter: A.Type, makeRun: @escaping @Sendable (ResolvedScenario, Int, URL?, String, [any PersonProcess.Type]?) -> any ProductRun) {
        self.adapter = adapter
        self.descriptor = A.Engine.descriptor
        self.adapterTypeName = String(describing: A.self)
        self.defaultScenario = A.defaultScenario
        self.makeRun = makeRun
    }

    /// A run of `scenario` (whose every arm must be of this product); `spoolPrefix` sets its spool files apart from
    /// another product's in the same folder; `processes`, the person processes besides the standard ones (default:
    /// the product's own; the registry passes every registered product's, `Products.personProcesses`).
    public func run(_ scenario: ResolvedScenario, threads: Int, spoolFolder: URL? = nil, spoolPrefix: String = "",
                    processes: [any PersonProcess.Type]? = nil) -> any ProductRun {
        makeRun(scenario, threads, spoolFolder, spoolPrefix, processes)
    }
}
