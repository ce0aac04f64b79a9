import Foundation
import RulesCore
import Yams

/// `sweep`: the grid's axes (key path → list of values) and its `zip` groups.
extension ScenarioChecker {
    /// What one sweep axis varies: a rule parameter, or a schema scalar (`population.installs`, `tenure_days`, `product`,
    /// behaviour parameters).
    enum SweepTarget {
        case parameter(RuleParameter)
        case scalar(ScalarKind)
    }

    mutating func checkSweep(_ node: Node, at path: KeyPath) -> ScenarioValue? {
        guard case .mapping(let m) = node else {
            report(.wrongType, path, at: node.mark, "expected a map of key path → list of values, got \(Self.shown(node))", value: Self.shown(node))
            return nil
        }
        var axes: [ScenarioEntry] = []
        var counts: [String: Int] = [:]
        var zipNode: Node?
        var byKey = Dictionary((catalogue ?? []).map { ("rules." + $0.keyPath, $0) }, uniquingKeysWith: { a, _ in a })
        for p in behavior ?? [] { byKey["behavior." + p.keyPath] = p }
        var ruleAxes: [(key: String, mark: Mark?)] = []
        var productAxis = false
        for (k, km, v) in pairs(of: m, at: path) {
            if k == "zip" { zipNode = v; continue }
            let here = path.appending(k)
            if k == "product" { productAxis = true }
            if k.hasPrefix("rules.") { ruleAxes.append((k, km)) }
            guard let target = sweepTarget(k, keyMark: km, at: here, byKey: byKey),
                  let values = sweepValues(v, target, at: here) else { continue }
            counts[k] = values.count
            axes.append(ScenarioEntry(k, .list(values.checked)))
        }
        // Rule parameters belong to one product: a grid over products cannot also vary one product's rules.
        if productAxis {
            for (k, km) in ruleAxes {
                report(.invalid, path.appending(k), at: km, "'\(k.echoed())' cannot be swept together with 'product': rule parameters belong to "
                       + "one product's catalogue", value: k,
                       allowed: "a product axis with behavior.*, population.* or tenure_days axes; rules.* axes in a sweep without one "
                       + "(or arms with `product:` and their own `rules:`)")
            }
        }
        let groups = zipNode.map { checkZip($0, counts: counts, at: path.appending("zip")) } ?? []
        return .map([ScenarioEntry("axes", .map(axes)), ScenarioEntry("zip", .list(groups))])
    }

    /// What a sweep key varies, or nil when it cannot be swept (reported) or its product is unknown (skipped).
    private mutating func sweepTarget(_ k: String, keyMark km: Mark?, at here: KeyPath, byKey: [String: RuleParameter]) -> SweepTarget? {
        if let parameter = byKey[k] { return .parameter(parameter) }
        if ScenarioSchema.sweepableKeys.contains(k), case .scalar(let kind, _)? = ScenarioSchema.scenario.node(at: k) { return .scalar(kind) }
        if ScenarioSchema.pairedOnlyKeys.contains(k) {
            report(.invalid, here, at: km, "'\(k.echoed())' cannot be swept: the arms of a sweep run on the same people with the same "
                   + "random streams, so they share the seed, horizon and replications", value: k,
                   allowed: "rules.<parameter>, behavior.<parameter>, " + ScenarioSchema.sweepableKeys.joined(separator: ", ")
                   + ", population.params.<behaviour parameter> or population.personas.<persona>.params.<behaviour parameter>")
            return nil
        }
        if let problem = ScenarioSchema.behaviourSweepProblem(k) {
            report(.unknownKey, here, at: km, problem.message, value: k, allowed: problem.allowed, suggestion: problem.suggestion)
            return nil
        }
        if ScenarioSchema.isBehaviourSweepKey(k) {
            switch sweptBehaviourParameter(k, keyMark: km, at: here) {
            case .known(let range)?: return .scalar(.number(range))
            case .unchecked?: return .scalar(.number(-1e9...1e9))
            case nil: return nil
            }
        }
        if k.hasPrefix("behavior.") {
            let name = String(k.dropFirst("behavior.".count))
            let known = (behavior ?? []).map(\.keyPath)
            report(.unknownKey, here, at: km, "unknown behaviour parameter '\(name.echoed())' cannot be swept", value: k,
                   allowed: known.isEmpty ? "no behaviour parameters (none registered)" : "behavior.<one of the behaviour parameters>",
                   suggestion: Suggestion.closest(to: name, among: known).map { "behavior." + $0 })
            return nil
        }
        if k.hasPrefix("rules."), product == nil { return nil }
        if k.hasPrefix("rules."), let product, catalogue == nil {
            report(.invalid, here, at: km, "product '\(product)' has no rule catalogue yet, so no rule can be swept")
            return nil
        }
        report(.unknownKey, here, at: km, "'\(k.echoed())' cannot be swept", value: k,
               allowed: "rules.<parameter>, behavior.<parameter> or one of " + ScenarioSchema.sweepableKeys.joined(separator: ", "),
               suggestion: Suggestion.closest(to: k, among: ScenarioSchema.sweepableKeys + byKey.keys.sorted()))
        return nil
    }

    /// The values of one axis: how many were given, and those that passed their check. Nil when the axis is not a
    /// non-empty list (reported).
    private mutating func sweepValues(_ v: Node, _ target: SweepTarget, at here: KeyPath) -> (count: Int, checked: [ScenarioValue])? {
        guard case .sequence(let seq) = v else {
            report(.wrongType, here, at: v.mark, "expected a list of values, got \(Self.shown(v))", value: Self.shown(v))
            return nil
        }
        guard !seq.isEmpty else {
            report(.invalid, here, at: v.mark, "the list of values is empty", allowed: "at least one value to sweep over")
            return nil
        }
        var values: [ScenarioValue] = []
        for (i, item) in seq.enumerated() {
            switch target {
            case .parameter(let p):
                if let pv = checkParameter(item, p, at: here.appending(i)) { values.append(.parameter(pv)) }
            case .scalar(let kind):
                if case .scalar(let s) = item {
                    if let sv = checkScalar(s.string, kind, at: here.appending(i), mark: s.mark) { values.append(sv) }
                } else {
                    report(.wrongType, here.appending(i), at: item.mark, "expected \(kind.noun), got \(Self.shown(item))", allowed: kind.description)
                }
            }
        }
        return (seq.count, values)
    }

    /// `sweep.zip`: groups of two or more swept key paths of equal length, each key path in at most one group.
    private mutating func checkZip(_ zn: Node, counts: [String: Int], at zpath: KeyPath) -> [ScenarioValue] {
        guard case .sequence(let gs) = zn else {
            report(.wrongType, zpath, at: zn.mark, "expected a list of groups of key paths, got \(Self.shown(zn))", value: Self.shown(zn))
            return []
        }
        var groups: [ScenarioValue] = []
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
                    report(.unknownKey, gpath.appending(mi), at: member.mark, "'\(shown.echoed())' is not a key path swept above", value: shown,
                           allowed: "one of " + AllowedList.text(counts.keys.sorted()),
                           suggestion: Suggestion.closest(to: shown, among: counts.keys.sorted()))
                    continue
                }
                if let other = used[s.string], other != gi {
                    report(.invalid, gpath.appending(mi), at: s.mark, "'\(s.string.echoed())' is already in zip group \(other)", value: s.string,
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
        return groups
    }
}
