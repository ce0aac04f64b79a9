import Foundation
import Testing

/// Issue 11: the command line never destroys what Habitat did not write, refuses before simulating, and stops
/// cleanly on signals. Every case runs in its own temporary sandbox with canary files.
@Suite("Output safety and interruption (command line)", .serialized)
struct OutputSafetyCLITests {
    static let small = ["--people", "20", "--days", "5", "--replications", "1", "--progress", "never"]

    /// A sandbox: `root/CANARY`, `root/cwd/CANARY`, `root/cwd/Reports/CANARY`.
    func sandbox() throws -> (root: URL, cwd: URL) {
        let root = CLIProcess.tempDir()
        let cwd = root.appendingPathComponent("cwd")
        try FileManager.default.createDirectory(at: cwd.appendingPathComponent("Reports"), withIntermediateDirectories: true)
        for d in [root, cwd, cwd.appendingPathComponent("Reports")] { try Data("canary".utf8).write(to: d.appendingPathComponent("CANARY")) }
        return (root, cwd)
    }

    func canariesIntact(_ s: (root: URL, cwd: URL)) -> Bool {
        [s.root, s.cwd, s.cwd.appendingPathComponent("Reports")].allSatisfy {
            FileManager.default.contents(atPath: $0.appendingPathComponent("CANARY").path) == Data("canary".utf8)
        }
    }

    @Test("the working directory, its parent, an empty path, a file and a foreign folder are refused before simulating",
          arguments: [".", "", "./", "sub/..", "..", "notes.txt", "victim", "link"])
    func refusedDestinations(_ out: String) throws {
        let s = try sandbox()
        try FileManager.default.createDirectory(at: s.cwd.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data("important".utf8).write(to: s.cwd.appendingPathComponent("notes.txt"))
        try FileManager.default.createDirectory(at: s.cwd.appendingPathComponent("victim/inner"), withIntermediateDirectories: true)
        try Data("a".utf8).write(to: s.cwd.appendingPathComponent("victim/a.txt"))
        try FileManager.default.createSymbolicLink(atPath: s.cwd.appendingPathComponent("link").path, withDestinationPath: s.root.path)
        let r = try CLIProcess.run(["run", "--out", out] + Self.small, cwd: s.cwd)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("habitat: will not write to '\(out)'"), "\(r.stderr)")
        #expect(!r.stdout.contains("Reports written"))
        #expect(canariesIntact(s))
        #expect(FileManager.default.contents(atPath: s.cwd.appendingPathComponent("notes.txt").path) == Data("important".utf8))
        #expect(FileManager.default.contents(atPath: s.cwd.appendingPathComponent("victim/a.txt").path) == Data("a".utf8))
        let names = try FileManager.default.contentsOfDirectory(atPath: s.cwd.path).sorted()
        #expect(names == ["CANARY", "Reports", "link", "notes.txt", "sub", "victim"])
    }

    @Test("trace and compare refuse a folder, a FIFO and a file they did not write")
    func singleFileOutputs() throws {
        let s = try sandbox()
        let fifo = s.cwd.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o644) == 0)
        try Data("mine".utf8).write(to: s.cwd.appendingPathComponent("mine.csv"))
        for out in ["Reports", "fifo", "mine.csv"] {
            let t = try CLIProcess.run(["trace", "--person", "0", "--out", out] + Self.small.prefix(4), cwd: s.cwd)
            #expect(t.status == 2 && t.stderr.contains("will not write to '\(out)'"), "\(t.stderr)")
        }
        #expect(FileManager.default.contents(atPath: s.cwd.appendingPathComponent("mine.csv").path) == Data("mine".utf8))
        // A previous trace is replaced.
        let first = try CLIProcess.run(["trace", "--person", "0", "--out", "t.csv"] + Self.small.prefix(4), cwd: s.cwd)
        #expect(first.status == 0, "\(first.stderr)")
        let again = try CLIProcess.run(["trace", "--person", "1", "--out", "t.csv"] + Self.small.prefix(4), cwd: s.cwd)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(canariesIntact(s))
    }

    @Test("a report's extra files survive a re-run; a baseline folder is not taken over by run, nor a foreign folder by check --record")
    func reRunsAndKinds() throws {
        let s = try sandbox()
        #expect(try CLIProcess.run(["run", "--out", "rep"] + Self.small, cwd: s.cwd).status == 0)
        try Data("n".utf8).write(to: s.cwd.appendingPathComponent("rep/notes.txt"))
        #expect(try CLIProcess.run(["run", "--out", "rep", "--seed", "9"] + Self.small, cwd: s.cwd).status == 0)
        #expect(FileManager.default.contents(atPath: s.cwd.appendingPathComponent("rep/notes.txt").path) == Data("n".utf8))
        let b = try CLIProcess.run(["check", "--baseline", "rep", "--record", "--reason", "x"] + Self.small.prefix(6), cwd: s.cwd)
        #expect(b.status == 2 && b.stderr.contains("is a run report"), "\(b.stderr)")
        let base = try CLIProcess.run(["check", "--baseline", "base", "--record", "--reason", "x"] + Self.small.prefix(6), cwd: s.cwd)
        #expect(base.status == 0, "\(base.stderr)")
        #expect(FileManager.default.fileExists(atPath: s.cwd.appendingPathComponent("base/baseline.json").path))
        let r = try CLIProcess.run(["run", "--out", "base"] + Self.small, cwd: s.cwd)
        #expect(r.status == 2 && r.stderr.contains("regression baseline"), "\(r.stderr)")
        #expect(canariesIntact(s))
    }

    @Test("SIGTERM and SIGHUP stop a run like SIGINT: their exit status, one line, the previous report kept, no staging",
          arguments: [SIGTERM, SIGHUP, SIGINT])
    func signals(_ sig: Int32) throws {
        let s = try sandbox()
        #expect(try CLIProcess.run(["run", "--out", "rep"] + Self.small, cwd: s.cwd).status == 0)
        let before = try FileManager.default.contentsOfDirectory(atPath: s.cwd.appendingPathComponent("rep").path).sorted()
            .map { FileManager.default.contents(atPath: s.cwd.appendingPathComponent("rep/\($0)").path) }
        let running = try CLIProcess.start(["run", "--out", "rep", "--people", "200000", "--days", "30", "--threads", "1", "--progress", "always"],
                                           cwd: s.cwd)
        _ = running.stderr.fileHandleForReading.availableData   // the progress bar has drawn: the run is under way
        kill(running.process.processIdentifier, sig)
        let err = running.stderr.fileHandleForReading.readDataToEndOfFile()
        running.process.waitUntilExit()
        #expect(running.process.terminationStatus == 128 + sig)
        let lines = String(decoding: err, as: UTF8.self).split(separator: "\n").filter { $0.contains("habitat:") }
        #expect(lines.count == 1 && lines[0].contains("habitat: interrupted by"), "\(lines)")
        let after = try FileManager.default.contentsOfDirectory(atPath: s.cwd.appendingPathComponent("rep").path).sorted()
            .map { FileManager.default.contents(atPath: s.cwd.appendingPathComponent("rep/\($0)").path) }
        #expect(after == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: s.cwd.path).sorted() == ["CANARY", "Reports", "rep"])
    }
}
