import Foundation
import HabitatTestSupport
import Testing
@testable import Reports

/// Issue 30: one run per destination (`RunLock`), paths the file system cannot take refused before anything is made
/// (`PathLimits`), parent folders made by a run that commits nothing removed again, immutable entries refused before
/// any work, and the cleanup a second signal runs (`ReportDirectory.hurriedRemoval`).
@Suite("Claiming a destination: lock, path limits, immutable entries")
struct DestinationClaimTests {
    func tempDir() -> URL { TemporaryDirectory.make(prefix: "habitat-claim") }
    func names(_ dir: URL) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted() }

    func writeReport(_ dir: ReportDirectory, _ files: [String: String]) throws {
        for (name, text) in files.sorted(by: { $0.key < $1.key }) { try dir.write(name, text: text) }
        let m = RunManifest(command: "run", scenarioName: "s", scenarioHash: "", resolvedScenario: "", seed: 1, replications: 1,
                            people: 1, personDays: 1, eventsSimulated: 1, threads: 1, wallSeconds: 0, files: files.keys.sorted(), kind: dir.kind)
        try dir.write("manifest.json", text: try m.json())
    }

    @Test("a second writer of the same destination is refused at once, naming the first; the lock goes with the commit")
    func secondWriterRefused() throws {
        let root = tempDir()
        let dest = root.appendingPathComponent("run")
        let first = try ReportDirectory(destination: dest, shownPath: "run")
        #expect(names(root).contains(".run.lock"))
        do {
            _ = try ReportDirectory(destination: dest, shownPath: "run")
            Issue.record("the second writer was not refused")
        } catch let busy as DestinationBusy {
            #expect(busy.holder?.pid == getpid())
            #expect("\(busy)".hasPrefix("run: another habitat run (pid \(getpid()), started "), "\(busy)")
            #expect("\(busy)".hasSuffix("is writing this folder; wait for it or choose another --out"), "\(busy)")
        }
        try writeReport(first, ["a.csv": "a"])
        try first.commit()
        #expect(names(root) == ["run"])
        let third = try ReportDirectory(destination: dest)
        third.abort()
        #expect(names(root) == ["run"])
    }

    @Test("a lock left by a process killed hard (no holder) is taken over and removed")
    func staleLockTakenOver() throws {
        let root = tempDir()
        try RunLock.record(pid: 999999, processStart: 1, started: "01:02:03", host: "elsewhere", command: "habitat run")
            .write(to: root.appendingPathComponent(".run.lock"), atomically: false, encoding: .utf8)
        let dir = try ReportDirectory(destination: root.appendingPathComponent("run"))
        try writeReport(dir, ["a.csv": "a"])
        try dir.commit()
        #expect(names(root) == ["run"])
    }

    /// `checkLength` refuses names over 200 bytes and paths over 4 000 as given; `PathLimits` what is left of the
    /// file system's limits: here an absolute path of 3 980 bytes, which leaves no room under `PATH_MAX` (4 096)
    /// for the staging suffix and the report's files.
    @Test("a file of the lock's name that Habitat did not write is refused and kept")
    func foreignLockName() throws {
        let root = tempDir()
        let mine = root.appendingPathComponent(".run.lock")
        try "my notes\n".write(to: mine, atomically: false, encoding: .utf8)
        do {
            _ = try ReportDirectory(destination: root.appendingPathComponent("run"), shownPath: "run")
            Issue.record("not refused")
        } catch let e as OutputRefused {
            #expect(e.reason.hasPrefix(".run.lock beside it is not a lock file Habitat wrote"), "\(e)")
        }
        #expect(names(root) == [".run.lock"])
        #expect((try? String(contentsOf: mine, encoding: .utf8)) == "my notes\n")
    }

    @Test("a name or a path too long for the file system is refused before anything is made", arguments: ["name", "folder", "total", "absolute"])
    func tooLong(_ what: String) throws {
        let root = tempDir()
        let path: URL
        switch what {
        case "name": path = root.appendingPathComponent("a/b/c/" + String(repeating: "x", count: 240))
        case "folder": path = root.appendingPathComponent("a/" + String(repeating: "d", count: 256) + "/run")
        case "total": path = root.appendingPathComponent((0..<20).map { _ in String(repeating: "p", count: 200) }.joined(separator: "/") + "/run")
        default:
            var rest = 3_980 - root.path.utf8.count - 1
            var parts: [String] = []
            while rest > 0 { let n = min(150, rest); parts.append(String(repeating: "q", count: n)); rest -= n + 1 }
            path = root.appendingPathComponent(parts.joined(separator: "/"))
        }
        do {
            _ = try ReportDirectory(destination: path, shownPath: "OUT")
            Issue.record("\(what): not refused")
        } catch let e as OutputRefused {
            #expect(e.reason.contains(what == "absolute" ? "its full path is" : " bytes"), "\(e)")
        }
        #expect(names(root).isEmpty)
    }

    @Test("the parent folders a run made are removed when it commits nothing; existing ones stay")
    func madeParentsRemoved() throws {
        let root = tempDir()
        try FileManager.default.createDirectory(at: root.appendingPathComponent("kept"), withIntermediateDirectories: true)
        let dir = try ReportDirectory(destination: root.appendingPathComponent("kept/a/b/run"))
        try dir.write("a.csv", text: "a")
        dir.abort()
        #expect(names(root) == ["kept"])
        #expect(names(root.appendingPathComponent("kept")).isEmpty)
    }

    @Test("a second signal's cleanup removes the staging folder, the lock and the parents made, not the previous report")
    func hurriedRemoval() throws {
        let root = tempDir()
        let dest = root.appendingPathComponent("x/run")
        let first = try ReportDirectory(destination: dest)
        try writeReport(first, ["a.csv": "old"])
        try first.commit()
        let fresh = try ReportDirectory(destination: root.appendingPathComponent("y/z/run"))
        try fresh.write("a.csv", text: "new")
        let over = try ReportDirectory(destination: dest)
        try over.write("a.csv", text: "new")
        for d in [over, fresh] {
            ReportDirectory.hurriedRemoval(staging: d.staging, name: "run", lock: d.lock, createdParents: d.createdParents)
        }
        #expect(names(root) == ["x"])
        #expect(names(root.appendingPathComponent("x")) == ["run"])
        #expect((try? String(contentsOf: dest.appendingPathComponent("a.csv"), encoding: .utf8)) == "old")
    }

    @Test("an immutable file in the previous report is refused before any work, named as Habitat's own or the user's")
    func immutableEntries() throws {
        let root = tempDir()
        let dest = root.appendingPathComponent("run")
        let first = try ReportDirectory(destination: dest)
        try writeReport(first, ["kpis.csv": "old"])
        try first.commit()
        try "mine".write(to: dest.appendingPathComponent("notes.txt"), atomically: false, encoding: .utf8)
        for (file, says) in [("kpis.csv", "the previous report's kpis.csv, which Habitat wrote, is immutable"),
                             ("notes.txt", "notes.txt, which Habitat did not write, is immutable")] {
            let target = dest.appendingPathComponent(file).path
            guard chattr("+i", target) else { return }   // a file system without inode flags, or not root: nothing to check
            defer { _ = chattr("-i", target) }
            do {
                _ = try ReportDirectory(destination: dest, shownPath: "run")
                Issue.record("an immutable \(file) was not refused")
            } catch let e as OutputRefused {
                #expect(e.reason.hasPrefix(says), "\(e)")
            }
            #expect(names(root) == ["run"])
        }
    }

    /// Runs chattr; false where it does not work here.
    func chattr(_ flag: String, _ path: String) -> Bool {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chattr"),
              let r = try? ChildProcess.run(URL(fileURLWithPath: "/usr/bin/chattr"), [flag, path]) else { return false }
        return r.status == 0 && (flag == "-i" || OutputSafety.fixedFlag(path) != nil)
    }
}
