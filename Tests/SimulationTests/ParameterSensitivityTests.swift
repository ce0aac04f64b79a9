import Testing
import Reports
import RulesCore
import ScrollOffRules
import ScenarioFormat
@testable import Simulation

/// Issue 13, "must hold": every rule parameter of a product's catalogue can move at least one report. Each
/// parameter is set to another valid value (the far end of its range, the other boolean, another choice) in its own
/// arm, all arms on the same people; an arm whose every report row and KPI equals the control's is a parameter no
/// simulated person reaches — a defect, unless the descriptor documents it in `notSimulable` with the reason.
@Suite("Every rule parameter moves a report", .serialized)
struct ParameterSensitivityTests {
    /// Another valid value for a parameter, as YAML: the range end farther from the default, the other boolean,
    /// another choice, a time six hours on, another set of weekdays.
    static func alternative(_ p: RuleParameter) -> String {
        switch p.kind {
        case .integer(let r):
            let d = p.defaultValue.doubleValue.map { Int($0) } ?? r.lowerBound
            return String(d - r.lowerBound >= r.upperBound - d ? r.lowerBound : r.upperBound)
        case .number(let r):
            let d = p.defaultValue.doubleValue ?? r.lowerBound
            return (d - r.lowerBound >= r.upperBound - d ? r.lowerBound : r.upperBound).description
        case .boolean:
            return p.defaultValue == .bool(true) ? "false" : "true"
        case .choice(let choices):
            return choices.first { .text($0) != p.defaultValue } ?? choices[0]
        case .timeOfDay:
            let t = p.defaultValue.textValue.flatMap(LocalTimeOfDay.init(text:))?.secondsSinceMidnight ?? 0
            let m = (Int(t) / 60 + 6 * 60) % (24 * 60)
            return "\"" + (m / 60 < 10 ? "0" : "") + "\(m / 60):" + (m % 60 < 10 ? "0" : "") + "\(m % 60)\""
        case .weekdays:
            return p.defaultValue.listValue?.count == 7 ? "[sat, sun]" : "[mon, tue, wed, thu, fri, sat, sun]"
        }
    }

    /// `a.b.c` = v as nested YAML flow maps.
    static func nested(_ keyPath: String, _ value: String) -> String {
        keyPath.split(separator: ".").reversed().reduce(value) { "{\($1): \($0)}" }
    }

    /// Every report row (keys dropped) and KPI value of an arm, rendered.
    static func fingerprint<A: ProductAdapter>(_ arm: ArmResult<A>) -> [String] {
        let keys = ReportKeys(scenario: "s", arm: "a", replication: 1, product: "p")
        var out = SimulationRun<A>.reportFiles.filter { $0.name != "kpis.csv" }.flatMap { file in
            SimulationRun<A>.rows(file.name, arm.pooled, keys).map { file.name + ":" + $0.map(\.rendered).joined(separator: ",") }
        }
        out += arm.kpiValues.flatMap { $0.map { "\($0.0.id)=\($0.1)" } }
        return out
    }

    /// Runs a scenario and returns each arm's fingerprint, in arm order.
    static func armFingerprints<A: ProductAdapter>(_: A.Type, yaml: String) throws -> [[String]] {
        let scenario = try ScenarioLoader(catalogues: Products.catalogues).load(yaml: yaml, fileName: "sensitivity.yaml")
        var run = SimulationRun<A>(scenario: scenario, threads: 2)
        try run.simulate()
        return run.arms.map(fingerprint)
    }

    /// The parameters of a product no report moves with, when each is changed alone on `installs` people over
    /// `days` days (an empty list: every parameter is simulated or documented as not simulable).
    static func unmovedParameters<A: ProductAdapter>(_: A.Type, installs: Int, days: Int) throws -> [String] {
        let d = A.Engine.descriptor
        let probed = d.parameters.filter { !d.notSimulable.keys.contains($0.keyPath) }
        let arms = probed.enumerated().map { i, p in "  - name: p\(i)\n    rules: \(nested(p.keyPath, alternative(p)))" }
        let yaml = """
            name: sensitivity
            start: 2026-01-05
            horizon_days: \(days)
            population:
              installs: \(installs)
            arms:
              - name: control
            \(arms.joined(separator: "\n"))
            """
        let prints = try armFingerprints(A.self, yaml: yaml)
        return probed.enumerated().filter { i, _ in prints[i + 1] == prints[0] }.map { "\($1.keyPath) → \(alternative($1))" }
    }

    @Test("Scroll Off: each catalogue parameter, changed alone, changes some report (or is documented as not simulable)")
    func scrollOff() throws {
        let unmoved = try Self.unmovedParameters(ScrollOffProduct.self, installs: 40, days: 45)
        #expect(unmoved.isEmpty, "parameters no report moves with (simulate them or document them in notSimulable):\n\(unmoved.joined(separator: "\n"))")
        let d = ScrollOffProduct.Engine.descriptor
        for (key, reason) in d.notSimulable {
            #expect(d.parameters.contains { $0.keyPath == key }, "notSimulable names an unknown parameter \(key)")
            #expect(reason.count > 20, "\(key): say why it cannot be simulated")
        }
    }
}
