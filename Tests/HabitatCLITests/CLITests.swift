import Foundation
import Testing

@Suite("habitat command line", .serialized)
struct CLITests {
    @Test func listNamesTheProducts() throws {
        let r = try CLIProcess.run(["list"])
        #expect(r.status == 0)
        for id in ["scroll-off", "nudge", "lazuri", "earned-access", "clavis"] { #expect(r.stdout.contains(id)) }
    }

    @Test func runWritesTheWorldCheckAndPrintsItsBlock() throws {
        let out = CLIProcess.tempDir().appendingPathComponent("wc")
        let r = try CLIProcess.run(["run", "--people", "40", "--days", "20", "--replications", "1", "--out", out.path, "--progress", "never"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stdout.contains("World check (arm control): "))
        #expect(r.stdout.contains("applicable figures inside the published range"))
        #expect(r.stdout.contains("retention_d30 (needs 31 days; run has 20)"))
        let text = try String(contentsOf: out.appendingPathComponent("world-check.csv"), encoding: .utf8)
        let lines = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines.first == "scenario,arm,replication,product,figure,unit,source,range_low,range_high,simulated_mean,ci_low,ci_high,inside,applies,replications")
        #expect(lines.count == 1 + 23)
        for id in ["unlocks_per_day", "retention_d1", "download_to_paid_d35", "annual_12m_retention", "revenue_per_install_d14_usd"] {
            #expect(lines.contains { $0.hasPrefix("scroll-off-baseline,control,all,scroll-off,\(id),") }, "\(id)")
        }
        let manifest = try String(contentsOf: out.appendingPathComponent("manifest.json"), encoding: .utf8)
        #expect(manifest.contains("world-check.csv"))
    }

    @Test func validatePrintsTheResolvedScenarioWithDefaults() throws {
        let dir = CLIProcess.tempDir()
        let file = dir.appendingPathComponent("small.yaml")
        try "name: small\nproduct: scroll-off\nhorizon_days: 30\n".write(to: file, atomically: true, encoding: .utf8)
        let r = try CLIProcess.run(["validate", file.path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stdout.contains("horizon_days: 30"))
        #expect(r.stdout.contains("seed: 20261122"))         // default filled in
        #expect(r.stdout.contains("replications: 1"))
        #expect(r.stdout.contains("scenario_hash"))
    }

    @Test func validateReportsEveryProblemWithLineKeyPathAndSuggestionAndExitsTwo() throws {
        let dir = CLIProcess.tempDir()
        let file = dir.appendingPathComponent("bad.yaml")
        try """
        name: bad
        product: scrol-off
        horizon_dayz: 30
        replications: many
        seed: 7

        """.write(to: file, atomically: true, encoding: .utf8)
        let r = try CLIProcess.run(["validate", file.path])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("bad.yaml:2:"))
        #expect(r.stderr.contains("scroll-off"))              // did you mean
        #expect(r.stderr.contains("bad.yaml:3:"))
        #expect(r.stderr.contains("horizon_days"))
        #expect(r.stderr.contains("bad.yaml:4:"))
        #expect(r.stderr.contains("replications"))
    }

    @Test func validateRefusesAMisspeltPersonaForAProductWithoutAnEngineWithLineAndColumn() throws {
        let dir = CLIProcess.tempDir()
        let file = dir.appendingPathComponent("nudge.yaml")
        try """
        product: nudge
        population:
          personas:
            - name: studnet
              share: 1

        """.write(to: file, atomically: true, encoding: .utf8)
        let r = try CLIProcess.run(["validate", file.path])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("nudge.yaml:4:13: error: population.personas[0].name: unknown persona 'studnet'"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("did you mean 'student'?"))
    }

    @Test func validateOfAMissingFileSaysSoAndExitsTwo() throws {
        let r = try CLIProcess.run(["validate", "/nonexistent/scenario.yaml"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("/nonexistent/scenario.yaml"))
    }

    @Test("a 100 000-character --set key or value, scenario key or path is echoed cut: exit 2, a readable message (issue 30)")
    func longInputIsEchoedCut() throws {
        let dir = CLIProcess.tempDir()
        let long = String(repeating: "k", count: 100_000)
        let scenario = dir.appendingPathComponent("long-key.yaml")
        try "name: long-key\nhorizon_days: 5\n\(long): 1\n".write(to: scenario, atomically: true, encoding: .utf8)
        let longPath = dir.path + "/" + Array(repeating: String(repeating: "d", count: 200), count: 15).joined(separator: "/") + "/s.yaml"
        let cases: [[String]] = [
            ["validate", "--set", "\(long)=1"],
            ["validate", "--set", "rules.\(long)=1"],
            ["validate", "--set", "behavior.\(long)=1"],
            ["validate", "--set", "horizon_days=\(long)"],
            ["validate", "--set", "start=\(long)"],
            ["validate", "--set", long],
            ["validate", scenario.path],
            ["validate", longPath],
            ["compare", longPath, longPath],
            ["calibrate", "--targets", longPath, "--people", "5", "--days", "2"],
        ]
        for args in cases {
            let r = try CLIProcess.run(args, cwd: dir)
            let shown = args.map { $0.count > 40 ? "<\($0.count) characters>" : $0 }
            #expect(r.status == 2, "\(shown): \(r.stderr.prefix(300))")
            #expect(!r.stderr.isEmpty && r.stderr.utf8.count < 2_048, "\(shown): \(r.stderr.utf8.count) bytes: \(r.stderr.prefix(300))")
            #expect(r.stderr.split(separator: "\n").allSatisfy { $0.utf8.count < 1_024 }, "\(shown): \(r.stderr.prefix(300))")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["long-key.yaml"])
    }

    @Test func badBenchOptionsAreUsageErrors() throws {
        let r = try CLIProcess.run(["bench", "kernel", "--workload", "agents", "--days", "0"])
        #expect(r.status == 64 || r.status == 2)
        #expect(r.stderr.contains("--days"))
        let w = try CLIProcess.run(["bench", "kernel", "--workload", "mm2"])
        #expect(w.status != 0)
        #expect(w.stderr.contains("mm1"))
    }

    /// The commit is stamped at build time (Plugins/GitCommitStamp): `--version` and a run's manifest name the same
    /// commit of this repository (or `unknown` outside a git checkout), also from a copy of the binary elsewhere.
    @Test func versionAndManifestNameTheCommitTheBinaryWasBuiltFrom() throws {
        let version = try CLIProcess.run(["--version"])
        #expect(version.status == 0)
        let text = version.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let stamp = try #require(text.split(separator: "(").last.map { String($0.dropLast()) }, "\(text)")
        #expect(stamp == "unknown" || stamp.wholeMatch(of: /[0-9a-f]{40}(-dirty)?/) != nil, "\(text)")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        func git(_ args: [String]) throws -> Int32 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = ["git", "-C", root.path] + args
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            p.waitUntilExit()
            return p.terminationStatus
        }
        if (try? git(["rev-parse", "--verify", "HEAD"])) == 0 {
            let commit = String(stamp.prefix(40))
            #expect(stamp != "unknown", "built in a git checkout")
            #expect(try git(["cat-file", "-e", commit + "^{commit}"]) == 0, "\(commit) is a commit of this repository")
        }
        let elsewhere = CLIProcess.tempDir()
        let copy = elsewhere.appendingPathComponent("habitat")
        try FileManager.default.copyItem(at: CLIProcess.binary, to: copy)
        let moved = Process()
        moved.executableURL = copy
        moved.arguments = ["--version"]
        moved.currentDirectoryURL = elsewhere
        let pipe = Pipe()
        moved.standardOutput = pipe
        try moved.run()
        let movedText = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        moved.waitUntilExit()
        #expect(movedText.trimmingCharacters(in: .whitespacesAndNewlines) == text, "a moved binary names the same commit")
        let out = elsewhere.appendingPathComponent("run")
        let run = try CLIProcess.run(["run", "--people", "5", "--days", "1", "--replications", "1", "--progress", "never", "--out", out.path])
        #expect(run.status == 0, "\(run.stderr)")
        let manifest = try String(contentsOf: out.appendingPathComponent("manifest.json"), encoding: .utf8)
        #expect(manifest.contains("\"git_commit\" : \"\(stamp)\""), "\(manifest)")
    }

    /// `--threads` and `--progress` are one option group (ExecutionOptions): every command that takes them refuses
    /// an out-of-range thread count as a usage error before any work (`check` used to crash on `--threads 0`), and
    /// names each option with the same help line.
    @Test(arguments: [["run"], ["check", "--baseline", "no-such-baseline"], ["bench", "kernel", "--workload", "mm1"], ["bench", "run"]])
    func executionOptionsAreSharedAndChecked(_ command: [String]) throws {
        for threads in ["0", "1025"] {
            let r = try CLIProcess.run(command + ["--threads", threads])
            #expect(r.status == 2, "\(command) --threads \(threads): \(r.stderr)")
            #expect(r.stderr.contains("--threads must be in 1…1024 (got \(threads))"), "\(r.stderr)")
        }
        let help = try CLIProcess.run(command + ["--help"]).stdout
        #expect(help.contains("--threads <threads>") && help.contains("orker threads (default: the machine's"))
        #expect(help.contains("--progress <progress>   Progress bar on stderr: auto, always, never."))
        #expect(help.contains(command[0] == "check" ? "default: never)" : "default: auto)"), "\(help)")
    }

    @Test func benchWritesItsReportAtomically() throws {
        let out = CLIProcess.tempDir().appendingPathComponent("bench")
        let r = try CLIProcess.run(["bench", "kernel", "--workload", "agents", "--agents", "200", "--days", "2", "--out", out.path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stdout.hasPrefix("workload=agents impl=habitat events="))
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(files == ["bench-kernel.csv", "manifest.json"])
    }

    /// Plants a previous report, starts a long run into the same directory, stops it midway, and checks that
    /// the previous report is untouched and nothing partial is left in it.
    func interruptMidway(signal sig: Int32) throws -> (status: Int32, files: [String], content: String, siblings: [String]) {
        let root = CLIProcess.tempDir()
        let out = root.appendingPathComponent("bench")
        let first = try CLIProcess.run(["bench", "kernel", "--workload", "mm1", "--customers", "1000", "--out", out.path])
        #expect(first.status == 0)
        let before = try String(contentsOf: out.appendingPathComponent("bench-kernel.csv"), encoding: .utf8)
        let running = try CLIProcess.start(["bench", "kernel", "--workload", "agents", "--agents", "2000000", "--days", "30",
                                            "--threads", "1", "--progress", "always", "--out", out.path])
        // Wait until the run is visibly under way (its progress bar has drawn), then stop it.
        let firstOutput = running.stderr.fileHandleForReading.availableData
        #expect(String(decoding: firstOutput, as: UTF8.self).contains("agents"))
        kill(running.process.processIdentifier, sig)
        let deadline = Date().addingTimeInterval(60)
        while running.process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if running.process.isRunning {
            kill(running.process.processIdentifier, SIGKILL)
            Issue.record("habitat did not stop within 60 s of signal \(sig)")
        }
        running.process.waitUntilExit()
        let after = try String(contentsOf: out.appendingPathComponent("bench-kernel.csv"), encoding: .utf8)
        #expect(after == before)
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        let siblings = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        return (running.process.terminationStatus, files, after, siblings)
    }

    @Test func ctrlCStopsTheRunNonZeroAndLeavesThePreviousReport() throws {
        let r = try interruptMidway(signal: SIGINT)
        #expect(r.status == 130)
        #expect(r.files == ["bench-kernel.csv", "manifest.json"])
        #expect(r.siblings == ["bench"])        // staging removed on a clean stop
    }

    @Test func aHardKillLeavesThePreviousReportIntactAndNoPartialFileInIt() throws {
        let r = try interruptMidway(signal: SIGKILL)
        #expect(r.status != 0)
        #expect(r.files == ["bench-kernel.csv", "manifest.json"])
    }
}
