import Foundation
import RulesCore
import Yams

/// `rules`: nested overrides checked against the product's `RuleParameter` catalogue.
extension ScenarioChecker {
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
                    report(.outOfRange, path, at: m, "'\(w.echoed())' is not a weekday", value: w, allowed: allowed,
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
        let noun = p.kind.noun
        switch p.kind {
        case .integer(let r): return checkForm(raw, .integer(r), noun: noun, allowed: allowed, at: path, mark: s.mark)
        case .number(let r): return checkForm(raw, .number(r), noun: noun, allowed: allowed, at: path, mark: s.mark)
        case .boolean: return checkForm(raw, .boolean, noun: noun, allowed: allowed, at: path, mark: s.mark)
        case .choice(let words): return checkForm(raw, .choice(words), noun: noun, allowed: allowed, at: path, mark: s.mark)
        case .timeOfDay:
            guard let t = LocalTimeOfDay(text: raw) else {
                report(.wrongType, path, at: s.mark, "expected \(noun), got '\(raw.echoed())'", value: raw, allowed: allowed)
                return nil
            }
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
        walkRules(m, prefix: "", path: path, byKey: byKey, found: &found, order: &order, behaviour: false)
        return .map(order.map { ScenarioEntry($0, .parameter(found[$0]!.0)) })
    }

    /// `behavior:` (scenario or arm): behaviour-parameter overrides, nested (`churn: {base_hazard: 0.1}`) or dotted
    /// (`churn.base_hazard: 0.1`), checked against the behaviour catalogue like `rules` against the product's.
    mutating func checkBehavior(_ node: Node, at path: KeyPath) -> ScenarioValue? {
        guard case .mapping(let m) = node else {
            report(.wrongType, path, at: node.mark, "expected a map of behaviour parameters, got \(Self.shown(node))", value: Self.shown(node),
                   allowed: "a map of behaviour parameter → number, e.g. churn.base_hazard: 0.1")
            return nil
        }
        guard let behavior, !behavior.isEmpty else {
            if !m.isEmpty {
                report(.invalid, path, at: node.mark, "no behaviour-parameter catalogue is registered, so behavior accepts no keys",
                       allowed: "no keys under behavior")
            }
            return .map([])
        }
        let byKey = Dictionary(behavior.map { ($0.keyPath, $0) }, uniquingKeysWith: { a, _ in a })
        var found: [String: (ParameterValue, Mark?)] = [:]
        var order: [String] = []
        walkRules(m, prefix: "", path: path, byKey: byKey, found: &found, order: &order, behaviour: true)
        return .map(order.map { ScenarioEntry($0, .parameter(found[$0]!.0)) })
    }

    private mutating func walkRules(_ m: Node.Mapping, prefix: String, path: KeyPath, byKey: [String: RuleParameter],
                                    found: inout [String: (ParameterValue, Mark?)], order: inout [String], behaviour: Bool) {
        let noun = behaviour ? "behaviour parameter" : "rule"

        for (k, km, v) in pairs(of: m, at: path) {
            let full = prefix.isEmpty ? k : "\(prefix).\(k)"
            let here = path.appending(k)
            if let p = byKey[full] {
                if let (_, first) = found[full] {
                    report(.duplicateKey, here, at: km, "\(noun) '\(full.echoed())' is set twice" + (first.map { " (first at line \($0.line))" } ?? ""),
                           allowed: "each \(noun) once")
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
                        report(.wrongType, here, at: v.mark, "expected a map of \(noun)s under '\(full.echoed())', got \(Self.shown(v))",
                               value: Self.shown(v))
                    }
                    continue
                }
                walkRules(sub, prefix: full, path: here, byKey: byKey, found: &found, order: &order, behaviour: behaviour)
                continue
            }
            // Unknown: suggest a sibling at this level, else the closest full key path.
            let levelPrefix = prefix.isEmpty ? "" : prefix + "."
            let siblings = Set(byKey.keys.filter { $0.hasPrefix(levelPrefix) }.map {
                String($0.dropFirst(levelPrefix.count).split(separator: ".").first ?? "")
            })
            let suggestion = Suggestion.closest(to: k, among: siblings.sorted())
                ?? Suggestion.closest(to: full, among: byKey.keys.sorted()).map { $0.replacingOccurrences(of: levelPrefix, with: "") }
            if behaviour {
                let under = prefix.isEmpty ? "" : " under '\(prefix.echoed())'"
                report(.unknownKey, here, at: km, "unknown behaviour parameter '\(k.echoed())'\(under)", value: k,
                       allowed: "one of " + AllowedList.text(siblings.sorted(), seeAlso: "habitat validate --explain"), suggestion: suggestion)
                continue
            }
            let known = prefix.isEmpty ? "product '\(product!)'" : "'\(prefix.echoed())'"
            report(.unknownKey, here, at: km, "unknown rule parameter '\(k.echoed())' for \(known)", value: k, suggestion: suggestion)
        }
    }
}
