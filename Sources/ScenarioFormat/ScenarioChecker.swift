import Foundation
import RulesCore
import Yams

/// A position in a scenario: map keys and list indices, printed as `population.personas[1].share`.
struct KeyPath: CustomStringConvertible {
    enum Part { case key(String), index(Int) }
    var parts: [Part] = []

    static let root = KeyPath()
    func appending(_ key: String) -> KeyPath { KeyPath(parts: parts + [.key(key)]) }
    func appending(_ index: Int) -> KeyPath { KeyPath(parts: parts + [.index(index)]) }

    var description: String {
        var s = ""
        for p in parts {
            switch p {
            case .key(let k): s += s.isEmpty ? k : ".\(k)"
            case .index(let i): s += "[\(i)]"
            }
        }
        return s
    }
}

/// Walks a YAML node tree alongside a `SchemaNode`, producing a checked `ScenarioValue` tree and collecting every
/// problem as a located `ScenarioIssue`.
struct ScenarioChecker {
    /// File name used in issues.
    let file: String
    /// The product, when the `product` key is valid (nil: rules cannot be checked and are skipped).
    let product: Product?
    /// The product's catalogue (nil: none registered).
    let catalogue: [RuleParameter]?
    /// Duplicate keys renamed before composing: sentinel key → (original key, first occurrence).
    var duplicates: [String: (key: String, first: Mark?)] = [:]
    /// Problems found so far.
    var issues: [ScenarioIssue] = []
    /// False for command-line text, whose line and column would mean nothing to the user.
    var locates = true

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
        case .scalar(let s): return "'\(s.string)'"
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
                report(.duplicateKey, path.appending(dup.key), at: ks.mark, "duplicate key '\(dup.key)'\(first)",
                       value: dup.key, allowed: "each key once per map")
                continue
            }
            // `horizon_days:` with nothing after it is a slip, not a request for the default.
            if Self.isNull(v) {
                report(.missingKey, path.appending(ks.string), at: ks.mark, "'\(ks.string)' has no value",
                       allowed: "a value, or no '\(ks.string)' key at all to take the default")
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
            var seen = Set<String>()
            for (k, keyMark, v) in pairs(of: m, at: path) {
                guard let field = fields.first(where: { $0.key == k }) else {
                    report(.unknownKey, path.appending(k), at: keyMark, "unknown key '\(k)'", value: k,
                           suggestion: Suggestion.closest(to: k, among: fields.map(\.key)))
                    continue
                }
                seen.insert(k)
                if let value = check(v, field.node, at: path.appending(k)) { given[k] = value }
            }
            let present = Set(m.keys.compactMap { $0.scalar?.string })   // keys given with no value are reported already
            for field in fields where field.required && !seen.contains(field.key) && !present.contains(field.key) {
                report(.missingKey, path.appending(field.key), at: node.mark, "missing required key '\(field.key)'", allowed: field.node.allowedText)
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
                               "duplicate \(field) '\(s.string)' (also item \(first)\(line))", value: s.string,
                               allowed: "a \(field) not used by another item")
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

    // MARK: - Scalars

    static func parseInteger(_ raw: String) -> Int? {
        let t = raw.replacingOccurrences(of: "_", with: "")
        return Int(t.hasPrefix("+") ? String(t.dropFirst()) : t)
    }

    static func parseNumber(_ raw: String) -> Double? {
        let t = raw.replacingOccurrences(of: "_", with: "")
        guard !t.isEmpty, t.allSatisfy({ "0123456789.eE+-".contains($0) }), let d = Double(t), d.isFinite else { return nil }
        return d
    }

    static func parseBool(_ raw: String) -> Bool? {
        switch raw.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: return nil
        }
    }

    /// The longest name (scenario, arm, persona, device) accepted: names become file and folder names.
    static let maxNameLength = 64
    /// Years a date may fall in (the calendar, cohorts and CSV months are written for these).
    static let dateYears = 1970...2200

    /// Letters, digits, `-`, `_`, `.`; a letter or digit first; at most `maxNameLength` characters.
    static func isIdentifier(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, CharacterSet.alphanumerics.contains(first), s.count <= maxNameLength else { return false }
        return s.unicodeScalars.allSatisfy(isNameCharacter)
    }

    static func isNameCharacter(_ c: Unicode.Scalar) -> Bool {
        CharacterSet.alphanumerics.contains(c) || "-_.".unicodeScalars.contains(c)
    }

    /// A usable name made from any text (a file name): other characters become `-`, leading `-_.` are dropped and
    /// the length is bounded; `scenario` when nothing is left.
    static func slug(_ text: String) -> String {
        var s = String(String.UnicodeScalarView(text.unicodeScalars.map { isNameCharacter($0) ? $0 : "-" }))
        s = String(s.drop { !CharacterSet.alphanumerics.contains($0.unicodeScalars.first!) })
        s = String(s.prefix(maxNameLength))
        return s.isEmpty ? "scenario" : s
    }

    mutating func checkScalar(_ raw: String, _ kind: ScalarKind, at path: KeyPath, mark: Mark?) -> ScenarioValue? {
        // No number, date, zone or name is this long: refuse without scanning it (aliases may repeat it 10⁵ times).
        if kind != .text && raw.utf8.count > 256 {
            report(.wrongType, path, at: mark, "expected \(kind.noun), got \(raw.utf8.count) bytes of text", value: String(raw.prefix(40)),
                   allowed: kind.description)
            return nil
        }
        func wrongType() -> ScenarioValue? {
            report(.wrongType, path, at: mark, "expected \(kind.noun), got '\(raw)'", value: raw, allowed: kind.description)
            return nil
        }
        func outOfRange(_ shown: String) -> ScenarioValue? {
            report(.outOfRange, path, at: mark, "value \(shown) is out of range", value: raw, allowed: kind.description)
            return nil
        }
        switch kind {
        case .text:
            return .text(raw)
        case .identifier:
            guard Self.isIdentifier(raw) else {
                let shown = raw.count > 40 ? "'\(raw.prefix(40))…' (\(raw.count) characters)" : "'\(raw)'"
                report(.outOfRange, path, at: mark, "\(shown) is not a usable name", value: String(raw.prefix(40)), allowed: kind.description)
                return nil
            }
            return .text(raw)
        case .integer(let r):
            guard let i = Self.parseInteger(raw) else { return wrongType() }
            return r.contains(i) ? .int(i) : outOfRange(String(i))
        case .unsigned:
            let t = raw.replacingOccurrences(of: "_", with: "")
            if let u = UInt64(t) { return .unsigned(u) }
            if Self.parseInteger(raw) != nil || t.allSatisfy(\.isNumber) && !t.isEmpty { return outOfRange(raw) }
            return wrongType()
        case .number(let r):
            guard let d = Self.parseNumber(raw) else { return wrongType() }
            return r.contains(d) ? .number(d) : outOfRange(raw)
        case .share:
            guard let d = Self.parseNumber(raw) else { return wrongType() }
            return d > 0 && d <= 1 ? .number(d) : outOfRange(raw)
        case .positive:
            guard let d = Self.parseNumber(raw) else { return wrongType() }
            return d > 0 ? .number(d) : outOfRange(raw)
        case .boolean:
            guard let b = Self.parseBool(raw) else { return wrongType() }
            return .bool(b)
        case .choice(let words):
            guard words.contains(raw) else {
                report(.outOfRange, path, at: mark, "'\(raw)' is not allowed", value: raw, allowed: kind.description,
                       suggestion: Suggestion.closest(to: raw, among: words))
                return nil
            }
            return .text(raw)
        case .date:
            guard let d = LocalDate(iso: raw) else {
                report(.badDate, path, at: mark, "'\(raw)' is not a valid date", value: raw, allowed: kind.description)
                return nil
            }
            guard Self.dateYears.contains(d.year) else {
                report(.outOfRange, path, at: mark, "the year \(d.year) is out of range", value: raw, allowed: kind.description)
                return nil
            }
            return .date(d)
        case .timeZone:
            do {
                _ = try ZoneCalendar(identifier: raw, startingOn: ScenarioSchema.defaultStart, days: 1)
                return .text(raw)
            } catch {
                if case let .unknownZone(_, suggestion) = error {
                    report(.badZone, path, at: mark, "unknown time zone '\(raw)'", value: raw, allowed: kind.description, suggestion: suggestion)
                }
                return nil
            }
        }
    }

    // MARK: - Persona parameter distributions

    mutating func checkDistribution(_ node: Node, at path: KeyPath) -> ScenarioValue? {
        let families = DistributionFamily.allCases.map(\.rawValue)
        let allowed = "a number, or a map {distribution: \(families.joined(separator: "|")), …} with its parameters"
        switch node {
        case .scalar(let s):
            guard let d = Self.parseNumber(s.string) else {
                report(.wrongType, path, at: s.mark, "expected a number or a distribution, got '\(s.string)'", value: s.string, allowed: allowed)
                return nil
            }
            return .number(d)
        case .mapping(let m):
            let given = pairs(of: m, at: path)
            guard let (_, _, fv) = given.first(where: { $0.key == "distribution" }) else {
                report(.missingKey, path.appending("distribution"), at: node.mark, "missing required key 'distribution'", allowed: "one of " + families.joined(separator: ", "))
                return nil
            }
            guard case .text(let fname)? = check(fv, .scalar(.choice(families), doc: ""), at: path.appending("distribution")),
                  let family = DistributionFamily(rawValue: fname) else { return nil }
            var values: [String: Double] = [:]
            var ok = true
            for (k, km, v) in given where k != "distribution" {
                guard family.parameterNames.contains(k) else {
                    report(.unknownKey, path.appending(k), at: km, "unknown key '\(k)' for a \(family.rawValue) distribution", value: k,
                           allowed: "distribution, " + family.parameterNames.joined(separator: ", "),
                           suggestion: Suggestion.closest(to: k, among: family.parameterNames))
                    ok = false
                    continue
                }
                let kind = family.parameterKind(k)
                if let d = check(v, .scalar(kind, doc: ""), at: path.appending(k))?.doubleValue { values[k] = d } else { ok = false }
            }
            for p in family.parameterNames where !given.contains(where: { $0.key == p }) {
                report(.missingKey, path.appending(p), at: node.mark, "a \(family.rawValue) distribution needs '\(p)'",
                       allowed: family.parameterNames.joined(separator: " and "))
                ok = false
            }
            guard ok else { return nil }
            if family == .uniform, values["min"]! >= values["max"]! {
                report(.outOfRange, path, at: node.mark, "uniform min \(formatNumber(values["min"]!)) is not below max \(formatNumber(values["max"]!))",
                       allowed: "min < max")
                return nil
            }
            return .map([ScenarioEntry("distribution", .text(family.rawValue))] + family.parameterNames.map { ScenarioEntry($0, .number(values[$0]!)) })
        default:
            report(.wrongType, path, at: node.mark, "expected a number or a distribution, got \(Self.shown(node))", allowed: allowed)
            return nil
        }
    }

    // MARK: - Rules

    /// Checks a product rule-parameter value (a YAML node) against its catalogue entry.
    mutating func checkParameter(_ node: Node, _ p: RuleParameter, at path: KeyPath) -> ParameterValue? {
        let allowed = p.kind.description
        if case .weekdays = p.kind {
            let words: [(String, Mark?)]
            switch node {
            case .sequence(let seq):
                var w: [(String, Mark?)] = []
                for item in seq {
                    guard case .scalar(let s) = item else {
                        report(.wrongType, path, at: item.mark, "expected a weekday, got \(Self.shown(item))", allowed: allowed)
                        return nil
                    }
                    w.append((s.string, s.mark))
                }
                words = w
            case .scalar(let s):
                words = s.string.split(separator: ",").map { (String($0).trimmingCharacters(in: .whitespaces), s.mark) }
            default:
                report(.wrongType, path, at: node.mark, "expected a list of weekdays, got \(Self.shown(node))", allowed: allowed)
                return nil
            }
            var days: [ParameterValue] = []
            for (w, m) in words {
                guard let d = Weekday(name: w) else {
                    report(.outOfRange, path, at: m, "'\(w)' is not a weekday", value: w, allowed: allowed,
                           suggestion: Suggestion.closest(to: w, among: Weekday.allCases.map(\.shortName)))
                    return nil
                }
                days.append(.text(d.shortName))
            }
            return .list(days)
        }
        guard case .scalar(let s) = node else {
            report(.wrongType, path, at: node.mark, "expected \(p.kind.noun), got \(Self.shown(node))", value: Self.shown(node), allowed: allowed)
            return nil
        }
        let raw = s.string
        func wrongType() -> ParameterValue? {
            report(.wrongType, path, at: s.mark, "expected \(p.kind.noun), got '\(raw)'", value: raw, allowed: allowed)
            return nil
        }
        func outOfRange(_ shown: String) -> ParameterValue? {
            report(.outOfRange, path, at: s.mark, "value \(shown) is out of range", value: raw, allowed: allowed)
            return nil
        }
        switch p.kind {
        case .integer(let r):
            guard let i = Self.parseInteger(raw) else { return wrongType() }
            return r.contains(i) ? .int(i) : outOfRange(String(i))
        case .number(let r):
            guard let d = Self.parseNumber(raw) else { return wrongType() }
            return r.contains(d) ? .number(d) : outOfRange(raw)
        case .boolean:
            guard let b = Self.parseBool(raw) else { return wrongType() }
            return .bool(b)
        case .choice(let words):
            guard words.contains(raw) else {
                report(.outOfRange, path, at: s.mark, "'\(raw)' is not allowed", value: raw, allowed: allowed,
                       suggestion: Suggestion.closest(to: raw, among: words))
                return nil
            }
            return .text(raw)
        case .timeOfDay:
            guard let t = LocalTimeOfDay(text: raw) else { return wrongType() }
            return .text(t.description)
        case .weekdays:
            return nil // handled above
        }
    }

    mutating func checkRules(_ node: Node, at path: KeyPath) -> ScenarioValue? {
        guard case .mapping(let m) = node else {
            report(.wrongType, path, at: node.mark, "expected a map of rule parameters, got \(Self.shown(node))", value: Self.shown(node))
            return nil
        }
        guard let product else { return .map([]) } // the product is wrong; that is reported already
        guard let catalogue else {
            if !m.isEmpty {
                report(.invalid, path, at: node.mark, "product '\(product)' has no rule catalogue yet, so it accepts no rules keys",
                       allowed: "no keys under rules for \(product)")
            }
            return .map([])
        }
        let byKey = Dictionary(catalogue.map { ($0.keyPath, $0) }, uniquingKeysWith: { a, _ in a })
        var found: [String: (ParameterValue, Mark?)] = [:]
        var order: [String] = []
        walkRules(m, prefix: "", path: path, byKey: byKey, found: &found, order: &order)
        return .map(order.map { ScenarioEntry($0, .parameter(found[$0]!.0)) })
    }

    private mutating func walkRules(_ m: Node.Mapping, prefix: String, path: KeyPath, byKey: [String: RuleParameter],
                                    found: inout [String: (ParameterValue, Mark?)], order: inout [String]) {
        for (k, km, v) in pairs(of: m, at: path) {
            let full = prefix.isEmpty ? k : "\(prefix).\(k)"
            let here = path.appending(k)
            if let p = byKey[full] {
                if let (_, first) = found[full] {
                    report(.duplicateKey, here, at: km, "rule '\(full)' is set twice" + (first.map { " (first at line \($0.line))" } ?? ""),
                           allowed: "each rule once")
                    continue
                }
                if let value = checkParameter(v, p, at: here) {
                    found[full] = (value, v.mark)
                    order.append(full)
                }
                continue
            }
            let groupPrefix = full + "."
            if byKey.keys.contains(where: { $0.hasPrefix(groupPrefix) }) {
                guard case .mapping(let sub) = v else {
                    if !Self.isNull(v) {
                        report(.wrongType, here, at: v.mark, "expected a map of rule parameters under '\(full)', got \(Self.shown(v))",
                               value: Self.shown(v))
                    }
                    continue
                }
                walkRules(sub, prefix: full, path: here, byKey: byKey, found: &found, order: &order)
                continue
            }
            // Unknown: suggest a sibling at this level, else the closest full key path.
            let levelPrefix = prefix.isEmpty ? "" : prefix + "."
            let siblings = Set(byKey.keys.filter { $0.hasPrefix(levelPrefix) }.map {
                String($0.dropFirst(levelPrefix.count).split(separator: ".").first ?? "")
            })
            let suggestion = Suggestion.closest(to: k, among: siblings.sorted())
                ?? Suggestion.closest(to: full, among: byKey.keys.sorted()).map { $0.replacingOccurrences(of: levelPrefix, with: "") }
            let known = prefix.isEmpty ? "product '\(product!)'" : "'\(prefix)'"
            report(.unknownKey, here, at: km, "unknown rule parameter '\(k)' for \(known)", value: k, suggestion: suggestion)
        }
    }

    // MARK: - Sweep

    mutating func checkSweep(_ node: Node, at path: KeyPath) -> ScenarioValue? {
        guard case .mapping(let m) = node else {
            report(.wrongType, path, at: node.mark, "expected a map of key path → list of values, got \(Self.shown(node))", value: Self.shown(node))
            return nil
        }
        var axes: [ScenarioEntry] = []
        var counts: [String: Int] = [:]
        var zipNode: (Node, Mark?)?
        let byKey = Dictionary((catalogue ?? []).map { ("rules." + $0.keyPath, $0) }, uniquingKeysWith: { a, _ in a })
        for (k, km, v) in pairs(of: m, at: path) {
            if k == "zip" { zipNode = (v, km); continue }
            let here = path.appending(k)
            let candidates = ScenarioSchema.sweepableKeys + byKey.keys.sorted()
            let scalarKind: ScalarKind?
            let parameter = byKey[k]
            if parameter != nil {
                scalarKind = nil
            } else if ScenarioSchema.sweepableKeys.contains(k), case .scalar(let kind, _)? = ScenarioSchema.scenario.node(at: k) {
                scalarKind = kind
            } else if ScenarioSchema.pairedOnlyKeys.contains(k) {
                report(.invalid, here, at: km, "'\(k)' cannot be swept: the arms of a sweep run on the same people with the same "
                       + "random streams, so they share the seed, horizon and replications", value: k,
                       allowed: "rules.<parameter>, population.installs, population.params.<behaviour parameter> or "
                       + "population.personas.<persona>.params.<behaviour parameter>")
                continue
            } else if let problem = ScenarioSchema.behaviourSweepProblem(k) {
                report(.unknownKey, here, at: km, problem.message, value: k, allowed: problem.allowed, suggestion: problem.suggestion)
                continue
            } else if ScenarioSchema.isBehaviourSweepKey(k) {
                scalarKind = .number(-1e9...1e9)
            } else {
                if k.hasPrefix("rules."), product == nil { continue }
                if k.hasPrefix("rules."), let product, catalogue == nil {
                    report(.invalid, here, at: km, "product '\(product)' has no rule catalogue yet, so no rule can be swept")
                    continue
                }
                report(.unknownKey, here, at: km, "'\(k)' cannot be swept", value: k,
                       allowed: "rules.<parameter> or one of " + ScenarioSchema.sweepableKeys.joined(separator: ", "),
                       suggestion: Suggestion.closest(to: k, among: candidates))
                continue
            }
            guard case .sequence(let seq) = v else {
                report(.wrongType, here, at: v.mark, "expected a list of values, got \(Self.shown(v))", value: Self.shown(v))
                continue
            }
            guard !seq.isEmpty else {
                report(.invalid, here, at: v.mark, "the list of values is empty", allowed: "at least one value to sweep over")
                continue
            }
            var values: [ScenarioValue] = []
            for (i, item) in seq.enumerated() {
                if let p = parameter {
                    if let pv = checkParameter(item, p, at: here.appending(i)) { values.append(.parameter(pv)) }
                } else if let kind = scalarKind {
                    if case .scalar(let s) = item {
                        if let sv = checkScalar(s.string, kind, at: here.appending(i), mark: s.mark) { values.append(sv) }
                    } else {
                        report(.wrongType, here.appending(i), at: item.mark, "expected \(kind.noun), got \(Self.shown(item))", allowed: kind.description)
                    }
                }
            }
            counts[k] = seq.count
            axes.append(ScenarioEntry(k, .list(values)))
        }
        var groups: [ScenarioValue] = []
        if let (zn, _) = zipNode {
            let zpath = path.appending("zip")
            if case .sequence(let gs) = zn {
                var used: [String: Int] = [:]
                for (gi, g) in gs.enumerated() {
                    let gpath = zpath.appending(gi)
                    guard case .sequence(let members) = g, members.count >= 2 else {
                        report(.wrongType, gpath, at: g.mark, "expected a list of two or more swept key paths, got \(Self.shown(g))", value: Self.shown(g))
                        continue
                    }
                    var names: [ScenarioValue] = []
                    for (mi, member) in members.enumerated() {
                        guard case .scalar(let s) = member, counts[s.string] != nil || (s.string.hasPrefix("rules.") && product == nil) else {
                            let shown = member.scalar?.string ?? Self.shown(member)
                            report(.unknownKey, gpath.appending(mi), at: member.mark, "'\(shown)' is not a key path swept above", value: shown,
                                   allowed: "one of " + counts.keys.sorted().joined(separator: ", "),
                                   suggestion: Suggestion.closest(to: shown, among: counts.keys.sorted()))
                            continue
                        }
                        if let other = used[s.string], other != gi {
                            report(.invalid, gpath.appending(mi), at: s.mark, "'\(s.string)' is already in zip group \(other)", value: s.string,
                                   allowed: "each key path in at most one zip group")
                        }
                        used[s.string] = gi
                        names.append(.text(s.string))
                    }
                    let lengths = names.compactMap { $0.textValue.flatMap { counts[$0] } }
                    if Set(lengths).count > 1 {
                        let detail = names.compactMap(\.textValue).map { "\($0) has \(counts[$0] ?? 0)" }.joined(separator: ", ")
                        report(.invalid, gpath, at: g.mark, "zipped key paths need the same number of values: \(detail)", allowed: "equal list lengths")
                    }
                    groups.append(.list(names))
                }
            } else {
                report(.wrongType, zpath, at: zn.mark, "expected a list of groups of key paths, got \(Self.shown(zn))", value: Self.shown(zn))
            }
        }
        return .map([ScenarioEntry("axes", .map(axes)), ScenarioEntry("zip", .list(groups))])
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

extension ParameterKind {
    /// The noun used in "expected …, got …" messages.
    var noun: String {
        switch self {
        case .integer: return "an integer"
        case .number: return "a number"
        case .boolean: return "true or false"
        case .choice: return "a word"
        case .timeOfDay: return "a time of day HH:MM"
        case .weekdays: return "a list of weekdays"
        }
    }
}
