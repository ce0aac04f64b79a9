/// A product as scenarios name it (`product: scroll-off`): its id. Habitat's products are the ones its registry
/// lists (`ProductRegistry.Products`); each product names itself in its own rules target
/// (`extension Product { static let scrollOff }`), so no list of products is kept anywhere else.
public struct Product: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The id as written in scenario files, e.g. `scroll-off`.
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }

    public var description: String { rawValue }
    public static func < (a: Product, b: Product) -> Bool { a.rawValue < b.rawValue }
}

/// A product as `habitat list` and scenario validation show it: id, name, seed document, a line of what its rules
/// own, and whether this version has its engine.
public struct ProductListing: Hashable, Sendable {
    public var id: Product
    public var name: String
    /// The file name of the product's seed document, the source of truth for its rules.
    public var seedFile: String
    /// What the product's rules own, in a line.
    public var summary: String
    /// True when Habitat has the product's rule engine and adapter.
    public var hasEngine: Bool

    public init(id: Product, name: String, seedFile: String, summary: String, hasEngine: Bool) {
        self.id = id
        self.name = name
        self.seedFile = seedFile
        self.summary = summary
        self.hasEngine = hasEngine
    }
}
