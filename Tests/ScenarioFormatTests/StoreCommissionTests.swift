import Testing
import RulesCore
@testable import ScenarioFormat

/// Issue 38 (audit N16): the store's commission is a scenario parameter, `store:` — Apple's 30 % (15 % on a
/// subscription after a year of paid tenure) by default, the App Store Small Business Program's 15 % on every sale
/// when `small_business_program: true`.
@Suite("Store commission (store:)")
struct StoreCommissionTests {
    static func load(_ yaml: String, overrides: ScenarioOverrides = .none) throws -> ResolvedScenario {
        try ProductArmsTests.loader.load(yaml: yaml, fileName: "store.yaml", overrides: overrides)
    }

    static func error(_ yaml: String, overrides: ScenarioOverrides = .none) -> ScenarioError? {
        do { _ = try load(yaml, overrides: overrides); return nil } catch { return error as? ScenarioError }
    }

    @Test("without store: the commission is Apple's standard one, and the resolved text and hash are as before the key")
    func defaults() throws {
        let s = try Self.load("name: x\n")
        #expect(s.store == StoreSpec() && s.store.isDefault)
        #expect(s.store.standardRate == 0.30 && s.store.reducedRate == 0.15 && !s.store.smallBusinessProgram)
        #expect(!s.yaml.contains("store"))
        // Writing the defaults out changes nothing: the same scenario, text and hash.
        let explicit = try Self.load("name: x\nstore:\n  small_business_program: false\n  standard_rate: 0.3\n  reduced_rate: 0.15\n")
        #expect(explicit == s && explicit.scenarioHash == s.scenarioHash)
    }

    @Test("small_business_program: true makes every sale pay 15 %; the resolved text says so and reads back the same")
    func smallBusiness() throws {
        let s = try Self.load("name: x\nstore:\n  small_business_program: true\n")
        #expect(s.store.smallBusinessProgram && s.store.firstYearRate == 0.15)
        #expect(s.yaml.contains("\nstore:\n  small_business_program: true\n  standard_rate: 0.3\n  reduced_rate: 0.15\n"))
        #expect(s.store.summary == "15 % on every sale (App Store Small Business Program)")
        #expect(StoreSpec().summary == "30 % of a sale, 15 % on a subscription after a year of paid tenure")
        let again = try ProductArmsTests.loader.load(yaml: s.yaml, fileName: "again.yaml")
        #expect(again == s && again.yaml == s.yaml && again.scenarioHash == s.scenarioHash)
        #expect(s.scenarioHash != (try Self.load("name: x\n")).scenarioHash)
        // From the command line too.
        let cli = try Self.load("name: x\n", overrides: ScenarioOverrides(values: ["store.small_business_program": "true"]))
        #expect(cli.store.smallBusinessProgram)
    }

    @Test("rates are fractions 0…1; a wrong value is reported with file, line, key path, value and what is allowed", arguments: [
        ("standard_rate: 1.5", "store.yaml:3:18: error: store.standard_rate: value 1.5 is out of range; allowed a number in 0.0…1.0"),
        ("reduced_rate: -0.1", "store.yaml:3:17: error: store.reduced_rate: value -0.1 is out of range; allowed a number in 0.0…1.0"),
        ("small_business_program: maybe", "store.yaml:3:27: error: store.small_business_program: expected true or false, got 'maybe'; allowed true or false"),
    ])
    func invalid(_ line: String, _ message: String) throws {
        let e = try #require(Self.error("name: x\nstore:\n  \(line)\n"))
        #expect(e.issues.map(\.description) == [message])
    }

    @Test("a reduced rate above the standard rate is refused, naming the key and the bound")
    func reducedAboveStandard() throws {
        let e = try #require(Self.error("name: x\nstore:\n  standard_rate: 0.1\n"))
        #expect(e.issues.count == 1)
        let issue = try #require(e.issues.first)
        #expect(issue.file == "store.yaml" && issue.keyPath == "store.reduced_rate")
        #expect(issue.description.contains("0.15") && issue.description.contains("0.1"))
        let cli = try #require(Self.error("name: x\n", overrides: ScenarioOverrides(values: ["store.standard_rate": "2"])))
        #expect(cli.issues.map(\.description) == ["<command line>: error: store.standard_rate: value 2 is out of range; allowed a number in 0.0…1.0"])
    }

    @Test("a misspelt key under store: is an error with a suggestion")
    func unknownKey() throws {
        let e = try #require(Self.error("name: x\nstore:\n  small_busness_program: true\n"))
        #expect(e.issues.count == 1 && e.issues[0].keyPath == "store.small_busness_program")
        #expect(e.issues[0].description.contains("small_business_program"), "\(e.issues[0].description)")
    }
}
