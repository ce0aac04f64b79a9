import RulesCore
import Testing
@testable import ScenarioFormat

/// Issue 40: every problem in a scenario is reported at once with its position — products without an engine among
/// them (they were reported alone, after the others were fixed, without file:line:col) — and an arm list past the
/// limit is named as one (it said "the sweep has 0 points" where there was no sweep).
@Suite("Every problem at once, located")
struct EveryProblemAtOnceTests {
    /// `scroll-off` and `earned-access` with engines, `lazuri` planned (registered, no engine).
    static var catalogues: ProductCatalogues {
        var c = ProductCatalogues(["scroll-off": TestCatalogue.parameters, "earned-access": []])
        c.products = [("scroll-off", true), ("lazuri", false), ("earned-access", true)].map {
            ProductListing(id: Product(rawValue: $0.0), name: $0.0, seedFile: "", summary: "", hasEngine: $0.1)
        }
        return c
    }

    static func error(_ yaml: String) -> ScenarioError? {
        do { _ = try ScenarioLoader(catalogues: catalogues).load(yaml: yaml, fileName: "s.yaml"); return nil } catch { return error }
    }

    @Test("a planned product on an arm is reported with the other problems, at its key's line and column")
    func plannedArmWithOthers() throws {
        let error = try #require(Self.error("""
            horizon_days: 0
            arms:
              - name: a
                product: lazuri
              - name: b
                rules:
                  nope: 1
            """))
        #expect(error.issues.map(\.keyPath) == ["horizon_days", "arms[0].product", "arms[1].rules.nope"], "\(error)")
        let planned = try #require(error.issues.first { $0.keyPath == "arms[0].product" })
        #expect(planned.line == 4 && planned.column == 5)
        #expect(planned.message.contains("product 'lazuri' has no rule engine in this version; products with engines: scroll-off, earned-access"))
        #expect(planned.description.hasPrefix("s.yaml:4:5: error: arms[0].product:"))
    }

    @Test("the scenario's product, a products: entry and a product sweep value are each located")
    func plannedEverywhere() throws {
        let top = try #require(Self.error("product: lazuri\n"))
        #expect(top.issues.count == 1 && top.issues[0].keyPath == "product" && top.issues[0].line == 1 && top.issues[0].column == 1)
        let listed = try #require(Self.error("products: [scroll-off, lazuri]\n"))
        #expect(listed.issues.map(\.keyPath) == ["products[1]"] && listed.issues[0].column == 24, "\(listed)")
        let swept = try #require(Self.error("sweep:\n  product: [earned-access, lazuri]\n"))
        #expect(swept.issues.map(\.keyPath) == ["sweep.product[1]"] && swept.issues[0].line == 2, "\(swept)")
        #expect(Self.error("products: [scroll-off, earned-access]\n") == nil, "products with engines load")
    }

    @Test("1,001 arms are an arm list past the limit (its length and the limit); 1,000 load")
    func armLimit() throws {
        func arms(_ n: Int) -> String { "arms:\n" + (0..<n).map { "  - name: a\($0)\n" }.joined() }
        let error = try #require(Self.error(arms(1_001)))
        #expect(error.issues.count == 1, "\(error)")
        let issue = try #require(error.issues.first)
        #expect(issue.keyPath == "arms" && issue.kind == .outOfRange && issue.line == 1 && issue.column == 1)
        #expect(issue.message.contains("1001 arms") && !issue.message.contains("sweep"), "\(issue)")
        #expect(issue.allowed?.contains("at most 1000 arms") == true)
        #expect(Self.error(arms(1_000)) == nil)
    }
}
