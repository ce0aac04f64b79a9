// swift-tools-version:6.0
// Habitat — a discrete-event simulator of people living through the rule engines of digital-wellbeing apps.
// Licence: GPL-3.0-or-later (links the GNU Scientific Library).
import Foundation
import PackageDescription

/// The products Habitat simulates: every folder `Sources/Products/<Name>/` that holds `Rules/` (its pure rule engine,
/// the target `<Name>Rules`) and `Life/` (its person side, the adapter: `<Name>Life`), found here rather than listed,
/// so a new product's folder is all this file needs (a folder with only a README — a product planned, not built — is
/// not one). Its tests are found the same way: `Tests/<Name>RulesTests` and `Tests/<Name>LifeTests` where they exist.
/// The registry (`Sources/Products/Registry`) names each product once more, as a type; nothing else names a product.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
func folderExists(_ relative: String) -> Bool {
    var isFolder: ObjCBool = false
    return FileManager.default.fileExists(atPath: packageRoot.appendingPathComponent(relative).path, isDirectory: &isFolder) && isFolder.boolValue
}
func productFolders(in folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent(folder).path)) ?? [])
        .filter { folderExists("\(folder)/\($0)/Rules") && folderExists("\(folder)/\($0)/Life") }
        .sorted()
}
let products = productFolders(in: "Sources/Products")
/// Products whose engine is built before their person side (issue 43: Lazuri's rules first): a folder with `Rules/`
/// and no `Life/` yet. Each gets its engine target and its engine's tests only — no person side, no library, and it is
/// no dependency of the registry or of the generic tests, so it cannot be registered or run until its `Life/` exists
/// (it then moves to `products` with nothing to edit here).
let rulesOnlyProducts: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Sources/Products").path)) ?? [])
    .filter { folderExists("Sources/Products/\($0)/Rules") && !folderExists("Sources/Products/\($0)/Life") }
    .sorted()
/// Test fixtures laid out as products (`Tests/Fixtures/Products/<Name>/`, issue 42's toy): targets like a product's,
/// for its tests only — the registry does not list them. A fixture whose name is a product's is left out.
let fixtureProducts = productFolders(in: "Tests/Fixtures/Products").filter { !products.contains($0) }


/// Each product's test targets that exist: `<Name>RulesTests` (its engine, from the seed's words) and `<Name>LifeTests`
/// (its people through the adapter; with the no-app baseline its people are compared against, and the reports' types).
func productTestTargets(_ name: String) -> [Target] {
    var targets: [Target] = []
    if folderExists("Tests/\(name)RulesTests") {
        targets.append(.testTarget(name: "\(name)RulesTests", dependencies: [.target(name: "\(name)Rules"), "RulesCore", "HabitatTestSupport"]))
    }
    if folderExists("Tests/\(name)LifeTests") {
        targets.append(.testTarget(name: "\(name)LifeTests", dependencies: [.target(name: "\(name)Life"), .target(name: "\(name)Rules"), "Simulation",
                                                                            "Behavior", "RulesCore", "ScenarioFormat", "ProductRegistry",
                                                                            "LifeHarness", "HabitatTestSupport", "Reports"]
                                                                            + (name == "NoApp" ? [] : [.target(name: "NoAppLife")])))
    }
    return targets
}

/// The two targets of one product (in `folder`: `Sources/Products`, or a fixture's).
func productTargets(_ name: String, in folder: String = "Sources/Products") -> [Target] {
    [
        .target(name: "\(name)Rules", dependencies: ["RulesCore"], path: "\(folder)/\(name)/Rules", exclude: ["README.md"],
                swiftSettings: optimisedInDebug),
        .target(name: "\(name)Life", dependencies: [.target(name: "\(name)Rules"), "RulesCore", "SimKernel", "Stochastics", "Behavior", "Reports", "ScenarioFormat", "Simulation"],
                path: "\(folder)/\(name)/Life", exclude: ["README.md"], swiftSettings: crossModule),
    ]
}

/// The modules a simulation spends its time in are optimised in the debug build too (`-O` after SwiftPM's `-Onone`;
/// the last wins). The test suite simulates whole lives in-process (statistical and whole-run tests): unoptimised,
/// they were most of `swift test`'s time (Tests/README.md, "What the suite costs"). Everything else — the command
/// line, scenario parsing, reports, the tests themselves — stays unoptimised for quick builds and debugging. Testing
/// stays enabled (`@testable import` works); no code here relies on `assert`, which `-O` removes.
let optimisedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

/// The generic life and run are specialised for each product where the registry names it, in another module:
/// cross-module optimisation makes their bodies available there (docs/ARCHITECTURE.md, "Speed across modules").
let crossModule: [SwiftSetting] = [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))] + optimisedInDebug


// The lists below read `optimisedInDebug` and `crossModule`: a manifest is a script whose globals are set in order,
// so they must come after those settings (read before, the settings were still empty: every product's modules lost
// `-O` and cross-module optimisation, and Scroll Off's adapter its specialisations — found by the speed gate).
/// Each product's engine as a library (the fuzz harness in `Fuzz/` uses Scroll Off's).
let productLibraries: [PackageDescription.Product] = products.map { (name: String) -> PackageDescription.Product in
    .library(name: "\(name)Rules", targets: ["\(name)Rules"])
}
/// Every product's two targets.
let allProductTargets: [Target] = products.flatMap { (name: String) -> [Target] in productTargets(name) }
/// Every product's person side, as a dependency (the registry's).
let productLifeDependencies: [Target.Dependency] = products.map { (name: String) -> Target.Dependency in .target(name: "\(name)Life") }
/// Every product's two targets, as dependencies (the generic tests').
let productDependencies: [Target.Dependency] = products.flatMap { (name: String) -> [Target.Dependency] in
    [.target(name: "\(name)Rules"), .target(name: "\(name)Life")]
}
/// Every product's test targets that exist.
let allProductTestTargets: [Target] = products.flatMap(productTestTargets)
/// The engines of the products whose person side is not written yet (`rulesOnlyProducts`), with their engine tests.
let rulesOnlyTargets: [Target] = rulesOnlyProducts.flatMap { (name: String) -> [Target] in
    [productTargets(name)[0]] + productTestTargets(name)
}
/// The fixture products' targets and their tests.
let fixtureTargets: [Target] = fixtureProducts.flatMap { (name: String) -> [Target] in
    productTargets(name, in: "Tests/Fixtures/Products") + productTestTargets(name)
}

let package = Package(
    name: "Habitat",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "habitat", targets: ["habitat"]),
        .library(name: "RulesCore", targets: ["RulesCore"]),
        // For the fuzz harness in Fuzz/ (a separate package that depends on this one by path).
        .library(name: "ScenarioFormat", targets: ["ScenarioFormat"]),
    ] + productLibraries,
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        // C door: the GNU Scientific Library, reached only from Stochastics/GSL.swift.
        .systemLibrary(
            name: "CGSL",
            pkgConfig: "gsl",
            providers: [.apt(["libgsl-dev"])]
        ),
        // The few things that must be C: the signal handler and its state (installed before any library initialiser),
        // inode flags (Sources/CSystem/README.md).
        .target(name: "CSystem", exclude: ["README.md"]),
        // Keyed random streams, samplers and summary statistics.
        .target(name: "Stochastics", dependencies: ["CGSL", "RulesCore"], exclude: ["README.md"], swiftSettings: optimisedInDebug),
        // Shared vocabulary of the pure rule engines: instants, spans, money, local calendar, parameters.
        .target(name: "RulesCore", exclude: ["README.md"], swiftSettings: optimisedInDebug),
        // Virtual clock and event queue.
        .target(name: "SimKernel", dependencies: ["RulesCore"], exclude: ["README.md"], swiftSettings: optimisedInDebug),
        // Synthetic people: personas, phone use and urges, habits, choices, engagement, purchases.
        .target(name: "Behavior", dependencies: ["RulesCore", "Stochastics"], exclude: ["README.md"], swiftSettings: optimisedInDebug),
        // Scenario files: YAML parsing, schema, validation, layered defaults.
        .target(name: "ScenarioFormat", dependencies: [
            "RulesCore",
            .product(name: "Yams", package: "Yams"),
        ], exclude: ["README.md"]),
        // CSV writing, atomic report directories, manifest (stamped with the git commit at build time).
        .target(name: "Reports", dependencies: ["RulesCore", "Stochastics", "CSystem"], exclude: ["README.md"],
                plugins: ["GitCommitStamp"]),
        // Build-tool plugin: writes the source tree's git commit and dirty flag into the target before every build.
        .plugin(name: "GitCommitStamp", capability: .buildTool()),
        // The generic machinery every product shares: the person's life, the product seam, runs, shards, checks,
        // calibration, energy, the world check. Names no product.
        .target(name: "Simulation", dependencies: [
            "RulesCore", "SimKernel", "Stochastics", "Behavior", "Reports", "ScenarioFormat", "CSystem",
        ], exclude: ["README.md", "Energy/README.md", "Shard/README.md"], swiftSettings: crossModule),
    ] + allProductTargets + [
        // The one list of products (Sources/Products/Registry/Products.swift): the dispatch, the catalogues, and
        // the place where each product's run is specialised.
        .target(name: "ProductRegistry", dependencies: ["RulesCore", "ScenarioFormat", "Simulation"] + productLifeDependencies,
                path: "Sources/Products/Registry", exclude: ["README.md"]),
        // The `habitat` command line.
        .target(name: "HabitatCLI", dependencies: [
            "RulesCore", "SimKernel", "Stochastics", "Behavior", "Reports", "ScenarioFormat", "Simulation", "ProductRegistry",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], exclude: ["README.md"]),
        .executableTarget(name: "habitat", dependencies: ["HabitatCLI"]),

        // Test support every engine's tests reuse: temporary folders, running a binary, SplitMix64, the generic
        // property sweep with shrinking, a fault-injecting engine wrapper (Tests/README.md). Not shipped in a product.
        .target(name: "HabitatTestSupport", dependencies: ["RulesCore"], path: "Tests/HabitatTestSupport"),
        // The life harness every product's life tests use (`Tests/<Name>LifeTests`): a small world of the product,
        // people followed with a typed record of their lives (`LifeJournal`), scripted pickups and occurrences.
        .target(name: "LifeHarness", dependencies: ["Simulation", "ProductRegistry", "ScenarioFormat", "Behavior", "RulesCore", "Reports",
                                                   "HabitatTestSupport"],
                path: "Tests/LifeHarness", exclude: ["README.md"]),

        .testTarget(name: "HabitatTestSupportTests", dependencies: ["HabitatTestSupport", "RulesCore"]),
        .testTarget(name: "StochasticsTests", dependencies: ["Stochastics", "HabitatTestSupport"]),
        .testTarget(name: "RulesCoreTests", dependencies: ["RulesCore"]),
        .testTarget(name: "BehaviorTests", dependencies: ["Behavior", "Stochastics", "RulesCore"]),
        .testTarget(name: "SimKernelTests", dependencies: ["SimKernel", "Stochastics", "HabitatTestSupport"]),
        .testTarget(name: "ScenarioFormatTests", dependencies: ["ScenarioFormat"]),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "HabitatTestSupport"]),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "ProductRegistry", "HabitatTestSupport", "LifeHarness"]
                    + productDependencies),
        .testTarget(name: "HabitatCLITests", dependencies: ["HabitatCLI", "ProductRegistry", "HabitatTestSupport"]),
    ] + allProductTestTargets + fixtureTargets + rulesOnlyTargets
)
