import RulesCore

/// The declarative shape of a scenario file: which keys exist, what each holds, its default and its meaning.
///
/// Validation walks a YAML document alongside a schema; the schema is data, so the same description drives
/// checking, defaults and documentation. Product rule keys are not listed here: `ruleOverrides` checks them
/// against the product's `RuleParameter` catalogue.
public indirect enum SchemaNode: Sendable {
    /// A map with a fixed set of known keys; any other key is an error with a "did you mean".
    case map([SchemaField], doc: String)
    /// A list whose items all have one shape, with checks across items.
    case list(of: SchemaNode, checks: [ListCheck], doc: String)
    /// A single value.
    case scalar(ScalarKind, doc: String)
    /// A map with free keys (e.g. persona parameter names), every value of one shape.
    case keyed(value: SchemaNode, doc: String)
    /// A number, or a distribution `{distribution: normal, mean: …, sd: …}` (persona parameters).
    case distribution(doc: String)
    /// Nested overrides of the product's rule parameters, checked against its catalogue.
    case ruleOverrides(doc: String)
    /// Overrides of the behaviour model's parameters (dotted or nested keys), checked against its catalogue.
    case behaviorOverrides(doc: String)
    /// A parameter grid: dotted key path → list of values, with optional `zip` groups.
    case sweep(doc: String)

    /// The one-line documentation of this node.
    public var doc: String {
        switch self {
        case .map(_, let d), .list(_, _, let d), .scalar(_, let d), .keyed(_, let d), .distribution(let d),
             .ruleOverrides(let d), .behaviorOverrides(let d), .sweep(let d): return d
        }
    }

    /// The same shape with every default removed (arm overrides: absent means "as the scenario says").
    public var withoutDefaults: SchemaNode {
        switch self {
        case let .map(fields, doc):
            return .map(fields.map { SchemaField($0.key, $0.node.withoutDefaults, required: $0.required, default: nil, doc: $0.doc) }, doc: doc)
        case let .list(of, checks, doc): return .list(of: of.withoutDefaults, checks: checks, doc: doc)
        case let .keyed(value, doc): return .keyed(value: value.withoutDefaults, doc: doc)
        default: return self
        }
    }

    /// The schema node at a dotted key path inside maps (e.g. `population.installs`), if there is one.
    public func node(at keyPath: String) -> SchemaNode? {
        var node = self
        for part in keyPath.split(separator: ".") {
            guard case .map(let fields, _) = node, let f = fields.first(where: { $0.key == part }) else { return nil }
            node = f.node
        }
        return node
    }

    /// The field at a dotted key path inside maps, if there is one.
    public func field(at keyPath: String) -> SchemaField? {
        var parts = keyPath.split(separator: ".").map(String.init)
        guard let last = parts.popLast(), case .map(let fields, _)? = node(at: parts.joined(separator: ".")) else { return nil }
        return fields.first(where: { $0.key == last })
    }
}

/// One known key of a `SchemaNode.map`.
public struct SchemaField: Sendable {
    /// The snake_case key.
    public var key: String
    /// What its value must look like.
    public var node: SchemaNode
    /// True when the key must be present.
    public var required: Bool
    /// The value used when the key is absent (maps without a default get their own fields' defaults).
    public var defaultValue: ScenarioValue?
    /// What the key means, with units.
    public var doc: String

    /// Creates a field.
    public init(_ key: String, _ node: SchemaNode, required: Bool = false, default defaultValue: ScenarioValue? = nil, doc: String) {
        self.key = key
        self.node = node
        self.required = required
        self.defaultValue = defaultValue
        self.doc = doc
    }
}

/// The type and allowed values of a scalar.
public enum ScalarKind: Sendable, Hashable, CustomStringConvertible {
    /// Any text.
    case text
    /// A name usable as a file name and in CSV cells: letters, digits, `-`, `_`, `.`, starting with a letter or a
    /// digit (so never `.`, `..` or a hidden name), at most `ScenarioChecker.maxNameLength` characters.
    case identifier
    /// A whole number in a range.
    case integer(ClosedRange<Int>)
    /// A whole number 0…2⁶⁴−1 (seeds).
    case unsigned
    /// A number in a range.
    case number(ClosedRange<Double>)
    /// A number in (0, 1] (population shares).
    case share
    /// A finite number above 0 (scales, standard deviations, shape parameters).
    case positive
    /// `true` or `false`.
    case boolean
    /// One word of a fixed list.
    case choice([String])
    /// A product id: one of the products registered with the loader (`ProductCatalogues.productIDs`).
    case product
    /// An ISO date `YYYY-MM-DD`.
    case date
    /// An IANA time-zone identifier such as `Europe/Berlin`.
    case timeZone

    /// What is allowed, e.g. `an integer in 1…3650`.
    public var description: String {
        switch self {
        case .text: return "text"
        case .identifier: return "a name of letters, digits, '-', '_' and '.' that starts with a letter or digit, at most \(ScenarioChecker.maxNameLength) characters"
        case .integer(let r): return r.upperBound == .max ? "an integer ≥ \(r.lowerBound)" : "an integer in \(r.lowerBound)…\(r.upperBound)"
        case .unsigned: return "an integer in 0…\(UInt64.max)"
        case .number(let r): return "a number in \(formatNumber(r.lowerBound))…\(formatNumber(r.upperBound))"
        case .share: return "a number in (0, 1]"
        case .positive: return "a number > 0"
        case .boolean: return "true or false"
        case .choice(let c): return "one of " + c.joined(separator: ", ")
        case .product: return "a product id (`habitat list`)"
        case .date: return "a date YYYY-MM-DD from \(ScenarioChecker.dateYears.lowerBound)-01-01 to \(ScenarioChecker.dateYears.upperBound)-12-31"
        case .timeZone: return "an IANA time-zone identifier such as Europe/Berlin"
        }
    }

    /// The noun used in "expected …, got …" messages.
    var noun: String {
        switch self {
        case .text, .identifier: return "text"
        case .integer, .unsigned: return "an integer"
        case .number, .share, .positive: return "a number"
        case .boolean: return "true or false"
        case .choice, .product: return "a word"
        case .date: return "a date YYYY-MM-DD"
        case .timeZone: return "a time-zone identifier"
        }
    }
}

/// A check across the items of a list.
public enum ListCheck: Sendable, Hashable {
    /// The text field `field` must differ between items (arm names, persona names).
    case unique(field: String)
    /// Scalar items must differ from each other (`products`).
    case uniqueValues
    /// The numeric field `field` must add up to 1 within 1e-6 over the items.
    case sharesSumToOne(field: String)
    /// The list must hold at least one item.
    case nonEmpty
    /// The list may hold at most this many items (checked before any item is).
    case maxCount(Int)
}

/// Short, stable text for a number: integers as `5.0`, others as the shortest text that reads back exactly.
func formatNumber(_ d: Double) -> String {
    var s = String(d)
    if let e = s.firstIndex(where: { $0 == "e" || $0 == "E" }), !s[..<e].contains(".") { s.insert(contentsOf: ".0", at: e) }
    return s
}
