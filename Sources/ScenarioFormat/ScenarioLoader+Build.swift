import Foundation
import RulesCore
import Yams

/// The checked tree → `ResolvedScenario`: layering rules, arms (each of its own product), `products:` and sweep points,
/// tenure, the install curve, precision, outputs, and the checks that need the whole scenario (arm counts, trace ids,
/// `outputs.dir`).
extension ScenarioLoader {
    static func build(_ tree: ScenarioValue, fileName: String, product: Product, catalogue: [RuleParameter],
                      ruleOverrides: [(String, ParameterValue)], installsOverride: Int?,
                      behaviorCatalogue: [RuleParameter] = [], behaviorOverrides: [(String, ParameterValue)] = [],
                      dirFromCommandLine: Bool = false, maxArms: Int = ScenarioLoader.defaultMaxArms,
                      catalogues: ProductCatalogues = ProductCatalogues(), tenureOverride: Int? = nil) throws(ScenarioError) -> ResolvedScenario {
        let name = tree["name"]?.textValue ?? defaultName(fileName: fileName)
        let defaults = Self.defaults(catalogue)
        func layered(_ base: ParameterValues, _ overrides: ScenarioValue?) -> ParameterValues {
            var values = base
            for e in overrides?.entries ?? [] { if case .parameter(let v) = e.value { values[e.key] = v } }
            return values
        }
        func withCommandLine(_ base: ParameterValues) -> ParameterValues {
            var values = base
            for (k, v) in ruleOverrides { values[k] = v }
            return values
        }
        let scenarioRules = layered(defaults, tree["rules"])
        // Products as arms (issue 28): an arm's product, nil for the scenario's own.
        func armProduct(_ id: String?) -> Product? {
            guard let id, id != product.rawValue else { return nil }
            return Product(rawValue: id)
        }
        var otherDefaults: [Product: ParameterValues] = [:]
        /// The rules an arm of `armProduct` starts from: the scenario's, or the other product's catalogue defaults.
        func baseRules(_ armProduct: Product?) -> ParameterValues {
            guard let armProduct else { return scenarioRules }
            if let d = otherDefaults[armProduct] { return d }
            let d = Self.defaults(catalogues[armProduct] ?? [])
            otherDefaults[armProduct] = d
            return d
        }
        /// An arm's final rules: command-line rule overrides belong to the scenario's product.
        func finalRules(_ armProduct: Product?, _ values: ParameterValues) -> ParameterValues {
            armProduct == nil ? withCommandLine(values) : values
        }
        let scenarioTenure = tenureOverride ?? tree["tenure_days"]?.intValue
        var behaviorDefaults = ParameterValues([:])
        for p in behaviorCatalogue { behaviorDefaults[p.keyPath] = canonical(p.defaultValue, p.kind) }
        func withCommandLineBehavior(_ base: ParameterValues) -> ParameterValues {
            var values = base
            for (k, v) in behaviorOverrides { values[k] = v }
            return values
        }
        let scenarioBehavior = layered(behaviorDefaults, tree["behavior"])
        let populationTree = tree["population"] ?? .map([])
        var population = Self.population(populationTree)
        population.acquisition = try Self.acquisition(populationTree["acquisition"], fileName: fileName)
        if let installsOverride { population.installs = installsOverride }

        var arms: [ResolvedArm] = []
        for armTree in tree["arms"]?.items ?? [] {
            var merged = populationTree
            for e in armTree["population"]?.entries ?? [] { merged = merged.setting(e.key, to: e.value) }
            var armPopulation = Self.population(merged)
            // The scenario's curve unless the arm sets its own (a CSV curve is read once, not once per arm).
            armPopulation.acquisition = armTree["population"]?["acquisition"] == nil
                ? population.acquisition : try Self.acquisition(merged["acquisition"], fileName: fileName)
            if let installsOverride { armPopulation.installs = installsOverride }
            let own = armProduct(armTree["product"]?.textValue)
            arms.append(ResolvedArm(name: armTree["name"]?.textValue ?? "arm\(arms.count)",
                                    rules: finalRules(own, layered(baseRules(own), armTree["rules"])),
                                    population: armPopulation,
                                    behavior: withCommandLineBehavior(layered(scenarioBehavior, armTree["behavior"])),
                                    product: own, tenureDays: tenureOverride ?? armTree["tenure_days"]?.intValue ?? scenarioTenure))
        }
        // `products:` (never with `arms:`): one arm per product, named by its id.
        if arms.isEmpty, let listed = tree["products"]?.items, !listed.isEmpty {
            for id in listed.compactMap(\.textValue) {
                let own = armProduct(id)
                arms.append(ResolvedArm(name: id, rules: finalRules(own, baseRules(own)), population: population,
                                        behavior: withCommandLineBehavior(scenarioBehavior), product: own, tenureDays: scenarioTenure))
            }
        }
        if arms.isEmpty {
            arms = [ResolvedArm(name: "control", rules: withCommandLine(scenarioRules), population: population,
                                behavior: withCommandLineBehavior(scenarioBehavior), tenureDays: scenarioTenure)]
        }

        let sweepTree = tree["sweep"]
        let sweep = SweepSpec(
            axes: (sweepTree?["axes"]?.entries ?? []).map { SweepSpec.Axis(keyPath: $0.key, values: $0.value.items.map(parameterValue)) },
            zip: (sweepTree?["zip"]?.items ?? []).map { $0.items.compactMap(\.textValue) })
        let total = sweep.pointCount + Double(arms.count)
        if total > Double(maxArms) {
            let grid = sweep.units.map { String($0.map(\.values.count).min() ?? 0) }.joined(separator: " × ")
            throw ScenarioError(issues: [ScenarioIssue(
                file: fileName, keyPath: sweep.pointCount == 0 ? "arms" : "sweep", kind: .outOfRange,
                message: sweep.pointCount == 0
                    ? "\(arms.count) arms: more than one run may hold"
                    : "the sweep has \(Int(sweep.pointCount)) points (\(grid))"
                        + (arms.count > 1 ? ", on top of \(arms.count) arms (\(Int(total)) in all)" : "") + ": more arms than one run may hold",
                value: String(Int(sweep.pointCount == 0 ? total : sweep.pointCount)),
                allowed: "at most \(maxArms) arms in all; split the sweep into several scenarios"
                    + (maxArms < largeMaxArms ? ", or pass --allow-large (up to \(largeMaxArms))" : ""))])
        }
        arms += try sweepArms(sweep, scenarioRules: scenarioRules, population: population, existing: arms.map(\.name),
                              fileName: fileName, withCommandLine: withCommandLine,
                              scenarioBehavior: scenarioBehavior, withCommandLineBehavior: withCommandLineBehavior,
                              armProduct: armProduct, baseRules: baseRules, scenarioTenure: scenarioTenure)
        if let installsOverride { for i in arms.indices { arms[i].population.installs = installsOverride } }
        if let tenureOverride { for i in arms.indices { arms[i].tenureDays = tenureOverride } }
        let replications = tree["replications"]?.intValue ?? ScenarioSchema.defaultReplications
        var precision: PrecisionTarget?
        if let p = tree["precision"], let kpis = p["kpis"] {
            var targets: [String: Double] = [:]
            for e in kpis.entries { if let v = e.value.doubleValue { targets[e.key] = v } }
            let maximum = p["max_replications"]?.intValue ?? ScenarioSchema.defaultMaxReplications
            guard maximum >= replications else {
                throw ScenarioError(issues: [ScenarioIssue(file: fileName, keyPath: "precision.max_replications", kind: .outOfRange,
                                                           message: "max_replications \(maximum) is below replications \(replications)",
                                                           value: String(maximum), allowed: "at least replications (\(replications))")])
            }
            precision = PrecisionTarget(halfWidths: targets, maxReplications: maximum)
        }
        let outputsTree = tree["outputs"]
        var outputs = OutputSpec(dir: outputsTree?["dir"]?.textValue ?? "Reports/\(name)",
                                 tracePeople: outputsTree?["trace_people"]?.items.compactMap(\.intValue) ?? [])
        let fewest = arms.map(\.population.installs).min() ?? population.installs
        if let beyond = outputs.tracePeople.first(where: { $0 >= fewest }) {
            throw ScenarioError(issues: [ScenarioIssue(file: fileName, keyPath: "outputs.trace_people", kind: .outOfRange,
                                                       message: "person \(beyond) is not in the population of \(fewest) people",
                                                       value: String(beyond), allowed: "person ids 0…\(fewest - 1)")])
        }
        if outputs.tracePeople.count > 100 {
            throw ScenarioError(issues: [ScenarioIssue(file: fileName, keyPath: "outputs.trace_people", kind: .outOfRange,
                                                       message: "\(outputs.tracePeople.count) people to trace", allowed: "at most 100 person ids")])
        }
        if let given = outputsTree?["dir"]?.textValue, !dirFromCommandLine {
            let base = (fileName as NSString).deletingLastPathComponent
            if let issue = outputsDirIssue(given, base: base, fileName: fileName) { throw ScenarioError(issues: [issue]) }
            outputs.base = base
        }

        let seed: UInt64
        switch tree["seed"] {
        case .unsigned(let u)?: seed = u
        case .int(let i)?: seed = UInt64(clamping: i)
        default: seed = ScenarioSchema.defaultSeed
        }
        var start = ScenarioSchema.defaultStart
        if case .date(let d)? = tree["start"] { start = d }
        let horizon = tree["horizon_days"]?.intValue ?? ScenarioSchema.defaultHorizonDays
        if let curve = population.acquisition, curve.realInstalls(start: start, days: horizon).reduce(0, +) <= 0 {
            throw ScenarioError(issues: [ScenarioIssue(file: fileName, keyPath: "population.acquisition", kind: .invalid,
                                                       message: "the install curve has no installs within the horizon (\(start) + \(horizon) days)",
                                                       allowed: "a curve with a positive total inside the horizon")])
        }
        let store = try Self.store(tree["store"], fileName: fileName)
        let sensitivityRanges = (tree["sensitivity"]?["ranges"]?.entries ?? []).compactMap { e -> SensitivityRange? in
            guard let low = e.value["low"]?.doubleValue, let high = e.value["high"]?.doubleValue else { return nil }
            return SensitivityRange(key: e.key, low: low, high: high)
        }
        return ResolvedScenario(
            name: name, product: product, seed: seed, start: start,
            horizonDays: horizon,
            replications: replications,
            population: population, rules: withCommandLine(scenarioRules), arms: arms, sweep: sweep, precision: precision, outputs: outputs,
            behavior: withCommandLineBehavior(scenarioBehavior), behaviorCatalogue: behaviorCatalogue,
            unlistedRuleDefaults: Dictionary(catalogue.filter { !$0.listedWhenDefault }.map { ($0.keyPath, canonical($0.defaultValue, $0.kind)) },
                                             uniquingKeysWith: { a, _ in a }),
            tenureDays: scenarioTenure, store: store, sensitivityRanges: sensitivityRanges)
    }

    /// `store:` (checked, defaults filled in): the store's commission. A `reduced_rate` above `standard_rate` is an
    /// error: the reduced rate is the one a subscriber's second year and the Small Business Program pay.
    static func store(_ tree: ScenarioValue?, fileName: String) throws(ScenarioError) -> StoreSpec {
        var spec = StoreSpec()
        if case .bool(let b)? = tree?["small_business_program"] { spec.smallBusinessProgram = b }
        if let r = tree?["standard_rate"]?.doubleValue { spec.standardRate = r }
        if let r = tree?["reduced_rate"]?.doubleValue { spec.reducedRate = r }
        if spec.reducedRate > spec.standardRate {
            throw ScenarioError(issues: [ScenarioIssue(file: fileName, keyPath: "store.reduced_rate", kind: .outOfRange,
                                                       message: "reduced_rate \(formatNumber(spec.reducedRate)) is above standard_rate \(formatNumber(spec.standardRate))",
                                                       value: formatNumber(spec.reducedRate),
                                                       allowed: "a number in 0…\(formatNumber(spec.standardRate)) (at most store.standard_rate)")])
        }
        return spec
    }

    /// Every parameter of a catalogue at its default, in canonical form.
    static func defaults(_ catalogue: [RuleParameter]) -> ParameterValues {
        var values = ParameterValues([:])
        for p in catalogue { values[p.keyPath] = canonical(p.defaultValue, p.kind) }
        return values
    }

    /// One arm per sweep grid point, each over the scenario-level rules and population (command-line rule
    /// overrides still win, as for arms). A point of the `product` axis runs that product (`armProduct` gives nil for
    /// the scenario's own) over `baseRules` of it: another product's catalogue defaults, without the scenario's rules or
    /// command-line rule overrides. Names that clash with other arms, and personas not in the mix, are errors.
    static func sweepArms(_ sweep: SweepSpec, scenarioRules: ParameterValues, population: PopulationSpec, existing: [String],
                          fileName: String, withCommandLine: (ParameterValues) -> ParameterValues,
                          scenarioBehavior: ParameterValues = ParameterValues([:]),
                          withCommandLineBehavior: (ParameterValues) -> ParameterValues = { $0 },
                          armProduct: (String?) -> Product? = { _ in nil }, baseRules: ((Product?) -> ParameterValues)? = nil,
                          scenarioTenure: Int? = nil) throws(ScenarioError) -> [ResolvedArm] {
        var arms: [ResolvedArm] = []
        var issues: [ScenarioIssue] = []
        var names = Set(existing)
        for point in sweep.points {
            let own = armProduct(point.first(where: { $0.keyPath == "product" })?.value.textValue)
            var rules = baseRules?(own) ?? scenarioRules
            var behavior = scenarioBehavior
            var armPopulation = population
            var tenure = scenarioTenure
            for (keyPath, value) in point {
                if keyPath == "product" {
                    continue
                } else if keyPath == "tenure_days" {
                    tenure = value.intValue ?? tenure
                } else if keyPath.hasPrefix("rules.") {
                    rules[String(keyPath.dropFirst("rules.".count))] = value
                } else if keyPath.hasPrefix("behavior.") {
                    behavior[String(keyPath.dropFirst("behavior.".count))] = value.doubleValue.map { .number($0) } ?? value
                } else if keyPath == "population.installs", let n = value.intValue {
                    armPopulation.installs = n
                } else if let target = ScenarioSchema.behaviourSweepTarget(keyPath), let x = value.doubleValue {
                    guard let p = armPopulation.settingBehaviour(target.parameter, to: x, persona: target.persona) else {
                        let personas = population.personas.map(\.name)
                        issues.append(ScenarioIssue(file: fileName, keyPath: "sweep." + keyPath, kind: .unknownKey,
                                                    message: "persona '\((target.persona ?? "").echoed())' is not in the population's mix",
                                                    value: target.persona, allowed: "one of " + AllowedList.text(personas, seeAlso: "habitat list"),
                                                    suggestion: Suggestion.closest(to: target.persona ?? "", among: personas)))
                        continue
                    }
                    armPopulation = p
                }
            }
            let name = sweep.armName(point)
            if names.contains(name) {
                issues.append(ScenarioIssue(file: fileName, keyPath: "sweep", kind: .duplicateName,
                                            message: "the sweep's arm '\(name.echoed())' has the name of another arm", value: name,
                                            allowed: "arm names unique across arms and sweep points"))
            }
            names.insert(name)
            arms.append(ResolvedArm(name: name, rules: own == nil ? withCommandLine(rules) : rules, population: armPopulation, fromSweep: true,
                                    behavior: withCommandLineBehavior(behavior), product: own, tenureDays: tenure))
        }
        var unique: [ScenarioIssue] = []
        for i in issues where !unique.contains(i) { unique.append(i) }
        if !unique.isEmpty { throw ScenarioError(issues: unique) }
        return arms
    }

    /// A scenario value as a rule-parameter value (sweep values).
    static func parameterValue(_ v: ScenarioValue) -> ParameterValue {
        switch v {
        case .parameter(let p): return p
        case .int(let i): return .int(i)
        case .unsigned(let u): return Int(exactly: u).map { .int($0) } ?? .text(String(u))
        case .number(let d): return .number(d)
        case .bool(let b): return .bool(b)
        case .text(let s): return .text(s)
        case .date(let d): return .text(d.description)
        case .list(let l): return .list(l.map(parameterValue))
        case .map: return .text("")
        }
    }

    /// A value in the canonical form validation produces for its kind (numbers as doubles, times as `HH:MM`).
    static func canonical(_ v: ParameterValue, _ kind: ParameterKind) -> ParameterValue {
        switch (kind, v) {
        case (.number, .int(let i)): return .number(Double(i))
        case (.timeOfDay, .text(let t)): return LocalTimeOfDay(text: t).map { .text($0.description) } ?? v
        case (.weekdays, .list(let l)): return .list(l.map { $0.textValue.flatMap(Weekday.init(name:)).map { .text($0.shortName) } ?? $0 })
        default: return v
        }
    }

    /// The install curve of `population.acquisition`, checked: exactly one form, seven seasonality figures, a
    /// readable CSV (relative to the scenario file) with a positive total.
    static func acquisition(_ t: ScenarioValue?, fileName: String) throws(ScenarioError) -> AcquisitionCurve? {
        guard let t, !t.entries.isEmpty else { return nil }
        func issue(_ key: String, _ kind: ScenarioIssue.Kind, _ message: String, value: String? = nil, allowed: String? = nil) -> ScenarioError {
            ScenarioError(issues: [ScenarioIssue(file: fileName, keyPath: "population.acquisition" + (key.isEmpty ? "" : "." + key),
                                                 kind: kind, message: message, value: value, allowed: allowed)])
        }
        let forms = ["per_day", "ramp", "monthly", "csv"].filter { t[$0] != nil }
        guard forms.count == 1 else {
            throw issue("", .invalid, forms.isEmpty ? "no install curve given" : "several install curves given: " + forms.joined(separator: ", "),
                        allowed: "exactly one of per_day, ramp, monthly, csv")
        }
        let form: AcquisitionCurve.Form
        switch forms[0] {
        case "per_day": form = .perDay(t["per_day"]?.doubleValue ?? 0)
        case "ramp":
            let r = t["ramp"]!
            form = .ramp(from: r["from"]?.doubleValue ?? 0, to: r["to"]?.doubleValue ?? 0, overDays: r["over_days"]?.intValue ?? 1)
        case "monthly": form = .monthly(t["monthly"]?.items.compactMap(\.doubleValue) ?? [])
        default:
            let path = t["csv"]?.textValue ?? ""
            let base = URL(fileURLWithPath: fileName).deletingLastPathComponent()
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : base.appendingPathComponent(path)
            do { form = .daily(file: path, installs: try AcquisitionCurve.readCSV(url)) } catch {
                throw issue("csv", .invalid, error.description, value: path)
            }
        }
        var seasonality: [Double]?
        if let w = t["weekly_seasonality"] {
            let values = w.items.compactMap(\.doubleValue)
            guard values.count == 7 else {
                throw issue("weekly_seasonality", .invalid, "expected 7 multipliers (Monday…Sunday), got \(values.count)",
                            allowed: "a list of 7 non-negative numbers, at least one above 0")
            }
            guard values.contains(where: { $0 > 0 }) else {
                throw issue("weekly_seasonality", .invalid, "all 7 multipliers are 0, so nobody would ever install",
                            allowed: "a list of 7 non-negative numbers, at least one above 0")
            }
            seasonality = values
        }
        return AcquisitionCurve(form: form, weeklySeasonality: seasonality)
    }

    static func population(_ t: ScenarioValue) -> PopulationSpec {
        PopulationSpec(
            installs: t["installs"]?.intValue ?? ScenarioSchema.defaultInstalls,
            personas: (t["personas"]?.items ?? []).map { p in
                var params: [String: Distribution] = [:]
                for e in p["params"]?.entries ?? [] {
                    if let d = e.value.doubleValue {
                        params[e.key] = .fixed(d)
                    } else if let f = e.value["distribution"]?.textValue.flatMap(Distribution.Family.init(rawValue:)) {
                        params[e.key] = Distribution(family: f, values: f.parameterNames.map { e.value[$0]?.doubleValue ?? 0 })
                    }
                }
                return PersonaShare(name: p["name"]?.textValue ?? "", share: p["share"]?.doubleValue ?? 0, params: params)
            },
            devices: (t["devices"]?.items ?? []).map { DeviceShare(model: $0["model"]?.textValue ?? "", share: $0["share"]?.doubleValue ?? 0) },
            timeZones: (t["time_zones"]?.items ?? []).map { ZoneShare(zone: $0["zone"]?.textValue ?? "", share: $0["share"]?.doubleValue ?? 0) })
    }

    /// Why `outputs.dir` (as written in the file) may not be used: empty, or outside the scenario file's folder.
    static func outputsDirIssue(_ dir: String, base: String, fileName: String) -> ScenarioIssue? {
        let folder = URL(fileURLWithPath: base.isEmpty ? "." : base).standardizedFileURL.path
        let target = (dir.hasPrefix("/") ? URL(fileURLWithPath: dir) : URL(fileURLWithPath: folder).appendingPathComponent(dir)).standardizedFileURL.path
        let inside = folder == "/" ? target != "/" : target.hasPrefix(folder + "/")
        guard dir.isEmpty || !inside else { return nil }
        let problem = dir.isEmpty ? "outputs.dir is empty"
            : target == folder ? "outputs.dir '\(dir.echoed())' is the scenario's own folder (\(folder))"
            : "outputs.dir '\(dir.echoed())' leaves the scenario's folder (\(folder)): a scenario file may write only inside its own folder"
        return ScenarioIssue(file: fileName, keyPath: "outputs.dir", kind: .outOfRange, message: problem, value: dir,
                             allowed: "a relative folder inside the scenario's folder, e.g. Reports/NAME; "
                             + "to write elsewhere, give --out on the command line")
    }

    /// `Scenarios/premium test.yaml` → `premium-test`.
    static func defaultName(fileName: String) -> String {
        var base = (fileName as NSString).lastPathComponent
        if let dot = base.lastIndex(of: "."), dot != base.startIndex { base = String(base[..<dot]) }
        return ScenarioChecker.slug(base)
    }
}

extension ScenarioValue {
    /// A copy with `value` set at a nested key path, creating maps on the way.
    func setting(path: [String], to value: ScenarioValue) -> ScenarioValue {
        guard let first = path.first else { return value }
        let inner = self[first] ?? .map([])
        return setting(first, to: path.count == 1 ? value : inner.setting(path: Array(path.dropFirst()), to: value))
    }
}
