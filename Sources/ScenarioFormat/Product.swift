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
}

/// The registry of rule-parameter catalogues: for each product, every parameter its engine reads.
///
/// The caller (the CLI, tests) registers the catalogue each engine publishes; a product with no catalogue yet
/// accepts no `rules` keys, and validation says so.
public struct ProductCatalogues: Sendable, Hashable {
    /// Catalogues by product.
    public private(set) var catalogues: [Product: [RuleParameter]]

    /// A registry holding the given catalogues.
    public init(_ catalogues: [Product: [RuleParameter]] = [:]) { self.catalogues = catalogues }

    /// Adds or replaces the catalogue of one product.
    public mutating func register(_ product: Product, _ catalogue: [RuleParameter]) { catalogues[product] = catalogue }

    /// The catalogue of a product, or nil when none is registered yet.
    public subscript(_ product: Product) -> [RuleParameter]? { catalogues[product] }
}
