import Testing
import Behavior
import RulesCore
import ScenarioFormat
@testable import Simulation
import ProductRegistry
@testable import ScrollOffLife

/// Validation checks personas, overrides and devices against `Products.catalogues`; the run builds them with
/// `PersonaCatalog`, `Persona.applying(overrides:)` and `DeviceCatalog`. The two must agree, in both directions.
@Suite("Population catalogue agrees with the behaviour and energy models")
struct PopulationCatalogueTests {
    let loader = ScenarioLoader(catalogues: Products.catalogues)

    func scenario(persona: String, params: String = "{}", device: String = "iphone-13", product: String = "scroll-off") -> String {
        """
        product: \(product)
        population:
          personas: [{name: \(persona), share: 1, params: \(params)}]
          devices: [{model: \(device), share: 1}]
        """
    }

    @Test("every built-in persona, with every parameter at both ends of its range, on every device, validates and builds")
    func everythingKnownIsAccepted() throws {
        for (name, persona) in PersonaCatalog.builtIn {
            for end in [\ClosedRange<Double>.lowerBound, \ClosedRange<Double>.upperBound] {
                let params = "{" + PersonaParameter.allCases.map { "\($0.rawValue): \($0.validRange[keyPath: end])" }.joined(separator: ", ") + "}"
                for device in DeviceCatalog.ids {
                    let s = try loader.load(yaml: scenario(persona: name, params: params, device: device), fileName: "p.yaml")
                    _ = try World<ScrollOffProduct>(scenario: s, arm: s.arms[0], replication: 0)
                    _ = try persona.applying(overrides: s.population.personas[0].params)
                }
            }
        }
    }

    @Test("what the models refuse, validation refuses with a location, for a product with and without an engine",
          arguments: ["scroll-off", "nudge"])
    func refusalsAgree(product: String) throws {
        let cases = [
            scenario(persona: "studnet", product: product),
            scenario(persona: "student", params: "{pickups_per_dya: 50}", product: product),
            scenario(persona: "student", device: "iphone-31", product: product),
        ]
        for yaml in cases {
            #expect(throws: ScenarioError.self) { try loader.load(yaml: yaml, fileName: "p.yaml") }
            do { _ = try loader.load(yaml: yaml, fileName: "p.yaml") } catch {
                #expect(error.issues.allSatisfy { $0.line != nil && $0.column != nil })
            }
        }
        #expect(throws: (any Error).self) { try PersonaCatalog.persona(named: "studnet") }
        #expect(throws: (any Error).self) { try PersonaCatalog.student.applying(overrides: ["pickups_per_dya": .fixed(50)]) }
        #expect(throws: (any Error).self) { try DeviceCatalog.device(id: "iphone-31") }
    }

    @Test("Scroll Off's precision KPIs are its accumulator's")
    func kpis() throws {
        let ids = RunAccumulator<ScrollOffProduct>(horizonDays: 1).kpiValues().map(\.0.id)
        #expect(Products.catalogues.kpis(of: "scroll-off") == ids)
        _ = try loader.load(yaml: "precision: {kpis: {\(ids[0]): 0.1}}", fileName: "k.yaml")
        #expect(throws: ScenarioError.self) { try loader.load(yaml: "precision: {kpis: {\(ids[0])_x: 0.1}}", fileName: "k.yaml") }
    }
}
