import Behavior
import EarnedAccessRules
import Foundation
import Reports
import RulesCore
import ScenarioFormat
import ScrollOffRules

/// The one place that decides, per product, how Habitat simulates it (docs/DESIGN.md: "one exhaustive switch over the
/// product is the only dispatch"). Every command — `run`, `trace`, `check`, `validate`, `compare`, `bench run` —
/// goes through `adapter(for:)`; a product whose engine is not built yet is refused with `ProductWithoutEngine`.
public enum Products {
    /// The product's adapter, nil while Habitat has no rule engine for it. The only `switch` over `Product`.
    public static func adapter(for product: Product) -> (any ProductAdapter.Type)? {
        switch product {
        case .scrollOff: return ScrollOffProduct.self
        case .earnedAccess: return EarnedAccessProduct.self
        case .nudge, .lazuri, .clavis: return nil
        }
    }

    /// The product's descriptor, nil without an engine.
    public static func descriptor(_ product: Product) -> ProductDescriptor? { adapter(for: product)?.descriptor }

    /// Products Habitat can simulate, in seed order.
    public static var withEngines: [Product] { Product.allCases.filter { adapter(for: $0) != nil } }

    /// The product's adapter, or the error every command reports for a product without one (exit 2).
    public static func requireAdapter(_ product: Product) throws(ProductWithoutEngine) -> any ProductAdapter.Type {
        guard let a = adapter(for: product) else { throw ProductWithoutEngine(product: product) }
        return a
    }

    /// A run of the scenario's product (one existential per run; everything inside is specialised).
    public static func run(_ scenario: ResolvedScenario, threads: Int, spoolFolder: URL? = nil) throws(ProductWithoutEngine) -> any ProductRun {
        func make<A: ProductAdapter>(_: A.Type) -> any ProductRun { SimulationRun<A>(scenario: scenario, threads: threads, spoolFolder: spoolFolder) }
        return make(try requireAdapter(scenario.product))
    }

    /// Everything scenario validation checks names against: the rule-parameter catalogue and the KPI ids
    /// `precision.kpis` may name of every product with an engine, and the personas (with the parameters each
    /// accepts and their ranges) and device models of the behaviour and energy models, and the behaviour model's
    /// constants (`BehaviorCatalogue`, the `behavior:` blocks).
    public static var catalogues: ProductCatalogues {
        var c = ProductCatalogues()
        for p in Product.allCases {
            if let d = descriptor(p) { c.register(p, d.parameters) }
            if let ids = kpiIDs(p) { c.registerKPIs(p, ids) }
        }
        c.population = population
        c.behavior = BehaviorCatalogue.parameters
        return c
    }

    /// The behaviour model's personas and overridable parameters (`Persona.applying(overrides:)` accepts exactly
    /// these names; drawn values are clamped to the ranges) and the energy model's devices.
    public static var population: PopulationCatalogue {
        let parameters = PersonaParameter.allCases.map { PopulationCatalogue.Parameter(name: $0.rawValue, range: $0.validRange) }
        return PopulationCatalogue(personas: PersonaCatalog.builtIn.mapValues { _ in parameters }, devices: DeviceCatalog.ids)
    }

    /// The header record of the product's `habitat trace` timelines (by which an earlier trace file is
    /// recognised), nil without an engine.
    public static func traceHeaderLine(_ product: Product) -> String? {
        func line<A: ProductAdapter>(_ a: A.Type) -> String { TraceFormat.headerLine(a) }
        return adapter(for: product).map { line($0) }
    }

    /// Every KPI id a run of the product reports (its own, then Habitat's), nil without an engine.
    public static func kpiIDs(_ product: Product) -> [String]? {
        func ids<A: ProductAdapter>(_: A.Type) -> [String] { RunAccumulator<A>.kpiIDs }
        return adapter(for: product).map { ids($0) }
    }
}

extension ProductAdapter {
    /// The product as data (its engine's descriptor).
    public static var descriptor: ProductDescriptor { Engine.descriptor }
}

/// A scenario names a product whose rule engine this version does not have.
public struct ProductWithoutEngine: Error, CustomStringConvertible {
    public let product: Product
    public var description: String {
        "product '\(product.rawValue)' has no rule engine in this version; products with engines: "
            + Products.withEngines.map(\.rawValue).joined(separator: ", ")
    }
}

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
}

extension SimulationRun: ProductRun {
    public var totals: (people: Int, personDays: Int, events: Int) {
        arms.reduce((0, 0, 0)) { ($0.0 + $1.pooled.people, $0.1 + $1.pooled.personDays, $0.2 + $1.pooled.events) }
    }
}
