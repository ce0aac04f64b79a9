import Foundation
import RulesCore
import Testing
@testable import ScenarioFormat

/// `behavior:` blocks (scenario and arm), `behavior.<key>` sweeps and command-line overrides, the resolved YAML,
/// `withBehavior` and `explainBehavior` (issue 14 part 2), against a small made-up behaviour catalogue.
@Suite("Behaviour parameters in scenarios")
struct BehaviorBlockTests {
    static let behavior: [RuleParameter] = [
        RuleParameter("churn.base_hazard", .number(0...1), default: .number(0.08), "churn hazard per day", source: .assumption("test")),
        RuleParameter("churn.value_weight", .number(0...20), default: .number(3), "value weight", source: .assumption("test")),
        RuleParameter("shield.temperature", .number(0.01...100), default: .number(1), "logit temperature",
                      source: .publication("a test paper")),
    ]
    static let loader = ScenarioLoader(catalogues: ProductCatalogues(["scroll-off": TestCatalogue.parameters], behavior: behavior))

    static func load(_ yaml: String, overrides: ScenarioOverrides = .none) throws -> ResolvedScenario {
        try loader.load(yaml: yaml, fileName: "b.yaml", overrides: overrides)
    }
    static func issues(_ yaml: String, overrides: ScenarioOverrides = .none) -> [ScenarioIssue] {
        do { _ = try load(yaml, overrides: overrides); return [] } catch let e as ScenarioError { return e.issues } catch { return [] }
    }

    @Test func defaultsFillEveryArmAndTheYAMLOmitsTheBlock() throws {
        let s = try Self.load("name: b\n")
        #expect(s.behavior["churn.base_hazard"] == .number(0.08))
        #expect(s.arms[0].behavior.values.count == 3)
        #expect(!s.yaml.contains("behavior"), "a scenario at the defaults keeps the text (and hash) it had before")
        #expect(try Self.load(s.yaml) == s)
    }

    @Test func scenarioAndArmBlocksLayerNestedOrDotted() throws {
        let s = try Self.load("""
        behavior:
          churn:
            base_hazard: 0.2
          shield.temperature: 2
        arms:
          - name: a
          - name: b
            behavior:
              churn.base_hazard: 0.5
              churn: {value_weight: 1}
        """)
        #expect(s.behavior["churn.base_hazard"] == .number(0.2))
        #expect(s.arm(named: "a")?.behavior["churn.base_hazard"] == .number(0.2))
        #expect(s.arm(named: "a")?.behavior["shield.temperature"] == .number(2))
        #expect(s.arm(named: "b")?.behavior["churn.base_hazard"] == .number(0.5))
        #expect(s.arm(named: "b")?.behavior["churn.value_weight"] == .number(1))
        #expect(s.arm(named: "b")?.behavior["shield.temperature"] == .number(2))
        #expect(s.yaml.contains("behavior:\n  churn:\n    base_hazard: 0.2\n  shield:\n    temperature: 2.0\n"))
        #expect(s.yaml.contains("  - name: b\n    behavior:\n      churn:\n        base_hazard: 0.5\n        value_weight: 1.0\n"))
        #expect(try Self.load(s.yaml) == s, "the resolved YAML loads back to the same scenario")
    }

    @Test func unknownOutOfRangeAndWrongTypeAreLocatedErrors() {
        let found = Self.issues("""
        behavior:
          churn:
            base_hazrd: 0.2
            value_weight: 50
          shield:
            temperature: warm
        arms:
          - name: x
            behavior:
              nope: 1
        """)
        #expect(found.count == 4)
        let unknown = found.first { $0.keyPath == "behavior.churn.base_hazrd" }
        #expect(unknown?.kind == .unknownKey)
        #expect(unknown?.file == "b.yaml" && unknown?.line == 3)
        #expect(unknown?.value == "base_hazrd")
        #expect(unknown?.suggestion == "base_hazard")
        #expect(unknown?.allowed?.contains("base_hazard") == true)
        let range = found.first { $0.keyPath == "behavior.churn.value_weight" }
        #expect(range?.kind == .outOfRange)
        #expect(range?.value == "50")
        #expect(range?.allowed == "a number in 0.0…20.0")
        let type = found.first { $0.keyPath == "behavior.shield.temperature" }
        #expect(type?.kind == .wrongType)
        #expect(type?.value == "warm")
        let arm = found.first { $0.keyPath == "arms[0].behavior.nope" }
        #expect(arm?.kind == .unknownKey)
        #expect(arm?.allowed?.contains("churn") == true)
        #expect(Self.issues("behavior: 3\n").first?.kind == .wrongType)
    }

    @Test func withoutACatalogueTheBlockAcceptsNoKeys() {
        let plain = ScenarioLoader(catalogues: ProductCatalogues(["scroll-off": TestCatalogue.parameters]))
        #expect(throws: ScenarioError.self) { try plain.load(yaml: "behavior:\n  churn.base_hazard: 0.1\n") }
        #expect((try? plain.load(yaml: "name: x\n"))?.behavior.values.isEmpty == true)
    }

    @Test func aSweepOverABehaviourKeyMakesArmsWithDifferentValues() throws {
        let s = try Self.load("""
        behavior:
          churn.value_weight: 2
        sweep:
          behavior.churn.base_hazard: [0.1, 0.3]
        """)
        let swept = s.arms.filter(\.fromSweep)
        #expect(swept.map(\.name) == ["base_hazard=0.1", "base_hazard=0.3"])
        #expect(swept.map { $0.behavior["churn.base_hazard"] } == [.number(0.1), .number(0.3)])
        #expect(swept.allSatisfy { $0.behavior["churn.value_weight"] == .number(2) }, "sweep points start from the scenario's block")
        #expect(try Self.load(s.yaml) == s)
        let bad = Self.issues("sweep:\n  behavior.churn.base_hazard: [0.1, 2]\n  behavior.churn.nope: [1]\n")
        #expect(bad.contains { $0.keyPath == "sweep.behavior.churn.base_hazard[1]" && $0.kind == .outOfRange })
        #expect(bad.contains { $0.keyPath == "sweep.behavior.churn.nope" && $0.kind == .unknownKey })
    }

    @Test func commandLineOverridesWinInEveryArm() throws {
        let yaml = "behavior:\n  churn.base_hazard: 0.2\narms:\n  - name: a\n  - name: b\n    behavior: {churn.base_hazard: 0.5}\n"
        let s = try Self.load(yaml, overrides: ScenarioOverrides(values: ["behavior.churn.base_hazard": "0.9"]))
        #expect(s.arms.allSatisfy { $0.behavior["churn.base_hazard"] == .number(0.9) })
        #expect(s.behavior["churn.base_hazard"] == .number(0.9))
        let cli = Self.issues(yaml, overrides: ScenarioOverrides(values: ["behavior.churn.base_hazard": "2", "behavior.churn.bogus": "1",
                                                                            "behavior.shield.temperature": "hot"]))
        #expect(cli.count == 3)
        #expect(cli.allSatisfy { $0.file == ScenarioLoader.commandLine && $0.line == nil })
        #expect(cli.contains { $0.keyPath == "behavior.churn.base_hazard" && $0.kind == .outOfRange && $0.allowed == "a number in 0.0…1.0" })
        #expect(cli.contains { $0.keyPath == "behavior.churn.bogus" && $0.kind == .unknownKey })
        #expect(cli.contains { $0.keyPath == "behavior.shield.temperature" && $0.kind == .wrongType })
    }

    @Test func withBehaviorOverridesEveryArmAndValidates() throws {
        let s = try Self.load("arms:\n  - name: a\n  - name: b\n    behavior: {churn.base_hazard: 0.5}\nsweep:\n  rules.tokens.grant_minutes: [5, 6]\n")
        let t = try s.withBehavior(["churn.base_hazard": 0.3, "behavior.shield.temperature": 4])
        #expect(t.arms.count == s.arms.count)
        #expect(t.arms.allSatisfy { $0.behavior["churn.base_hazard"] == .number(0.3) && $0.behavior["shield.temperature"] == .number(4) })
        #expect(t.behavior["churn.base_hazard"] == .number(0.3))
        #expect(t.arms.map(\.rules) == s.arms.map(\.rules), "everything else is kept")
        #expect(try s.withBehavior([:]) == s)
        #expect(try Self.load(t.yaml).arms.map(\.behavior) == t.arms.map(\.behavior), "the YAML records the overrides")
        do {
            _ = try s.withBehavior(["churn.base_hazard": 1.5, "churn.nope": 1, "churn.value_weight": .nan])
            Issue.record("expected an error")
        } catch let e as ScenarioError {
            #expect(e.issues.count == 3)
            #expect(e.issues.contains { $0.keyPath == "behavior.churn.base_hazard" && $0.kind == .outOfRange && $0.allowed == "a number in 0.0…1.0" })
            #expect(e.issues.contains { $0.keyPath == "behavior.churn.nope" && $0.kind == .unknownKey })
            #expect(e.issues.contains { $0.keyPath == "behavior.churn.value_weight" && $0.kind == .outOfRange })
        }
    }

    @Test func explainListsEveryBehaviourParameter() throws {
        let s = try Self.load("behavior:\n  churn.base_hazard: 0.2\n")
        let text = s.explainBehavior()
        for p in Self.behavior { #expect(text.contains("behavior." + p.keyPath)) }
        #expect(text.contains("0.2 *"))
        #expect(text.contains("a number in 0.0…1.0"))
        #expect(text.contains("assumption: test"))
        #expect(text.contains("publication: a test paper"))
        #expect(text.contains("3 behaviour parameters, 1 changed from the default (*); 2 defaults are assumptions"))
    }
}
