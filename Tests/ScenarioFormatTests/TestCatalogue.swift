import RulesCore
@testable import ScenarioFormat

/// A small made-up catalogue standing in for a product engine's, covering every parameter kind.
enum TestCatalogue {
    static let parameters: [RuleParameter] = [
        RuleParameter("tokens.monthly_purchase_cap", .integer(0...20), default: .int(3), "emergency tokens a person may buy per calendar month",
                      source: .seed(file: "000_5f03618b73c6ae9a.txt", section: "§4.3")),
        RuleParameter("tokens.grant_minutes", .integer(1...60), default: .int(10), "minutes one emergency token grants",
                      source: .assumption("the seed does not say what a token grants")),
        RuleParameter("prices.premium_monthly", .number(0.99...99.99), default: .number(4.99), "Premium monthly price, USD",
                      source: .seed(file: "000_5f03618b73c6ae9a.txt", section: "§6.1")),
        RuleParameter("curfew.enabled", .boolean, default: .bool(false), "hard curfew on",
                      source: .seed(file: "000_5f03618b73c6ae9a.txt", section: "§3.4")),
        RuleParameter("curfew.start", .timeOfDay, default: .text("23:00"), "curfew start, local time",
                      source: .seed(file: "000_5f03618b73c6ae9a.txt", section: "§3.4")),
        RuleParameter("curfew.days", .weekdays, default: .list(["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map { .text($0) }),
                      "days the curfew applies", source: .assumption("every day")),
        RuleParameter("plan.default", .choice(["free", "premium", "pro"]), default: .text("free"), "plan at install",
                      source: .publication("RevenueCat 2025")),
    ]

    /// The five products as the registry lists them (only Scroll Off with a catalogue here; Lazuri and Clavis planned:
    /// no engine, as in the real registry).
    static let products: [ProductListing] = ["scroll-off", "nudge", "lazuri", "earned-access", "clavis"].map {
        ProductListing(id: Product(rawValue: $0), name: $0, seedFile: "", summary: "", hasEngine: !["lazuri", "clavis"].contains($0))
    }

    /// The made-up catalogue registered for Scroll Off, with the five products listed.
    static var catalogues: ProductCatalogues {
        var c = ProductCatalogues(["scroll-off": parameters])
        c.products = products
        return c
    }

    static let loader = ScenarioLoader(catalogues: catalogues)

    /// Loads YAML text and returns the error, failing the test if it loads.
    /// Loads a scenario file and returns the error, or nil if it loads.
    static func errorAt(path: String) -> ScenarioError? {
        do {
            _ = try loader.load(path: path)
            return nil
        } catch {
            return error
        }
    }

    static func error(_ yaml: String, file: String = "test.yaml", overrides: ScenarioOverrides = .none) -> ScenarioError? {
        do {
            _ = try loader.load(yaml: yaml, fileName: file, overrides: overrides)
            return nil
        } catch {
            return error
        }
    }
}
