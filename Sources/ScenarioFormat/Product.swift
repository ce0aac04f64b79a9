import RulesCore

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
    /// The products a scenario may name, in the registry's order (`habitat list`); empty: the products with a
    /// registered catalogue.
    public var products: [ProductListing] = []
    /// The product of a scenario that names none: set by the registry (its first product with an engine); nil: the
    /// first product with an engine among `products`, else the first product with a catalogue.
    public var defaultProductOverride: Product?
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

    /// The ids a scenario's `product:` may name.
    public var productIDs: [String] {
        products.isEmpty ? catalogues.keys.sorted().map(\.rawValue) : products.map(\.id.rawValue)
    }

    /// The product of a scenario that names none.
    public var defaultProduct: Product? {
        defaultProductOverride ?? products.first(where: \.hasEngine)?.id ?? catalogues.keys.sorted().first
    }

    /// The catalogue of a product, or nil when none is registered yet.
    public subscript(_ product: Product) -> [RuleParameter]? { catalogues[product] }

    /// The KPI ids a product's `precision.kpis` may name: nil when KPI ids are not checked at all, empty when the
    /// product has none yet.
    public func kpis(of product: Product) -> [String]? { kpis.isEmpty ? nil : kpis[product] ?? [] }
}
