import Foundation
import HabitatTestSupport
import Testing
@testable import Reports
#if canImport(Glibc)
import Glibc
#endif

/// Issue 40: a lock file is Habitat's only when it is a regular file with one link, at most 4 KB, holding exactly a
/// lock record; anything else at `.NAME.lock` is refused (`OutputRefused`) and kept byte for byte — type, links, mode.
@Suite("Run lock: Habitat's or left alone")
struct RunLockTests {
    func tempDir() -> URL { TemporaryDirectory.make(prefix: "habitat-runlock") }

    /// A genuine record of a process that no longer runs.
    static let stale = RunLock.record(pid: 999_999, processStart: 12, started: "01:02:03", host: "box", command: "habitat run --out run")

    /// Everything a test compares to prove a file was kept: type, links, mode, size and bytes (nil bytes for a
    /// non-regular file).
    struct Standing: Equatable {
        var type: mode_t, links: UInt, mode: mode_t, size: Int, bytes: [UInt8]?
    }

    func standing(_ path: String) -> Standing? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        let regular = st.st_mode & S_IFMT == S_IFREG
        return Standing(type: st.st_mode & S_IFMT, links: UInt(st.st_nlink), mode: st.st_mode & 0o7777, size: Int(st.st_size),
                        bytes: regular && st.st_size < 1 << 20 ? (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))) : nil)
    }

    /// Takes the lock of `root/run` and expects a refusal naming `.run.lock` with `why` in it, the lock path kept.
    func expectRefused(_ root: URL, _ why: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let lock = root.appendingPathComponent(".run.lock").path
        let before = standing(lock)
        do {
            let held = try RunLock(destination: root.appendingPathComponent("run"), shownPath: "run")
            held.release()
            Issue.record("not refused", sourceLocation: sourceLocation)
        } catch let e as OutputRefused {
            #expect(e.reason.hasPrefix(".run.lock beside it is not a lock file Habitat wrote: "), "\(e)", sourceLocation: sourceLocation)
            #expect(e.reason.contains(why), "\(e)", sourceLocation: sourceLocation)
            #expect("\(e)".utf8.count < 1000, sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(type(of: error)): \(error)", sourceLocation: sourceLocation)
        }
        #expect(standing(lock) == before, "the lock path changed", sourceLocation: sourceLocation)
        let left = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).filter { $0.contains(".partial-") }
        #expect(left.isEmpty, "staging left: \(left)", sourceLocation: sourceLocation)
    }

    @Test("a record round-trips; every near miss of the format is not a record")
    func strictFormat() {
        let good = Array(Self.stale.utf8)
        #expect(RunLock.parse(good) == RunLock.Holder(pid: 999_999, startedClock: "01:02:03", host: "box", command: "habitat run --out run"))
        #expect(RunLock.parse(Array(RunLock.describeSelf().utf8))?.pid == getpid())
        let lines = Self.stale.split(separator: "\n").map(String.init)
        func joined<S: Sequence<String>>(_ l: S) -> [UInt8] { Array((l.joined(separator: "\n") + "\n").utf8) }
        let misses: [String: [UInt8]] = [
            "old format (no magic line)": joined(Array(lines.dropFirst())),
            "pid alone": Array("pid: 1\n".utf8),
            "an extra key": joined(lines + ["note: x"]),
            "keys out of order": joined([lines[0], lines[2], lines[1]] + lines[3...]),
            "trailing garbage": good + Array("x".utf8),
            "no final newline": Array(good.dropLast()),
            "a blank line after": good + [10],
            "CRLF": Array(Self.stale.replacingOccurrences(of: "\n", with: "\r\n").utf8),
            "pid 0": joined([lines[0], "pid: 0"] + lines[2...]),
            "pid with a sign": joined([lines[0], "pid: +12"] + lines[2...]),
            "pid with leading zero": joined([lines[0], "pid: 012"] + lines[2...]),
            "pid too large": joined([lines[0], "pid: 4294967296"] + lines[2...]),
            "two spaces": joined([lines[0], "pid:  12"] + lines[2...]),
            "clock out of range": joined(lines[0..<3] + ["started: 25:00:00"] + lines[4...]),
            "start not digits": joined(lines[0..<2] + ["process_start: x"] + lines[3...]),
            "empty host": joined(lines[0..<4] + ["host: "] + lines[5...]),
            "a tab in the command": joined(lines[0..<5] + ["command: habitat\trun"]),
            "version 2": joined(["habitat-run-lock 2"] + lines[1...]),
            "one byte": [0x70],
            "empty": [],
            "not UTF-8": joined(lines[0..<5]) + Array("command: \u{FF}".utf8).map { $0 == 0xC3 ? 0xFF : $0 } + [10],
            "over 4 KB": Array((Self.stale + String(repeating: "x", count: 5000)).utf8),
        ]
        for (name, bytes) in misses.sorted(by: { $0.key < $1.key }) { #expect(RunLock.parse(bytes) == nil, "\(name)") }
    }

    @Test("a record cuts a long command and drops control characters and backticks")
    func recordSanitised() throws {
        let r = RunLock.record(pid: 7, processStart: nil, started: "00:00:00", host: "h\nx", command: "habitat `run`\n" + String(repeating: "é", count: 1000))
        let holder = try #require(RunLock.parse(Array(r.utf8)))
        #expect(holder.host == "h x")
        #expect(holder.command!.hasPrefix("habitat  run  é") && holder.command!.hasSuffix("…") && holder.command!.utf8.count <= RunLock.longestCommand)
    }

    @Test("a stale genuine record is taken over, rewritten with this run's and removed on release")
    func staleTakenOver() throws {
        let root = tempDir()
        let lock = root.appendingPathComponent(".run.lock")
        try Self.stale.write(to: lock, atomically: false, encoding: .utf8)
        let held = try RunLock(destination: root.appendingPathComponent("run"), shownPath: "run")
        #expect(RunLock.parse(try [UInt8](Data(contentsOf: lock)))?.pid == getpid())
        held.release()
        #expect(!FileManager.default.fileExists(atPath: lock.path))
    }

    @Test("a new lock holds its record from the first instant and leaves no staging name")
    func newLock() throws {
        let root = tempDir()
        let held = try RunLock(destination: root.appendingPathComponent("run"), shownPath: "run")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == [".run.lock"])
        var st = stat()
        #expect(lstat(held.path, &st) == 0 && st.st_nlink == 1)
        #expect(RunLock.parse(try [UInt8](Data(contentsOf: URL(fileURLWithPath: held.path))))?.pid == getpid())
        held.release()
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).isEmpty)
    }

    @Test("user files at the lock's name are refused and kept", arguments: ["pid line", "forged old record", "extra key", "trailing garbage", "one byte", "empty", "mode 000"])
    func userFile(_ kind: String) throws {
        let root = tempDir()
        let lock = root.appendingPathComponent(".run.lock")
        let text: String
        switch kind {
        case "pid line": text = "pid: 1\n"
        case "forged old record": text = "pid: 999999\nstarted: 01:02:03\nhost: elsewhere\ncommand: habitat run\n"
        case "extra key": text = Self.stale + "note: mine\n"
        case "trailing garbage": text = Self.stale + "x"
        case "one byte": text = "x"
        case "mode 000": text = "my notes\n"
        default: text = ""
        }
        try text.write(to: lock, atomically: false, encoding: .utf8)
        if kind == "mode 000" { chmod(lock.path, 0) }
        expectRefused(root, kind == "empty" ? "it is empty" : kind == "mode 000" && getuid() != 0 ? "cannot open it" : "Habitat's format")
        if kind == "mode 000" { chmod(lock.path, 0o644) }
        #expect(try String(contentsOf: lock, encoding: .utf8) == text)
    }

    @Test("a hard link to a user's file is refused, the file keeps its bytes and its two links — even holding a genuine record")
    func hardLink() throws {
        let root = tempDir()
        for text in ["my notes\n", Self.stale] {
            let mine = root.appendingPathComponent("notes.txt")
            try text.write(to: mine, atomically: false, encoding: .utf8)
            #expect(link(mine.path, root.appendingPathComponent(".run.lock").path) == 0)
            expectRefused(root, "it has 2 hard links")
            #expect(try String(contentsOf: mine, encoding: .utf8) == text)
            #expect(standing(mine.path)?.links == 2)
            _ = unlink(root.appendingPathComponent(".run.lock").path)
        }
    }

    @Test("a symbolic link (to a file, dangling, to a genuine record), a folder, a FIFO and a socket are refused and kept",
          arguments: ["symlink", "dangling", "symlink to record", "folder", "fifo", "socket"])
    func otherTypes(_ kind: String) throws {
        let root = tempDir()
        let lock = root.appendingPathComponent(".run.lock").path
        let target = root.appendingPathComponent("target.txt")
        try (kind == "symlink to record" ? Self.stale : "mine\n").write(to: target, atomically: false, encoding: .utf8)
        var why = ""
        switch kind {
        case "symlink", "symlink to record": #expect(symlink(target.path, lock) == 0); why = "symbolic link"
        case "dangling": #expect(symlink(root.appendingPathComponent("nowhere").path, lock) == 0); why = "symbolic link"
        case "folder": #expect(mkdir(lock, 0o755) == 0); why = "it is a folder"
        case "fifo": #expect(mkfifo(lock, 0o644) == 0); why = "FIFO"
        default:
            let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var addr = sockaddr_un()
            addr.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &addr.sun_path) { p in _ = lock.withCString { strncpy(p.baseAddress!.assumingMemoryBound(to: CChar.self), $0, p.count - 1) } }
            let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
            close(s)
            try #require(bound == 0, "cannot make a socket at \(lock) (path too long?)")
            why = "socket"
        }
        expectRefused(root, why)
        #expect(try String(contentsOf: target, encoding: .utf8) == (kind == "symlink to record" ? Self.stale : "mine\n"))
    }

    @Test("a file over 4 KB (sparse, 3 GB) is refused from its size, without reading it")
    func bigFile() throws {
        let root = tempDir()
        let lock = root.appendingPathComponent(".run.lock").path
        #expect(makeSparseFile(lock, bytes: 3 << 30))
        expectRefused(root, "it has 3221225472 bytes")
        #expect(standing(lock)?.size == 3 << 30)
        let small = root.appendingPathComponent(".run.lock")
        try (Self.stale + String(repeating: " ", count: 4097)).write(to: small, atomically: false, encoding: .utf8)
        expectRefused(root, "at most 4096")
    }

    @Test("release leaves a file that replaced the lock's")
    func releaseOnlyOwn() throws {
        let root = tempDir()
        let held = try RunLock(destination: root.appendingPathComponent("run"), shownPath: "run")
        #expect(rename(held.path, root.appendingPathComponent("moved").path) == 0)
        try "someone else's\n".write(to: URL(fileURLWithPath: held.path), atomically: false, encoding: .utf8)
        held.release()
        #expect(try String(contentsOf: URL(fileURLWithPath: held.path), encoding: .utf8) == "someone else's\n")
    }

    @Test("a second taker of a live lock is told who holds it; spellings of one folder map to one lock")
    func busy() throws {
        let root = tempDir()
        try FileManager.default.createDirectory(at: root.appendingPathComponent("x"), withIntermediateDirectories: true)
        #expect(symlink(root.path, root.appendingPathComponent("up").path) == 0)
        let held = try RunLock(destination: root.appendingPathComponent("run"), shownPath: "run")
        for spelling in ["x/../run", "up/run", "./run"] {
            do {
                let second = try RunLock(destination: URL(fileURLWithPath: root.path + "/" + spelling).standardizedFileURL, shownPath: spelling)
                second.release()
                Issue.record("\(spelling): not refused")
            } catch let busy as DestinationBusy {
                #expect(busy.holder?.pid == getpid(), "\(spelling)")
            }
        }
        held.release()
    }

    @Test("a staging file left by a killed run is removed; one of a live run, or anything not a lock record of its owner, is kept")
    func abandonedStaging() throws {
        let root = tempDir()
        let record = RunLock.record(pid: 999999, processStart: 1, started: "01:02:03", host: "h", command: "habitat run")
        let dead = root.appendingPathComponent(".run.lk.partial-999999-1")
        let live = root.appendingPathComponent(RunLock.stagingName(for: "other"))
        let usersText = root.appendingPathComponent(".run.lk.partial-999998-1")
        let othersRecord = root.appendingPathComponent(".run.lk.partial-999997-1")
        let linked = root.appendingPathComponent(".run.lk.partial-999996-1")
        let usersLink = root.appendingPathComponent("user-file")
        try record.write(to: dead, atomically: false, encoding: .utf8)
        try record.write(to: live, atomically: false, encoding: .utf8)
        try "pid: 999998\n".write(to: usersText, atomically: false, encoding: .utf8)
        try record.write(to: othersRecord, atomically: false, encoding: .utf8)   // pid 999999's record under 999997's name
        try RunLock.record(pid: 999996, processStart: 1, started: "01:02:03", host: "h", command: "habitat run")
            .write(to: usersLink, atomically: false, encoding: .utf8)
        #expect(link(usersLink.path, linked.path) == 0)
        RunLock.removeAbandonedStaging(in: root, name: "run")
        RunLock.removeAbandonedStaging(in: root, name: "other")
        #expect(!FileManager.default.fileExists(atPath: dead.path))
        for kept in [live, usersText, othersRecord, linked, usersLink] {
            #expect(FileManager.default.fileExists(atPath: kept.path), "\(kept.lastPathComponent)")
        }
    }
}
