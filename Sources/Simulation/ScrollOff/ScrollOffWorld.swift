import Behavior
import Foundation
import RulesCore
import ScenarioFormat
import ScrollOffRules
import Stochastics

/// Everything shared by the people of one arm and replication of a Scroll Off run: the arm's rule parameters,
/// the population mixes, precomputed zone calendars, the energy model and the behaviour models.
///
/// Arms of an experiment differ only here (rules, prices, population overrides); every person's random streams
/// are keyed by `(seed, replication, person, stream)` without the arm, so arms meet the same people with the same
/// urges (DESIGN.md, principle 3).
public struct ScrollOffWorld: Sendable {
    public let scenarioName: String
    public let armName: String
    public let seed: UInt64
    /// 1-based replication number (streams use `replication − 1`).
    public let replication: Int
    public internal(set) var parameters: ScrollOffParameters
    public let start: LocalDate
    public let horizonDays: Int
    public let installs: Int
    let personas: [Persona]
    let personaWeights: [Double]
    let devices: [Device]
    let deviceWeights: [Double]
    let zones: [ZoneCalendar]
    let zoneWeights: [Double]
    let energy: EnergyModel
    /// With an acquisition curve: each person's install day (0-based, by person id) and the real people each
    /// simulated person stands for; nil/1 without one.
    let installDayIndex: [Int]?
    public let peoplePerPerson: Double
    let choice = ShieldChoiceModel()
    let purchase = PurchaseModel()

    /// Assumption without an acquisition curve: installs arrive uniformly over the first `installWindowDays` days of
    /// the horizon (at most a third of it). With a curve, on the day the curve gives (`AcquisitionCurve.installDays`).
    /// Either way at a waking hour between 08:00 and 22:00.
    public static let installWindowDays = 14

    /// Builds the world of one arm and replication.
    public init(scenario: ResolvedScenario, arm: ResolvedArm, replication: Int) throws {
        scenarioName = scenario.name
        armName = arm.name
        seed = scenario.seed
        self.replication = replication
        parameters = ScrollOffParameters(values: arm.rules)
        start = scenario.start
        horizonDays = scenario.horizonDays
        installs = arm.population.installs
        var ps: [Persona] = [], pw: [Double] = []
        for share in arm.population.personas {
            let base = try PersonaCatalog.persona(named: share.name)
            ps.append(try base.applying(overrides: share.params))
            pw.append(share.share)
        }
        personas = ps
        personaWeights = pw
        devices = try arm.population.devices.map { try DeviceCatalog.device(id: $0.model) }
        deviceWeights = arm.population.devices.map(\.share)
        zones = try arm.population.timeZones.map {
            try ZoneCalendar(identifier: $0.zone, startingOn: scenario.start + -2, days: scenario.horizonDays + ScrollOffWorld.installWindowDays + 4)
        }
        zoneWeights = arm.population.timeZones.map(\.share)
        energy = EnergyModel(values: ParameterValues(defaultsOf: EnergyModel.catalogue))
        if let curve = arm.population.acquisition {
            let real = curve.realInstalls(start: scenario.start, days: scenario.horizonDays)
            installDayIndex = AcquisitionCurve.installDays(people: installs, realInstalls: real)
            peoplePerPerson = real.reduce(0, +) / Double(max(1, installs))
        } else {
            installDayIndex = nil
            peoplePerPerson = 1
        }
    }

    /// Checks the population of every arm against the persona and device catalogues before anything runs,
    /// reporting every problem with its key path.
    public static func check(_ scenario: ResolvedScenario) throws(PopulationError) {
        var problems: [String] = []
        for (a, arm) in scenario.arms.enumerated() {
            let prefix = scenario.arms.count > 1 ? "arms[\(a)].population" : "population"
            for (i, p) in arm.population.personas.enumerated() {
                do {
                    let base = try PersonaCatalog.persona(named: p.name)
                    _ = try base.applying(overrides: p.params)
                } catch { problems.append("\(prefix).personas[\(i)]: \(error)") }
            }
            for (i, d) in arm.population.devices.enumerated() {
                do { _ = try DeviceCatalog.device(id: d.model) } catch { problems.append("\(prefix).devices[\(i)].model: \(error)") }
            }
        }
        if let target = scenario.precision, scenario.product == .scrollOff {
            let known = ScrollOffRunAccumulator(horizonDays: 1).kpiValues().map(\.0.kpi)
            for kpi in target.halfWidths.keys.sorted() where !known.contains(kpi) {
                let hint = Suggestion.closest(to: kpi, among: known).map { " (did you mean '\($0)'?)" } ?? ""
                problems.append("precision.kpis.\(kpi): unknown KPI\(hint); allowed: " + known.joined(separator: ", "))
            }
        }
        if !problems.isEmpty { throw PopulationError(problems: problems) }
    }

    /// The key of one of a person's streams.
    func key(_ person: Int, _ stream: StreamName) -> StreamKey {
        StreamKey(seed: seed, replication: UInt32(replication - 1), person: UInt64(person), stream: stream)
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
