import Behavior
import ClavisLife
import EarnedAccessLife
import EarnedAccessRules
import Foundation
import LazuriLife
import NoAppLife
import NudgeLife
import Reports
import RulesCore
import ScenarioFormat
import ScrollOffLife
import ScrollOffRules
import Simulation
import Stochastics

/// The one list of the products Habitat simulates: each product's adapter registered once, here. Every command —
/// `run`, `trace`, `check`, `validate`, `compare`, `list`, `bench run` — finds a product through it, its run is
/// specialised for the product because it is made here (`RegisteredProduct`), and the scenario catalogues, KPI ids
/// and trace headers derive from it. A product whose engine is not built yet is refused with `ProductWithoutEngine`.
public enum Products {
    /// The products with engines, in seed order. Adding a product is adding its line (docs/ARCHITECTURE.md, "How to
    /// add a product").
    public static let registered: [RegisteredProduct] = [
        RegisteredProduct(ScrollOffAdapter<ScrollOffEngine>.self),
        RegisteredProduct(NudgeAdapter.self),
        RegisteredProduct(EarnedAccessAdapter.self),
        RegisteredProduct(LazuriAdapter.self),
        RegisteredProduct(ClavisAdapter.self),
        RegisteredProduct(NoAppAdapter.self),
    ]

    /// The products whose seeds Habitat holds but whose engines are not built yet, in seed order: what `habitat list`
    /// shows of them and what a scenario naming one is told (exit 2). Each moves to `registered` when built.
    public static let planned: [ProductListing] = []

    /// Every product, with an engine or planned, in seed order (`habitat list`, scenario validation).
    public static var all: [ProductListing] {
        let built = registered.map {
            ProductListing(id: Product(rawValue: $0.descriptor.id), name: $0.descriptor.name, seedFile: $0.descriptor.seedFile,
                           summary: $0.descriptor.summary, hasEngine: true)
        }
        return (built + planned).sorted { $0.seedFile < $1.seedFile }
    }

    /// The product a scenario that names none runs: the first registered.
    public static var defaultProduct: Product { Product(rawValue: registered[0].descriptor.id) }

    /// The registration of `product`, nil while Habitat has no rule engine for it.
    public static func registration(for product: Product) -> RegisteredProduct? {
        registered.first { $0.descriptor.id == product.rawValue }
    }

    /// The product's adapter, nil while Habitat has no rule engine for it.
    public static func adapter(for product: Product) -> (any ProductAdapter.Type)? { registration(for: product)?.adapter }

    /// The product's descriptor, nil without an engine.
    public static func descriptor(_ product: Product) -> ProductDescriptor? { adapter(for: product)?.descriptor }

    /// Products Habitat can simulate, in seed order.
    public static var withEngines: [Product] { all.filter(\.hasEngine).map(\.id) }

    /// The product's adapter, or the error every command reports for a product without one (exit 2).
    public static func requireAdapter(_ product: Product) throws(ProductWithoutEngine) -> any ProductAdapter.Type {
        guard let a = adapter(for: product) else { throw ProductWithoutEngine(product: product) }
        return a
    }

    /// A run of the scenario (one existential per run; the per-person hot path is specialised). A scenario whose
    /// arms are different products runs each product's arms in that product's own run, put back together in the
    /// scenario's order (`MultiProductRun`).
    public static func run(_ scenario: ResolvedScenario, threads: Int, spoolFolder: URL? = nil) throws(ProductWithoutEngine) -> any ProductRun {
        // One product's run unless some arm is of a product other than the scenario's (then one run per product,
        // even when every arm is of one other product: the top-level rules and the scenario's text stay its own).
        guard scenario.products != [scenario.product] else {
            guard let r = registration(for: scenario.product) else { throw ProductWithoutEngine(product: scenario.product) }
            return r.run(scenario, threads: threads, spoolFolder: spoolFolder, processes: personProcesses)
        }
        var parts: [MultiProductRun.Part] = []
        for (k, product) in scenario.products.enumerated() {
            guard let r = registration(for: product) else { throw ProductWithoutEngine(product: product) }
            let indices = scenario.arms.indices.filter { scenario.product(of: scenario.arms[$0]) == product }
            var part = scenario
            part.product = product
            part.arms = indices.map { var a = scenario.arms[$0]; a.product = nil; return a }
            parts.append(MultiProductRun.Part(product: product, run: r.run(part, threads: threads, spoolFolder: spoolFolder, spoolPrefix: "p\(k)-", processes: personProcesses),
                                              arms: indices))
        }
        return MultiProductRun(scenario: scenario, threads: threads, parts: parts)
    }

    /// The person processes the registered products bring, besides `PersonProcesses.standard`, in registry order
    /// (`ProductAdapter.personProcesses`, issue 42). A process is the person's: every run gives every person all of
    /// them, whatever product (or none) they meet, so a product's process keeps arms paired and a product that never
    /// reads it lives it unaided. Two processes drawing from one stream stop here (a test holds the registry to it).
    public static let personProcesses: [any PersonProcess.Type] = {
        do {
            return try assembledPersonProcesses(registered)
        } catch {
            preconditionFailure("\(error)")
        }
    }()

    /// The processes `products` bring, in order, each once; a stream drawn by two processes (or by a standard one)
    /// is thrown.
    public static func assembledPersonProcesses(_ products: [RegisteredProduct]) throws(PersonProcessConflict) -> [any PersonProcess.Type] {
        var out: [any PersonProcess.Type] = []
        var streams = Dictionary(uniqueKeysWithValues: PersonProcesses.standard.map { ($0.stream, "Habitat's people") })
        for r in products {
            for p in r.adapter.personProcesses where !out.contains(where: { ObjectIdentifier($0) == ObjectIdentifier(p) }) {
                if let owner = streams[p.stream] {
                    throw PersonProcessConflict(stream: p.stream, first: owner, second: r.descriptor.id)
                }
                streams[p.stream] = r.descriptor.id
                out.append(p)
            }
        }
        return out
    }

    /// The person processes with `extra` registered beside the registered products (a test's fixture product).
    public static func personProcesses(adding extra: [RegisteredProduct]) throws(PersonProcessConflict) -> [any PersonProcess.Type] {
        try assembledPersonProcesses(registered + extra)
    }

    /// Everything scenario validation checks names against: the rule-parameter catalogue and the KPI ids
    /// `precision.kpis` may name of every product with an engine, and the personas (with the parameters each
    /// accepts and their ranges) and device models of the behaviour and energy models, and the behaviour model's
    /// constants (`BehaviorCatalogue`, the `behavior:` blocks).
    public static var catalogues: ProductCatalogues {
        var c = ProductCatalogues()
        c.products = all
        c.defaultProductOverride = defaultProduct
        for p in all.map(\.id) {
            if let d = descriptor(p) { c.register(p, d.parameters) }
            if let ids = kpiIDs(p) { c.registerKPIs(p, ids) }
        }
        c.population = population
        c.behavior = behaviorParameters
        return c
    }

    /// Every behaviour parameter a scenario may use (`behavior:` blocks, `behavior.<key>` sweeps and overrides,
    /// calibration, `validate --explain`): the generic catalogue with each registered product's own parameters
    /// placed beside it (`ProductAdapter.behaviorParameterGroups`, issue 42). One population serves every product, so
    /// every product's keys are accepted whatever the scenario's products; each world reads its own. A key declared
    /// twice stops here (`BehaviorCatalogueConflict`; a test holds the registered products to it).
    public static let behaviorParameters: [RuleParameter] = {
        do {
            return try assembledBehaviorParameters()
        } catch {
            preconditionFailure("\(error)")
        }
    }()

    /// The catalogues as they would be with `extra` registered beside the registered products — their product ids,
    /// rule parameters, KPI ids and behaviour parameters — for a test that runs a fixture product in-process without a
    /// registry line (issue 42's toy, `Tests/Fixtures/Products/Toy`). A behaviour key declared twice is thrown.
    public static func catalogues(adding extra: [RegisteredProduct]) throws(BehaviorCatalogueConflict) -> ProductCatalogues {
        func ids<A: ProductAdapter>(_: A.Type) -> [String] { RunAccumulator<A>.kpiIDs }
        var c = catalogues
        for r in extra {
            let id = Product(rawValue: r.descriptor.id)
            c.products.append(ProductListing(id: id, name: r.descriptor.name, seedFile: r.descriptor.seedFile,
                                             summary: r.descriptor.summary, hasEngine: true))
            c.register(id, r.descriptor.parameters)
            c.registerKPIs(id, ids(r.adapter))
        }
        c.behavior = try BehaviorCatalogue.assembled((registered + extra).map { (owner: $0.descriptor.id, groups: $0.adapter.behaviorParameterGroups) })
        return c
    }

    /// The registered product that declares behaviour parameter `key` in its own folder, or nil for a generic key
    /// (one every product's people read) — what `habitat sensitivity` uses to keep the keys a scenario's products read.
    public static func behaviorParameterOwner(_ key: String) -> Product? {
        registered.first { $0.adapter.behaviorParameters.contains { $0.keyPath == key } }.map { Product(rawValue: $0.descriptor.id) }
    }

    /// The assembly `behaviorParameters` is, throwing the conflict instead of stopping.
    public static func assembledBehaviorParameters() throws(BehaviorCatalogueConflict) -> [RuleParameter] {
        try BehaviorCatalogue.assembled(registered.map { (owner: $0.descriptor.id, groups: $0.adapter.behaviorParameterGroups) })
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

    /// The header records by which an earlier `trace --out` file of the product is recognised (and may be
    /// replaced): today's, then the one before issue 40 (without the report keys); empty without an engine.
    public static func traceHeaderLines(_ product: Product) -> [String] {
        func lines<A: ProductAdapter>(_ a: A.Type) -> [String] { [TraceFormat.headerLine(a), TraceFormat.legacyHeaderLine(a)] }
        return adapter(for: product).map { lines($0) } ?? []
    }

    /// Every KPI id a run of the product reports (its own, then Habitat's), nil without an engine.
    public static func kpiIDs(_ product: Product) -> [String]? {
        func ids<A: ProductAdapter>(_: A.Type) -> [String] { RunAccumulator<A>.kpiIDs }
        return adapter(for: product).map { ids($0) }
    }
}

/// A scenario names a product whose rule engine this version does not have.
public struct ProductWithoutEngine: Error, CustomStringConvertible {
    public let product: Product
    public var description: String {
        "product '\(product.rawValue)' has no rule engine in this version; products with engines: "
            + Products.withEngines.map(\.rawValue).joined(separator: ", ")
    }
}

/// Two person processes that would draw from one stream: each process's stream must be its own, or the people of one
/// product would not be the people of another.
public struct PersonProcessConflict: Error, CustomStringConvertible {
    public let stream: StreamName
    public let first: String
    public let second: String
    public var description: String {
        "person process stream '\(stream)' is drawn by \(first) and again by \(second): give each process a stream of its own"
    }
}
