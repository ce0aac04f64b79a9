import RulesCore

/// The digital-wellbeing products whose rule engines Habitat can run; the scenario key `product`.
public enum Product: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// Scroll Off (seed 000): earn/spend minutes, wallets, bypass ladder, emergency tokens.
    case scrollOff = "scroll-off"
    /// Nudge (seed 001): task capture, One-Thing queue, nudge notifications.
    case nudge = "nudge"
    /// Lazuri (seed 002): blocking schedules, promise shield, flashcards, achievements.
    case lazuri = "lazuri"
    /// Earned Access (seed 003): Focus Bank credits, 04:00 day boundary, unlock gate.
    case earnedAccess = "earned-access"
    /// Clavis (seed 004): lock and unlock by scanning a physical key object.
    case clavis = "clavis"

    /// The id as written in scenario files, e.g. `scroll-off`.
    public var description: String { rawValue }

    /// Display name, e.g. `Scroll Off` (the engine's descriptor repeats it; a test checks they agree).
    public var displayName: String {
        switch self {
        case .scrollOff: "Scroll Off"
        case .nudge: "Nudge"
        case .lazuri: "Lazuri"
        case .earnedAccess: "Earned Access"
        case .clavis: "Clavis"
        }
    }

    /// The file name of the product's seed document, the source of truth for its rules.
    public var seedFile: String {
        switch self {
        case .scrollOff: "000_5f03618b73c6ae9a.txt"
        case .nudge: "001_2c48cacf5aaf28c7.txt"
        case .lazuri: "002_80c8c6af1a4e5690.txt"
        case .earnedAccess: "003_39dd72775d0311b4.txt"
        case .clavis: "004_8fa1e69c755a74b3.txt"
        }
    }

    /// What the product's rules own, in a line.
    public var summary: String {
        switch self {
        case .scrollOff: "earn/spend minutes, tier caps and rollover, cooldowns, hard curfew, bypass ladder, emergency tokens, subscriptions"
        case .nudge: "task capture, One-Thing queue, snoozes, nudge notifications, free-tier limits, AI cost, Pro"
        case .lazuri: "blocking schedules, promise shield, focus-time accounting, flashcards, achievements"
        case .earnedAccess: "modes and schedules, Focus Bank credits, 04:00 day boundary, unlock gate, Free/Pro with trial"
        case .clavis: "modes with main and temporary keys, lock/unlock by scanning a physical object"
        }
    }
}

/// The registry of what a scenario is checked against: for each product, every rule parameter its engine reads and
/// the KPI ids `precision.kpis` may name; and the population catalogue (personas, their parameters, devices).
///
/// The caller (the CLI, tests) registers what each engine and model publishes; a product with no rule catalogue yet
/// accepts no `rules` keys, and validation says so. KPI ids: when no product has any registered, `precision.kpis`
/// is not checked (a registry for testing the format alone); otherwise a product without KPI ids accepts none.
public struct ProductCatalogues: Sendable, Hashable {
    /// Catalogues by product.
    public private(set) var catalogues: [Product: [RuleParameter]]
    /// KPI ids by product: what `precision.kpis` may name.
    public private(set) var kpis: [Product: [String]] = [:]
    /// Personas, their parameters and device models (nil: not checked).
    public var population: PopulationCatalogue?
    /// The behaviour model's parameters (`behavior:` blocks, `behavior.<key>` sweeps and overrides), for every
    /// product; nil: none registered, so a `behavior:` block accepts no keys.
    public var behavior: [RuleParameter]?

    /// A registry holding the given catalogues.
    public init(_ catalogues: [Product: [RuleParameter]] = [:], kpis: [Product: [String]] = [:], population: PopulationCatalogue? = nil,
                behavior: [RuleParameter]? = nil) {
        self.catalogues = catalogues
        self.kpis = kpis
        self.population = population
        self.behavior = behavior
    }

    /// Adds or replaces the catalogue of one product.
    public mutating func register(_ product: Product, _ catalogue: [RuleParameter]) { catalogues[product] = catalogue }

    /// Adds or replaces the KPI ids of one product.
    public mutating func registerKPIs(_ product: Product, _ ids: [String]) { kpis[product] = ids }

    /// The catalogue of a product, or nil when none is registered yet.
    public subscript(_ product: Product) -> [RuleParameter]? { catalogues[product] }

    /// The KPI ids a product's `precision.kpis` may name: nil when KPI ids are not checked at all, empty when the
    /// product has none yet.
    public func kpis(of product: Product) -> [String]? { kpis.isEmpty ? nil : kpis[product] ?? [] }
}
