import Foundation
import RulesCore
import Yams

/// `sensitivity.ranges` (issue 45): the ranges a scenario states for `habitat sensitivity`, checked against the
/// behaviour catalogue after the schema walk (which has already checked that each entry is a map of two numbers).
///
/// Each key must name a number behaviour parameter as `behavior.<parameter>` (the form `--params` and `--range` use);
/// each range must have `low` below `high`, both inside the parameter's validated range. Every problem carries its line,
/// key path, value and what is allowed, and joins the file's other problems.
extension ScenarioChecker {
    mutating func checkSensitivityRanges(_ root: Node?) {
        guard case .mapping(let top)? = root, let behavior, !behavior.isEmpty else { return }
        let path = KeyPath.root.appending("sensitivity").appending("ranges")
        let byKey = Dictionary(behavior.map { ("behavior." + $0.keyPath, $0) }, uniquingKeysWith: { a, _ in a })
        let numberKeys = behavior.filter { if case .number = $0.kind { return true }; return false }.map { "behavior." + $0.keyPath }
        for (k, km, v) in quietPairs(top["sensitivity"]?.mapping?["ranges"]) {
            let here = path.appending(k)
            guard let parameter = byKey[k.hasPrefix("behavior.") ? k : "behavior." + k] else {
                report(.unknownKey, here, at: km, "'\(k.echoed())' is not a behaviour parameter", value: k,
                       allowed: "behavior.<a number behaviour parameter> (habitat validate --explain lists them)",
                       suggestion: Suggestion.closest(to: k.hasPrefix("behavior.") ? k : "behavior." + k, among: numberKeys))
                continue
            }
            guard k.hasPrefix("behavior.") else {
                report(.invalid, here, at: km, "write the parameter as 'behavior.\(k.echoed())', the form --params and --range use", value: k,
                       allowed: "behavior.<parameter>", suggestion: "behavior." + k)
                continue
            }
            guard case .number(let valid) = parameter.kind, valid.upperBound > valid.lowerBound else {
                report(.invalid, here, at: km, "'\(k.echoed())' is not a number parameter with a range to vary over", value: k,
                       allowed: "a number behaviour parameter")
                continue
            }
            guard case .mapping(let m) = v, let lowNode = m["low"], let highNode = m["high"],
                  case .scalar(let lowScalar) = lowNode, case .scalar(let highScalar) = highNode,
                  let low = Self.parseNumber(lowScalar.string), let high = Self.parseNumber(highScalar.string) else {
                continue // not two numbers: the schema walk has reported it
            }
            guard low < high else {
                report(.invalid, here, at: lowNode.mark, "low \(formatNumber(low)) is not below high \(formatNumber(high))",
                       value: "\(formatNumber(low))…\(formatNumber(high))", allowed: "low < high")
                continue
            }
            guard low >= valid.lowerBound, high <= valid.upperBound else {
                let outside = low < valid.lowerBound ? lowNode : highNode
                report(.outOfRange, here, at: outside.mark,
                       "range \(formatNumber(low))…\(formatNumber(high)) leaves \(k.echoed())'s validated range",
                       value: "\(formatNumber(low))…\(formatNumber(high))",
                       allowed: "within \(formatNumber(valid.lowerBound))…\(formatNumber(valid.upperBound))")
                continue
            }
        }
    }
}
