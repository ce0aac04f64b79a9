import ArgumentParser
import Foundation
import Behavior
import ProductRegistry
import Reports
import RulesCore
import ScenarioFormat
import Simulation

/// `habitat list`: the products, personas and example scenarios that ship with Habitat.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the products, personas and example scenarios that ship with Habitat."
    )

    @Option(help: "text (for people) or csv (the products only, for scripts: product,name,seed,engine,adapter).")
    var format: ListFormat = .text

    func run() throws {
        if format == .csv {
            print(Self.productsCSV.text, terminator: "")
            return
        }
        print("Products (product: key in a scenario):")
        for p in Products.all {
            let status = Products.descriptor(p.id).map { "engine ready, \($0.parameters.count) rule parameters" } ?? "no engine yet"
            print("  \(p.id.rawValue.padding(toLength: 14, withPad: " ", startingAt: 0)) \(p.name) — seed \(p.seedFile) — \(status)")
            print("  \(String(repeating: " ", count: 14)) \(p.summary)")
        }
        print("")
        print("Personas (population.personas[].name):")
        for name in PersonaCatalog.builtIn.keys.sorted() {
            let p = PersonaCatalog.builtIn[name]!
            print("  \(name.padding(toLength: 20, withPad: " ", startingAt: 0)) daily profile \(p.dailyProfile.rawValue), \(String(format: "%.0f", p[.pickupsPerDay].mean)) pickups/day on average")
        }
        print("")
        print("Devices (population.devices[].model), battery capacity:")
        for d in DeviceCatalog.all {
            print("  \(d.id.padding(toLength: 14, withPad: " ", startingAt: 0)) \(d.name), \(String(format: "%.2f", d.batteryWh)) Wh")
        }
        print("")
        let scenarios = ExampleScenarios.all()
        print("Example scenarios (\(ExampleScenarios.directory?.path ?? "Scenarios/ not found")):")
        if scenarios.isEmpty { print("  (none)") }
        for s in scenarios { print("  \(s.lastPathComponent)") }
    }

    /// Every product, one row each: its key, name, seed file, whether it has an engine, and its adapter's type as
    /// Swift names it without modules (e.g. `ScrollOffAdapter<ScrollOffEngine>`; empty without an engine). The speed
    /// gate (Benchmarks/speed_gate.py) reads this to measure every product and to find its specialised event loop.
    static var productsCSV: CSVTable {
        var t = CSVTable(header: ["product", "name", "seed", "engine", "adapter"])
        for p in Products.all {
            let adapter = Products.registration(for: p.id)?.adapterTypeName
            t.append([.text(p.id.rawValue), .text(p.name), .text(p.seedFile), .flag(p.hasEngine), adapter.map { .text($0) } ?? .empty])
        }
        return t
    }
}

/// The output of `habitat list`.
enum ListFormat: String, ExpressibleByArgument, CaseIterable {
    case text, csv
}

/// Finds the example scenarios shipped in the repository's `Scenarios/` folder.
enum ExampleScenarios {
    /// `./Scenarios` when present, else the `Scenarios/` folder of the source tree this binary was built from.
    static var directory: URL? {
        let fm = FileManager.default
        let local = URL(fileURLWithPath: fm.currentDirectoryPath).appendingPathComponent("Scenarios")
        if fm.fileExists(atPath: local.path) { return local }
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scenarios")
        return fm.fileExists(atPath: source.path) ? source : nil
    }

    /// The `.yaml` files there, sorted by name.
    static func all() -> [URL] {
        guard let dir = directory, let items = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else { return [] }
        return items.filter { $0.hasSuffix(".yaml") }.sorted().map { dir.appendingPathComponent($0) }
    }
}
