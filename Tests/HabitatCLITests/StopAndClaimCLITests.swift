import Foundation
import HabitatTestSupport
import Testing

/// Issue 30: a second signal cleans up before the process exits; two runs into one folder (the second is refused at
/// once, naming the first); arguments that are not UTF-8 and paths too long for the file system are refused before
/// anything is made.
@Suite("Second signals, racing runs, path extremes (command line)", .serialized)
struct StopAndClaimCLITests {
    static let small = ["--people", "50", "--days", "7", "--replications", "1", "--progress", "never"]
    static let long = ["--people", "200000", "--days", "30", "--threads", "1", "--progress", "always"]

    func names(_ dir: URL) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted() }
    func files(_ dir: URL) -> [String: Data] {
        Dictionary(uniqueKeysWithValues: names(dir).map { ($0, FileManager.default.contents(atPath: dir.appendingPathComponent($0).path) ?? Data()) })
    }

    /// Starts a long run into `out` and returns once its progress bar has drawn (it is simulating, its lock held).
    func startLongRun(_ out: String, cwd: URL) throws -> CLIProcess.Running {
        let running = try CLIProcess.start(["run", "--out", out] + Self.long, cwd: cwd)
        _ = running.stderr.fileHandleForReading.availableData
        return running
    }

    /// The two signals (two different ones: the same signal twice would be pending only once) are sent while the
    /// process is stopped (SIGSTOP), so that both are pending when it resumes and the second is handled while the
    /// first's stop is still under way. Which of the two comes second is the kernel's choice (threads take them).
    @Test("a second signal right after the first: 128 + the signal, one line, the previous report kept, no staging or lock",
          arguments: [(SIGINT, SIGTERM), (SIGHUP, SIGINT), (SIGTERM, SIGHUP)])
    func secondSignal(_ signals: (Int32, Int32)) throws {
        let cwd = CLIProcess.tempDir()
        #expect(try CLIProcess.run(["run", "--out", "rep"] + Self.small, cwd: cwd).status == 0)
        let before = files(cwd.appendingPathComponent("rep"))
        // Over the previous report, or into new folders (whose parents the run made and must remove again).
        for fresh in [signals.0 == SIGHUP ? "new/deeper/rep2" : "rep"] {
            let running = try startLongRun(fresh, cwd: cwd)
            let pid = running.process.processIdentifier
            kill(pid, SIGSTOP)
            kill(pid, signals.0)
            kill(pid, signals.1)
            kill(pid, SIGCONT)
            let err = String(decoding: running.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            running.process.waitUntilExit()
            let status = running.process.terminationStatus
            #expect(running.process.terminationReason == .exit && [128 + signals.0, 128 + signals.1].contains(status), "\(status): \(err)")
            let lines = err.split(separator: "\n").filter { $0.contains("habitat:") }
            let named = status == 128 + SIGINT ? "SIGINT" : status == 128 + SIGTERM ? "SIGTERM" : "SIGHUP"
            #expect(lines.count == 1 && lines[0].hasPrefix("habitat: interrupted by \(named)"), "\(lines)")
            #expect(files(cwd.appendingPathComponent("rep")) == before)
            #expect(names(cwd) == ["rep"], "left: \(names(cwd))")
        }
    }

    @Test("a run into a folder another run is writing is refused at once, naming it; the first run's report is whole")
    func racingRuns() throws {
        let cwd = CLIProcess.tempDir()
        let first = try startLongRun("rep", cwd: cwd)
        let pid = first.process.processIdentifier
        let started = ContinuousClock.now
        let second = try CLIProcess.run(["run", "--out", "rep"] + Self.small, cwd: cwd)
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(second.status == 2, "\(second.stderr)")
        #expect(second.stderr.hasPrefix("habitat: rep: another habitat run (pid \(pid), started "), "\(second.stderr)")
        #expect(second.stderr.contains("`habitat run --out rep --people 200000"), "\(second.stderr)")
        #expect(second.stderr.hasSuffix("is writing this folder; wait for it or choose another --out\n"), "\(second.stderr)")
        kill(pid, SIGINT)
        _ = first.stderr.fileHandleForReading.readDataToEndOfFile()
        first.process.waitUntilExit()
        #expect(first.process.terminationStatus == 130)
        #expect(names(cwd).isEmpty, "left: \(names(cwd))")
        // With the folder free again, a run succeeds and leaves only its report.
        #expect(try CLIProcess.run(["run", "--out", "rep"] + Self.small, cwd: cwd).status == 0)
        #expect(names(cwd) == ["rep"])
    }

    @Test("an argument that is not UTF-8 is refused with exit 2 naming it; nothing is written")
    func nonUTF8Argument() throws {
        let cwd = CLIProcess.tempDir()
        let sh = URL(fileURLWithPath: "/bin/sh")
        let r = try HabitatTestSupport.ChildProcess.run(sh, ["-c", "exec \"$0\" run --out \"$(printf 'rep\\377')\" " + Self.small.joined(separator: " "),
                                                             CLIProcess.binary.path], cwd: cwd)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("habitat: argument 3 ('rep\\xFF') is not valid UTF-8"), "\(r.stderr)")
        #expect(names(cwd).isEmpty, "left: \(names(cwd))")
    }

    @Test("an --out too long for the file system is refused with exit 2 and makes no folder")
    func tooLongOut() throws {
        let cwd = CLIProcess.tempDir()
        let out = (0..<16).map { "d\($0)" }.joined(separator: "/") + "/" + String(repeating: "x", count: 250)
        let r = try CLIProcess.run(["run", "--out", out] + Self.small, cwd: cwd)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("250 bytes"), "\(r.stderr)")
        #expect(names(cwd).isEmpty, "left: \(names(cwd))")
    }
}
