import Foundation
import ProductRegistry
import Reports
import RulesCore
import ScenarioFormat
import Simulation

/// Runs a resolved scenario into an atomically written report directory — what `run` and `check` share.
///
/// Errors are thrown as `HabitatError`s (printed once by `HabitatCommand.start()`): 2 for a product without an engine,
/// an invalid population, a run too large for the machine or a destination Habitat must not replace (all refused
/// before any simulation); 128 + the signal (130 SIGINT, 143 SIGTERM, 129 SIGHUP) for an interruption; 1 for a run
/// that failed (a broken engine invariant, a full disk). On any error the previous report at `dir` is left as it was
/// and no staging folder remains.
enum ReportRun {
    /// - Parameters:
    ///   - shownPath: the destination as the user gave it, for messages.
    ///   - kind: the kind of folder written (`run`: a report; `check --record`: a baseline).
    ///   - allowLarge: skip the size limits (`--allow-large`).
    ///   - extra: writes further report files before the manifest, which lists them (e.g. traces).
    ///   - extraAfterRun: the same, given the finished run (e.g. `--robustness`, which rewrites experiment.csv).
    ///   - finish: writes files after the manifest, just before the commit (e.g. `baseline.json`).
    static func simulate(_ scenario: ResolvedScenario, scenarioFile: String?, into dir: URL, shownPath: String? = nil,
                         kind: ReportKind = .report, threads: Int, progress: ProgressMode, allowLarge: Bool = false,
                         extra: (ReportDirectory) throws -> Void = { _ in },
                         extraAfterRun: ((ReportDirectory, any ProductRun) throws -> Void)? = nil,
                         finish: (ReportDirectory) throws -> Void = { _ in }) throws -> (run: any ProductRun, seconds: Double) {
        try checkRunnable(scenario, scenarioFile: scenarioFile, threads: threads, allowLarge: allowLarge)
        return try writeFolder(dir, kind: kind, shownPath: shownPath ?? dir.path) { report in
            var run = try Products.run(scenario, threads: threads, spoolFolder: report.staging)
            let seconds = try timed(total: run.totalPeople, unit: "people", label: scenario.name, progress: progress) {
                try run.simulate(progress: $0)
            }
            let finished = run
            _ = try run.write(to: report, wallSeconds: seconds, checkpoint: StopRequest.checkpoint, extra: { r in
                try extra(r)
                try extraAfterRun?(r, finished)
            })
            try finish(report)
            return (run, seconds)
        }
    }

    /// Writes a Habitat folder atomically — what `run`, `run --shard`, `merge`, `check --record` and `calibrate` share: `body`
    /// fills the staging folder, then the folder is committed, replacing an earlier folder of the same kind. A stop
    /// (SIGINT, SIGTERM, SIGHUP) or an error leaves the previous folder as it was and no staging folder; errors
    /// become the exit statuses of `exitStatus`.
    static func writeFolder<T>(_ dir: URL, kind: ReportKind, shownPath: String, _ body: (ReportDirectory) throws -> T) throws -> T {
        try StopRequest.withCleanStop {
            try exitStatus {
                let report = try ReportDirectory(destination: dir, kind: kind, shownPath: shownPath)
                defer { report.abort() }
                let result = try body(report)
                try StopRequest.checkpoint()
                try report.commit()
                return result
            }
        }
    }

    /// Runs `work` under a progress bar of `total` units on stderr; returns its wall-clock seconds.
    static func timed(total: Int, unit: String, label: String, progress: ProgressMode,
                      _ work: (@escaping @Sendable (Int) -> Void) throws -> Void) throws -> Double {
        let bar = ProgressBar(total: total, unit: unit, label: label, mode: progress)
        let clock = ContinuousClock()
        let started = clock.now
        do { try work { bar.update($0) } } catch { bar.finish(0); throw error }
        bar.finish(total)
        return (clock.now - started).seconds
    }

    /// Simulates shard `shard` of `scenario` into a shard folder at `dir` (`habitat run --shard K/N`): the mergeable
    /// state of every arm × replication (`shard-state.jsonl`) and a manifest of kind `shard`, written atomically like
    /// a report. Refuses a precision target (exit 2): its replications depend on every person's results.
    static func simulateShard(_ scenario: ResolvedScenario, shard: ShardSpec, scenarioFile: String?, into dir: URL, shownPath: String,
                              threads: Int, progress: ProgressMode, allowLarge: Bool) throws -> (totals: (people: Int, personDays: Int, events: Int), seconds: Double) {
        let file = scenarioFile ?? DefaultScenario.fileName
        if scenario.precision != nil {
            throw HabitatError.refused("\(file): --shard cannot split a run with a precision target (precision: replications are added until "
                + "a half-width is met, which needs every person's results after each replication). Run it whole, or remove "
                + "`precision` and give a fixed number of replications to shard it")
        }
        try requireEngine(scenario, scenarioFile: scenarioFile)
        if !allowLarge, let refusal = RunSize(scenario, threads: threads, shards: shard.count).refusal {
            throw HabitatError.refused("\(file): shard \(shard): \(refusal)")
        }
        return try writeFolder(dir, kind: .shard, shownPath: shownPath) { report in
            let run = try Products.run(scenario, threads: threads)
            let sink = try report.open(ShardState.fileName)
            var totals = (people: 0, personDays: 0, events: 0)
            let seconds = try timed(total: run.shardPeople(shard), unit: "people", label: "\(scenario.name) shard \(shard)", progress: progress) {
                totals = try run.simulateShard(shard, emit: { try sink.write(bytes: $0); try sink.write("\n") }, progress: $0)
            }
            try report.close(sink, ShardState.fileName)
            var manifest = RunManifest(command: "run --shard", scenarioName: scenario.name, scenarioHash: scenario.scenarioHash,
                                       resolvedScenario: scenario.yaml, seed: scenario.seed, replications: scenario.replications,
                                       people: totals.people, personDays: totals.personDays, eventsSimulated: totals.events,
                                       threads: threads, wallSeconds: seconds, files: [ShardState.fileName], kind: .shard)
            manifest.shard = shard
            try report.write("manifest.json", text: try manifest.json())
            return (totals, seconds)
        }
    }

    /// Runs `body`, giving its errors the exit status the help documents for a folder being written: 2 for a
    /// destination Habitat will not write (or a shard `merge` refuses), 128 + the signal for an interruption, 1 for
    /// anything else — a failed run, whatever the error would mean elsewhere.
    static func exitStatus<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let e as HabitatError {
            throw e
        } catch let e as RunInterrupted {
            throw HabitatError(e)
        } catch let e as ShardRefused {
            throw HabitatError(e)
        } catch let refused as OutputRefused {
            throw HabitatError.refused("\(refused)")
        } catch let busy as DestinationBusy {
            throw HabitatError.refused("\(busy)")
        } catch {
            throw HabitatError.failed("\(error)")
        }
    }

    /// The checks made before anything is written: an engine for the product, a population it can build, and a
    /// size the machine can finish (`RunSize`).
    static func checkRunnable(_ scenario: ResolvedScenario, scenarioFile: String?, threads: Int, allowLarge: Bool) throws {
        try requireEngine(scenario, scenarioFile: scenarioFile)
        if let descriptor = Products.descriptor(scenario.product) {
            for warning in ProductContract.unexercisedArmWarnings(scenario, descriptor) {
                warn("\(scenarioFile ?? DefaultScenario.fileName): warning: \(warning)")
            }
        }
        if !allowLarge, let refusal = RunSize(scenario, threads: threads).refusal {
            throw HabitatError.refused("\(scenarioFile ?? DefaultScenario.fileName): \(refusal)")
        }
    }

    /// Refuses, with exit 2, a scenario whose product has no rule engine in this version (every command).
    static func requireEngine(_ scenario: ResolvedScenario, scenarioFile: String?) throws {
        // The scenario's product (whose catalogue its top-level rules were checked against) and every arm's.
        for product in [scenario.product] + scenario.products.filter({ $0 != scenario.product }) {
            do { _ = try Products.requireAdapter(product) } catch {
                throw HabitatError.refused("\(scenarioFile ?? DefaultScenario.fileName): \(error)")
            }
        }
    }

    /// Writes a warning (`file: warning: …`) to stderr; the run goes on. Errors are thrown (`HabitatError`).
    static func warn(_ message: String) { FileHandle.standardError.write(Data((message + "\n").utf8)) }
}
