// swift-tools-version:6.0
// Habitat — a discrete-event simulator of people living through the rule engines of digital-wellbeing apps.
// Licence: GPL-3.0-or-later (links the GNU Scientific Library).
import PackageDescription

let package = Package(
    name: "Habitat",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "habitat", targets: ["habitat"]),
        .library(name: "RulesCore", targets: ["RulesCore"]),
        .library(name: "ScrollOffRules", targets: ["ScrollOffRules"]),
        .library(name: "EarnedAccessRules", targets: ["EarnedAccessRules"]),
        // For the fuzz harness in Fuzz/ (a separate package that depends on this one by path).
        .library(name: "ScenarioFormat", targets: ["ScenarioFormat"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        // C door: the GNU Scientific Library, reached only from Stochastics/GSL.swift.
        .systemLibrary(
            name: "CGSL",
            pkgConfig: "gsl",
            providers: [.apt(["libgsl-dev"])]
        ),
        // Keyed random streams, samplers and summary statistics.
        .target(name: "Stochastics", dependencies: ["CGSL", "RulesCore"], exclude: ["README.md"]),
        // Shared vocabulary of the pure rule engines: instants, spans, money, local calendar, parameters.
        .target(name: "RulesCore", exclude: ["README.md"]),
        // Virtual clock and event queue.
        .target(name: "SimKernel", dependencies: [
            "RulesCore",
            .product(name: "HeapModule", package: "swift-collections"),
        ], exclude: ["README.md"]),
        // Synthetic people: personas, phone use and urges, habits, choices, engagement, purchases.
        .target(name: "Behavior", dependencies: ["RulesCore", "Stochastics"], exclude: ["README.md"]),
        // Scroll Off's rule engine (seed 000), pure and clock-injected.
        .target(name: "ScrollOffRules", dependencies: ["RulesCore"], path: "Sources/Products/ScrollOff/Rules", exclude: ["README.md"]),
        // Earned Access's rule engine (seed 003), pure and clock-injected.
        .target(name: "EarnedAccessRules", dependencies: ["RulesCore"], path: "Sources/Products/EarnedAccess/Rules", exclude: ["README.md"]),
        // Scenario files: YAML parsing, schema, validation, layered defaults.
        .target(name: "ScenarioFormat", dependencies: [
            "RulesCore",
            .product(name: "Yams", package: "Yams"),
        ], exclude: ["README.md"]),
        // CSV writing, atomic report directories, manifest (stamped with the git commit at build time).
        .target(name: "Reports", dependencies: ["RulesCore", "Stochastics"], exclude: ["README.md"],
                plugins: ["GitCommitStamp"]),
        // Build-tool plugin: writes the source tree's git commit and dirty flag into the target before every build.
        .plugin(name: "GitCommitStamp", capability: .buildTool()),
        // Population, product adapters, person-parallel runner.
        .target(name: "Simulation", dependencies: [
            "RulesCore", "SimKernel", "Stochastics", "Behavior", "ScrollOffRules", "EarnedAccessRules", "Reports", "ScenarioFormat",
        ], path: "Sources", exclude: ["Simulation/README.md", "Simulation/Energy/README.md", "Simulation/Shard/README.md"],
        sources: ["Simulation", "Products/ScrollOff/Life", "Products/EarnedAccess/Life"]),
        // The `habitat` command line.
        .target(name: "HabitatCLI", dependencies: [
            "RulesCore", "SimKernel", "Stochastics", "Behavior", "ScrollOffRules", "EarnedAccessRules", "Reports", "ScenarioFormat", "Simulation",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], exclude: ["README.md"]),
        .executableTarget(name: "habitat", dependencies: ["HabitatCLI"]),

        // Test support every engine's tests reuse: temporary folders, running a binary, SplitMix64, the generic
        // property sweep with shrinking, a fault-injecting engine wrapper (Tests/README.md). Not shipped in a product.
        .target(name: "HabitatTestSupport", dependencies: ["RulesCore"], path: "Tests/HabitatTestSupport"),

        .testTarget(name: "HabitatTestSupportTests", dependencies: ["HabitatTestSupport", "RulesCore"]),
        .testTarget(name: "StochasticsTests", dependencies: ["Stochastics", "HabitatTestSupport"]),
        .testTarget(name: "RulesCoreTests", dependencies: ["RulesCore"]),
        .testTarget(name: "BehaviorTests", dependencies: ["Behavior", "Stochastics", "RulesCore"]),
        .testTarget(name: "SimKernelTests", dependencies: ["SimKernel", "Stochastics"]),
        .testTarget(name: "ScrollOffRulesTests", dependencies: ["ScrollOffRules", "RulesCore", "HabitatTestSupport"]),
        .testTarget(name: "EarnedAccessRulesTests", dependencies: ["EarnedAccessRules", "RulesCore", "HabitatTestSupport"]),
        .testTarget(name: "ScenarioFormatTests", dependencies: ["ScenarioFormat"]),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "HabitatTestSupport"]),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "HabitatTestSupport"]),
        .testTarget(name: "HabitatCLITests", dependencies: ["HabitatCLI", "HabitatTestSupport"]),
    ]
)
