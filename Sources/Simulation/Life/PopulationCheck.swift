import Behavior
import Foundation
import RulesCore
import ScenarioFormat

/// Product-independent checks and translations of a scenario's population.
public enum PopulationCheck {
    /// Assumption without an acquisition curve: installs arrive uniformly over the first `installWindowDays` days of
    /// the horizon (at most a third of it). With a curve, on the day the curve gives (`AcquisitionCurve.installDays`).
    /// Either way at a waking hour between 08:00 and 22:00.
    public static let installWindowDays = 14

    /// Checks the population of every arm against the persona and device catalogues before anything runs,
    /// reporting every problem with its key path.
    public static func check(_ scenario: ResolvedScenario) throws(PopulationError) {
        var problems: [String] = []
        for (a, arm) in scenario.arms.enumerated() {
            let prefix = scenario.arms.count > 1 ? "arms[\(a)].population" : "population"
            for (i, p) in arm.population.personas.enumerated() {
                do {
                    let base = try PersonaCatalog.persona(named: p.name)
                    _ = try base.applying(overrides: p.params.mapValues(distribution))
                } catch { problems.append("\(prefix).personas[\(i)]: \(error)") }
            }
            for (i, d) in arm.population.devices.enumerated() {
                do { _ = try DeviceCatalog.device(id: d.model) } catch { problems.append("\(prefix).devices[\(i)].model: \(error)") }
            }
        }
        if let target = scenario.precision, let known = Products.kpiIDs(scenario.product) {
            for kpi in target.halfWidths.keys.sorted() where !known.contains(kpi) {
                let hint = Suggestion.closest(to: kpi, among: known).map { " (did you mean '\($0)'?)" } ?? ""
                problems.append("precision.kpis.\(kpi): unknown KPI\(hint); allowed: " + known.joined(separator: ", "))
            }
        }
        if !problems.isEmpty { throw PopulationError(problems: problems) }
    }

    /// The scenario's persona-parameter distribution as a behaviour-model distribution.
    static func distribution(_ d: ParameterDistribution) -> Distribution {
        switch d {
        case .fixed(let v): return .fixed(v)
        case let .normal(mean, sd): return .normal(mean: mean, sd: sd)
        case let .lognormal(mu, sigma): return .lognormal(median: exp(mu), sigma: sigma)
        case let .uniform(lo, hi): return .uniform(low: lo, high: hi)
        case let .beta(a, b): return .beta(a: a, b: b)
        case let .gamma(shape, scale): return .gamma(shape: shape, scale: scale)
        }
    }

}

/// Population entries that name no known persona or device (or give a persona parameter it does not have).
public struct PopulationError: Error, CustomStringConvertible {
    public let problems: [String]
    /// The problems as compiler-style lines naming the scenario file.
    public func rendered(file: String) -> String {
        problems.map { "\(file): error: \($0)" }.joined(separator: "\n") + "\n\(problems.count) error\(problems.count == 1 ? "" : "s") in \(file)"
    }
    public var description: String { problems.joined(separator: "\n") + "\n\(problems.count) problem\(problems.count == 1 ? "" : "s") in the population" }
}
