import ArgumentParser
import Foundation
import Reports
import ScenarioFormat
import Simulation

/// Runs a resolved scenario into an atomically written report directory — what `run` and `check` share.
///
/// Errors are written to stderr and become exit codes: 2 for a product without an engine or an invalid
/// population, 130 for Ctrl-C, 1 for a run that failed (e.g. a broken engine invariant). On any error the
/// previous report at `dir` is left as it was.
enum ReportRun {
    static func simulate(_ scenario: ResolvedScenario, scenarioFile: String?, into dir: URL, threads: Int,
                         progress: ProgressMode) throws -> (run: ScrollOffRun, seconds: Double) {
        guard Products.info(scenario.product).hasEngine else {
            fail("habitat: product '\(scenario.product)' has no rule engine in Habitat yet; `habitat list` shows which do")
            throw ExitCode(2)
        }
        do { try ScrollOffWorld.check(scenario) } catch {
            fail(error.rendered(file: scenarioFile ?? DefaultScenario.fileName))
            throw ExitCode(2)
        }
        let report = try ReportDirectory(destination: dir)
        defer { report.abort() }
        var run = ScrollOffRun(scenario: scenario, threads: threads)
        let bar = ProgressBar(total: run.totalPeople, unit: "people", label: scenario.name, mode: progress)
        let clock = ContinuousClock()
        let started = clock.now
        do {
            try run.simulate(progress: { bar.update($0) })
        } catch let interrupted as RunInterrupted {
            bar.finish(0)
            fail("habitat: \(interrupted)")
            throw ExitCode(130)
        } catch {
            fail("habitat: \(error)")
            throw ExitCode(1)
        }
        bar.finish(run.totalPeople)
        let seconds = (clock.now - started).seconds
        _ = try run.write(to: report, wallSeconds: seconds)
        try report.commit()
        return (run, seconds)
    }

    static func fail(_ message: String) { FileHandle.standardError.write(Data((message + "\n").utf8)) }
}
