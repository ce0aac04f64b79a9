import Foundation
import RulesCore
import Yams

/// Persona parameter values: a number, or a `{distribution: …}` map with the family's parameters.
extension ScenarioChecker {
    mutating func checkDistribution(_ node: Node, at path: KeyPath) -> ScenarioValue? {
        let families = Distribution.Family.allCases.map(\.rawValue)
        let allowed = "a number, or a map {distribution: \(families.joined(separator: "|")), …} with its parameters"
        switch node {
        case .scalar(let s):
            guard let d = Self.parseNumber(s.string) else {
                report(.wrongType, path, at: s.mark, "expected a number or a distribution, got '\(s.string.echoed())'", value: s.string, allowed: allowed)
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
                  let family = Distribution.Family(rawValue: fname) else { return nil }
            var values: [String: Double] = [:]
            var ok = true
            for (k, km, v) in given where k != "distribution" {
                guard family.parameterNames.contains(k) else {
                    report(.unknownKey, path.appending(k), at: km, "unknown key '\(k.echoed())' for a \(family.rawValue) distribution", value: k,
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
            // What the behaviour model refuses (`Persona.applying(overrides:)`): the checks above are stricter, so this
            // holds for every distribution that reaches it; kept so that a looser check above cannot let one through.
            let distribution = Distribution(family: family, values: family.parameterNames.map { values[$0]! })
            if let why = distribution.problem {
                report(.outOfRange, path, at: node.mark, "\(distribution.scenarioText): \(why)", allowed: allowed)
                return nil
            }
            return .map([ScenarioEntry("distribution", .text(family.rawValue))] + family.parameterNames.map { ScenarioEntry($0, .number(values[$0]!)) })
        default:
            report(.wrongType, path, at: node.mark, "expected a number or a distribution, got \(Self.shown(node))", allowed: allowed)
            return nil
        }
    }
}
