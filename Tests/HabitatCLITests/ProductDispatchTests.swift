import Foundation
import RulesCore
import ScenarioFormat
import Simulation
import Testing
import ProductRegistry

/// Issue 12: one dispatch point decides how every command treats every product. A product whose engine is not
/// built gets the same clear refusal (exit 2) from every command — never a crash, never a silent Scroll Off run —
/// and a product with an engine runs.
@Suite("Every command × every product", .serialized)
struct ProductDispatchTests {
    static func refusal(_ p: Product) -> String {
        "product '\(p.rawValue)' has no rule engine in this version; products with engines: "
            + Products.withEngines.map(\.rawValue).joined(separator: ", ")
    }

    /// A small scenario of one product, in a fresh folder.
    static func scenario(_ p: Product) throws -> (dir: URL, file: URL) {
        let dir = CLIProcess.tempDir()
        let file = dir.appendingPathComponent("\(p.rawValue).yaml")
        try """
        name: dispatch-\(p.rawValue)
        product: \(p.rawValue)
        horizon_days: 3
        replications: 1
        population:
          installs: 5
        """.write(to: file, atomically: true, encoding: .utf8)
        return (dir, file)
    }

    /// A finished Scroll Off run relabelled as a run of `p` (manifest product and hash rewritten consistently),
    /// so `compare` meets a well-formed run of every product.
    static func finishedRun(of p: Product) throws -> URL {
        let dir = CLIProcess.tempDir().appendingPathComponent("run-\(p.rawValue)")
        let r = try CLIProcess.run(["run", "--people", "5", "--days", "3", "--replications", "2", "--threads", "1",
                                    "--progress", "never", "--out", dir.path])
        #expect(r.status == 0, "\(r.stderr)")
        let url = dir.appendingPathComponent("manifest.json")
        var manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let resolved = try #require(manifest["resolved_scenario"] as? String)
        let relabelled = resolved.replacingOccurrences(of: "product: scroll-off\n", with: "product: \(p.rawValue)\n")
        #expect(relabelled.contains("product: \(p.rawValue)\n"))
        manifest["resolved_scenario"] = relabelled
        manifest["scenario_hash"] = FNV1a64.hex(relabelled)
        try JSONSerialization.data(withJSONObject: manifest, options: [.prettyPrinted, .sortedKeys]).write(to: url)
        return dir
    }

    static func expect(_ r: CLIProcess.Result, product p: Product, command: String) {
        if Products.adapter(for: p) != nil {
            #expect(r.status == 0, "\(command) on \(p): \(r.stderr)")
        } else {
            #expect(r.status == 2, "\(command) on \(p): exit \(r.status)\n\(r.stderr)")
            #expect(r.stderr.contains(refusal(p)), "\(command) on \(p): \(r.stderr)")
            #expect(!r.stderr.contains("Fatal error") && !r.stderr.contains("Stack dump"), "\(command) on \(p) crashed")
        }
    }

    @Test(arguments: Products.all.map(\.id))
    func everyCommandDispatchesOrRefuses(_ p: Product) throws {
        let (dir, file) = try Self.scenario(p)
        let out = dir.appendingPathComponent("out")
        Self.expect(try CLIProcess.run(["validate", file.path]), product: p, command: "validate")
        Self.expect(try CLIProcess.run(["validate", file.path, "--explain"]), product: p, command: "validate --explain")
        Self.expect(try CLIProcess.run(["run", file.path, "--out", out.path, "--threads", "1", "--progress", "never"]), product: p, command: "run")
        if Products.adapter(for: p) == nil { #expect(!FileManager.default.fileExists(atPath: out.path), "run on \(p) wrote reports") }
        Self.expect(try CLIProcess.run(["trace", file.path, "--person", "1"]), product: p, command: "trace")
        let baseline = dir.appendingPathComponent("baseline")
        Self.expect(try CLIProcess.run(["check", file.path, "--baseline", baseline.path, "--record", "--reason", "dispatch test",
                                        "--threads", "1", "--progress", "never"]), product: p, command: "check --record")
        // `check` against the product's own baseline when it has an engine; against a Scroll Off baseline of the same
        // size (which exists) when it has none — refused all the same.
        var against = baseline
        if Products.adapter(for: p) == nil {
            let (sdir, sfile) = try Self.scenario(Products.defaultProduct)
            against = sdir.appendingPathComponent("baseline")
            let recorded = try CLIProcess.run(["check", sfile.path, "--baseline", against.path, "--record", "--reason", "dispatch test",
                                               "--threads", "1", "--progress", "never"])
            #expect(recorded.status == 0, "\(recorded.stderr)")
        }
        Self.expect(try CLIProcess.run(["check", file.path, "--baseline", against.path, "--threads", "1", "--progress", "never"]),
                    product: p, command: "check")
        Self.expect(try CLIProcess.run(["bench", "run", "--product", p.rawValue, "--people", "5", "--days", "3", "--threads", "1",
                                        "--progress", "never"]), product: p, command: "bench run")
        let run = try Self.finishedRun(of: p)
        Self.expect(try CLIProcess.run(["compare", run.path, run.path, "--out", dir.appendingPathComponent("cmp.csv").path]), product: p,
                    command: "compare")
    }

    @Test("list --format csv names every product, whether it has an engine, and its adapter (read by the speed gate)")
    func listCSVNamesEachProductsAdapter() throws {
        let r = try CLIProcess.run(["list", "--format", "csv"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines.first == "product,name,seed,engine,adapter")
        #expect(lines.dropFirst().map { String($0.prefix { $0 != "," }) } == Products.all.map(\.id.rawValue))
        for p in Products.all {
            let adapter = Products.registration(for: p.id)?.adapterTypeName ?? ""
            #expect(lines.contains("\(p.id),\(p.name),\(p.seedFile),\(p.hasEngine),\(adapter)"))
        }
        #expect(lines.contains { $0.hasPrefix("scroll-off,Scroll Off,") && $0.hasSuffix(",true,ScrollOffAdapter<ScrollOffEngine>") })
    }

    @Test("the registry is the one list: products, catalogues, the scenario's product key and the default derive from it")
    func theRegistryIsTheOneList() throws {
        #expect(Products.withEngines.map(\.rawValue) == ["scroll-off", "nudge", "lazuri", "earned-access", "clavis", "none"])
        #expect(Products.all.map(\.id.rawValue) == ["scroll-off", "nudge", "lazuri", "earned-access", "clavis", "none"], "seed order, then none (no seed)")
        #expect(Set(Products.all.map(\.id)).count == Products.all.count)
        let c = Products.catalogues
        #expect(c.productIDs == Products.all.map(\.id.rawValue))
        #expect(c.defaultProduct == Products.registered.first.map { Product(rawValue: $0.descriptor.id) })
        for r in Products.registered {
            let p = Product(rawValue: r.descriptor.id)
            #expect(Products.descriptor(p)?.id == r.descriptor.id)
            #expect(c[p] == r.descriptor.parameters)
            #expect(c.kpis(of: p) == Products.kpiIDs(p))
            #expect(Products.all.first { $0.id == p }?.hasEngine == true)
        }
        // A scenario may name exactly the listed products.
        let loader = ScenarioLoader(catalogues: c)
        #expect(throws: ScenarioError.self) { try loader.load(yaml: "product: tiktok\n", fileName: "x.yaml") }
        for p in Products.withEngines { #expect(try loader.load(yaml: "product: \(p)\n", fileName: "x.yaml").product == p) }
        #expect(try loader.load(yaml: "name: x\n", fileName: "x.yaml").product == Products.defaultProduct)
    }
}
