import Foundation
import RulesCore
import Yams

/// Names a scenario takes from catalogues outside this target: personas, their parameter overrides and device
/// models (`ProductCatalogues.population`), and the KPI ids `precision.kpis` may name (`ProductCatalogues.kpis`).
///
/// Runs after the schema walk, over the same nodes, so that every issue carries its line, column and key path and
/// joins the others. It reports only what the schema walk let through (names that are usable names, numbers that
/// are numbers), so no mistake is reported twice.
extension ScenarioChecker {
    /// Checks the scenario's and every arm's population, and the precision KPIs (against every arm's product), against
    /// the registered catalogues.
    mutating func checkCatalogueNames(_ root: Node?) {
        guard case .mapping(let top)? = root else { return }
        if population != nil {
            checkPopulationNames(top["population"], at: KeyPath.root.appending("population"))
            if case .sequence(let arms)? = top["arms"] {
                for (i, arm) in arms.enumerated() {
                    checkPopulationNames(arm.mapping?["population"], at: KeyPath.root.appending("arms").appending(i).appending("population"))
                }
            }
        }
        // A KPI is accepted when every arm's product reports it; the first arm's product that does not is named.
        if let registry, let product {
            let armProducts = armProducts(top, scenario: product)
            for (k, km, _) in quietPairs(top["precision"]?.mapping?["kpis"]) {
                guard let product = armProducts.first(where: { registry.kpis(of: $0).map { !$0.contains(k) } ?? false }) else { continue }
                let kpis = registry.kpis(of: product) ?? []
                let here = KeyPath.root.appending("precision").appending("kpis").appending(k)
                if kpis.isEmpty {
                    report(.unknownKey, here, at: km, "product '\(product)' has no KPIs in Habitat yet, so precision can name none", value: k,
                           allowed: "no precision target for \(product)")
                } else {
                    report(.unknownKey, here, at: km, "unknown KPI '\(k.echoed())' for product '\(product)'", value: k,
                           allowed: "one of " + AllowedList.text(kpis), suggestion: Suggestion.closest(to: k, among: kpis))
                }
            }
        }
    }

    /// The persona parameter a sweep key names, checked against the population catalogue: nil with the problem
    /// reported when the name is unknown; `.known(range)` when the catalogue has it; `.unchecked` without a catalogue.
    enum SweptBehaviourParameter {
        case unchecked
        case known(ClosedRange<Double>)
    }

    mutating func sweptBehaviourParameter(_ k: String, keyMark: Mark?, at here: KeyPath) -> SweptBehaviourParameter? {
        guard let population, let target = ScenarioSchema.behaviourSweepTarget(k) else { return .unchecked }
        let parameters = target.persona.flatMap { population.personas[$0] } ?? population.allParameters
        if let p = parameters.first(where: { $0.name == target.parameter }) { return .known(p.range) }
        let names = parameters.map(\.name)
        report(.unknownKey, here, at: keyMark, "unknown persona parameter '\(target.parameter.echoed())'", value: target.parameter,
               allowed: "one of " + AllowedList.text(names, seeAlso: "habitat validate --explain"), suggestion: Suggestion.closest(to: target.parameter, among: names))
        return nil
    }

    /// A `population` map's persona names, parameter overrides and device models.
    private mutating func checkPopulationNames(_ node: Node?, at path: KeyPath) {
        guard let catalogue = population, case .mapping(let m)? = node else { return }
        if case .sequence(let personas)? = m["personas"] {
            for (i, item) in personas.enumerated() {
                guard case .mapping(let persona) = item else { continue }
                let here = path.appending("personas").appending(i)
                var parameters = catalogue.allParameters
                if let name = usableName(persona["name"]) {
                    if let known = catalogue.personas[name.string] {
                        parameters = known
                    } else {
                        report(.outOfRange, here.appending("name"), at: name.mark, "unknown persona '\(name.string.echoed())'", value: name.string,
                               allowed: "one of " + AllowedList.text(catalogue.personaNames, seeAlso: "habitat list"),
                               suggestion: Suggestion.closest(to: name.string, among: catalogue.personaNames))
                    }
                }
                for (k, km, v) in quietPairs(persona["params"]) {
                    checkOverride(k, keyMark: km, v, parameters, at: here.appending("params").appending(k))
                }
            }
        }
        if case .sequence(let devices)? = m["devices"] {
            for (i, item) in devices.enumerated() {
                guard let model = usableName(item.mapping?["model"]), !catalogue.devices.contains(model.string) else { continue }
                report(.outOfRange, path.appending("devices").appending(i).appending("model"), at: model.mark,
                       "unknown device model '\(model.string.echoed())'", value: model.string, allowed: "one of " + AllowedList.text(catalogue.devices),
                       suggestion: Suggestion.closest(to: model.string, among: catalogue.devices))
            }
        }
    }

    /// One persona parameter override: a known name, and a fixed value inside the range the model clamps to
    /// (a distribution's own parameters are checked by the schema walk).
    private mutating func checkOverride(_ k: String, keyMark: Mark?, _ v: Node, _ parameters: [PopulationCatalogue.Parameter], at path: KeyPath) {
        guard let p = parameters.first(where: { $0.name == k }) else {
            let names = parameters.map(\.name)
            report(.unknownKey, path, at: keyMark, "unknown persona parameter '\(k.echoed())'", value: k,
                   allowed: "one of " + AllowedList.text(names, seeAlso: "habitat validate --explain"), suggestion: Suggestion.closest(to: k, among: names))
            return
        }
        guard case .scalar(let s) = v, s.string.utf8.count <= 256, let d = Self.parseNumber(s.string), !p.range.contains(d) else { return }
        report(.outOfRange, path, at: s.mark, "value \(s.string) is out of range", value: s.string, allowed: ScalarKind.number(p.range).description)
    }

    /// A scalar that passed the schema's name check (others are reported there already).
    private func usableName(_ node: Node?) -> Node.Scalar? {
        guard case .scalar(let s)? = node, s.string.utf8.count <= 256, Self.isIdentifier(s.string) else { return nil }
        return s
    }

    /// A mapping's pairs with word keys and a value, without reporting anything (the schema walk has reported
    /// other keys, duplicates and empty values already).
    func quietPairs(_ node: Node?) -> [(key: String, keyMark: Mark?, value: Node)] {
        guard case .mapping(let m)? = node else { return [] }
        return m.compactMap { k, v in
            guard case .scalar(let ks) = k, duplicates[ks.string] == nil, !Self.isNull(v) else { return nil }
            return (ks.string, ks.mark, v)
        }
    }
}
