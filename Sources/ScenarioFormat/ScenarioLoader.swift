import Foundation
import RulesCore
import Yams

/// Command-line overrides, applied last: they win over the file, its arms and every default.
///
/// Typed fields cover `habitat run`'s options; `values` sets any overridable key path from text, e.g.
/// `["rules.tokens.monthly_purchase_cap": "8", "start": "2026-03-02"]` (rule overrides apply to every arm).
public struct ScenarioOverrides: Sendable, Hashable {
    /// `--seed`: the master seed.
    public var seed: UInt64?
    /// `--replications`.
    public var replications: Int?
    /// `--people`: `population.installs`, in every arm.
    public var people: Int?
    /// `--days`: `horizon_days`.
    public var days: Int?
    /// `--out`: `outputs.dir`.
    public var outputDir: String?
    /// Key path → value as YAML text (`8`, `5.99`, `[mon, tue]`); `rules.*` or one of `ScenarioSchema.overridableKeys`.
    public var values: [String: String]

    /// Creates overrides; everything absent by default.
    public init(seed: UInt64? = nil, replications: Int? = nil, people: Int? = nil, days: Int? = nil, outputDir: String? = nil,
                values: [String: String] = [:]) {
        self.seed = seed
        self.replications = replications
        self.people = people
        self.days = days
        self.outputDir = outputDir
        self.values = values
    }

    /// No overrides.
    public static let none = ScenarioOverrides()

    /// Every override as (key path, text), typed ones last so they win over `values`.
    var assignments: [(key: String, text: String)] {
        var list = values.keys.sorted().map { ($0, values[$0]!) }
        if let seed { list.append(("seed", String(seed))) }
        if let replications { list.append(("replications", String(replications))) }
        if let people { list.append(("population.installs", String(people))) }
        if let days { list.append(("horizon_days", String(days))) }
        if let outputDir { list.append(("outputs.dir", outputDir)) }
        return list
    }
}

/// Reads, checks and resolves scenario files.
///
/// ```swift
/// let loader = ScenarioLoader(catalogues: ProductCatalogues([.scrollOff: ScrollOffRules.catalogue]))
/// let scenario = try loader.load(path: "Scenarios/premium.yaml", overrides: ScenarioOverrides(seed: 7))
/// ```
/// Every problem in the file (and in the overrides) is reported at once in one `ScenarioError`.
public struct ScenarioLoader: Sendable {
    /// The rule catalogues of the products.
    public var catalogues: ProductCatalogues

    /// Command-line overrides (the same type as `ScenarioOverrides`).
    public typealias Overrides = ScenarioOverrides

    /// The file name used in issues for command-line overrides.
    public static let commandLine = "<command line>"

    /// The most arms (explicit and sweep points) a scenario may have; `habitat … --allow-large` raises it to
    /// `largeMaxArms`. Every arm is held in memory with its own rules, and simulated on the same people.
    public var maxArms = 1_000
    /// The most arms even with `--allow-large`.
    public static let largeMaxArms = 100_000

    /// Creates a loader that checks `rules` against these catalogues.
    public init(catalogues: ProductCatalogues, allowLarge: Bool = false) {
        self.catalogues = catalogues
        if allowLarge { maxArms = Self.largeMaxArms }
    }

    /// Loads a scenario file.
    public func load(path: String, overrides: ScenarioOverrides = .none) throws(ScenarioError) -> ResolvedScenario {
        let text: String
        do { text = try ScenarioText.read(path) } catch {
            throw ScenarioError(issues: [ScenarioIssue(file: path, keyPath: "", kind: .invalid, message: error.description)])
        }
        return try load(yaml: text, fileName: path, overrides: overrides)
    }

    /// Loads a scenario from YAML text; `fileName` names it in issues and gives the default `name`.
    public func load(yaml: String, fileName: String = "scenario.yaml", overrides: ScenarioOverrides = .none) throws(ScenarioError) -> ResolvedScenario {
        let composed = Self.compose(yaml, file: fileName)
        if let issue = composed.syntaxIssue { throw ScenarioError(issues: [issue]) }
        let root = composed.root
        // An empty, comment-only or null document is a truncated download or a failed redirect, not a request for
        // the default 1000-person run.
        if root == nil || ScenarioChecker.isNull(root) {
            let what = yaml.allSatisfy(\.isWhitespace) ? "is empty" : root == nil ? "holds only comments" : "holds only a null value"
            throw ScenarioError(issues: [ScenarioIssue(file: fileName, keyPath: "", kind: .invalid, message: "the scenario file \(what)",
                                                       allowed: "a map of scenario keys, at least `product:` (e.g. `product: scroll-off`)")])
        }

        // The product decides which catalogue `rules` is checked against.
        var productText: String? = overrides.values["product"]
        if productText == nil, case .scalar(let s)? = root?.mapping?["product"] { productText = s.string }
        let product: Product? = productText.map { Product(rawValue: $0) } ?? .scrollOff
        let catalogue = product.flatMap { catalogues[$0] }

        var checker = ScenarioChecker(file: fileName, product: product, catalogue: catalogue)
        checker.duplicates = composed.duplicates
        var tree = checker.check(root, ScenarioSchema.scenario, at: .root) ?? .map([])
        var fileIssues = checker.issues
        fileIssues.sort { ($0.line ?? .max, $0.column ?? .max) < ($1.line ?? .max, $1.column ?? .max) }
        if checker.unlisted > 0 {
            fileIssues.append(ScenarioIssue(file: fileName, keyPath: "", kind: .invalid,
                                            message: "\(checker.unlisted) more problems not listed (the first \(ScenarioChecker.maxIssues) are above)"))
        }

        // Command-line overrides.
        var cli = ScenarioChecker(file: Self.commandLine, product: product, catalogue: catalogue)
        cli.locates = false
        var ruleOverrides: [(String, ParameterValue)] = []
        var installsOverride: Int?
        for (key, text) in overrides.assignments {
            let node: Node = ((try? Yams.compose(yaml: text)) ?? nil).flatMap { $0.scalar == nil && $0.sequence == nil ? nil : $0 }
                ?? Node.scalar(.init(text))
            let path = KeyPath.root.appending(key)
            if key.hasPrefix("rules.") {
                let rule = String(key.dropFirst("rules.".count))
                guard let product else { continue }
                guard let catalogue else {
                    cli.report(.invalid, path, at: nil, "product '\(product)' has no rule catalogue yet, so it accepts no rules keys")
                    continue
                }
                guard let p = catalogue.first(where: { $0.keyPath == rule }) else {
                    cli.report(.unknownKey, path, at: nil, "unknown rule parameter '\(rule)' for product '\(product)'", value: rule,
                               suggestion: Suggestion.closest(to: rule, among: catalogue.map(\.keyPath)).map { "rules." + $0 })
                    continue
                }
                if let v = cli.checkParameter(node, p, at: path) { ruleOverrides.append((rule, v)) }
            } else if ScenarioSchema.overridableKeys.contains(key), let field = ScenarioSchema.scenario.field(at: key) {
                if let v = cli.check(node, field.node, at: path) {
                    tree = tree.setting(path: key.split(separator: ".").map(String.init), to: v)
                    if key == "population.installs" { installsOverride = v.intValue }
                }
            } else {
                cli.report(.unknownKey, path, at: nil, "'\(key)' cannot be set from the command line", value: key,
                           allowed: "rules.<parameter> or one of " + ScenarioSchema.overridableKeys.joined(separator: ", "),
                           suggestion: Suggestion.closest(to: key, among: ScenarioSchema.overridableKeys + (catalogue ?? []).map { "rules." + $0.keyPath }))
            }
        }
        let issues = fileIssues + cli.issues
        guard issues.isEmpty, let product else { throw ScenarioError(issues: issues) }
        return try Self.build(tree, fileName: fileName, product: product, catalogue: catalogue ?? [],
                              ruleOverrides: ruleOverrides, installsOverride: installsOverride,
                              dirFromCommandLine: overrides.outputDir != nil, maxArms: maxArms)
    }

    // MARK: - Composing YAML

    struct Composed {
        var root: Node?
        var duplicates: [String: (key: String, first: Mark?)] = [:]
        var syntaxIssue: ScenarioIssue?
    }

    /// Parses YAML into nodes. Duplicate keys (which Yams refuses) are renamed to sentinels and reported later
    /// with everything else; other syntax errors become one located issue.
    static func compose(_ yaml: String, file: String) -> Composed {
        var text = yaml
        var result = Composed()
        for attempt in 0...maxDuplicateReparses {
            do {
                result.root = try Yams.compose(yaml: text)
                return result
            } catch let YamlError.duplicatedKeysInMapping(keys, context) {
                let key = keys.first ?? ""
                let sentinel = "__habitat_duplicate_\(attempt)__"
                guard let renamed = renameLaterOccurrence(of: key, after: context.mark, in: text, to: sentinel) else {
                    result.syntaxIssue = ScenarioIssue(file: file, line: context.mark.line, column: context.mark.column, keyPath: key,
                                                       kind: .duplicateKey, message: "duplicate key '\(key)'", value: key,
                                                       allowed: "each key once per map")
                    return result
                }
                text = renamed
                result.duplicates[sentinel] = (key, context.mark)
            } catch let error as YamlError {
                result.syntaxIssue = syntaxIssue(error, file: file)
                return result
            } catch {
                result.syntaxIssue = ScenarioIssue(file: file, keyPath: "", kind: .syntax, message: "YAML syntax error: \(error)")
                return result
            }
        }
        // Each duplicate costs one more parse of the whole text: past a handful, report the next one and stop.
        do {
            _ = try Yams.compose(yaml: text)
        } catch let YamlError.duplicatedKeysInMapping(keys, context) {
            result.syntaxIssue = ScenarioIssue(file: file, line: context.mark.line, column: context.mark.column, keyPath: keys.first ?? "",
                                               kind: .duplicateKey,
                                               message: "duplicate key '\(keys.first ?? "")' (more than \(maxDuplicateReparses) duplicate keys; "
                                               + "fix these and validate again to see the rest)",
                                               value: keys.first, allowed: "each key once per map")
        } catch {}
        return result
    }

    /// Duplicate keys reported (each makes the loader parse the text once more).
    static let maxDuplicateReparses = 10

    static func syntaxIssue(_ error: YamlError, file: String) -> ScenarioIssue {
        func issue(_ problem: String, _ context: YamlError.Context?, _ mark: Mark) -> ScenarioIssue {
            var message = "YAML syntax error: \(problem)"
            if let context { message += " (\(context.text) at line \(context.mark.line), column \(context.mark.column))" }
            return ScenarioIssue(file: file, line: mark.line, column: mark.column, keyPath: "", kind: .syntax, message: message)
        }
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _), let .composer(context, problem, mark, _):
            // libyaml names its own API in this one; say what it means.
            if problem.lowercased().contains("nesting level") {
                return ScenarioIssue(file: file, line: mark.line, column: mark.column, keyPath: "", kind: .syntax,
                                     message: "the YAML nests maps or lists too deeply (libyaml's limit)",
                                     allowed: "a scenario a few levels deep")
            }
            return issue(problem, context, mark)
        case let .reader(problem, _, _, _):
            return ScenarioIssue(file: file, keyPath: "", kind: .syntax, message: "cannot read the text: \(problem)")
        default:
            return ScenarioIssue(file: file, keyPath: "", kind: .syntax, message: "YAML syntax error: \(error)")
        }
    }

    /// Renames the next occurrence of block-mapping key `key` at the same column as `first` (the duplicate).
    static func renameLaterOccurrence(of key: String, after first: Mark, in text: String, to sentinel: String) -> String? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard first.line >= 1, first.line <= lines.count else { return nil }
        let forms = [key, "\"\(key)\"", "'\(key)'"]
        for i in first.line..<lines.count {
            let scalars = Array(lines[i].unicodeScalars)
            let col = first.column - 1
            guard col <= scalars.count else { continue }
            let prefix = String(String.UnicodeScalarView(scalars[..<col]))
            guard prefix.allSatisfy({ $0 == " " || $0 == "-" }) else { continue }
            let rest = String(String.UnicodeScalarView(scalars[col...]))
            for form in forms where rest.hasPrefix(form) {
                let after = rest.dropFirst(form.count).drop(while: { $0 == " " || $0 == "\t" })
                if after.hasPrefix(":") {
                    lines[i] = prefix + sentinel + rest.dropFirst(form.count)
                    return lines.joined(separator: "\n")
                }
            }
        }
        return renameInFlowMap(of: key, after: first, in: lines, to: sentinel)
    }

    /// The same for a flow map (`{installs: 1, installs: 2}`), whose mark is its opening brace: the second
    /// `key:` after the brace, preceded by `{`, `,` or a space, is renamed.
    static func renameInFlowMap(of key: String, after first: Mark, in lines: [String], to sentinel: String) -> String? {
        var text = lines.joined(separator: "\n")
        var offset = text.startIndex
        for line in lines.prefix(first.line - 1) { offset = text.index(offset, offsetBy: line.count + 1, limitedBy: text.endIndex) ?? text.endIndex }
        offset = text.index(offset, offsetBy: max(0, first.column - 1), limitedBy: text.endIndex) ?? text.endIndex
        var found = 0
        var search = offset
        for form in [key, "\"\(key)\"", "'\(key)'"] where found < 2 {
            found = 0
            search = offset
            while let r = text.range(of: form, range: search..<text.endIndex) {
                let before = r.lowerBound == text.startIndex ? " " : text[text.index(before: r.lowerBound)]
                let after = text[r.upperBound...].drop(while: { $0 == " " || $0 == "\t" })
                if "{, \t\n".contains(before), after.hasPrefix(":") {
                    found += 1
                    if found == 2 {
                        text.replaceSubrange(r, with: sentinel)
                        return text
                    }
                }
                search = r.upperBound
            }
        }
        return nil
    }

    // MARK: - Building the resolved scenario

    static func build(_ tree: ScenarioValue, fileName: String, product: Product, catalogue: [RuleParameter],
                      ruleOverrides: [(String, ParameterValue)], installsOverride: Int?,
                      dirFromCommandLine: Bool = false, maxArms: Int = 1_000) throws(ScenarioError) -> ResolvedScenario {
        let name = tree["name"]?.textValue ?? defaultName(fileName: fileName)
        var defaults = ParameterValues([:])
        for p in catalogue { defaults[p.keyPath] = canonical(p.defaultValue, p.kind) }
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
            arms.append(ResolvedArm(name: armTree["name"]?.textValue ?? "arm\(arms.count)",
                                    rules: withCommandLine(layered(scenarioRules, armTree["rules"])),
                                    population: armPopulation))
        }
        if arms.isEmpty { arms = [ResolvedArm(name: "control", rules: withCommandLine(scenarioRules), population: population)] }

        let sweepTree = tree["sweep"]
        let sweep = SweepSpec(
            axes: (sweepTree?["axes"]?.entries ?? []).map { SweepSpec.Axis(keyPath: $0.key, values: $0.value.items.map(parameterValue)) },
            zip: (sweepTree?["zip"]?.items ?? []).map { $0.items.compactMap(\.textValue) })
        let total = sweep.pointCount + Double(arms.count)
        if total > Double(maxArms) {
            let grid = sweep.units.map { String($0.map(\.values.count).min() ?? 0) }.joined(separator: " × ")
            throw ScenarioError(issues: [ScenarioIssue(
                file: fileName, keyPath: "sweep", kind: .outOfRange,
                message: "the sweep has \(Int(sweep.pointCount)) points (\(grid)): more arms than one run may hold",
                value: String(Int(sweep.pointCount)),
                allowed: "at most \(maxArms) arms in all; split the sweep into several scenarios"
                    + (maxArms < largeMaxArms ? ", or pass --allow-large (up to \(largeMaxArms))" : ""))])
        }
        arms += try sweepArms(sweep, scenarioRules: scenarioRules, population: population, existing: arms.map(\.name),
                              fileName: fileName, withCommandLine: withCommandLine)
        if let installsOverride { for i in arms.indices { arms[i].population.installs = installsOverride } }
        var precision: PrecisionTarget?
        if let p = tree["precision"], let kpis = p["kpis"] {
            var targets: [String: Double] = [:]
            for e in kpis.entries { if let v = e.value.doubleValue { targets[e.key] = v } }
            let minimum = tree["replications"]?.intValue ?? 1
            let maximum = p["max_replications"]?.intValue ?? 50
            guard maximum >= minimum else {
                throw ScenarioError(issues: [ScenarioIssue(file: fileName, keyPath: "precision.max_replications", kind: .outOfRange,
                                                           message: "max_replications \(maximum) is below replications \(minimum)",
                                                           value: String(maximum), allowed: "at least replications (\(minimum))")])
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
        let horizon = tree["horizon_days"]?.intValue ?? 90
        if let curve = population.acquisition, curve.realInstalls(start: start, days: horizon).reduce(0, +) <= 0 {
            throw ScenarioError(issues: [ScenarioIssue(file: fileName, keyPath: "population.acquisition", kind: .invalid,
                                                       message: "the install curve has no installs within the horizon (\(start) + \(horizon) days)",
                                                       allowed: "a curve with a positive total inside the horizon")])
        }
        return ResolvedScenario(
            name: name, product: product, seed: seed, start: start,
            horizonDays: tree["horizon_days"]?.intValue ?? 90,
            replications: tree["replications"]?.intValue ?? 1,
            population: population, rules: withCommandLine(scenarioRules), arms: arms, sweep: sweep, precision: precision, outputs: outputs)
    }

    /// One arm per sweep grid point, each over the scenario-level rules and population (command-line rule
    /// overrides still win, as for arms). Names that clash with other arms, and personas not in the mix, are errors.
    static func sweepArms(_ sweep: SweepSpec, scenarioRules: ParameterValues, population: PopulationSpec, existing: [String],
                          fileName: String, withCommandLine: (ParameterValues) -> ParameterValues) throws(ScenarioError) -> [ResolvedArm] {
        var arms: [ResolvedArm] = []
        var issues: [ScenarioIssue] = []
        var names = Set(existing)
        for point in sweep.points {
            var rules = scenarioRules
            var armPopulation = population
            for (keyPath, value) in point {
                if keyPath.hasPrefix("rules.") {
                    rules[String(keyPath.dropFirst("rules.".count))] = value
                } else if keyPath == "population.installs", let n = value.intValue {
                    armPopulation.installs = n
                } else if let target = ScenarioSchema.behaviourSweepTarget(keyPath), let x = value.doubleValue {
                    guard let p = armPopulation.settingBehaviour(target.parameter, to: x, persona: target.persona) else {
                        let personas = population.personas.map(\.name)
                        issues.append(ScenarioIssue(file: fileName, keyPath: "sweep." + keyPath, kind: .unknownKey,
                                                    message: "persona '\(target.persona ?? "")' is not in the population's mix",
                                                    value: target.persona, allowed: "one of " + personas.joined(separator: ", "),
                                                    suggestion: Suggestion.closest(to: target.persona ?? "", among: personas)))
                        continue
                    }
                    armPopulation = p
                }
            }
            let name = sweep.armName(point)
            if names.contains(name) {
                issues.append(ScenarioIssue(file: fileName, keyPath: "sweep", kind: .duplicateName,
                                            message: "the sweep's arm '\(name)' has the name of another arm", value: name,
                                            allowed: "arm names unique across arms and sweep points"))
            }
            names.insert(name)
            arms.append(ResolvedArm(name: name, rules: withCommandLine(rules), population: armPopulation, fromSweep: true))
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
            installs: t["installs"]?.intValue ?? 1000,
            personas: (t["personas"]?.items ?? []).map { p in
                var params: [String: ParameterDistribution] = [:]
                for e in p["params"]?.entries ?? [] {
                    if let d = e.value.doubleValue {
                        params[e.key] = .fixed(d)
                    } else if let f = e.value["distribution"]?.textValue.flatMap(DistributionFamily.init(rawValue:)) {
                        params[e.key] = ParameterDistribution(family: f, values: f.parameterNames.map { e.value[$0]?.doubleValue ?? 0 })
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
            : target == folder ? "outputs.dir '\(dir)' is the scenario's own folder (\(folder))"
            : "outputs.dir '\(dir)' leaves the scenario's folder (\(folder)): a scenario file may write only inside its own folder"
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
