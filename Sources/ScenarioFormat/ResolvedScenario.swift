import Foundation
import RulesCore

/// A scenario with every default filled in and every layer applied: what a run actually uses.
///
/// Layers, lowest first: the product's catalogue defaults, the scenario's `rules`, each arm's `rules`, then
/// command-line overrides. An arm may be another product (issue 28: `product:` on an arm, `products:`, a `product`
/// sweep axis): its rules start from that product's catalogue defaults and take neither the scenario's `rules` nor
/// command-line rule overrides, which belong to the scenario's product. `yaml` prints it back; parsing that text
/// again gives an equal value.
public struct ResolvedScenario: Sendable, Hashable {
    /// Scenario name (file name without extension when not given).
    public var name: String
    /// The product whose rule engine runs.
    public var product: Product
    /// Master random seed.
    public var seed: UInt64
    /// First simulated local day.
    public var start: LocalDate
    /// Number of simulated days, 1…3650.
    public var horizonDays: Int
    /// Monte Carlo replications, 1…10000.
    public var replications: Int
    /// The scenario-level population (arms may override it).
    public var population: PopulationSpec
    /// The scenario-level rule values: catalogue defaults ← scenario `rules` ← command-line overrides.
    public var rules: ParameterValues
    /// The arms, never empty (a lone `control` arm when the file names none).
    public var arms: [ResolvedArm]
    /// The parameter grid (empty when the scenario sweeps nothing).
    public var sweep: SweepSpec
    /// The precision target, if any: KPI id → 95 % half-width to reach, and the most replications to run.
    public var precision: PrecisionTarget?
    /// Where and what to write.
    public var outputs: OutputSpec
    /// The scenario-level behaviour-parameter values: catalogue defaults ← scenario `behavior` ← command-line
    /// overrides (every key of `behaviorCatalogue`).
    public var behavior: ParameterValues
    /// The behaviour-parameter catalogue the scenario was checked against (`ProductCatalogues.behavior`; empty when
    /// none was registered): `withBehavior(_:)` validates against it, `yaml` writes values that differ from its defaults.
    public var behaviorCatalogue: [RuleParameter]
    /// The rule parameters the resolved text lists only where they differ from their default (catalogue entries with
    /// `listedWhenDefault` false), with that default: `yaml` leaves them out of the top-level `rules` at the default.
    public var unlistedRuleDefaults: [String: ParameterValue]
    /// The scenario-level `tenure_days` (nil: none): every person's tenure with the product ends at the end of local
    /// day N since install (day 0 is the install day); they uninstall and live on untreated to the horizon. Arms may
    /// set their own (`ResolvedArm.tenureDays` holds each arm's resolved value).
    public var tenureDays: Int?
    /// The app store's commission on the product's sales (`store:`; Apple's standard rules by default).
    public var store: StoreSpec
    /// The ranges the scenario states for `habitat sensitivity` (`sensitivity.ranges`, issue 45), in the order written:
    /// `behavior.<parameter>` and its range, inside the parameter's validated range. Empty when it states none; `run`
    /// does not read them.
    public var sensitivityRanges: [SensitivityRange]

    /// Creates a resolved scenario.
    public init(name: String, product: Product, seed: UInt64, start: LocalDate, horizonDays: Int, replications: Int,
                population: PopulationSpec, rules: ParameterValues, arms: [ResolvedArm], sweep: SweepSpec,
                precision: PrecisionTarget? = nil, outputs: OutputSpec,
                behavior: ParameterValues = ParameterValues([:]), behaviorCatalogue: [RuleParameter] = [],
                unlistedRuleDefaults: [String: ParameterValue] = [:], tenureDays: Int? = nil, store: StoreSpec = StoreSpec(),
                sensitivityRanges: [SensitivityRange] = []) {
        self.unlistedRuleDefaults = unlistedRuleDefaults
        self.sensitivityRanges = sensitivityRanges
        self.store = store
        self.tenureDays = tenureDays
        self.name = name
        self.product = product
        self.seed = seed
        self.start = start
        self.horizonDays = horizonDays
        self.replications = replications
        self.population = population
        self.rules = rules
        self.arms = arms
        self.sweep = sweep
        self.precision = precision
        self.outputs = outputs
        self.behavior = behavior
        self.behaviorCatalogue = behaviorCatalogue
    }

    /// The arm with a name, if any.
    public func arm(named name: String) -> ResolvedArm? { arms.first(where: { $0.name == name }) }

    /// The product an arm runs: its own, or the scenario's when it names none (`arm.product ?? product`).
    public func product(of arm: ResolvedArm) -> Product { arm.product ?? product }

    /// The distinct products the arms run, in arm order (the scenario's own product only if some arm runs it).
    public var products: [Product] {
        var seen = Set<Product>()
        return arms.map(product(of:)).filter { seen.insert($0).inserted }
    }

    /// True when the arms run more than one product.
    public var isMultiProduct: Bool { products.count > 1 }
}

/// One experiment arm, fully resolved: its own product, rule values and population.
public struct ResolvedArm: Sendable, Hashable {
    /// Arm name, unique within the scenario.
    public var name: String
    /// The product this arm runs, nil for the scenario's (`ResolvedScenario.product(of:)`). The loader stores nil
    /// for an arm that names the scenario's own product, so single-product scenarios are unchanged.
    public var product: Product?
    /// Every rule parameter's value for this arm, of its product's catalogue.
    public var rules: ParameterValues
    /// The population this arm simulates (the scenario's unless the arm overrides it).
    public var population: PopulationSpec
    /// The arm is a point of the scenario's `sweep` grid (not written back as an arm in the resolved YAML).
    public var fromSweep: Bool
    /// Every behaviour parameter's value for this arm (scenario `behavior` ← arm `behavior` ← sweep point ←
    /// command line); empty for an arm built without a catalogue, whose models then take the defaults.
    public var behavior: ParameterValues
    /// This arm's tenure rule, resolved (arm `tenure_days` ?? the scenario's; a command-line `tenure_days` wins):
    /// every person's tenure with the product ends at the end of local day N since install (day 0 is the install
    /// day), then they uninstall and live on untreated to the horizon. Nil: no tenure limit.
    public var tenureDays: Int?

    /// Creates an arm.
    public init(name: String, rules: ParameterValues, population: PopulationSpec, fromSweep: Bool = false,
                behavior: ParameterValues = ParameterValues([:]), product: Product? = nil, tenureDays: Int? = nil) {
        self.name = name
        self.product = product
        self.tenureDays = tenureDays
        self.rules = rules
        self.population = population
        self.fromSweep = fromSweep
        self.behavior = behavior
    }
}

/// Who is simulated: how many installs, and the persona, device and time-zone mixes.
public struct PopulationSpec: Sendable, Hashable {
    /// How many people install the app over the horizon.
    public var installs: Int
    /// Persona mix; shares sum to 1.
    public var personas: [PersonaShare]
    /// Device mix; shares sum to 1.
    public var devices: [DeviceShare]
    /// Time-zone mix; shares sum to 1.
    public var timeZones: [ZoneShare]
    /// Real installs over time, when the scenario forecasts (then `installs` people are a sample of them).
    public var acquisition: AcquisitionCurve?

    /// Creates a population.
    public init(installs: Int, personas: [PersonaShare], devices: [DeviceShare], timeZones: [ZoneShare],
                acquisition: AcquisitionCurve? = nil) {
        self.installs = installs
        self.personas = personas
        self.devices = devices
        self.timeZones = timeZones
        self.acquisition = acquisition
    }
}

/// A persona, its share of installs and its behavioural parameter overrides.
public struct PersonaShare: Sendable, Hashable {
    /// Persona name, e.g. `student`.
    public var name: String
    /// Fraction of installs, (0, 1].
    public var share: Double
    /// Behavioural parameter overrides by name (the behaviour model owns their meaning and defaults).
    public var params: [String: Distribution]

    /// Creates a persona share.
    public init(name: String, share: Double, params: [String: Distribution] = [:]) {
        self.name = name
        self.share = share
        self.params = params
    }
}

/// A device model and its share of installs.
public struct DeviceShare: Sendable, Hashable {
    /// Device model id, e.g. `iphone-13`.
    public var model: String
    /// Fraction of installs, (0, 1].
    public var share: Double
    /// Creates a device share.
    public init(model: String, share: Double) { self.model = model; self.share = share }
}

/// An IANA time zone and its share of installs.
public struct ZoneShare: Sendable, Hashable {
    /// IANA identifier, e.g. `Europe/Berlin` (checked against the tz database).
    public var zone: String
    /// Fraction of installs, (0, 1].
    public var share: Double
    /// Creates a zone share.
    public init(zone: String, share: Double) { self.zone = zone; self.share = share }
}

extension Distribution {
    /// `1.5` or `{distribution: normal, mean: 1.0, sd: 0.2}`: the YAML flow form a scenario writes (the resolved
    /// scenario prints persona parameters this way).
    public var scenarioText: String {
        let (family, values) = parts
        guard let family else { return formatNumber(values[0]) }
        let params = zip(family.parameterNames, values).map { "\($0): \(formatNumber($1))" }
        return "{distribution: \(family.rawValue), " + params.joined(separator: ", ") + "}"
    }
}

/// A range a scenario states for `habitat sensitivity` (`sensitivity.ranges`, issue 45).
public struct SensitivityRange: Sendable, Hashable {
    /// `behavior.<parameter>`.
    public var key: String
    /// The range's ends, low < high, inside the parameter's validated range.
    public var low: Double
    public var high: Double
    /// Creates a range.
    public init(key: String, low: Double, high: Double) { self.key = key; self.low = low; self.high = high }
}

/// Keep adding replications until the named KPIs are known precisely enough (issue 5).
public struct PrecisionTarget: Sendable, Hashable {
    /// KPI id → the 95 % interval half-width to reach, in the KPI's unit.
    public var halfWidths: [String: Double]
    /// The most replications to run, whatever the intervals.
    public var maxReplications: Int
    public init(halfWidths: [String: Double], maxReplications: Int) {
        self.halfWidths = halfWidths
        self.maxReplications = maxReplications
    }
}

/// A parameter grid: each axis varies one key path; axes in one `zip` group move together, the rest cross.
public struct SweepSpec: Sendable, Hashable {
    /// One varied key path and its values.
    public struct Axis: Sendable, Hashable {
        /// `rules.tokens.monthly_purchase_cap`, `behavior.churn.base_hazard`, `population.installs`, `tenure_days`,
        /// `product` (values are product ids) or a persona parameter (`population.params.<name>`).
        public var keyPath: String
        /// The values, in the order written.
        public var values: [ParameterValue]
        /// Creates an axis.
        public init(keyPath: String, values: [ParameterValue]) { self.keyPath = keyPath; self.values = values }
    }
    /// Axes in the order written.
    public var axes: [Axis]
    /// Groups of key paths swept in lock-step (equal value counts).
    public var zip: [[String]]
    /// Creates a sweep.
    public init(axes: [Axis] = [], zip: [[String]] = []) { self.axes = axes; self.zip = zip }
    /// True when nothing is swept.
    public var isEmpty: Bool { axes.isEmpty }
}

/// What a run writes and where.
public struct OutputSpec: Sendable, Hashable {
    /// Report directory as written (default `Reports/<scenario name>`, relative to the working directory).
    public var dir: String
    /// Person ids whose timelines are written as trace CSVs.
    public var tracePeople: [Int]
    /// The scenario file's folder when `dir` came from the file: the scenario's `outputs.dir` is relative to it
    /// (issue 11: a scenario received from someone else cannot write outside its own folder). Not part of the
    /// scenario's identity (equality, hash).
    public var base: String?
    /// Creates an output spec.
    public init(dir: String, tracePeople: [Int] = [], base: String? = nil) { self.dir = dir; self.tracePeople = tracePeople; self.base = base }

    /// Where the reports go: `dir`, resolved against the scenario file's folder when it came from the file.
    public var resolvedDir: String {
        guard let base, !dir.hasPrefix("/") else { return dir }
        return base.isEmpty || base == "." ? dir : (base as NSString).appendingPathComponent(dir)
    }

    public static func == (a: OutputSpec, b: OutputSpec) -> Bool { a.dir == b.dir && a.tracePeople == b.tracePeople }
    public func hash(into h: inout Hasher) { h.combine(dir); h.combine(tracePeople) }
}
