import ArgumentParser
import Foundation
import ProductRegistry
import Reports
import RulesCore
import ScenarioFormat
import Simulation

/// `habitat merge SHARD_DIR... --out DIR`: folds the shard folders of one run (`habitat run --shard K/N`) into the
/// reports a whole run writes — byte for byte, `manifest.json` apart from `wall_seconds`, `threads` and
/// `merged_shards` (CONTRACT.md).
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge shard folders (run --shard K/N) into the reports a whole run writes, byte for byte.",
        discussion: """
        Checks first, refusing with exit status 2 and the shard at fault: every folder must be a shard folder of the same
        scenario (same hash) written by the same habitat (version and commit), shards 1…N each exactly once, and their
        people must add up to every arm. Shards may be given in any order. The report is written atomically to --out,
        which must be new, empty, or an earlier report.
        """
    )

    @Argument(help: "The shard folders (all N of one run, in any order).")
    var shards: [String] = []

    @Option(help: "Directory for the merged reports.")
    var out: String

    @Option(help: "Progress bar on stderr: auto, always, never.")
    var progress: ProgressMode = .auto

    func validate() throws {
        guard !shards.isEmpty else { throw ValidationError("give the shard folders to merge (habitat merge SHARD_DIR... --out DIR)") }
    }

    func run() throws {
        let set = try ShardSet(paths: shards)   // a ShardRefused: exit status 2 (HabitatError)
        let source = "\(set.folders[0].path)/manifest.json (resolved_scenario)"
        let scenario: ResolvedScenario
        do {
            scenario = try ScenarioLoader(catalogues: Products.catalogues, allowLarge: true)
                .load(yaml: set.manifest.resolvedScenario, fileName: source, overrides: ScenarioOverrides(outputDir: out))
        } catch {
            throw HabitatError.refused("the shards' scenario cannot be loaded:\n\(error)")
        }
        try ReportRun.requireEngine(scenario, scenarioFile: source)
        let dir = URL(fileURLWithPath: out)
        let (run, seconds) = try ReportRun.writeFolder(dir, kind: .report, shownPath: out) { report -> (any ProductRun, Double) in
            var run = try Products.run(scenario, threads: set.threads, spoolFolder: report.staging)
            let records = scenario.arms.count * scenario.replications
            let seconds = try ReportRun.timed(total: records, unit: "arm×replication", label: "merge \(set.count) shards", progress: progress) {
                try run.merge(set, progress: $0)
            }
            _ = try run.write(to: report, wallSeconds: seconds, checkpoint: StopRequest.checkpoint,
                              extra: { try TraceCommand.writeTraces(scenario, into: $0) })
            return (run, seconds)
        }
        RunCommand.printSummary(run, seconds: seconds, dir: dir)
        print("Merged \(set.count) shards (\(set.folders.map(\.path).joined(separator: ", "))).")
    }
}
