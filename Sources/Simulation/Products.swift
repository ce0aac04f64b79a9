import Behavior
import RulesCore
import ScenarioFormat
import ScrollOffRules

/// One of the five products Habitat simulates, with its seed document and (once built) its rule engine's
/// parameter catalogue.
public struct ProductInfo: Sendable, Hashable {
    /// Scenario id (`product:` key), e.g. `scroll-off`.
    public let id: Product
    /// Display name.
    public let name: String
    /// The file name of the product's seed document (its specification), the source of truth for its rules.
    public let seedFile: String
    /// What its engine owns, in a line.
    public let summary: String
    /// The rule engine's parameters; nil while the product has no engine in Habitat yet.
    public let parameters: [RuleParameter]?

    /// True when `habitat run` can simulate this product.
    public var hasEngine: Bool { parameters != nil }
}

/// The products Habitat knows, in the order of their seed documents.
public enum Products {
    public static let all: [ProductInfo] = [
        ProductInfo(id: .scrollOff, name: "Scroll Off", seedFile: "000_5f03618b73c6ae9a.txt",
                    summary: "earn/spend minutes, tier caps and rollover, cooldowns, hard curfew, bypass ladder, emergency tokens, subscriptions",
                    parameters: ScrollOffParameters.catalogue),
        ProductInfo(id: .nudge, name: "Nudge", seedFile: "001_2c48cacf5aaf28c7.txt",
                    summary: "task capture, One-Thing queue, snoozes, nudge notifications, free-tier limits, AI cost, Pro", parameters: nil),
        ProductInfo(id: .lazuri, name: "Lazuri", seedFile: "002_80c8c6af1a4e5690.txt",
                    summary: "blocking schedules, promise shield, focus-time accounting, flashcards, achievements", parameters: nil),
        ProductInfo(id: .earnedAccess, name: "Earned Access", seedFile: "003_39dd72775d0311b4.txt",
                    summary: "modes and schedules, Focus Bank credits, 04:00 day boundary, unlock gate, Free/Pro with trial", parameters: nil),
        ProductInfo(id: .clavis, name: "Clavis", seedFile: "004_8fa1e69c755a74b3.txt",
                    summary: "modes with main and temporary keys, lock/unlock by scanning a physical object", parameters: nil),
    ]

    /// The product with a scenario id.
    public static func info(_ id: Product) -> ProductInfo { all.first { $0.id == id }! }

    /// Everything scenario validation checks names against: the rule-parameter catalogue of every product that has
    /// an engine, the KPI ids `precision.kpis` may name per product, and the personas (with the parameters each
    /// accepts and their ranges) and device models of the behaviour and energy models.
    public static var catalogues: ProductCatalogues {
        var c = ProductCatalogues()
        for p in all { if let params = p.parameters { c.register(p.id, params) } }
        // The seam fills these in for every product; until then Scroll Off's come from its accumulator.
        c.registerKPIs(.scrollOff, ScrollOffRunAccumulator(horizonDays: 1).kpiValues().map(\.0.kpi))
        c.population = population
        return c
    }

    /// The behaviour model's personas and overridable parameters (`Persona.applying(overrides:)` accepts exactly
    /// these names; drawn values are clamped to the ranges) and the energy model's devices.
    public static var population: PopulationCatalogue {
        let parameters = PersonaParameter.allCases.map { PopulationCatalogue.Parameter(name: $0.rawValue, range: $0.validRange) }
        return PopulationCatalogue(personas: PersonaCatalog.builtIn.mapValues { _ in parameters }, devices: DeviceCatalog.ids)
    }
}
