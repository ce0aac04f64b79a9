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
    /// Key path → value as YAML text (`8`, `5.99`, `[mon, tue]`); `rules.*`, `behavior.*` or one of
    /// `ScenarioSchema.overridableKeys`.
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

extension ScenarioOverrides {
    /// What applying the overrides produced: rule values for every arm, the installs for every arm, and the
    /// problems found (reported against `ScenarioLoader.commandLine`, without line and column).
    struct Applied {
        var rules: [(String, ParameterValue)] = []
        var behavior: [(String, ParameterValue)] = []
        var installs: Int?
        /// `tenure_days`, for every arm (over the arms' own).
        var tenureDays: Int?
        var issues: [ScenarioIssue] = []
    }

    /// Checks every override and sets the non-rule ones in the checked scenario tree; rule overrides are returned,
    /// to be layered over every arm's rules.
    func apply(to tree: inout ScenarioValue, product: Product?, catalogue: [RuleParameter]?, behavior: [RuleParameter]? = nil,
               products: [String] = []) -> Applied {
        var cli = ScenarioChecker(file: ScenarioLoader.commandLine, product: product, catalogue: catalogue)
        cli.products = products
        cli.behavior = behavior
        cli.locates = false
        var applied = Applied()
        for (key, text) in assignments {
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
                    cli.report(.unknownKey, path, at: nil, "unknown rule parameter '\(rule.echoed())' for product '\(product)'", value: rule,
                               suggestion: Suggestion.closest(to: rule, among: catalogue.map(\.keyPath)).map { "rules." + $0 })
                    continue
                }
                if let v = cli.checkParameter(node, p, at: path) { applied.rules.append((rule, v)) }
            } else if key.hasPrefix("behavior.") {
                let name = String(key.dropFirst("behavior.".count))
                let known = behavior ?? []
                guard let p = known.first(where: { $0.keyPath == name }) else {
                    cli.report(.unknownKey, path, at: nil, "unknown behaviour parameter '\(name.echoed())'", value: name,
                               allowed: known.isEmpty ? "no behaviour parameters (none registered)" : "behavior.<key>, one of the \(known.count) keys `habitat validate --explain` lists",
                               suggestion: Suggestion.closest(to: name, among: known.map(\.keyPath)).map { "behavior." + $0 })
                    continue
                }
                if let v = cli.checkParameter(node, p, at: path) { applied.behavior.append((name, v)) }
            } else if ScenarioSchema.overridableKeys.contains(key), let field = ScenarioSchema.scenario.field(at: key) {
                if let v = cli.check(node, field.node, at: path) {
                    tree = tree.setting(path: key.split(separator: ".").map(String.init), to: v)
                    if key == "population.installs" { applied.installs = v.intValue }
                    if key == "tenure_days" { applied.tenureDays = v.intValue }
                }
            } else {
                cli.report(.unknownKey, path, at: nil, "'\(key.echoed())' cannot be set from the command line", value: key,
                           allowed: "rules.<parameter>, behavior.<parameter> or one of " + ScenarioSchema.overridableKeys.joined(separator: ", "),
                           suggestion: Suggestion.closest(to: key, among: ScenarioSchema.overridableKeys + (catalogue ?? []).map { "rules." + $0.keyPath }
                                                          + (behavior ?? []).map { "behavior." + $0.keyPath }))
            }
        }
        applied.issues = cli.issues
        return applied
    }
}
