import Foundation
import RulesCore

extension ResolvedScenario {
    /// A text table of every rule parameter for `habitat validate --explain`: key path, value (one column per arm
    /// when there are several), default, allowed range and where the default comes from (seed section,
    /// publication or assumption). A `*` marks a value that differs from the default; parameters in `notExercised`
    /// (no simulated person reaches them) say so beside their source.
    public func explain(_ catalogue: [RuleParameter], notExercised: Set<String> = [], note: String = "not exercised by the simulated people") -> String {
        guard !catalogue.isEmpty else { return "product '\(product)' has no rule catalogue yet: no rule parameters to explain\n" }
        let valueHeaders = arms.count == 1 ? ["value"] : arms.map { "value[\($0.name)]" }
        let header = ["key"] + valueHeaders + ["default", "allowed", "source"]
        var rows: [[String]] = []
        for p in catalogue.sorted(by: { $0.keyPath < $1.keyPath }) {
            let def = ScenarioLoader.canonical(p.defaultValue, p.kind)
            let values = arms.map { arm -> String in
                guard let v = arm.rules[p.keyPath] else { return "-" }
                return v.description + (v == def ? "" : " *")
            }
            let source = p.source.description + (notExercised.contains(p.keyPath) ? " — \(note)" : "")
            rows.append(["rules." + p.keyPath] + values + [def.description, p.kind.description, source])
        }
        var text = TextTable.render(header, rows, underline: true)
        let changed = rows.filter { $0.contains(where: { $0.hasSuffix(" *") }) }.count
        text += "\(catalogue.count) rule parameters, \(changed) changed from the default (*); "
        text += "\(catalogue.filter { $0.source.isAssumption }.count) defaults are assumptions"
        text += notExercised.isEmpty ? "\n" : "; \(catalogue.filter { notExercised.contains($0.keyPath) }.count) \(note)\n"
        return text
    }
}
