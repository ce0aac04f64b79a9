import Behavior
import Reports
import Foundation
import RulesCore
import ScenarioFormat
import Stochastics

/// Everything shared by the people of one arm and replication of a run, for any product: the arm's rule
/// parameters (as the product's engine reads them), the population mixes, precomputed zone calendars, the energy
/// model and the behaviour models.
///
/// Arms of an experiment differ only here (rules, prices, population overrides); every person's random streams
/// are keyed by `(seed, replication, person, stream)` without the arm or the product, so arms — and products — meet
/// the same people with the same urges (docs/DESIGN.md, principle 3).
///
/// A class, immutable after `init`: every life of the arm holds a reference to the one world, so reading the
/// world from inside a life (`life.world.choice`) never copies it (a struct here cost a 376-instruction copy of
/// the whole world per shield round, found with callgrind).
public final class World<Adapter: ProductAdapter>: Sendable {
    public let scenarioName: String
    public let armName: String
    public let seed: UInt64
    /// 1-based replication number (streams use `replication − 1`).
    public let replication: Int
    public let parameters: Adapter.Engine.Parameters
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
    /// The arm's behaviour-parameter values (`BehaviorCatalogue` and the product's own parameters; the scenario's
    /// `behavior:` blocks), read once into the models below and the adapter's constants.
    public let behavior: BehaviorValues
    /// The product's own constants (`ProductAdapter.constants(_:)`, issue 42): its person-side models and weights,
    /// read once from `behavior`.
    public let constants: Adapter.Constants
    public let choice: ShieldChoiceModel
    public let purchase: PurchaseModel
    /// The engagement model's constants; each person starts from a copy (`EngagementModel.starting(person:)`).
    public let engagement: EngagementModel
    public let onboarding: OnboardingModel
    /// Urges, their habits and letting go at an interruption (`urges.*`, `shield.notice_seconds`).
    public let urges: UrgeModel
    /// What dormant people do on a day of shields (`dormant.*`).
    public let dormancy: DormantModel
    /// The share of a cue episode a pickup is (`engagement.app_open_per_pickup_scale`).
    public let appOpenPerPickupScale: Double
    /// The probability of looking at an insight on an app open (`engagement.insight_view_probability`).
    public let insightViewProbability: Double
    /// The scenario's rule ending every tenure (`tenure_days`): the person uninstalls at the end of local day
    /// `tenureDays` since install and lives on untreated (issue 28); nil: tenures end only by the person's choice.
    public let tenureDays: Int?
    /// How the product's money is reported (sources, segments), read once from its descriptor.
    public let revenueModel: RevenueModel
    /// The store's commission (docs/DESIGN.md principle 6), from the scenario's `store:` (30 % by default; the App
    /// Store Small Business Program's 15 % where it says so — issue 38, audit N16).
    let storeFees: StoreFeePolicy

    /// Builds the world of one arm and replication.
    public init(scenario: ResolvedScenario, arm: ResolvedArm, replication: Int) throws {
        scenarioName = scenario.name
        armName = arm.name
        seed = scenario.seed
        self.replication = replication
        parameters = Adapter.Engine.Parameters(values: arm.rules)
        let behavior = BehaviorValues(arm.behavior, catalogue: Adapter.behaviorCatalogue)
        self.behavior = behavior
        constants = Adapter.constants(behavior)
        choice = ShieldChoiceModel(values: behavior)
        purchase = PurchaseModel(values: behavior)
        var engagement = EngagementModel(values: behavior)
        engagement.valueChannels = Adapter.valueChannels
        self.engagement = engagement
        onboarding = OnboardingModel(values: behavior)
        urges = UrgeModel(values: behavior)
        dormancy = DormantModel(values: behavior)
        appOpenPerPickupScale = behavior["engagement.app_open_per_pickup_scale"]
        insightViewProbability = behavior["engagement.insight_view_probability"]
        tenureDays = arm.tenureDays
        storeFees = StoreFeePolicy(standardRate: scenario.store.standardRate, reducedRate: scenario.store.reducedRate,
                                   smallBusinessProgram: scenario.store.smallBusinessProgram)
        start = scenario.start
        horizonDays = scenario.horizonDays
        installs = arm.population.installs
        revenueModel = Adapter.Engine.descriptor.revenue
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
            try ZoneCalendar(identifier: $0.zone, startingOn: scenario.start + -2, days: scenario.horizonDays + InstallArrival.installWindowDays + 4)
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

    /// The key of one of a person's streams.
    public func key(_ person: Int, _ stream: StreamName) -> StreamKey {
        StreamKey(seed: seed, replication: UInt32(replication - 1), person: UInt64(person), stream: stream)
    }
}

