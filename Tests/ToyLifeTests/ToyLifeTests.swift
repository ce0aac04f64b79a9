import Foundation
import LifeHarness
import HabitatTestSupport
import ProductRegistry
import Reports
import RulesCore
import ScenarioFormat
import Simulation
import Testing
import ToyLife
import ToyRules
import Behavior
import Stochastics

/// Issue 42's must-hold: a toy product — its own decision kind, behaviour parameter, steerable person process, report
/// file and chart — is its folder (`Tests/Fixtures/Products/Toy`, laid out as `Sources/Products/<Name>/`) and one
/// registry line.
@Suite("A toy product is its folder and one registry line", .serialized)
struct ToyLifeTests {
    static let toy = RegisteredProduct(ToyAdapter.self)
    static let fixture = CLIProcess.packageRoot.appendingPathComponent("Tests/Fixtures/Products/Toy")

    static func scenario(keep: Double = 0.9) throws -> ResolvedScenario {
        let yaml = "name: toy-run\nproduct: toy\nseed: 42\nhorizon_days: 12\nreplications: 2\npopulation:\n  installs: 60\n"
            + "behavior:\n  toy:\n    keep_probability: \(keep)\n"
        return try ScenarioLoader(catalogues: Products.catalogues(adding: [toy])).load(yaml: yaml, fileName: "toy-run.yaml")
    }

    /// The run's report folder: every CSV by name, as text (`product`'s run, the toy's by default; `processes`, the
    /// person processes besides the standard ones, default the product's own).
    static func written(_ scenario: ResolvedScenario, into root: URL, product: RegisteredProduct = toy,
                        processes: [any PersonProcess.Type]? = nil) throws -> [String: String] {
        try WrittenRun.csvFiles(of: product, scenario, into: root, processes: processes)
    }

    static func rows(_ text: String) -> [[String]] { WrittenRun.rows(text) }

    @Test("its decision kind, behaviour parameter and report file reach the generic run's reports, and it writes no money file")
    func runsEndToEnd() throws {
        let scenario = try Self.scenario()
        #expect(scenario.explainBehavior().contains("toy.keep_probability"))
        try withTemporaryDirectory(prefix: "habitat-toy") { root in
            let files = try Self.written(scenario, into: root)
            #expect(files["revenue.csv"] == nil && files["forecast.csv"] == nil, "a free product writes no money file")
            #expect(files["retention.csv"] != nil && files["activation-funnel.csv"] != nil)
            // Its decision, audited at its moment and counted by id: the keep share follows its own parameter.
            let decisions = Self.rows(try #require(files["decisions.csv"]))
            let header = decisions[0]
            let pooled = decisions.dropFirst().filter { $0[header.firstIndex(of: "replication")!] == "all" && $0[header.firstIndex(of: "decision")!] == "toy_keep" }
            #expect(pooled.map { $0[header.firstIndex(of: "outcome")!] } == ["keep", "drop"])
            let keep = try #require(pooled.first.flatMap { Double($0[header.firstIndex(of: "share")!]) })
            let made = try #require(pooled.first.flatMap { Int($0[header.firstIndex(of: "decisions")!]) })
            #expect(made > 100, "\(made) decisions")
            #expect(abs(keep - 0.9) < 0.06, "keep share \(keep) at toy.keep_probability 0.9")
            // Its own file, with the columns its fragment describes.
            let notes = Self.rows(try #require(files["notes.csv"]))
            #expect(notes[0] == ReportKeys.header + ["day", "kept", "dropped", "reminders"])
            let kept = notes.dropFirst().filter { $0[2] == "all" }.compactMap { Int($0[5]) }.reduce(0, +)
            #expect(kept > 0)
        }
        // The parameter moves the decisions: at 0.2 the person keeps far fewer.
        try withTemporaryDirectory(prefix: "habitat-toy") { root in
            let decisions = Self.rows(try #require(try Self.written(try Self.scenario(keep: 0.2), into: root)["decisions.csv"]))
            let h = decisions[0]
            let keep = decisions.dropFirst().first { $0[h.firstIndex(of: "replication")!] == "all" && $0[h.firstIndex(of: "decision")!] == "toy_keep" }
            #expect(keep.flatMap { Double($0[h.firstIndex(of: "share")!]) }.map { abs($0 - 0.2) < 0.06 } == true)
        }
    }

    /// Reminders in all (pooled rows of `notes.csv`).
    static func reminders(_ files: [String: String]) throws -> Int {
        let notes = rows(try #require(files["notes.csv"]))
        let column = try #require(notes[0].firstIndex(of: "reminders"))
        return notes.dropFirst().filter { $0[2] == "all" }.compactMap { Int($0[column]) }.reduce(0, +)
    }

    @Test("its person process is steered by its decision: kept notes bring reminders sooner, so more notes kept, more reminders")
    func itsDecisionSteersItsProcess() throws {
        let often = try withTemporaryDirectory(prefix: "habitat-toy") { try Self.reminders(try Self.written(try Self.scenario(keep: 0.9), into: $0)) }
        let seldom = try withTemporaryDirectory(prefix: "habitat-toy") { try Self.reminders(try Self.written(try Self.scenario(keep: 0.2), into: $0)) }
        #expect(seldom > 50, "\(seldom) reminders")
        // Unsteered, the reminders are the same draws whatever the keep probability (their own stream): the difference
        // is the steering alone. 48 h between reminders unsteered; at 0.9 nearly every one brings the next sooner.
        #expect(Double(often) > 1.5 * Double(seldom), "\(often) reminders at keep 0.9, \(seldom) at 0.2")
    }

    @Test("the registry gives every person the toy's process: another product's people live it unaided and their reports do not change")
    func itsProcessIsEveryPersons() throws {
        let all = try Products.personProcesses(adding: [Self.toy])
        #expect(all.contains { ObjectIdentifier($0) == ObjectIdentifier(ToyReminders.self) })
        // A second product drawing from the toy's stream is refused.
        #expect(throws: PersonProcessConflict.self) { try Products.assembledPersonProcesses([Self.toy, Self.toy2]) }
        // The `none` arm's people with and without the toy's process: the same reports, byte for byte.
        let none = try #require(Products.registration(for: "none"))
        let yaml = "name: none-run\nproduct: none\nseed: 42\nhorizon_days: 12\nreplications: 2\npopulation:\n  installs: 60\n"
        let scenario = try ScenarioLoader(catalogues: Products.catalogues(adding: [Self.toy])).load(yaml: yaml, fileName: "none-run.yaml")
        let without = try withTemporaryDirectory(prefix: "habitat-toy") { try Self.written(scenario, into: $0, product: none, processes: []) }
        let with = try withTemporaryDirectory(prefix: "habitat-toy") { try Self.written(scenario, into: $0, product: none, processes: all) }
        #expect(!without.isEmpty)
        #expect(without == with)
    }

    /// A second registration whose process draws from the toy's stream.
    static let toy2 = RegisteredProduct(ToyTwinAdapter.self)

    @Test("its chart is on the page: the report tools read its fragment and draw it with the generic renderer")
    func chartOnThePage() throws {
        try withTemporaryDirectory(prefix: "habitat-toy") { root in
            _ = try Self.written(try Self.scenario(), into: root)
            let run = root.appendingPathComponent("run")
            var env = ProcessInfo.processInfo.environment
            env["HABITAT_EXTRA_SPEC_FRAGMENTS"] = Self.fixture.appendingPathComponent("report-spec.json").path
            let python = URL(fileURLWithPath: "/usr/bin/env")
            let result = try ChildProcess.run(python, ["python3", CLIProcess.packageRoot.appendingPathComponent("Notebooks/report_page.py").path, run.path],
                                              environment: env)
            #expect(result.status == 0, "\(result.stderr)")
            let page = try String(contentsOf: run.appendingPathComponent("report.html"), encoding: .utf8)
            #expect(page.contains("toy-notes"), "the toy's chart id on the page")
            #expect(page.contains("Notes, day by day"), "the toy's page section")
        }
    }

    @Test("added to the repository as Sources/Products/Toy, it changes no file outside its folder but the registry's line, and the package finds it")
    func onlyItsFolderAndTheRegistryLine() throws {
        try withTemporaryDirectory(prefix: "habitat-toy-repo") { copy in
            let fm = FileManager.default
            let root = CLIProcess.packageRoot
            // The package as it is: its manifest, sources and tests.
            for item in ["Package.swift", "Sources", "Tests"] {
                try fm.copyItem(at: root.appendingPathComponent(item), to: copy.appendingPathComponent(item))
            }
            // Adding the product: its folder, and its line in the registry (with the import that names its module).
            try fm.copyItem(at: Self.fixture, to: copy.appendingPathComponent("Sources/Products/Toy"))
            let registry = copy.appendingPathComponent("Sources/Products/Registry/Products.swift")
            var text = try String(contentsOf: registry, encoding: .utf8)
            let anchor = "        RegisteredProduct(NoAppAdapter.self),\n"
            #expect(text.contains(anchor))
            text = "import ToyLife\n" + text.replacingOccurrences(of: anchor, with: anchor + "        RegisteredProduct(ToyAdapter.self),\n")
            try text.write(to: registry, atomically: true, encoding: .utf8)
            // Every file outside the toy's folder is byte for byte the repository's, but the registry's two lines.
            var changed: [String] = []
            let base = copy.standardizedFileURL.path + "/"
            for case let url as URL in fm.enumerator(at: copy, includingPropertiesForKeys: [.isRegularFileKey])! {
                guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
                let relative = String(url.standardizedFileURL.path.dropFirst(base.count))
                if relative.hasPrefix("Sources/Products/Toy/") { continue }
                if fm.contents(atPath: root.appendingPathComponent(relative).path) != fm.contents(atPath: url.path) { changed.append(relative) }
            }
            #expect(changed == ["Sources/Products/Registry/Products.swift"])
            let before = try String(contentsOf: root.appendingPathComponent("Sources/Products/Registry/Products.swift"), encoding: .utf8)
            let added = Set(text.split(separator: "\n")).subtracting(before.split(separator: "\n"))
            #expect(added == ["import ToyLife", "        RegisteredProduct(ToyAdapter.self),"])
            // The package finds the new product: its two targets, and the registry depends on its person side.
            let dump = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["swift", "package", "dump-package"], cwd: copy)
            #expect(dump.status == 0, "\(dump.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
            let targets = (json["targets"] as? [[String: Any]]) ?? []
            let names = targets.compactMap { $0["name"] as? String }
            #expect(names.contains("ToyRules") && names.contains("ToyLife"))
            #expect(targets.first { $0["path"] as? String == "Sources/Products/Toy/Life" } != nil, "the product's target, not the fixture's")
            let registryTarget = targets.first { $0["name"] as? String == "ProductRegistry" }
            #expect("\(registryTarget?["dependencies"] ?? "")".contains("ToyLife"))
        }
    }
}

/// The toy again under another name, with a process of its own that draws from the toy's stream.
enum ToyTwinAdapter: ProductAdapter {
    typealias Engine = ToyEngine
    typealias Metrics = ToyMetrics
    typealias Constants = ToyConstants
    static func initialState() -> Int { 0 }
    static func initialTally() -> ToyTally { ToyTally() }
    static var restrictsApps: Bool { false }
    static var personProcesses: [any PersonProcess.Type] { [TwinReminders.self] }
    static func constants(_ values: BehaviorValues) -> ToyConstants { ToyAdapter.constants(values) }

    struct TwinReminders: PersonProcess {
        static var stream: StreamName { ToyReminders.stream }
        init(person: Person) {}
        mutating func next(after t: Instant, zone: ZoneCalendar, rng: RandomStream) -> (at: Instant, occurrence: Int)? { nil }
    }
}
