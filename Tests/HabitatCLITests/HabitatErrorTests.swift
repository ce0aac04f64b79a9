import ArgumentParser
import Foundation
@testable import ProductRegistry
import Testing
@testable import HabitatCLI
import Reports
import RulesCore
import ScenarioFormat
@testable import Simulation

/// The one error path (issue 27): what `HabitatCommand.start()` prints for an error a command throws, and the exit
/// status it exits with.
@Suite("One error path")
struct HabitatErrorTests {
    struct Unforeseen: Error, CustomStringConvertible { var description: String { "something unforeseen" } }

    @Test func habitatErrorsAreReportedWithTheOnePrefix() {
        #expect(HabitatError.report(HabitatError.refused("--replication 9 is out of range; allowed 1…3"))
                == ("habitat: --replication 9 is out of range; allowed 1…3", 2))
        #expect(HabitatError.report(HabitatError.failed("cannot write 'x.csv': No space left on device"))
                == ("habitat: cannot write 'x.csv': No space left on device", 1))
        #expect(HabitatError.report(HabitatError("custom", status: 3)) == ("habitat: custom", 3))
        // A failed check has printed its FAIL report on stdout: nothing more on stderr.
        #expect(HabitatError.report(HabitatError.checkFailed) == ("", 1))
    }

    @Test func scenarioDiagnosticsKeepTheirCompilerStyle() {
        let issue = ScenarioIssue(file: "s.yaml", line: 3, column: 5, keyPath: "replications", kind: .outOfRange,
                                  message: "value 0 is out of range", allowed: "an integer in 1…10000")
        let error = ScenarioError(issues: [issue])
        #expect(HabitatError.report(HabitatError.diagnostics(error))
                == ("s.yaml:3:5: error: replications: value 0 is out of range; allowed an integer in 1…10000\n1 error in s.yaml", 2))
        #expect(HabitatError.report(HabitatError.diagnostic(file: ScenarioLoader.commandLine, "--set x is given twice"))
                == ("<command line>: error: --set x is given twice", 2))
    }

    @Test func lowerLayerErrorsAreMappedAtTheCatchPoint() {
        for (signal, status) in [(SIGINT, Int32(130)), (SIGTERM, 143), (SIGHUP, 129)] {
            let e = RunInterrupted(signal: signal)
            #expect(HabitatError.report(e) == ("habitat: \(e)", status))
        }
        #expect(HabitatError.report(RunInterrupted(signal: SIGTERM)).message.hasPrefix("habitat: interrupted by SIGTERM"))
        #expect(HabitatError.report(ShardRefused(path: "s1", reason: "no such folder")) == ("habitat: shard 's1': no such folder", 2))
        #expect(HabitatError.report(ComparisonError("b/manifest.json: not valid JSON")) == ("habitat: b/manifest.json: not valid JSON", 2))
        #expect(HabitatError.report(CalibrationInputError(file: "t.csv", line: 2, "unknown figure 'x'")) == ("habitat: t.csv:2: unknown figure 'x'", 2))
        #expect(HabitatError.report(TraceError(message: "person 999 is not in arm control")) == ("habitat: person 999 is not in arm control", 2))
        #expect(HabitatError.report(ExitCode(3)) == ("", 3))
        // Issue 40: a scenario's diagnostics and a product without an engine are bad input wherever they escape.
        let diagnostics = ScenarioError(issues: [ScenarioIssue(file: "s.yaml", line: 2, column: 1, keyPath: "product", kind: .outOfRange,
                                                              message: "product 'lazuri' has no rule engine in this version")])
        #expect(HabitatError.report(diagnostics) == ("\(diagnostics)", 2))
        #expect(HabitatError.report(ProductWithoutEngine(product: "lazuri")).status == 2)
        // Anything else is a run that failed: a full disk, a broken invariant, an error nobody foresaw.
        #expect(HabitatError.report(FileSystemError(path: "r/kpis.csv", action: "write", code: ENOSPC))
                == ("habitat: cannot write 'r/kpis.csv': \(String(cString: strerror(ENOSPC)))", 1))
        #expect(HabitatError.report(Unforeseen()) == ("habitat: something unforeseen", 1))
    }

    /// Inside a folder being written every error is a failed run, except a refusal of the destination or of a
    /// shard (2), a stop (128 + the signal) and an error the command already gave a status.
    @Test func aFolderWriteTurnsOtherErrorsIntoAFailedRun() {
        func inFolder(_ error: any Error) -> (message: String, status: Int32) {
            do { try ReportRun.exitStatus { () throws -> Void in throw error } } catch { return HabitatError.report(error) }
            return ("not thrown", 0)
        }
        #expect(inFolder(OutputRefused(path: ".", reason: "it is the working directory")) == ("habitat: will not write to '.': it is the working directory", 2))
        #expect(inFolder(ShardRefused(path: "s2", reason: "a truncated state file")) == ("habitat: shard 's2': a truncated state file", 2))
        #expect(inFolder(RunInterrupted(signal: SIGINT)).status == 130)
        #expect(inFolder(HabitatError.refused("x")) == ("habitat: x", 2))
        #expect(inFolder(TraceError(message: "person 9 is not in arm a")) == ("habitat: person 9 is not in arm a", 1))
        #expect(inFolder(ComparisonError("c")) == ("habitat: c", 1))
        #expect(inFolder(Unforeseen()) == ("habitat: something unforeseen", 1))
    }

    /// Only Habitat's own commands go through the one path; argument-parser's `help` prints its own text.
    @Test func theCatchPointKnowsHabitatsCommands() {
        struct Foreign: ParsableCommand {}
        for command: ParsableCommand.Type in [HabitatCommand.self, RunCommand.self, TraceCommand.self, CheckCommand.self, BenchCommand.self, RunBench.self] {
            #expect(HabitatCommand.isOwn(command), "\(command)")
        }
        #expect(!HabitatCommand.isOwn(Foreign.self))
    }

    /// The process prints the error once, with the one prefix, and exits with its status.
    @Test func theProcessPrintsOneLineAndExitsWithTheStatus() throws {
        let dir = CLIProcess.tempDir()
        let missing = dir.appendingPathComponent("missing").path
        let compare = try CLIProcess.run(["compare", missing, "--out", dir.appendingPathComponent("c.csv").path])
        #expect(compare.status == 2)
        #expect(compare.stderr == "habitat: \(missing): not found or not a folder — give a finished run's report folder\n", "\(compare.stderr)")
        #expect(compare.stdout.isEmpty)
        let merge = try CLIProcess.run(["merge", missing, "--out", dir.appendingPathComponent("m").path])
        #expect(merge.status == 2)
        #expect(merge.stderr == "habitat: shard '\(missing)': no such folder\n", "\(merge.stderr)")
    }
}

@Suite("stderr stays readable")
struct ReadableMessageTests {
    @Test("a line over 1 000 characters has its long words cut; short messages are untouched (issue 30)")
    func longWordsAreCut() {
        let value = String(repeating: "9", count: 100_000)
        let cut = HabitatError.readable("Error: The value '\(value)' is invalid for '--people <people>'\nHelp: --people")
        #expect(cut == "Error: The value '" + String(repeating: "9", count: 59) + "… (100002 characters) is invalid for '--people <people>'\nHelp: --people")
        let short = "habitat: --people must be in 1…10000000 (got 0)"
        #expect(HabitatError.readable(short) == short)
    }
}
