import Testing
import RulesCore
@testable import ScenarioFormat

/// Issue 28, part 3 ("products as arms"): arms that are different products on the same people — an arm's
/// `product:`, the `products:` shorthand, `product` as a sweep axis — and `tenure_days`.
@Suite("Products as arms")
struct ProductArmsTests {
    /// A second made-up catalogue (for `earned-access`) with no key in common with `TestCatalogue.parameters`.
    static let earnedAccess: [RuleParameter] = [
        RuleParameter("credits.daily_cap", .integer(0...100), default: .int(30), "credits a person may earn per day",
                      source: .assumption("test")),
        RuleParameter("credits.expiry_hours", .integer(1...72), default: .int(24), "hours before credits expire",
                      source: .assumption("test")),
        RuleParameter("streak.min_minutes", .number(0...600), default: .number(30), "minutes that count a day towards a streak",
                      source: .assumption("test")),
    ]

    /// Three products: `scroll-off` (the default), `earned-access`, and `none` (no app, no rules), with KPI ids and a
    /// behaviour catalogue.
    static var catalogues: ProductCatalogues {
        var c = ProductCatalogues(["scroll-off": TestCatalogue.parameters, "earned-access": earnedAccess, "none": []],
                                  kpis: ["scroll-off": ["download_to_paid", "retention_d7", "true_time_saved"],
                                         "earned-access": ["retention_d7", "unlocks_per_day", "true_time_saved"],
                                         "none": ["true_time_saved"]],
                                  behavior: [RuleParameter("churn.base_hazard", .number(0...1), default: .number(0.05), "daily churn hazard",
                                                           source: .assumption("test"))])
        c.products = ["scroll-off", "earned-access", "none"].map {
            ProductListing(id: Product(rawValue: $0), name: $0, seedFile: "", summary: "", hasEngine: true)
        }
        return c
    }

    static let loader = ScenarioLoader(catalogues: catalogues)

    static func load(_ yaml: String, overrides: ScenarioOverrides = .none) throws -> ResolvedScenario {
        try loader.load(yaml: yaml, fileName: "arms.yaml", overrides: overrides)
    }

    static func error(_ yaml: String, overrides: ScenarioOverrides = .none) -> ScenarioError? {
        do { _ = try load(yaml, overrides: overrides); return nil } catch { return error as? ScenarioError }
    }

    static var earnedAccessDefaults: ParameterValues {
        var v = ParameterValues([:])
        for p in earnedAccess { v[p.keyPath] = ScenarioLoader.canonical(p.defaultValue, p.kind) }
        return v
    }

    /// Loads `s.yaml` again and checks it gives the same scenario, text and hash.
    static func expectRoundTrip(_ s: ResolvedScenario, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let again = try loader.load(yaml: s.yaml, fileName: "again.yaml")
        #expect(again == s, sourceLocation: sourceLocation)
        #expect(again.yaml == s.yaml, sourceLocation: sourceLocation)
        #expect(again.scenarioHash == s.scenarioHash, sourceLocation: sourceLocation)
    }

    // MARK: - An arm's product

    static let threeProducts = """
        product: scroll-off
        rules:
          tokens: {monthly_purchase_cap: 5}
        arms:
          - name: scroll
          - name: same
            product: scroll-off
            rules: {tokens.grant_minutes: 20}
          - name: earned
            product: earned-access
            rules:
              credits: {daily_cap: 40}
          - name: off
            product: none
        """

    @Test("an arm's product resolves; the scenario's own product is stored as nil")
    func armProduct() throws {
        let s = try Self.load(Self.threeProducts)
        #expect(s.product == "scroll-off")
        #expect(s.arms.map(\.name) == ["scroll", "same", "earned", "off"])
        #expect(s.arms.map(\.product) == [nil, nil, "earned-access", "none"])
        #expect(s.arms.map { s.product(of: $0) } == ["scroll-off", "scroll-off", "earned-access", "none"])
        #expect(s.products == ["scroll-off", "earned-access", "none"])
        #expect(s.isMultiProduct)
    }

    @Test("an arm of another product starts from its own catalogue's defaults, without the scenario's rules")
    func armRulesLayering() throws {
        let s = try Self.load(Self.threeProducts)
        let scroll = try #require(s.arm(named: "scroll")), same = try #require(s.arm(named: "same"))
        let earned = try #require(s.arm(named: "earned")), off = try #require(s.arm(named: "off"))
        #expect(scroll.rules == s.rules)
        #expect(scroll.rules["tokens.monthly_purchase_cap"] == .int(5))
        #expect(same.rules["tokens.monthly_purchase_cap"] == .int(5))
        #expect(same.rules["tokens.grant_minutes"] == .int(20))
        var expected = Self.earnedAccessDefaults
        expected["credits.daily_cap"] = .int(40)
        #expect(earned.rules == expected)
        #expect(earned.rules["tokens.monthly_purchase_cap"] == nil)
        #expect(off.rules.values.isEmpty)
    }

    @Test("an arm's rules are checked against its own product's catalogue, located, with did-you-mean")
    func armRulesChecked() throws {
        let error = try #require(Self.error("""
            arms:
              - name: a
                rules: {credits.daily_cap: 3}
              - name: b
                product: earned-access
                rules:
                  tokens.monthly_purchase_cap: 5
                  credits.daly_cap: 3
                  credits: {expiry_hours: 500}
              - name: c
                product: none
                rules: {credits.daily_cap: 3}
            """))
        let byPath = Dictionary(error.issues.map { ($0.keyPath, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(error.issues.count == 5, "\(error)")
        let a = try #require(byPath["arms[0].rules.credits.daily_cap"])
        #expect(a.message == "unknown rule parameter 'credits.daily_cap' for product 'scroll-off'")
        let wrongProduct = try #require(byPath["arms[1].rules.tokens.monthly_purchase_cap"])
        #expect(wrongProduct.kind == .unknownKey)
        #expect(wrongProduct.message == "unknown rule parameter 'tokens.monthly_purchase_cap' for product 'earned-access'")
        #expect(wrongProduct.line == 7 && wrongProduct.column == 7)
        #expect(byPath["arms[1].rules.credits.daly_cap"]?.suggestion == "credits.daily_cap")
        let range = try #require(byPath["arms[1].rules.credits.expiry_hours"])
        #expect(range.description == "arms.yaml:9:31: error: arms[1].rules.credits.expiry_hours: value 500 is out of range; allowed an integer in 1…72")
        #expect(byPath["arms[2].rules.credits.daily_cap"]?.message == "unknown rule parameter 'credits.daily_cap' for product 'none'")
    }

    @Test("an unknown arm product gets a did-you-mean, and its rules are not checked against anything")
    func unknownArmProduct() throws {
        let error = try #require(Self.error("""
            arms:
              - name: a
                product: earned-acces
                rules: {credits.daily_cap: 3}
            """))
        #expect(error.issues.count == 1)
        #expect(error.issues[0].keyPath == "arms[0].product")
        #expect(error.issues[0].suggestion == "earned-access")
        #expect(error.issues[0].line == 3)
    }

    @Test("command-line rule overrides apply only to arms of the scenario's product")
    func commandLineRulesOnScenarioProductOnly() throws {
        let s = try Self.load(Self.threeProducts, overrides: ScenarioOverrides(values: ["rules.tokens.monthly_purchase_cap": "9"]))
        #expect(s.arm(named: "scroll")?.rules["tokens.monthly_purchase_cap"] == .int(9))
        #expect(s.arm(named: "same")?.rules["tokens.monthly_purchase_cap"] == .int(9))
        #expect(s.arm(named: "earned")?.rules["tokens.monthly_purchase_cap"] == nil)
        #expect(s.arm(named: "earned")?.rules["credits.daily_cap"] == .int(40))
        #expect(s.arm(named: "off")?.rules.values.isEmpty == true)
        try Self.expectRoundTrip(s)
    }

    // MARK: - products:

    @Test("products: makes one arm per product, named by its id, in order; the first is the scenario's product")
    func productsShorthand() throws {
        let s = try Self.load("""
            products: [scroll-off, none, earned-access]
            rules: {tokens.monthly_purchase_cap: 7}
            """)
        #expect(s.product == "scroll-off")
        #expect(s.arms.map(\.name) == ["scroll-off", "none", "earned-access"])
        #expect(s.arms.map(\.product) == [nil, "none", "earned-access"])
        #expect(s.products == ["scroll-off", "none", "earned-access"])
        #expect(s.arms[0].rules["tokens.monthly_purchase_cap"] == .int(7))
        #expect(s.arms[1].rules.values.isEmpty)
        #expect(s.arms[2].rules == Self.earnedAccessDefaults)
        #expect(s.arms.allSatisfy { !$0.fromSweep && $0.population == s.population })
        try Self.expectRoundTrip(s)

        let first = try Self.load("products: [none, scroll-off]\n")
        #expect(first.product == "none")
        #expect(first.arms.map(\.product) == [nil, "scroll-off"])
        #expect(first.arms[1].rules.values.count == TestCatalogue.parameters.count)
        try Self.expectRoundTrip(first)
    }

    @Test("with products:, product: picks the scenario's product among them; top-level rules apply to its arm only")
    func productsWithProduct() throws {
        let s = try Self.load("""
            product: earned-access
            products: [scroll-off, earned-access]
            rules: {credits.daily_cap: 50}
            """)
        #expect(s.product == "earned-access")
        #expect(s.arms.map(\.name) == ["scroll-off", "earned-access"])
        #expect(s.arms.map(\.product) == ["scroll-off", nil])
        #expect(s.arms[1].rules["credits.daily_cap"] == .int(50))
        #expect(s.arms[0].rules["credits.daily_cap"] == nil)
        #expect(s.arms[0].rules["tokens.monthly_purchase_cap"] == .int(3))
        try Self.expectRoundTrip(s)
    }

    @Test("products: together with arms: is refused")
    func productsAndArms() throws {
        let error = try #require(Self.error("""
            products: [scroll-off, none]
            arms:
              - name: a
            """))
        #expect(error.issues.count == 1)
        let issue = error.issues[0]
        #expect(issue.keyPath == "products")
        #expect(issue.line == 1 && issue.column == 1)
        #expect(issue.message.contains("arms"))
        #expect(issue.allowed?.contains("product:") == true)
    }

    @Test("a product: that is not among products: is refused, from the file or the command line")
    func productNotInProducts() throws {
        let error = try #require(Self.error("""
            product: earned-access
            products: [scroll-off, none]
            """))
        #expect(error.issues.count == 1)
        #expect(error.issues[0].keyPath == "product")
        #expect(error.issues[0].line == 1)
        #expect(error.issues[0].allowed == "one of scroll-off, none")
        let cli = try #require(Self.error("products: [scroll-off, none]\n", overrides: ScenarioOverrides(values: ["product": "earned-access"])))
        #expect(cli.issues.count == 1)
        #expect(cli.issues[0].keyPath == "product")
        #expect(cli.issues[0].file == ScenarioLoader.commandLine)
        // Naming one of them from the command line chooses it.
        let chosen = try Self.load("products: [scroll-off, none]\n", overrides: ScenarioOverrides(values: ["product": "none"]))
        #expect(chosen.product == "none")
        #expect(chosen.arms.map(\.product) == ["scroll-off", nil])
    }

    @Test("products: must name known products, each once, at least one")
    func productsChecked() throws {
        let unknown = try #require(Self.error("products: [scroll-of, none]\n"))
        #expect(unknown.issues.map(\.keyPath) == ["products[0]"])
        #expect(unknown.issues[0].suggestion == "scroll-off")
        let twice = try #require(Self.error("products: [none, scroll-off, none]\n"))
        #expect(twice.issues.map(\.keyPath) == ["products[2]"])
        #expect(twice.issues[0].kind == .duplicateName)
        let empty = try #require(Self.error("products: []\n"))
        #expect(empty.issues.map(\.keyPath) == ["products"])
    }

    @Test("a sweep with products: adds its points, of the scenario's product, after the product arms")
    func productsWithSweep() throws {
        let s = try Self.load("""
            products: [scroll-off, none]
            sweep:
              rules.tokens.grant_minutes: [5, 15]
            """)
        #expect(s.arms.map(\.name) == ["scroll-off", "none", "grant_minutes=5", "grant_minutes=15"])
        #expect(s.arms.map(\.product) == [nil, "none", nil, nil])
        #expect(s.arms[3].rules["tokens.grant_minutes"] == .int(15))
        try Self.expectRoundTrip(s)
    }

    // MARK: - product as a sweep axis

    @Test("product crosses behaviour axes: names, products and each point's rules")
    func productAxis() throws {
        let s = try Self.load("""
            rules: {tokens.monthly_purchase_cap: 6}
            sweep:
              product: [scroll-off, none, earned-access]
              behavior.churn.base_hazard: [0.1, 0.2]
            """)
        #expect(s.arms.map(\.name) == ["control",
                                       "product=scroll-off;base_hazard=0.1", "product=scroll-off;base_hazard=0.2",
                                       "product=none;base_hazard=0.1", "product=none;base_hazard=0.2",
                                       "product=earned-access;base_hazard=0.1", "product=earned-access;base_hazard=0.2"])
        #expect(s.arms.map(\.product) == [nil, nil, nil, "none", "none", "earned-access", "earned-access"])
        #expect(s.products == ["scroll-off", "none", "earned-access"])
        #expect(s.arms[1].rules == s.rules)
        #expect(s.arms[1].rules["tokens.monthly_purchase_cap"] == .int(6))
        #expect(s.arms[3].rules.values.isEmpty)
        #expect(s.arms[6].rules == Self.earnedAccessDefaults)
        #expect(s.arms[6].behavior["churn.base_hazard"] == .number(0.2))
        #expect(s.arms.dropFirst().allSatisfy { $0.fromSweep })
        try Self.expectRoundTrip(s)
    }

    @Test("product zips with a population axis and crosses persona parameters")
    func productAxisZipped() throws {
        let s = try Self.load("""
            sweep:
              product: [scroll-off, none]
              population.installs: [100, 200]
              population.params.urge_share: [0.3]
              zip:
                - [product, population.installs]
            """)
        #expect(s.arms.map(\.name) == ["control", "product=scroll-off;installs=100;urge_share=0.3", "product=none;installs=200;urge_share=0.3"])
        #expect(s.arms[2].product == "none")
        #expect(s.arms[2].population.installs == 200)
        #expect(s.arms[2].population.personas[0].params["urge_share"] == .fixed(0.3))
        try Self.expectRoundTrip(s)
    }

    @Test("an unknown product on the axis gets a did-you-mean")
    func productAxisUnknown() throws {
        let error = try #require(Self.error("""
            sweep:
              product: [none, earned-acess]
            """))
        #expect(error.issues.map(\.keyPath) == ["sweep.product[1]"])
        #expect(error.issues[0].suggestion == "earned-access")
        #expect(error.issues[0].line == 2)
    }

    @Test("a product axis with a rules axis is refused: rules belong to one product")
    func productAxisWithRulesAxis() throws {
        let error = try #require(Self.error("""
            sweep:
              product: [scroll-off, none]
              rules.tokens.grant_minutes: [5, 15]
            """))
        #expect(error.issues.count == 1)
        let issue = error.issues[0]
        #expect(issue.keyPath == "sweep.rules.tokens.grant_minutes")
        #expect(issue.line == 3 && issue.column == 3)
        #expect(issue.message.contains("product"))
    }

    // MARK: - tenure_days

    @Test("tenure_days is an integer in 1…3650, at the top level and on an arm", arguments: [
        ("0", "value 0 is out of range; allowed an integer in 1…3650"),
        ("3651", "value 3651 is out of range; allowed an integer in 1…3650"),
        ("abc", "expected an integer, got 'abc'; allowed an integer in 1…3650"),
    ])
    func tenureRange(_ text: String, _ message: String) throws {
        let top = try #require(Self.error("tenure_days: \(text)\n"))
        #expect(top.issues.map(\.description) == ["arms.yaml:1:14: error: tenure_days: \(message)"])
        let arm = try #require(Self.error("arms:\n  - name: a\n    tenure_days: \(text)\n"))
        #expect(arm.issues.map(\.description) == ["arms.yaml:3:18: error: arms[0].tenure_days: \(message)"])
        let cli = try #require(Self.error("name: x\n", overrides: ScenarioOverrides(values: ["tenure_days": text])))
        #expect(cli.issues.map(\.description) == ["<command line>: error: tenure_days: \(message)"])
    }

    @Test("an arm's tenure_days overrides the scenario's; none given is nil")
    func tenureLayering() throws {
        let s = try Self.load("""
            tenure_days: 28
            arms:
              - name: a
              - name: b
                tenure_days: 14
              - name: c
                product: none
            """)
        #expect(s.tenureDays == 28)
        #expect(s.arms.map(\.tenureDays) == [28, 14, 28])
        try Self.expectRoundTrip(s)
        #expect(s.yaml.contains("\nreplications: 1\ntenure_days: 28\n"))
        #expect(s.yaml.contains("  - name: b\n    tenure_days: 14\n"))

        let plain = try Self.load("arms:\n  - name: a\n  - name: b\n    tenure_days: 7\n")
        #expect(plain.tenureDays == nil)
        #expect(plain.arms.map(\.tenureDays) == [nil, 7])
        #expect(!plain.yaml.hasPrefix("tenure_days") && !plain.yaml.contains("\ntenure_days"))
        try Self.expectRoundTrip(plain)
    }

    @Test("--set tenure_days=28 sets every arm's tenure")
    func tenureOverride() throws {
        let s = try Self.load("""
            arms:
              - name: a
              - name: b
                tenure_days: 14
            sweep:
              population.installs: [10]
            """, overrides: ScenarioOverrides(values: ["tenure_days": "28"]))
        #expect(s.tenureDays == 28)
        #expect(s.arms.map(\.tenureDays) == [28, 28, 28])
        try Self.expectRoundTrip(s)
    }

    @Test("tenure_days can be swept")
    func tenureSweep() throws {
        let s = try Self.load("""
            tenure_days: 60
            sweep:
              tenure_days: [7, 28]
            """)
        #expect(s.arms.map(\.name) == ["control", "tenure_days=7", "tenure_days=28"])
        #expect(s.arms.map(\.tenureDays) == [60, 7, 28])
        try Self.expectRoundTrip(s)
        let bad = try #require(Self.error("sweep:\n  tenure_days: [0, 7]\n"))
        #expect(bad.issues.map(\.keyPath) == ["sweep.tenure_days[0]"])
    }

    // MARK: - precision across products

    @Test("a precision KPI must be reported by every arm's product; the first that lacks it is named")
    func precisionAcrossProducts() throws {
        let error = try #require(Self.error("""
            products: [scroll-off, earned-access, none]
            precision:
              kpis:
                true_time_saved: 0.1
                retention_d7: 0.01
                download_to_paid: 0.01
            """))
        #expect(error.issues.map(\.keyPath) == ["precision.kpis.retention_d7", "precision.kpis.download_to_paid"])
        #expect(error.issues[0].message == "unknown KPI 'retention_d7' for product 'none'")
        #expect(error.issues[0].allowed == "one of true_time_saved")
        #expect(error.issues[1].message == "unknown KPI 'download_to_paid' for product 'earned-access'")
        #expect(error.issues[1].line == 6)

        let axis = try #require(Self.error("""
            product: none
            sweep: {product: [earned-access]}
            precision: {kpis: {unlocks_per_day: 0.1}}
            """))
        #expect(axis.issues.map(\.message) == ["unknown KPI 'unlocks_per_day' for product 'none'"])

        // Arms that all name another product: the scenario's own product is no arm's, so its KPIs do not matter.
        let s = try Self.load("""
            product: none
            arms:
              - {name: a, product: scroll-off}
              - {name: b, product: earned-access}
            precision: {kpis: {retention_d7: 0.01}}
            """)
        #expect(s.products == ["scroll-off", "earned-access"])
        try Self.expectRoundTrip(s)
    }

    // MARK: - Round trip and bytes

    @Test("every new key prints back and loads to an equal scenario")
    func roundTripEverything() throws {
        let s = try Self.load("""
            name: everything
            product: scroll-off
            tenure_days: 90
            rules: {tokens.monthly_purchase_cap: 4}
            behavior: {churn.base_hazard: 0.07}
            arms:
              - name: so
                tenure_days: 30
              - name: ea
                product: earned-access
                rules: {credits.daily_cap: 12, streak.min_minutes: 45.5}
                behavior: {churn.base_hazard: 0.09}
                population: {installs: 500}
              - name: off
                product: none
                tenure_days: 10
            sweep:
              product: [earned-access, scroll-off]
              tenure_days: [7, 14]
              zip:
                - [product, tenure_days]
            """, overrides: ScenarioOverrides(values: ["rules.plan.default": "pro"]))
        try Self.expectRoundTrip(s)
        #expect(s.arms.map(\.product) == [nil, "earned-access", "none", "earned-access", nil])
        #expect(s.arms.map(\.tenureDays) == [30, 90, 10, 7, 14])
        let text = s.yaml
        #expect(text.contains("""
              - name: ea
                product: earned-access
                rules:
                  credits:
                    daily_cap: 12
                    expiry_hours: 24
                  streak:
                    min_minutes: 45.5
                behavior:
                  churn:
                    base_hazard: 0.09
                population:
                  installs: 500
            """))
        #expect(text.contains("  - name: \"off\"\n    product: none\n    tenure_days: 10\n"))   // `off` reads as false unquoted
        #expect(text.contains("sweep:\n  product: [earned-access, scroll-off]\n  tenure_days: [7, 14]\n"))
        #expect(!text.contains("products:"))
    }

    @Test("a scenario without the new keys keeps the text and hash it had before them")
    func singleProductBytesUnchanged() throws {
        // Hashes recorded at commit 703c3be, before products as arms.
        let experiment = try TestCatalogue.loader.load(yaml: ScenarioResolutionTests.experiment, fileName: "premium.yaml")
        #expect(experiment.scenarioHash == "b82a328d51ec0a7d")
        let plain = try TestCatalogue.loader.load(yaml: "product: scroll-off\n", fileName: "baseline.yaml")
        #expect(plain.scenarioHash == "e5cff68e7924f8e0")
        let single = try TestCatalogue.loader.load(yaml: Self.singleProduct, fileName: "single.yaml")
        #expect(single.scenarioHash == "52f33cdc837b9b24")
        for s in [experiment, plain, single] {
            #expect(!s.isMultiProduct)
            #expect(s.products == [s.product])
            #expect(s.tenureDays == nil)
            #expect(s.arms.allSatisfy { $0.product == nil && $0.tenureDays == nil })
            #expect(!s.yaml.contains("tenure_days") && !s.yaml.contains("  product:"))
        }
    }

    static let singleProduct = """
        name: single
        product: scroll-off
        seed: 11
        horizon_days: 30
        population:
          installs: 200
        rules:
          tokens: {monthly_purchase_cap: 4}
        arms:
          - name: control
          - name: cap-6
            rules: {tokens.monthly_purchase_cap: 6}
            population: {installs: 300}
        sweep:
          rules.tokens.grant_minutes: [5, 15]
          population.installs: [100, 200]
          zip:
            - [rules.tokens.grant_minutes, population.installs]
        precision:
          kpis: {some_kpi: 0.01}
          max_replications: 8
        outputs:
          trace_people: [3]
        """

    @Test("ResolvedArm's initialiser defaults product and tenure; the scenario helpers follow them")
    func initialiserDefaults() {
        let population = PopulationSpec(installs: 10, personas: [], devices: [], timeZones: [])
        let arm = ResolvedArm(name: "a", rules: ParameterValues([:]), population: population)
        #expect(arm.product == nil && arm.tenureDays == nil)
        let other = ResolvedArm(name: "b", rules: ParameterValues([:]), population: population, product: "none", tenureDays: 28)
        var s = ResolvedScenario(name: "x", product: "scroll-off", seed: 1, start: ScenarioSchema.defaultStart, horizonDays: 10,
                                 replications: 1, population: population, rules: ParameterValues([:]), arms: [arm],
                                 sweep: SweepSpec(), outputs: OutputSpec(dir: "out"))
        #expect(s.tenureDays == nil)
        #expect(s.products == ["scroll-off"] && !s.isMultiProduct)
        s.arms.append(other)
        #expect(s.product(of: other) == "none" && s.product(of: arm) == "scroll-off")
        #expect(s.products == ["scroll-off", "none"] && s.isMultiProduct)
    }
}
