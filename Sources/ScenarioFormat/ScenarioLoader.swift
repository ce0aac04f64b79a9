import Foundation
import RulesCore
import Yams

/// Reads, checks and resolves scenario files.
///
/// ```swift
/// let loader = ScenarioLoader(catalogues: ProductCatalogues([.scrollOff: ScrollOffParameters.catalogue]))
/// let scenario = try loader.load(path: "Scenarios/premium.yaml", overrides: ScenarioOverrides(seed: 7))
/// ```
/// Every problem in the file (and in the overrides) is reported at once in one `ScenarioError`.
public struct ScenarioLoader: Sendable {
    /// What scenarios are checked against: the products' rule catalogues and KPI ids, personas and devices.
    public var catalogues: ProductCatalogues

    /// Command-line overrides (the same type as `ScenarioOverrides`).
    public typealias Overrides = ScenarioOverrides

    /// The file name used in issues for command-line overrides.
    public static let commandLine = "<command line>"

    /// The most arms (explicit and sweep points) a scenario may have; `habitat … --allow-large` raises it to
    /// `largeMaxArms`. Every arm is held in memory with its own rules, and simulated on the same people.
    public var maxArms = defaultMaxArms
    /// The most arms without `--allow-large`.
    public static let defaultMaxArms = 1_000
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
        // a default run.
        if root == nil || ScenarioChecker.isNull(root) {
            let what = yaml.allSatisfy(\.isWhitespace) ? "is empty" : root == nil ? "holds only comments" : "holds only a null value"
            throw ScenarioError(issues: [ScenarioIssue(file: fileName, keyPath: "", kind: .invalid, message: "the scenario file \(what)",
                                                       allowed: "a map of scenario keys, at least `product:` (e.g. `product: scroll-off`)")])
        }

        // The product decides which catalogue `rules` is checked against: the command line's, the file's, the first of
        // `products:`, else the registry's default.
        var productText: String? = overrides.values["product"]
        if productText == nil, case .scalar(let s)? = root?.mapping?["product"] { productText = s.string }
        if productText == nil, let first = root?.mapping?["products"]?.sequence?.first, !ScenarioChecker.isNull(first),
           case .scalar(let s) = first { productText = s.string }
        let product: Product? = productText.map { Product(rawValue: $0) } ?? catalogues.defaultProduct
        let catalogue = product.flatMap { catalogues[$0] }

        var checker = ScenarioChecker(file: fileName, product: product, catalogue: catalogue)
        checker.duplicates = composed.duplicates
        checker.population = catalogues.population
        checker.registry = catalogues
        checker.behavior = catalogues.behavior
        checker.products = catalogues.productIDs
        // The arm list's length first: a list past the limit is named before its items' problems fill the report.
        checker.checkArmCount(root, maxArms: maxArms, largeMaxArms: Self.largeMaxArms)
        var tree = checker.check(root, ScenarioSchema.scenario, at: .root) ?? .map([])
        checker.checkCatalogueNames(root)
        checker.checkSensitivityRanges(root)
        checker.checkProductList(root, productFromCommandLine: overrides.values["product"] != nil)
        checker.checkPlannedProducts(root, productFromCommandLine: overrides.values["product"] != nil)
        var fileIssues = checker.issues
        fileIssues.sort { ($0.line ?? .max, $0.column ?? .max) < ($1.line ?? .max, $1.column ?? .max) }
        if checker.unlisted > 0 {
            fileIssues.append(ScenarioIssue(file: fileName, keyPath: "", kind: .invalid,
                                            message: "\(checker.unlisted) more problems not listed (the first \(ScenarioChecker.maxIssues) are above)"))
        }

        // Command-line overrides.
        let cli = overrides.apply(to: &tree, product: product, catalogue: catalogue, behavior: catalogues.behavior,
                                  products: catalogues.productIDs)
        var issues = fileIssues + cli.issues
        if let named = overrides.values["product"], cli.issues.allSatisfy({ $0.keyPath != "product" }),
           case .list(let listed)? = tree["products"], !listed.compactMap(\.textValue).contains(named) {
            issues.append(ScenarioIssue(file: Self.commandLine, keyPath: "product", kind: .outOfRange,
                                        message: "product '\(named.echoed())' is not one of the scenario's products: (the scenario's product is one of its arms)",
                                        value: named, allowed: "one of " + AllowedList.text(listed.compactMap(\.textValue))))
        }
        guard let product else {
            throw ScenarioError(issues: issues + [ScenarioIssue(file: fileName, keyPath: "product", kind: .invalid,
                                                                message: "no product is named and none is registered", allowed: "a product id")])
        }
        guard issues.isEmpty else { throw ScenarioError(issues: issues) }
        return try Self.build(tree, fileName: fileName, product: product, catalogue: catalogue ?? [],
                              ruleOverrides: cli.rules, installsOverride: cli.installs,
                              behaviorCatalogue: catalogues.behavior ?? [], behaviorOverrides: cli.behavior,
                              dirFromCommandLine: overrides.outputDir != nil, maxArms: maxArms,
                              catalogues: catalogues, tenureOverride: cli.tenureDays)
    }
}
