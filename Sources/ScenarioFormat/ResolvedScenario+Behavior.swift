import Foundation
import RulesCore

extension ResolvedScenario {
    /// The file name issues of `withBehavior(_:)` carry.
    public static let behaviorOverridesSource = "<behavior overrides>"

    /// This scenario with behaviour parameters overridden in every arm (and at the scenario level): what
    /// `habitat calibrate` calls for each candidate point. Keys are catalogue keys without the `behavior.` prefix
    /// (`churn.base_hazard`; the prefix is accepted too). Every key must be in `behaviorCatalogue` and every value a
    /// finite number in its range; otherwise a `ScenarioError` lists every problem (file `<behavior overrides>`, key
    /// path `behavior.<key>`, the value and what is allowed). Arms keep their other differences; a value an arm or
    /// sweep point set for an overridden key is replaced.
    public func withBehavior(_ overrides: [String: Double]) throws -> ResolvedScenario {
        let byKey = Dictionary(behaviorCatalogue.map { ($0.keyPath, $0) }, uniquingKeysWith: { a, _ in a })
        var issues: [ScenarioIssue] = []
        var checked: [(String, ParameterValue)] = []
        for raw in overrides.keys.sorted() {
            let key = raw.hasPrefix("behavior.") ? String(raw.dropFirst("behavior.".count)) : raw
            let value = overrides[raw]!
            guard let p = byKey[key] else {
                issues.append(ScenarioIssue(file: Self.behaviorOverridesSource, keyPath: "behavior." + key, kind: .unknownKey,
                                            message: "unknown behaviour parameter '\(key.echoed())'", value: key,
                                            allowed: behaviorCatalogue.isEmpty ? "none: the scenario was resolved without a behaviour catalogue"
                                                : "one of " + AllowedList.text(behaviorCatalogue.map(\.keyPath), seeAlso: "habitat validate --explain"),
                                            suggestion: Suggestion.closest(to: key, among: byKey.keys.sorted())))
                continue
            }
            if let problem = p.problem(with: .number(value)) {
                issues.append(ScenarioIssue(file: Self.behaviorOverridesSource, keyPath: "behavior." + key, kind: .outOfRange,
                                            message: "\(formatNumber(value)) is out of range: \(problem)", value: formatNumber(value),
                                            allowed: p.kind.description))
                continue
            }
            checked.append((key, .number(value)))
        }
        if !issues.isEmpty { throw ScenarioError(issues: issues) }
        var s = self
        for (k, v) in checked {
            s.behavior[k] = v
            for i in s.arms.indices { s.arms[i].behavior[k] = v }
        }
        return s
    }

    /// A text table of every behaviour parameter for `habitat validate --explain`: key path (`behavior.…`), value
    /// (one column per arm when there are several), default, allowed range and source (publication or assumption).
    /// A `*` marks a value that differs from the default.
    public func explainBehavior() -> String {
        guard !behaviorCatalogue.isEmpty else { return "no behaviour-parameter catalogue: no behaviour parameters to explain\n" }
        let valueHeaders = arms.count == 1 ? ["value"] : arms.map { "value[\($0.name)]" }
        let header = ["key"] + valueHeaders + ["default", "allowed", "source", "what it is"]
        var rows: [[String]] = []
        for p in behaviorCatalogue {
            let def = ScenarioLoader.canonical(p.defaultValue, p.kind)
            let values = arms.map { arm -> String in
                guard let v = arm.behavior[p.keyPath] ?? behavior[p.keyPath] else { return def.description }
                return v.description + (v == def ? "" : " *")
            }
            rows.append(["behavior." + p.keyPath] + values + [def.description, p.kind.description, p.source.description, p.summary])
        }
        var text = TextTable.render(header, rows, underline: true)
        let changed = rows.filter { $0.contains(where: { $0.hasSuffix(" *") }) }.count
        text += "\(behaviorCatalogue.count) behaviour parameters, \(changed) changed from the default (*); "
        text += "\(behaviorCatalogue.filter { $0.source.isAssumption }.count) defaults are assumptions\n"
        return text
    }
}
