import Foundation
import HabitatTestSupport
import Reports
import RulesCore
import ScenarioFormat
import Testing
@testable import Simulation
import ProductRegistry
@testable import ScrollOffLife
@testable import EarnedAccessLife

/// Issue 27 item 8: `docs/report-spec.json` is the one description of the CSVs a run writes, read by the Python
/// report tools; these tests hold the Swift writers to it. For every product with an engine, a small run with one
/// arm and one with two arms and an acquisition curve are written to disk as `habitat run` writes them: the files
/// written must be exactly those the specification lists for that product and those conditions, and each file's
/// header exactly the specification's columns for it. A column added to a writer (say a cost column in
/// revenue.csv) fails here until the specification describes it, and the Python side then reads it from there.
@Suite("The report specification matches the writers", .serialized)
struct ReportSpecTests {
    static func scenario(product: Product, arms: Bool, acquisition: Bool) throws -> ResolvedScenario {
        try ScenarioLoader(catalogues: Products.catalogues).load(yaml: """
            name: spec-\(product.rawValue)
            product: \(product.rawValue)
            start: 2026-01-05
            horizon_days: 3
            replications: 2
            population:
              installs: 6
            \(acquisition ? "  acquisition:\n    per_day: 10\n" : "")\(arms ? "arms:\n  - name: control\n  - name: twin\n" : "")
            """, fileName: "spec.yaml")
    }

    /// Writes a small run of `scenario` into a fresh folder; the CSV files written, each with its header line.
    static func written(_ scenario: ResolvedScenario) throws -> [String: [String]] {
        try withTemporaryDirectory(prefix: "habitat-report-spec") { root in
            var run = try Products.run(scenario, threads: 1)
            try run.simulate(progress: nil)
            let report = try ReportDirectory(destination: root.appendingPathComponent("run"))
            let files = try run.write(to: report, wallSeconds: 0, checkpoint: {}, extra: { _ in })
            try report.commit()
            var headers: [String: [String]] = [:]
            for file in files where file.hasSuffix(".csv") {
                let text = try String(contentsOf: report.destination.appendingPathComponent(file), encoding: .utf8)
                let line = text.split(separator: "\r\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                headers[file] = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            }
            return headers
        }
    }

    @Test("every product's runs write exactly the files the specification lists, each with its columns",
          arguments: Products.withEngines)
    func filesAndHeaders(product: Product) throws {
        let spec = try ReportSpecFile.load()
        for (arms, acquisition) in [(false, false), (true, true)] {
            let headers = try Self.written(try Self.scenario(product: product, arms: arms, acquisition: acquisition))
            let expected = spec.expectedFiles(product: product.rawValue, arms: arms ? 2 : 1, acquisition: acquisition)
            let what = "\(product) run (\(arms ? "two arms" : "one arm"), \(acquisition ? "with" : "without") an acquisition curve)"
            #expect(Set(headers.keys) == expected, """
                \(what) writes files the specification does not list: \(Set(headers.keys).subtracting(expected).sorted()); \
                lists but the run does not write: \(expected.subtracting(headers.keys).sorted()) — docs/report-spec.json \
                (`products`, `written`) and the writers must agree
                """)
            for (file, header) in headers.sorted(by: { $0.key < $1.key }) {
                guard let described = spec.file(file) else { continue }
                #expect(header == spec.header(described), """
                    \(what): \(file)'s header is \(header.joined(separator: ",")); docs/report-spec.json says \
                    \(spec.header(described).joined(separator: ",")) — describe each column (name, unit, meaning) there
                    """)
            }
        }
    }

    @Test("a run whose arms are different products writes what any of them writes, and product-comparison.csv",
          arguments: [["scroll-off", "none"], ["earned-access", "scroll-off", "none"], ["nudge", "none"]])
    func severalProducts(products: [String]) throws {
        let spec = try ReportSpecFile.load()
        let scenario = try ScenarioLoader(catalogues: Products.catalogues).load(yaml: """
            name: spec-products
            horizon_days: 3
            replications: 2
            population: {installs: 6}
            products: [\(products.joined(separator: ", "))]
            """, fileName: "spec.yaml")
        let headers = try Self.written(scenario)
        let expected = spec.expectedFiles(products: products, arms: products.count, acquisition: false)
        #expect(expected.contains("product-comparison.csv"))
        #expect(Set(headers.keys) == expected, "written but not listed: \(Set(headers.keys).subtracting(expected).sorted()); listed but not written: \(expected.subtracting(headers.keys).sorted())")
        for (file, header) in headers {
            guard let described = spec.file(file) else { continue }
            #expect(header == spec.header(described), "\(file)")
        }
        #expect(spec.header(try #require(spec.file("product-comparison.csv"))) == ProductComparison.header)
    }

    @Test("the writers' header constants are the specification's columns")
    func headerConstants() throws {
        let spec = try ReportSpecFile.load()
        func header(_ file: String) throws -> [String] { spec.header(try #require(spec.file(file), "\(file) is not in the specification")) }
        #expect(try header("experiment.csv") == ExperimentComparison.header)
        #expect(try header("forecast.csv") == ForecastTable.header)
        #expect(try header("world-check.csv") == WorldCheck.fileHeader)
        #expect(try header("kpis.csv") == KPITable.header)
        #expect(try header("revenue.csv") == RevenueAccumulator.header)
        // `habitat compare --out` writes experiment.csv's columns.
        #expect(spec.header(output: "comparison") == ExperimentComparison.header)
        // Every product the specification names is a product Habitat knows, and every condition is described.
        for file in spec.files {
            if case .only(let products) = file.products {
                for p in products { #expect(Products.registration(for: Product(rawValue: p)) != nil, "\(file.file): unknown product \(p)") }
                #expect(products.count == 1, "\(file.file): a list of products is for a file one product writes (else \"all\" or \"with_app\")")
            }
            #expect(spec.writtenWhen[file.written] != nil, "\(file.file): unknown condition \(file.written)")
        }
    }

    /// Issue 42: `"with_app"` means every registered product with an app, and the fragments say which have none.
    @Test("the products without an app are the registry's: the fragments' \"app\": false")
    func withApp() throws {
        let spec = try ReportSpecFile.load()
        let registered = Products.registered.map(\.descriptor.id)
        let withoutApp = Set(registered.filter { Products.adapter(for: Product(rawValue: $0))?.hasApp == false })
        #expect(spec.withoutApp == withoutApp)
        // "with_money": the products whose revenue model neither sells nor pays for a service (`RevenueModel.hasMoney`).
        let withoutMoney = Set(registered.filter { Products.descriptor(Product(rawValue: $0))?.revenue.hasMoney == false })
        #expect(spec.withoutMoney == withoutMoney)
        for product in spec.fragmentProducts { #expect(registered.contains(product), "a fragment of \(product), not a registered product") }
    }

    /// Issue 42: a product's report files are declared in its folder; the merge refuses a fragment that redefines a
    /// file or lists another product.
    @Test("a fragment may only add its own product's files")
    func fragments() throws {
        let spec = try ReportSpecFile.load()
        #expect(!(try ReportSpecFile.fragmentURLs()).isEmpty)
        for product in spec.fragmentProducts {
            for file in spec.files where file.products == .only([product]) {
                #expect(file.products.includes(product, withoutApp: spec.withoutApp))
            }
        }
        func fragment(_ json: String) throws -> ReportSpecFile.Fragment {
            try JSONDecoder().decode(ReportSpecFile.Fragment.self, from: Data(json.utf8))
        }
        var copy = spec
        #expect(throws: ReportSpecFile.FragmentError.self) {
            try copy.merge(fragment(#"{"product": "toy", "files": [{"file": "kpis.csv", "products": ["toy"], "written": "always", "columns": []}]}"#), from: "toy")
        }
        #expect(throws: ReportSpecFile.FragmentError.self) {
            try copy.merge(fragment(#"{"product": "toy2", "files": [{"file": "toy.csv", "products": ["nudge"], "written": "always", "columns": []}]}"#), from: "toy2")
        }
        try copy.merge(fragment(#"{"product": "toy3", "files": [{"file": "toy.csv", "products": ["toy3"], "written": "always", "columns": [{"name": "day"}]}]}"#), from: "toy3")
        #expect(copy.expectedFiles(product: "toy3", arms: 1, acquisition: false).contains("toy.csv"))
        #expect(!copy.expectedFiles(product: "nudge", arms: 1, acquisition: false).contains("toy.csv"))
        #expect(!copy.expectedFiles(product: "none", arms: 1, acquisition: false).contains("activation-funnel.csv"))
    }
}
