import Foundation
import RulesCore
import Testing
@testable import ScenarioFormat

/// `sensitivity: ranges:` (issue 45: "varies the chosen parameters over their validated ranges (or narrower plausible
/// ranges a scenario states)"): each `behavior.<parameter>` → `{low, high}`, low < high, inside the parameter's
/// validated range; the resolved text carries the block (and reads back equal), a scenario without one keeps its text.
@Suite("Sensitivity ranges in scenarios")
struct SensitivityRangesTests {
    static func load(_ yaml: String) throws -> ResolvedScenario { try BehaviorBlockTests.load(yaml) }
    static func issues(_ yaml: String) -> [ScenarioIssue] { BehaviorBlockTests.issues(yaml) }

    @Test("stated ranges resolve in the order written, print back and read back equal; without the block nothing changes")
    func resolves() throws {
        let s = try Self.load("""
            name: x
            sensitivity:
              ranges:
                behavior.shield.temperature: {low: 0.5, high: 2}
                behavior.churn.base_hazard: {low: 0.05, high: 0.2}
            """)
        #expect(s.sensitivityRanges == [SensitivityRange(key: "behavior.shield.temperature", low: 0.5, high: 2),
                                        SensitivityRange(key: "behavior.churn.base_hazard", low: 0.05, high: 0.2)])
        #expect(s.yaml.contains("\nsensitivity:\n  ranges:\n    behavior.shield.temperature: {low: 0.5, high: 2.0}\n"
                                + "    behavior.churn.base_hazard: {low: 0.05, high: 0.2}\n"))
        let again = try Self.load(s.yaml)
        #expect(again == s && again.yaml == s.yaml)
        let plain = try Self.load("name: x\n")
        #expect(plain.sensitivityRanges.isEmpty && !plain.yaml.contains("sensitivity"))
        #expect(plain.scenarioHash != s.scenarioHash)
        // The run itself reads nothing of it: the arms' behaviour values are the defaults.
        #expect(s.behavior == plain.behavior && s.arms.map(\.behavior) == plain.arms.map(\.behavior))
    }

    @Test("a bad range is reported with line, key path, value and what is allowed", arguments: [
        ("behavior.churn.base_hazard: {low: 0.2, high: 0.1}", "sensitivity.ranges.behavior.churn.base_hazard", "low 0.2 is not below high 0.1", "low < high"),
        ("behavior.churn.base_hazard: {low: 0.1, high: 0.1}", "sensitivity.ranges.behavior.churn.base_hazard", "low 0.1 is not below high 0.1", "low < high"),
        ("behavior.churn.base_hazard: {low: 0.1, high: 1.5}", "sensitivity.ranges.behavior.churn.base_hazard", "leaves behavior.churn.base_hazard's validated range", "within 0.0…1.0"),
        ("behavior.churn.value_weight: {low: -1, high: 2}", "sensitivity.ranges.behavior.churn.value_weight", "leaves behavior.churn.value_weight's validated range", "within 0.0…20.0"),
        ("behavior.churn.base_hazrd: {low: 0.1, high: 0.2}", "sensitivity.ranges.behavior.churn.base_hazrd", "is not a behaviour parameter", "behavior.<a number behaviour parameter>"),
        ("churn.base_hazard: {low: 0.1, high: 0.2}", "sensitivity.ranges.churn.base_hazard", "write the parameter as 'behavior.churn.base_hazard'", "behavior.<parameter>"),
        ("behavior.churn.base_hazard: {low: 0.1}", "sensitivity.ranges.behavior.churn.base_hazard.high", "high", nil),
        ("behavior.churn.base_hazard: {low: zero, high: 0.2}", "sensitivity.ranges.behavior.churn.base_hazard.low", "zero", nil),
        ("behavior.churn.base_hazard: [0.1, 0.2]", "sensitivity.ranges.behavior.churn.base_hazard", "a list", nil),
    ] as [(String, String, String, String?)])
    func refused(_ line: String, _ keyPath: String, _ says: String, _ allowed: String?) throws {
        let found = Self.issues("name: x\nsensitivity:\n  ranges:\n    \(line)\n")
        #expect(found.count == 1, "\(found.map(\.description))")
        let issue = try #require(found.first)
        #expect(issue.keyPath == keyPath && issue.line == 4, "\(issue.description)")
        #expect(issue.description.contains(says), "\(issue.description)")
        if let allowed { #expect(issue.allowed?.hasPrefix(allowed) == true, "\(issue.description)") }
    }

    @Test("an unknown parameter gets the closest name as a suggestion; the block without ranges is refused")
    func suggestionsAndMissing() throws {
        let unknown = try #require(Self.issues("name: x\nsensitivity:\n  ranges:\n    behavior.churn.base_hazrd: {low: 0.1, high: 0.2}\n").first)
        #expect(unknown.suggestion == "behavior.churn.base_hazard")
        let missing = Self.issues("name: x\nsensitivity:\n  span: 0.5\n")
        #expect(missing.contains { $0.keyPath == "sensitivity.ranges" } && missing.contains { $0.keyPath == "sensitivity.span" },
                "\(missing.map(\.description))")
    }

    @Test("every problem of the block is listed at once, with the file's other problems")
    func allAtOnce() {
        let found = Self.issues("""
            name: x
            horizon_days: 0
            sensitivity:
              ranges:
                behavior.churn.base_hazard: {low: 0.3, high: 0.2}
                behavior.shield.temperature: {low: 0, high: 2}
            """)
        #expect(Set(found.map(\.keyPath)) == ["horizon_days", "sensitivity.ranges.behavior.churn.base_hazard",
                                              "sensitivity.ranges.behavior.shield.temperature"], "\(found.map(\.description))")
    }
}
