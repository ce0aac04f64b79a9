import Foundation
import RulesCore
import Yams

/// Walks a YAML node tree alongside a `SchemaNode`, producing a checked `ScenarioValue` tree and collecting every
/// problem as a located `ScenarioIssue`.
struct ScenarioChecker {
    /// File name used in issues.
    let file: String
    /// The product whose catalogue `rules` are checked against: the scenario's, or an arm's own while its map is
    /// walked (nil: the product is wrong, so rules cannot be checked and are skipped).
    var product: Product?
    /// The product's catalogue (nil: none registered).
    var catalogue: [RuleParameter]?
    /// Every product's catalogue and KPI ids (nil: only `product` and `catalogue` are known, as for command-line
    /// text): an arm's `product:` selects its catalogue from here, and `precision.kpis` is checked against the KPI
    /// ids of every arm's product.
    var registry: ProductCatalogues?
    /// Duplicate keys renamed before composing: sentinel key → (original key, first occurrence).
    var duplicates: [String: (key: String, first: Mark?)] = [:]
    /// Problems found so far.
    var issues: [ScenarioIssue] = []
    /// False for command-line text, whose line and column would mean nothing to the user.
    var locates = true
    /// Personas, their parameters and device models to check names against (nil: not checked).
    var population: PopulationCatalogue?
    /// The behaviour-parameter catalogue (nil: none registered; `behavior` then accepts no keys).
    var behavior: [RuleParameter]?
    /// The product ids `product:` may name (`ProductCatalogues.productIDs`); empty: any.
    var products: [String] = []

    init(file: String, product: Product?, catalogue: [RuleParameter]?) {
        self.file = file
        self.product = product
        self.catalogue = catalogue
    }

    // MARK: - Issues

    /// The most problems listed for one file; past it they are counted (a list of 100,000 bad items is one
    /// mistake, not 100,000 lines to read).
    static let maxIssues = 200
    /// Problems found past `maxIssues`.
    var unlisted = 0

    mutating func report(_ kind: ScenarioIssue.Kind, _ path: KeyPath, at mark: Mark?, _ message: String,
                         value: String? = nil, allowed: String? = nil, suggestion: String? = nil) {
        guard issues.count < Self.maxIssues else { unlisted += 1; return }
        let mark = locates ? mark : nil
        issues.append(ScenarioIssue(file: file, line: mark?.line, column: mark?.column, keyPath: path.description, kind: kind,
                                    message: message, value: value, allowed: allowed, suggestion: suggestion))
    }

    /// How a node reads in a message: `'five'`, `a map`, `a list`.
    static func shown(_ node: Node) -> String {
        switch node {
        case .scalar(let s): return "'\(s.string.echoed())'"
        case .mapping: return "a map"
        case .sequence: return "a list"
        default: return "an alias"
        }
    }

    /// True for an explicit YAML null (`~`, `null`, or nothing after the colon).
    static func isNull(_ node: Node?) -> Bool {
        guard case .scalar(let s)? = node, s.style == .plain else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(s.string)
    }

    /// The key/value pairs of a mapping with scalar keys; reports non-scalar and duplicate keys and skips them.
    mutating func pairs(of mapping: Node.Mapping, at path: KeyPath) -> [(key: String, keyMark: Mark?, value: Node)] {
        var result: [(String, Mark?, Node)] = []
        for (k, v) in mapping {
            guard case .scalar(let ks) = k else {
                report(.wrongType, path, at: k.mark, "map keys must be words, got \(Self.shown(k))")
                continue
            }
            if let dup = duplicates[ks.string] {
                let first = dup.first.map { " (first given at line \($0.line))" } ?? ""
                report(.duplicateKey, path.appending(dup.key), at: ks.mark, "duplicate key '\(dup.key.echoed())'\(first)",
                       value: dup.key, allowed: "each key once per map")
                continue
            }
            // `horizon_days:` with nothing after it is a slip, not a request for the default.
            if Self.isNull(v) {
                report(.missingKey, path.appending(ks.string), at: ks.mark, "'\(ks.string.echoed())' has no value",
                       allowed: "a value, or no '\(ks.string.echoed())' key at all to take the default")
                continue
            }
            result.append((ks.string, ks.mark, v))
        }
        return result
    }

    // MARK: - Schema walk

    /// Checks `node` (nil when absent) against `schema`; returns the checked value, defaults filled, or nil when
    /// absent without default or invalid (the problem is then reported).
    mutating func check(_ node: Node?, _ schema: SchemaNode, at path: KeyPath) -> ScenarioValue? {
        let node = Self.isNull(node) ? nil : node
        switch schema {
        case let .map(fields, _): return checkMap(node, fields, at: path)
        case let .list(item, checks, _):
            guard let node else { return nil }
            return checkList(node, item, checks, at: path)
        case let .scalar(kind, _):
            guard let node else { return nil }
            guard case .scalar(let s) = node else {
                report(.wrongType, path, at: node.mark, "expected \(kind.noun), got \(Self.shown(node))", value: Self.shown(node), allowed: kind.description)
                return nil
            }
            return checkScalar(s.string, kind, at: path, mark: s.mark)
        case let .keyed(valueSchema, _):
            guard let node else { return .map([]) }
            guard case .mapping(let m) = node else {
                report(.wrongType, path, at: node.mark, "expected a map, got \(Self.shown(node))", value: Self.shown(node))
                return nil
            }
            var entries: [ScenarioEntry] = []
            for (k, _, v) in pairs(of: m, at: path) {
                if let value = check(v, valueSchema, at: path.appending(k)) { entries.append(ScenarioEntry(k, value)) }
            }
            return .map(entries)
        case .distribution:
            guard let node else { return nil }
            return checkDistribution(node, at: path)
        case .ruleOverrides:
            guard let node else { return .map([]) }
            return checkRules(node, at: path)
        case .behaviorOverrides:
            guard let node else { return .map([]) }
            return checkBehavior(node, at: path)
        case .sweep:
            guard let node else { return .map([ScenarioEntry("axes", .map([])), ScenarioEntry("zip", .list([]))]) }
            return checkSweep(node, at: path)
        }
    }

    mutating func checkMap(_ node: Node?, _ fields: [SchemaField], at path: KeyPath) -> ScenarioValue? {
        var given: [String: ScenarioValue] = [:]
        if let node {
            guard case .mapping(let m) = node else {
                report(.wrongType, path, at: node.mark, "expected a map with keys \(fields.map(\.key).joined(separator: ", ")), got \(Self.shown(node))",
                       value: Self.shown(node))
                return nil
            }
            // An arm's `product:` selects the catalogue its `rules` are checked against, for this map only.
            let outer = (product, catalogue)
            defer { (product, catalogue) = outer }
            if Self.isArm(path), let registry, case .scalar(let named)? = m["product"] {
                let valid = products.isEmpty || products.contains(named.string)
                product = valid ? Product(rawValue: named.string) : nil
                catalogue = product.flatMap { registry[$0] }
            }
            var seen = Set<String>()
            for (k, keyMark, v) in pairs(of: m, at: path) {
                guard let field = fields.first(where: { $0.key == k }) else {
                    report(.unknownKey, path.appending(k), at: keyMark, "unknown key '\(k.echoed())'", value: k,
                           suggestion: Suggestion.closest(to: k, among: fields.map(\.key)))
                    continue
                }
                seen.insert(k)
                if let value = check(v, field.node, at: path.appending(k)) { given[k] = value }
            }
            let present = Set(m.keys.compactMap { $0.scalar?.string })   // keys given with no value are reported already
            for field in fields where field.required && !seen.contains(field.key) && !present.contains(field.key) {
                report(.missingKey, path.appending(field.key), at: node.mark, "missing required key '\(field.key.echoed())'", allowed: field.node.allowedText)
            }
        }
        var entries: [ScenarioEntry] = []
        for field in fields {
            if let v = given[field.key] {
                entries.append(ScenarioEntry(field.key, v))
            } else if let d = field.defaultValue {
                entries.append(ScenarioEntry(field.key, d))
            } else if case .map = field.node, let d = checkMap(nil, mapFields(field.node), at: path.appending(field.key)), !d.entries.isEmpty {
                entries.append(ScenarioEntry(field.key, d))
            }
        }
        return .map(entries)
    }

    /// True for the position of an item of the top-level `arms` list (`arms[2]`).
    static func isArm(_ path: KeyPath) -> Bool {
        guard path.parts.count == 2, case .key("arms") = path.parts[0], case .index = path.parts[1] else { return false }
        return true
    }

    private func mapFields(_ node: SchemaNode) -> [SchemaField] {
        if case .map(let f, _) = node { return f }
        return []
    }

    mutating func checkList(_ node: Node, _ item: SchemaNode, _ checks: [ListCheck], at path: KeyPath) -> ScenarioValue? {
        guard case .sequence(let seq) = node else {
            report(.wrongType, path, at: node.mark, "expected a list, got \(Self.shown(node))", value: Self.shown(node))
            return nil
        }
        for case .maxCount(let most) in checks where seq.count > most {
            report(.outOfRange, path, at: node.mark, "the list has \(seq.count) items", allowed: "at most \(most) items")
            return nil
        }
        let before = issues.count
        var items: [ScenarioValue] = []
        for (i, n) in seq.enumerated() {
            if Self.isNull(n) {
                report(.missingKey, path.appending(i), at: n.mark, "the list item has no value", allowed: item.allowedText)
                continue
            }
            if let v = check(n, item, at: path.appending(i)) { items.append(v) }
        }
        let itemsValid = issues.count == before && items.count == seq.count
        for c in checks {
            switch c {
            case .maxCount: break   // checked before the items
            case .nonEmpty:
                if seq.isEmpty { report(.invalid, path, at: node.mark, "the list is empty", allowed: "at least one item") }
            case .unique(let field):
                var firstSeen: [String: Int] = [:]
                for (i, n) in seq.enumerated() {
                    guard case .scalar(let s)? = n.mapping?[field] else { continue }
                    if let first = firstSeen[s.string] {
                        let line = seq[first].mapping?[field]?.mark.map { " at line \($0.line)" } ?? ""
                        report(.duplicateName, path.appending(i).appending(field), at: s.mark,
                               "duplicate \(field) '\(s.string.echoed())' (also item \(first)\(line))", value: s.string,
                               allowed: "a \(field) not used by another item")
                    } else {
                        firstSeen[s.string] = i
                    }
                }
            case .uniqueValues:
                var firstSeen: [String: Int] = [:]
                for (i, n) in seq.enumerated() {
                    guard case .scalar(let s) = n else { continue }
                    if let first = firstSeen[s.string] {
                        let line = seq[first].mark.map { " at line \($0.line)" } ?? ""
                        report(.duplicateName, path.appending(i), at: s.mark, "duplicate '\(s.string.echoed())' (also item \(first)\(line))",
                               value: s.string, allowed: "each value once")
                    } else {
                        firstSeen[s.string] = i
                    }
                }
            case .sharesSumToOne(let field):
                guard itemsValid, !items.isEmpty else { continue }
                let shares = items.compactMap { $0[field]?.doubleValue }
                let sum = shares.reduce(0, +)
                if abs(sum - 1) > 1e-6 {
                    report(.sharesDoNotSumToOne, path, at: node.mark,
                           "\(field)s add up to \(formatNumber((sum * 1e9).rounded() / 1e9)), not 1",
                           value: shares.map(formatNumber).joined(separator: " + "), allowed: "\(field)s summing to 1 (within 1e-6)")
                }
            }
        }
        return itemsValid || !items.isEmpty ? .list(items) : nil
    }
}

extension SchemaNode {
    /// What is allowed, for "missing key" messages.
    var allowedText: String? {
        switch self {
        case .scalar(let k, _): return k.description
        case .map(let fields, _): return "a map with keys " + fields.map(\.key).joined(separator: ", ")
        case .list: return "a list"
        default: return nil
        }
    }
}
