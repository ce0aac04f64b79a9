import Foundation
import RulesCore
#if canImport(Glibc)
import Glibc
#endif

/// Refused because another live Habitat process is writing the same destination (`RunLock`): the command line
/// turns it into exit status 2, before any simulation.
public struct DestinationBusy: Error, CustomStringConvertible {
    /// The destination as the user gave it.
    public let path: String
    /// The other run, as its lock file describes it (nil while it had not written its details yet).
    public let holder: RunLock.Holder?
    /// The option that names the destination (`--out`, `--baseline`), for the advice.
    public let option: String
    public init(path: String, holder: RunLock.Holder?, option: String) { self.path = path; self.holder = holder; self.option = option }
    public var description: String {
        let who = holder.map { h in
            "another habitat run (pid \(h.pid)\(h.startedClock.map { ", started \($0)" } ?? "")\(h.host.map { $0 == RunLock.hostName ? "" : " on \($0)" } ?? "")"
                + "\(h.command.map { ", `\($0)`" } ?? ""))"
        } ?? "another habitat run"
        return "\(path): \(who) is writing this folder; wait for it or choose another \(option)"
    }
}

/// One run per destination: a lock file `.NAME.lock` beside the destination, held (`flock`) from before the
/// simulation until the report is committed or abandoned (docs/CONTRACT.md, "One run per destination").
///
/// The lock is the kernel's `flock` on that file, so it ends with its process however the process ends — a
/// `SIGKILL` too: the file may then stay behind, and the next run finds it unlocked and takes it over. A live
/// holder's lock refuses the second run at once (`DestinationBusy`), naming it from what it wrote into the file:
/// its pid, start time, host and command line. The file is Habitat's own and is removed on every other exit: commit,
/// abort, an error, a first or a second signal (`HurriedCleanup`).
///
/// **Habitat's, or left alone** (issue 40). The file Habitat writes is a *lock record*: exactly the six lines
/// `record(…)` makes — `habitat-run-lock 1`, then `pid:`, `process_start:`, `started:`, `host:` and `command:` in that
/// order, each value of its own form — and nothing else, at most `InputLimits.runLock` bytes. A file at that name is
/// taken as Habitat's only when, opened without following links (`O_NOFOLLOW`), it is a regular file with one link,
/// no immutable or append-only flag, of at most that size, and (once locked) its bytes — read with `pread` into a
/// buffer of that size, never one sized by the file — parse strictly as a lock record. Anything else — a user's file
/// with a `pid:` line, an empty file, a record with a key more or trailing bytes, a hard link, a symbolic link, a
/// folder, a FIFO, a socket, a huge file, an immutable one — is refused (`OutputRefused`, exit 2, naming the file and
/// why) and kept byte for byte: it is never truncated, written, chmod-ed or removed.
///
/// Taking it: when no file stands at the name, the record is written into a new file of a staging name
/// (`.NAME.lk.partial-<pid>-<start>`), locked, and hard-linked to `.NAME.lock` (`link` fails if a file appeared
/// there meanwhile: the run starts over), so a lock file of Habitat's is never seen empty or unlocked; the staging
/// name is unlinked at once (one left by a run killed in that instant is removed by the next run beside it). On a
/// file system without hard links the lock file is created in place (`O_EXCL`), locked and written; a run starting
/// in that instant may find it empty and is refused. When a file stands there: it is checked (type, size, flags),
/// opened and locked; the path must still name the file locked (a holder removes the file before it lets go, so a
/// loser of that race retries on a new file); then links and record are checked and this run's record replaces the
/// dead holder's. `release()` unlinks the path only while it still names this lock's file (same device and inode).
public final class RunLock {
    /// The lock file's path.
    public let path: String
    private var fd: Int32

    /// The other run, read back from its lock file.
    public struct Holder: Equatable, Sendable {
        public var pid: Int32
        /// The wall-clock time it started, `HH:MM:SS` local.
        public var startedClock: String?
        public var host: String?
        public var command: String?
    }

    /// `.NAME.lock` for a destination named `name`.
    public static func fileName(for name: String) -> String { ".\(name).lock" }

    /// Whether `item` is a lock file's name (of any destination).
    public static func isLockName(_ item: String) -> Bool { item.hasPrefix(".") && item.hasSuffix(".lock") }

    /// The first line of every lock record.
    static let magic = "habitat-run-lock 1"

    /// Takes the lock of `destination` (whose parent folder must exist).
    /// - Throws: `DestinationBusy` when a live Habitat process holds it; `OutputRefused` when a file at the lock's
    ///   name is not a lock Habitat wrote (kept as it is); `ReportWriteError` when the lock file cannot be made.
    public init(destination: URL, shownPath: String, option: String = "--out") throws {
        let parent = destination.deletingLastPathComponent()
        let name = destination.lastPathComponent
        path = parent.appendingPathComponent(Self.fileName(for: name)).path
        fd = -1
        Self.removeAbandonedStaging(in: parent, name: name)
        let claim = Claim(path: path, staging: parent.appendingPathComponent(Self.stagingName(for: name)).path,
                          shownPath: shownPath, lockName: Self.fileName(for: name), option: option)
        for _ in 0..<100 {
            if let f = try claim.attempt() { fd = f; return }
        }
        throw ReportWriteError(path: shownPath, reason: "cannot take its lock file \(path): it keeps changing")
    }

    deinit { release() }

    /// Removes the lock file — only while its path still names this lock's file — and lets go of the lock (the file
    /// first, so that a waiting run locks a new file).
    public func release() {
        guard fd >= 0 else { return }
        var mine = stat(), named = stat()
        if fstat(fd, &mine) == 0, lstat(path, &named) == 0, mine.st_dev == named.st_dev, mine.st_ino == named.st_ino {
            _ = unlink(path)
        }
        close(fd)
        fd = -1
    }

    /// Whether this lock is still held by this object.
    public var isHeld: Bool { fd >= 0 }

    // MARK: - Staging

    /// The name a new lock file is written under before it is linked to `.NAME.lock`.
    static func stagingName(for name: String) -> String { StagingName.make(for: name + ".lk") }

    /// Removes staging files of new lock files left by runs killed between making and linking them: only a file that
    /// is certainly one — its name carries a dead owner, it is a regular file of one link and at most
    /// `InputLimits.runLock` bytes, and it holds a lock record (`parse`) of the same pid. Anything else of that
    /// name (an empty file from a run killed before it wrote, or a user's file) is left as it is.
    static func removeAbandonedStaging(in parent: URL, name: String) {
        for item in (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? [] {
            guard let owner = StagingName.owner(of: item, name: name + ".lk"), !owner.isAlive else { continue }
            let p = parent.appendingPathComponent(item).path
            var st = stat()
            guard lstat(p, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_nlink == 1, Int(st.st_size) <= InputLimits.runLock,
                  let bytes = InputFile.prefix(p, limit: InputLimits.runLock + 1), let holder = parse(bytes), holder.pid == owner.pid
            else { continue }
            _ = unlink(p)
        }
    }

    // MARK: - The holder's details

    /// This machine's name.
    public static let hostName: String = {
        var buffer = [UInt8](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
    }()

    /// What this process writes into its lock file (`record`).
    static func describeSelf() -> String {
        let owner = ProcessOwner.current
        let clock = DateFormatter()
        clock.dateFormat = "HH:mm:ss"
        clock.locale = Locale(identifier: "en_US_POSIX")
        return record(pid: owner.pid, processStart: owner.startTime, started: clock.string(from: Date()), host: hostName,
                      command: (["habitat"] + CommandLine.arguments.dropFirst()).joined(separator: " "))
    }

    /// The longest `host:` and `command:` values a record carries, in UTF-8 bytes.
    static let longestHost = 255, longestCommand = 600

    /// A lock record: `habitat-run-lock 1` and five `key: value` lines. Line breaks, other control characters and
    /// backticks in `host` and `command` become spaces; each is cut (at a character) to its longest, a cut command
    /// ending in `…`.
    static func record(pid: Int32, processStart: UInt64?, started: String, host: String, command: String) -> String {
        func clean(_ s: String, _ most: Int, _ mark: String) -> String {
            var out = String(String.UnicodeScalarView(s.unicodeScalars.map {
                $0.properties.generalCategory == .control || $0 == "`" || $0 == "\u{2028}" || $0 == "\u{2029}" ? " " : $0
            }))
            if out.utf8.count > most {
                var cut = ""
                for c in out where cut.utf8.count + c.utf8.count + mark.utf8.count <= most { cut.append(c) }
                out = cut + mark
            }
            return out.isEmpty ? "?" : out
        }
        return "\(magic)\npid: \(pid)\nprocess_start: \(processStart.map(String.init) ?? "")\nstarted: \(started)\n"
            + "host: \(clean(host, longestHost, ""))\ncommand: \(clean(command, longestCommand, "…"))\n"
    }

    /// The holder a lock record names; nil unless `bytes` are exactly a record `record(…)` writes: the magic line,
    /// the five keys in order with one space after each colon, a pid of 1…2³¹−1 in plain digits, a process start of
    /// digits or nothing, `started` as `HH:MM:SS`, a host and a command of UTF-8 text without control characters
    /// within their lengths, every line ended by `\n` and nothing after the last.
    static func parse(_ bytes: [UInt8]) -> Holder? {
        guard bytes.count <= InputLimits.runLock, bytes.last == 0x0A,
              let text = String(validating: bytes, as: UTF8.self) else { return nil }
        let lines = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false)
        let keys = ["pid", "process_start", "started", "host", "command"]
        guard lines.count == keys.count + 1, lines[0] == magic else { return nil }
        var values: [String] = []
        for (key, line) in zip(keys, lines.dropFirst()) {
            guard line.hasPrefix(key + ": ") else { return nil }
            let value = String(line.dropFirst(key.count + 2))
            guard !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == "`" }) else { return nil }
            values.append(value)
        }
        func digits(_ s: String, most: Int) -> Bool { !s.isEmpty && s.count <= most && s.allSatisfy { $0.isASCII && $0.isNumber } }
        let (pidText, start, clock, host, command) = (values[0], values[1], values[2], values[3], values[4])
        guard digits(pidText, most: 10), pidText.first != "0", let pid = Int32(pidText), pid > 0,
              start.isEmpty || (digits(start, most: 20) && UInt64(start) != nil),
              Self.isClock(clock),
              !host.isEmpty, host.utf8.count <= longestHost, !command.isEmpty, command.utf8.count <= longestCommand else { return nil }
        return Holder(pid: pid, startedClock: clock, host: host, command: command)
    }

    /// `HH:MM:SS` with hours 00–23 and minutes and seconds 00–59.
    static func isClock(_ s: String) -> Bool {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let h = Int(parts[0]), let m = Int(parts[1]), let sec = Int(parts[2]) else { return false }
        return h < 24 && m < 60 && sec < 60
    }

    /// The holder named in the open lock file `fd`, waiting briefly for one that is writing its record (a run taking
    /// over a dead holder's file truncates it first).
    static func readHolder(_ fd: Int32) -> Holder? {
        for attempt in 0..<20 {
            if let bytes = InputFile.prefix(fd: fd, limit: InputLimits.runLock + 1), let holder = parse(bytes) { return holder }
            if attempt < 19 { usleep(10_000) }
        }
        return nil
    }
}
