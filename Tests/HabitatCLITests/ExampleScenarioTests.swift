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

    @Test("`habitat run` with no file runs Scenarios/scroll-off-baseline.yaml (same person, same timeline)")
    func embeddedDefaultIsTheBaselineFile() throws {
        let file = try #require(Self.files.first { $0.lastPathComponent == "scroll-off-baseline.yaml" })
        let size = ["--people", "3", "--days", "3", "--person", "1"]
        let embedded = try CLIProcess.run(["trace"] + size)
        let shipped = try CLIProcess.run(["trace", file.path] + size)
        #expect(embedded.status == 0 && shipped.status == 0, "\(embedded.stderr) \(shipped.stderr)")
        #expect(embedded.stdout.count > 200)
        #expect(embedded.stdout == shipped.stdout)
    }

    @Test(arguments: ExampleScenarioTests.files)
    func exampleValidates(_ file: URL) throws {
        let r = try CLIProcess.run(["validate", file.path, "--explain"])
        #expect(r.status == 0, "\(file.lastPathComponent): \(r.stderr)")
        #expect(r.stdout.contains("scenario_hash"))
    }
}
