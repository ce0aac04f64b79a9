import Testing
import RulesCore
@testable import ScenarioFormat

/// Personas, their parameter overrides, device models and precision KPIs are checked during validation, for every
/// product, against the catalogues the caller registers — located, with a "did you mean", and collected with every
/// other problem.
@Suite("Population and precision validation")
struct PopulationValidationTests {
    /// A registry with a made-up behaviour model (two personas, three parameters), two devices, and KPI ids for
    /// Scroll Off and Nudge.
    static let catalogues: ProductCatalogues = {
        let parameters = [
            PopulationCatalogue.Parameter(name: "pickups_per_day", range: 5...400),
            PopulationCatalogue.Parameter(name: "self_efficacy", range: 0...1),
            PopulationCatalogue.Parameter(name: "sleep_hours", range: 3...12),
        ]
        var c = TestCatalogue.catalogues
        c.population = PopulationCatalogue(personas: ["general": parameters, "student": parameters], devices: ["iphone-13", "iphone-15"])
        c.registerKPIs("scroll-off", ["retention_d30", "download_to_paid"])
        c.registerKPIs("nudge", ["tasks_completed_per_day"])
        return c
    }()

    static func error(_ yaml: String) -> ScenarioError? {
        do {
            _ = try ScenarioLoader(catalogues: catalogues).load(yaml: yaml, fileName: "pop.yaml")
            return nil
        } catch {
            return error
        }
    }

    static let products: [Product] = ["scroll-off", "nudge"]

    @Test("a misspelt persona is reported at its line and column with a suggestion", arguments: products)
    func misspeltPersona(product: Product) throws {
        let error = try #require(Self.error("""
            product: \(product)
            population:
              personas:
                - {name: general, share: 0.5}
                - name: studnet
                  share: 0.5
            """))
        #expect(error.issues.count == 1)
        let issue = try #require(error.issues.first)
        #expect(issue.keyPath == "population.personas[1].name")
        #expect(issue.line == 5 && issue.column == 13)
        #expect(issue.suggestion == "student")
        #expect(issue.value == "studnet")
        #expect(issue.description == "pop.yaml:5:13: error: population.personas[1].name: unknown persona 'studnet'; "
                + "allowed one of general, student; did you mean 'student'?")
    }

    @Test("an unknown persona parameter is reported at its key with a suggestion", arguments: products)
    func unknownParameter(product: Product) throws {
        let error = try #require(Self.error("""
            product: \(product)
            population:
              personas:
                - name: student
                  share: 1
                  params:
                    pickups_per_dya: 60
            """))
        let issue = try #require(error.issues.first)
        #expect(error.issues.count == 1)
        #expect(issue.kind == .unknownKey)
        #expect(issue.keyPath == "population.personas[0].params.pickups_per_dya")
        #expect(issue.line == 7 && issue.column == 9)
        #expect(issue.suggestion == "pickups_per_day")
        #expect(issue.allowed == "one of pickups_per_day, self_efficacy, sleep_hours")
    }

    @Test("a fixed override outside the range the model clamps to is refused with the range", arguments: products)
    func overrideOutOfRange(product: Product) throws {
        let error = try #require(Self.error("""
            product: \(product)
            population:
              personas:
                - name: general
                  share: 1
                  params: {sleep_hours: 30, self_efficacy: {distribution: beta, alpha: 2, beta: 0}}
            """))
        #expect(error.issues.count == 2)
        let range = try #require(error.issues.first { $0.keyPath == "population.personas[0].params.sleep_hours" })
        #expect(range.kind == .outOfRange)
        #expect(range.line == 6 && range.column == 29)
        #expect(range.value == "30")
        #expect(range.allowed == "a number in 3.0…12.0")
        // A distribution's own parameters are checked as before.
        #expect(error.issues.contains { $0.keyPath == "population.personas[0].params.self_efficacy.beta" && $0.kind == .outOfRange })
    }

    @Test("an unknown device model is reported with a suggestion, in the scenario and in an arm", arguments: products)
    func unknownDevice(product: Product) throws {
        let error = try #require(Self.error("""
            product: \(product)
            population:
              devices: [{model: iphone-31, share: 1}]
            arms:
              - name: b
                population:
                  devices:
                    - {model: iphone-15, share: 0.5}
                    - {model: pixel-8, share: 0.5}
            """))
        #expect(error.issues.count == 2)
        let first = try #require(error.issues.first)
        #expect(first.keyPath == "population.devices[0].model")
        #expect(first.line == 3 && first.column == 21)
        #expect(first.suggestion == "iphone-13")
        #expect(first.allowed == "one of iphone-13, iphone-15")
        let arm = try #require(error.issues.last)
        #expect(arm.keyPath == "arms[0].population.devices[1].model")
        #expect(arm.line == 9 && arm.value == "pixel-8")
    }

    @Test("an unknown precision KPI is reported with the product's KPI ids", arguments: products)
    func unknownKPI(product: Product) throws {
        let known = Self.catalogues.kpis(of: product) ?? []
        let error = try #require(Self.error("""
            product: \(product)
            precision:
              kpis:
                \(known[0])x: 0.01
                \(known[0]): 0.01
            """))
        #expect(error.issues.count == 1)
        let issue = try #require(error.issues.first)
        #expect(issue.kind == .unknownKey)
        #expect(issue.keyPath == "precision.kpis.\(known[0])x")
        #expect(issue.line == 4 && issue.column == 5)
        #expect(issue.suggestion == known[0])
        #expect(issue.allowed == "one of " + known.joined(separator: ", "))
    }

    @Test("a product without registered KPIs accepts no precision KPI")
    func productWithoutKPIs() throws {
        // earned-access: an engine in TestCatalogue, no KPI ids here (lazuri has no engine: a second issue, issue 40).
        let error = try #require(Self.error("""
            product: earned-access
            precision:
              kpis: {retention_d30: 0.01}
            """))
        let issue = try #require(error.issues.first)
        #expect(error.issues.count == 1)
        #expect(issue.keyPath == "precision.kpis.retention_d30")
        #expect(issue.message.contains("no KPIs"))
        #expect(issue.line == 3)
    }

    @Test("sweeping an unknown behaviour parameter, or a value outside its range, is reported at the sweep key")
    func sweptParameters() throws {
        let error = try #require(Self.error("""
            population:
              personas: [{name: student, share: 1}]
            sweep:
              population.params.slep_hours: [6, 7]
              population.personas.student.params.self_efficacy: [0.5, 1.5]
            """))
        #expect(error.issues.count == 2)
        let unknown = try #require(error.issues.first)
        #expect(unknown.keyPath == "sweep.population.params.slep_hours")
        #expect(unknown.line == 4 && unknown.column == 3)
        #expect(unknown.suggestion == "sleep_hours")
        let range = try #require(error.issues.last)
        #expect(range.keyPath == "sweep.population.personas.student.params.self_efficacy[1]")
        #expect(range.line == 5 && range.value == "1.5")
    }

    @Test("population problems are listed with every other problem, in line order")
    func collectedWithOthers() throws {
        let error = try #require(Self.error("""
            product: nudge
            horizon_dayz: 3
            population:
              personas: [{name: studnet, share: 1}]
              devices: [{model: iphone-31, share: 1}]
            replications: 0
            """))
        #expect(error.issues.map(\.line) == [2, 4, 5, 6])
    }

    @Test("valid personas, overrides, devices and KPIs pass; without a population catalogue nothing is checked")
    func validAndUnchecked() throws {
        let yaml = """
            population:
              personas:
                - {name: student, share: 1, params: {pickups_per_day: 400, sleep_hours: {distribution: normal, mean: 20, sd: 1}}}
              devices: [{model: iphone-15, share: 1}]
            precision:
              kpis: {download_to_paid: 0.01}
            """
        #expect(Self.error(yaml) == nil)
        #expect(TestCatalogue.error(yaml.replacingOccurrences(of: "student", with: "nobody")) == nil)
    }
}
