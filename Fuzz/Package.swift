// swift-tools-version:6.0
// Habitat's fuzz harness: libFuzzer against the scenario parser and validator (see README.md).
// A separate package so the main build never links libFuzzer; it uses the root package by path.
import Foundation
import PackageDescription

// A path dependency's identity is its directory's name, which depends on where the repository was cloned.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
let rootIdentity = root.lastPathComponent.lowercased()

let package = Package(
    name: "HabitatFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
    ],
    targets: [
        // Built with `-sanitize=fuzzer`: libFuzzer supplies `main` and calls `LLVMFuzzerTestOneInput`.
        .executableTarget(name: "ScenarioFuzzer", dependencies: [
            .product(name: "ScenarioFormat", package: rootIdentity),
            .product(name: "ScrollOffRules", package: rootIdentity),
        ]),
    ]
)
