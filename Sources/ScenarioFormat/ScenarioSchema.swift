import RulesCore

/// The schema of a scenario file (CONTRACT.md, "Scenario files") and its defaults.
public enum ScenarioSchema {
    /// The default master seed.
    public static let defaultSeed: UInt64 = 20_261_122
    /// The default first simulated day (a Monday).
    public static let defaultStart = LocalDate(year: 2026, month: 1, day: 5)!
    /// The default product.
    /// The default number of days simulated.
    public static let defaultHorizonDays = 90
    /// The default number of Monte Carlo replications.
    public static let defaultReplications = 1
    /// The default number of simulated people (`population.installs`).
    public static let defaultInstalls = 1000
    /// The default most replications a precision target may add up to (`precision.max_replications`).
    public static let defaultMaxReplications = 50

    /// The `population` map: who installs, when, and on what.
    ///
    /// `installs` is a plain count today; install curves (`installs_per_day`, `ramp`, monthly lists, CSV files)
    /// will be further keys of this map.
    public static let population: SchemaNode = .map([
        SchemaField("installs", .scalar(.integer(1...10_000_000), doc: "people who install the app over the horizon"),
                    default: .int(defaultInstalls), doc: "number of simulated people (installs); `--people` overrides it"),
        SchemaField("personas", .list(of: .map([
            SchemaField("name", .scalar(.identifier, doc: "persona name"), required: true, doc: "persona name, e.g. student"),
            SchemaField("share", .scalar(.share, doc: "fraction of installs"), required: true, doc: "fraction of installs, (0, 1]"),
            SchemaField("params", .keyed(value: .distribution(doc: "a number or a distribution"), doc: "behavioural parameter overrides"),
                        doc: "behavioural parameter overrides: name → number or {distribution: …}"),
        ], doc: "a persona and its share"), checks: [.nonEmpty, .unique(field: "name"), .sharesSumToOne(field: "share")], doc: "persona mix"),
                    default: .list([.map([ScenarioEntry("name", .text("general")), ScenarioEntry("share", .number(1))])]),
                    doc: "persona mix; shares sum to 1 (default: one `general` persona, an assumption)"),
        SchemaField("devices", .list(of: .map([
            SchemaField("model", .scalar(.identifier, doc: "device model"), required: true, doc: "device model id, e.g. iphone-13"),
            SchemaField("share", .scalar(.share, doc: "fraction of installs"), required: true, doc: "fraction of installs, (0, 1]"),
        ], doc: "a device model and its share"), checks: [.nonEmpty, .unique(field: "model"), .sharesSumToOne(field: "share")], doc: "device mix"),
                    default: .list([.map([ScenarioEntry("model", .text("iphone-13")), ScenarioEntry("share", .number(1))])]),
                    doc: "device mix for the energy model; shares sum to 1 (default: all iphone-13, an assumption)"),
        SchemaField("time_zones", .list(of: .map([
            SchemaField("zone", .scalar(.timeZone, doc: "IANA zone"), required: true, doc: "IANA time-zone id, e.g. Europe/Berlin"),
            SchemaField("share", .scalar(.share, doc: "fraction of installs"), required: true, doc: "fraction of installs, (0, 1]"),
        ], doc: "a time zone and its share"), checks: [.nonEmpty, .unique(field: "zone"), .sharesSumToOne(field: "share")], doc: "time-zone mix"),
                    default: .list([.map([ScenarioEntry("zone", .text("America/New_York")), ScenarioEntry("share", .number(1))])]),
                    doc: "time-zone mix; shares sum to 1 (default: all America/New_York, an assumption)"),
        SchemaField("acquisition", acquisition,
                    doc: "real installs over time, for forecasts: exactly one of per_day, ramp, monthly, csv; "
                    + "`installs` people are then simulated as a sample of them"),
    ], doc: "installs, personas, devices and time zones")

    /// `population.acquisition`: the install curve (issue 5).
    public static let acquisition: SchemaNode = .map([
        SchemaField("per_day", .scalar(.number(0...10_000_000), doc: "real installs per day"), doc: "constant real installs per day"),
        SchemaField("ramp", .map([
            SchemaField("from", .scalar(.number(0...10_000_000), doc: "installs per day"), required: true, doc: "real installs on the first day"),
            SchemaField("to", .scalar(.number(0...10_000_000), doc: "installs per day"), required: true, doc: "real installs per day once the ramp is done"),
            SchemaField("over_days", .scalar(.integer(1...3650), doc: "days"), required: true, doc: "days the ramp takes"),
        ], doc: "a linear launch ramp"), doc: "linear from `from` to `to` over `over_days`, then constant"),
        SchemaField("monthly", .list(of: .scalar(.number(0...1_000_000_000), doc: "installs in a month"), checks: [.nonEmpty], doc: "monthly figures"),
                    doc: "real installs per calendar month from the start's month, spread evenly over its days; the last figure repeats"),
        SchemaField("csv", .scalar(.text, doc: "file"), doc: "a `date,installs` CSV of daily real installs, relative to the scenario file"),
        SchemaField("weekly_seasonality", .list(of: .scalar(.number(0...100), doc: "multiplier"), checks: [.nonEmpty], doc: "Monday…Sunday"),
                    doc: "seven Monday…Sunday multipliers on the curve, normalised to mean 1 (default: none)"),
    ], doc: "an install curve")

    /// The `outputs` map.
    public static let outputs: SchemaNode = .map([
        SchemaField("dir", .scalar(.text, doc: "directory"), doc: "report directory (default `Reports/<name>`); `--out` overrides it"),
        SchemaField("trace_people", .list(of: .scalar(.integer(0...Int.max), doc: "person id"), checks: [.maxCount(100)], doc: "person ids"),
                    default: .list([]), doc: "person ids whose timelines are written as trace CSVs"),
    ], doc: "where and what to write")

    /// The whole scenario file.
    public static let scenario: SchemaNode = .map([
        SchemaField("name", .scalar(.identifier, doc: "scenario name"), doc: "scenario name (default: the file name without extension)"),
        SchemaField("product", .scalar(.product, doc: "product id"),
                    doc: "the product whose rule engine runs (default: the first of `products`, else the registry's first, "
                    + "`habitat list`); top-level `rules` are its rules"),
        SchemaField("products", .list(of: .scalar(.product, doc: "product id"), checks: [.nonEmpty, .uniqueValues], doc: "product ids"),
                    doc: "several products as arms on the same people: one arm per product, named by its id, in the order "
                    + "written (not with `arms`: put `product:` on each arm there); `product` must be one of them"),
        SchemaField("seed", .scalar(.unsigned, doc: "master seed"), default: .unsigned(defaultSeed),
                    doc: "master random seed; `--seed` overrides it"),
        SchemaField("start", .scalar(.date, doc: "first day"), default: .date(defaultStart), doc: "first simulated day, ISO date"),
        SchemaField("horizon_days", .scalar(.integer(1...3650), doc: "days simulated"), default: .int(defaultHorizonDays),
                    doc: "days simulated; `--days` overrides it"),
        SchemaField("replications", .scalar(.integer(1...10_000), doc: "Monte Carlo replications"), default: .int(defaultReplications),
                    doc: "Monte Carlo replications; `--replications` overrides it"),
        SchemaField("tenure_days", tenureDays, doc: tenureDoc + " (default: none); arms may set their own; "
                    + "`--set tenure_days=N` sets every arm's"),
        SchemaField("store", store, doc: "the app store's commission on sales (default: 30 %, 15 % on a subscription after a year "
                    + "of paid tenure; `small_business_program: true` for 15 % on every sale)"),
        SchemaField("population", population, doc: "who is simulated"),
        SchemaField("rules", .ruleOverrides(doc: "rule overrides"), doc: "overrides of the product's rule parameters (nested maps)"),
        SchemaField("behavior", .behaviorOverrides(doc: "behaviour-parameter overrides"),
                    doc: "overrides of the behaviour model's constants (churn, engagement, onboarding, purchase, refund, shield; "
                    + "nested or dotted keys)"),
        SchemaField("arms", .list(of: .map([
            SchemaField("name", .scalar(.identifier, doc: "arm name"), required: true, doc: "arm name, unique"),
            SchemaField("product", .scalar(.product, doc: "product id"),
                        doc: "the product this arm runs (default: the scenario's); its `rules` are checked against that product's "
                        + "catalogue and start from its defaults, over the scenario's `rules` only when it is the scenario's product"),
            SchemaField("tenure_days", tenureDays, doc: tenureDoc + " (default: the scenario's)"),
            SchemaField("rules", .ruleOverrides(doc: "rule overrides"), doc: "this arm's rule overrides, over the scenario's"),
            SchemaField("behavior", .behaviorOverrides(doc: "behaviour-parameter overrides"),
                        doc: "this arm's behaviour-parameter overrides, over the scenario's"),
            SchemaField("population", population.withoutDefaults, doc: "this arm's population overrides, over the scenario's"),
        ], doc: "an experiment arm"), checks: [.unique(field: "name")], doc: "experiment arms"),
                    doc: "named variants run on the same people (default: one arm `control`)"),
        SchemaField("sweep", .sweep(doc: "parameter grid"), doc: "parameter grid: key path → list of values, optional `zip` groups"),
        SchemaField("precision", .map([
            SchemaField("kpis", .keyed(value: .scalar(.number(0...1e12), doc: "half-width"), doc: "KPI id → target half-width"),
                        required: true, doc: "KPI id → the 95 % interval half-width to reach (in the KPI's unit)"),
            SchemaField("max_replications", .scalar(.integer(1...10_000), doc: "replications"), default: .int(defaultMaxReplications),
                        doc: "stop adding replications here even if a target is not met (default \(defaultMaxReplications))"),
        ], doc: "a precision target"),
                    doc: "keep adding replications (beyond `replications`, the minimum) until every named KPI's 95 % half-width "
                    + "is at or below its target in every arm, or `max_replications` is reached"),
        SchemaField("sensitivity", sensitivity,
                    doc: "the plausible ranges `habitat sensitivity` varies behaviour parameters over (narrower than their validated "
                    + "ranges); `run` does not read it"),
        SchemaField("outputs", outputs, doc: "where and what to write"),
    ], doc: "a Habitat scenario")

    /// `sensitivity` (issue 45): the ranges a scenario states for `habitat sensitivity` — `behavior.<parameter>` →
    /// `{low, high}`, each inside the parameter's validated range (`ScenarioChecker.checkSensitivityRanges`).
    public static let sensitivity: SchemaNode = .map([
        SchemaField("ranges", .keyed(value: .map([
            SchemaField("low", .scalar(.number(-1e12...1e12), doc: "the range's low end"), required: true, doc: "the range's low end"),
            SchemaField("high", .scalar(.number(-1e12...1e12), doc: "the range's high end"), required: true,
                        doc: "the range's high end, above `low`"),
        ], doc: "a range inside the parameter's validated range"), doc: "behavior.<parameter> → {low, high}"), required: true,
                    doc: "behavior.<parameter> → {low, high}: the range each parameter is varied over; with no parameter option "
                    + "`habitat sensitivity` varies these parameters, and `--span`, `--ranges` and `--range` override them"),
    ], doc: "ranges for `habitat sensitivity`")

    /// `store` (issue 38, audit N16): the store's commission, Apple's rules by default (`StoreSpec`).
    public static let store: SchemaNode = .map([
        SchemaField("small_business_program", .scalar(.boolean, doc: "true or false"), default: .bool(false),
                    doc: "the developer is in the App Store Small Business Program (under $1M of proceeds a year): every sale "
                    + "pays `reduced_rate` (default false)"),
        SchemaField("standard_rate", .scalar(.number(0...1), doc: "a fraction of the sale"), default: .number(StoreSpec.defaultStandardRate),
                    doc: "the commission on a sale (default 0.30)"),
        SchemaField("reduced_rate", .scalar(.number(0...1), doc: "a fraction of the sale"), default: .number(StoreSpec.defaultReducedRate),
                    doc: "the commission on a subscription after a year of paid tenure, and on every sale in the programme; at most "
                    + "`standard_rate` (default 0.15)"),
    ], doc: "the app store's commission")

    /// `tenure_days` (scenario and arm): days of tenure with the product.
    public static let tenureDays: SchemaNode = .scalar(.integer(1...3650), doc: "days of tenure with the product")
    /// What `tenure_days` means.
    static let tenureDoc = "every person's tenure with the product ends at the end of local day N since install (day 0 is the "
        + "install day): they uninstall, and live on untreated to the horizon"

    /// Key paths a sweep may vary besides `rules.*`, `behavior.*` and behaviour parameters (`population.params.<name>`,
    /// `population.personas.<persona>.params.<name>`). A `product` axis gives each point's arm that product (with
    /// its own catalogue's defaults); it cannot go with a `rules.*` axis, whose rules belong to one product.
    public static let sweepableKeys = ["population.installs", "tenure_days", "product"]

    /// Keys every arm of a sweep must share (paired arms need the same seed, horizon and replications).
    public static let pairedOnlyKeys = ["seed", "horizon_days", "replications", "start"]

    /// Behaviour parameters a sweep may set: `population.params.<name>` (every persona) or
    /// `population.personas.<persona>.params.<name>` (one persona). Validation checks the parameter name (and
    /// each value against its range) against `ProductCatalogues.population` when one is registered.
    public static func isBehaviourSweepKey(_ k: String) -> Bool { behaviourSweepTarget(k) != nil }

    /// (persona or nil for all, parameter name) of a behaviour sweep key.
    public static func behaviourSweepTarget(_ k: String) -> (persona: String?, parameter: String)? {
        let parts = k.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 3, parts[0] == "population", parts[1] == "params", !parts[2].isEmpty { return (nil, parts[2]) }
        if parts.count == 5, parts[0] == "population", parts[1] == "personas", parts[3] == "params", !parts[2].isEmpty, !parts[4].isEmpty {
            return (parts[2], parts[4])
        }
        return nil
    }

    /// Why a `population.…` sweep key is malformed, if it is one.
    static func behaviourSweepProblem(_ k: String) -> (message: String, allowed: String, suggestion: String?)? {
        guard k.hasPrefix("population."), !sweepableKeys.contains(k), !isBehaviourSweepKey(k) else { return nil }
        return ("'\(k.echoed())' cannot be swept", "population.installs, population.params.<behaviour parameter> or "
                + "population.personas.<persona>.params.<behaviour parameter>",
                Suggestion.closest(to: k, among: sweepableKeys))
    }

    /// Key paths a command-line override may set besides `rules.*`.
    public static let overridableKeys = ["name", "product", "seed", "start", "horizon_days", "replications", "population.installs", "outputs.dir",
                                         "tenure_days", "store.small_business_program", "store.standard_rate", "store.reduced_rate"]
}

extension Distribution.Family {
    /// What a parameter of this family accepts in a scenario: > 0 for scales and shapes; lognormal's `mu` (the log
    /// of the median) within ±700, so that its median exp(mu) is a finite number; any finite number otherwise.
    func parameterKind(_ name: String) -> ScalarKind {
        if positiveParameters.contains(name) { return .positive }
        if self == .lognormal && name == "mu" { return .number(-700...700) }
        return .number(-Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
    }
}
