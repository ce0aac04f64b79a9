import Foundation
import Testing

/// Every example scenario that ships must validate.
@Suite("Example scenarios")
struct ExampleScenarioTests {
    static var files: [URL] {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scenarios")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted().map { dir.appendingPathComponent($0) }
    }

    @Test func atLeastTheBaselineShips() {
        #expect(Self.files.map(\.lastPathComponent).contains("scroll-off-baseline.yaml"))
    }

    @Test(arguments: ExampleScenarioTests.files)
    func exampleValidates(_ file: URL) throws {
        let r = try CLIProcess.run(["validate", file.path, "--explain"])
        #expect(r.status == 0, "\(file.lastPathComponent): \(r.stderr)")
        #expect(r.stdout.contains("scenario_hash"))
    }
}
