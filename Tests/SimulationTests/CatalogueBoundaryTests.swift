import Testing
import Behavior
import RulesCore
import ScenarioFormat
import ScrollOffRules
@testable import Simulation
import ProductRegistry
@testable import ScrollOffLife

/// Every value a scenario may set runs: each Scroll Off rule parameter at the minimum and maximum of its declared
/// range (booleans both ways, choices every value) and each behaviour parameter at both ends of its valid range,
/// through the same `ScenarioLoader` and `SimulationRun` as `habitat run`, with the engine's invariant audit on.
/// No trap, no invariant violation (reliability audit 2026-11, section 1c and F2). Small runs: 25 people × 14 days
/// across a month boundary (the token month rolls over), one replication.
@Suite("Catalogue boundaries")
struct CatalogueBoundaryTests {
    /// One scenario setting: a `rules:` key path or a persona parameter, and its YAML value.
    struct Setting: CustomTestStringConvertible, Sendable {
        var rule: String?
        var persona = "general"
        var behaviour: String?
        var value: String
        var testDescription: String {
            if let rule { return "rules.\(rule)=\(value)" }
            if let behaviour { return "\(persona).\(behaviour)=\(value)" }
            return "persona \(persona)"
        }

        var yaml: String {
            var y = """
                name: boundary
                start: 2026-01-26
                horizon_days: 14
                population:
                  installs: 25
                  personas:
                  - name: \(persona)
                    share: 1

                """
            if let behaviour { y += "    params:\n      \(behaviour): \(value)\n" }
            if let rule { y += "rules:\n  \(rule): \(value)\n" }
            return y
        }
    }

    /// Both ends of every rule parameter's declared range (`ScrollOffParameters.catalogue`).
    static let ruleSettings: [Setting] = ScrollOffProduct.descriptor.parameters.flatMap { p -> [Setting] in
        let values: [String]
        switch p.kind {
        case .integer(let r): values = ["\(r.lowerBound)", "\(r.upperBound)"]
        case .number(let r): values = ["\(r.lowerBound)", "\(r.upperBound)"]
        case .boolean: values = ["true", "false"]
        case .choice(let c): values = c
        case .timeOfDay: values = ["00:00", "23:59"]
        case .weekdays: values = ["[]", "[mon, tue, wed, thu, fri, sat, sun]"]
        }
        return values.map { Setting(rule: p.keyPath, value: $0) }
    }

    /// Both ends of every behaviour parameter's valid range, and every built-in persona as it is.
    static let behaviourSettings: [Setting] = PersonaParameter.allCases.flatMap { p in
        [p.validRange.lowerBound, p.validRange.upperBound].map { Setting(behaviour: p.rawValue, value: "\($0)") }
    } + PersonaCatalog.builtIn.keys.sorted().map { Setting(persona: $0, value: "") }

    func run(_ s: Setting) throws {
        let scenario = try ScenarioLoader(catalogues: Products.catalogues).load(yaml: s.yaml, fileName: "boundary.yaml")
        var run = SimulationRun<ScrollOffProduct>(scenario: scenario, threads: 1)
        do {
            try run.simulate()
        } catch let v as InvariantViolation {
            Issue.record("\(s.testDescription): \(v)")
            return
        }
        #expect(run.arms[0].pooled.violation == nil)
        #expect(run.arms[0].pooled.people == 25)
    }

    @Test("every rule parameter at each end of its range runs without a trap or an invariant violation", arguments: ruleSettings)
    func ruleParameter(_ s: Setting) throws { try run(s) }

    @Test("every behaviour parameter at each end of its range runs without a trap or an invariant violation", arguments: behaviourSettings)
    func behaviourParameter(_ s: Setting) throws { try run(s) }

    @Test("the sweep covers the whole catalogue and every behaviour parameter")
    func coverage() {
        let keys = Set(Self.ruleSettings.compactMap(\.rule))
        #expect(keys == Set(ScrollOffParameters.catalogue.map(\.keyPath)))
        #expect(Set(Self.behaviourSettings.compactMap(\.behaviour)) == Set(PersonaParameter.allCases.map(\.rawValue)))
    }
}
