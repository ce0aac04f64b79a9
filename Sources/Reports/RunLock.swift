import Foundation
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
/// Taking it: open (creating) the file, `flock(LOCK_EX | LOCK_NB)`, then check that the path still names the
/// file locked (a holder removes the file before it lets go, so a loser of that race retries on a new file), then
/// write this run's details into it. A file of that name that Habitat did not write (not empty and not a lock's
/// `pid: …` lines) is refused (`OutputRefused`) and left as it is.
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

    /// Takes the lock of `destination` (whose parent folder must exist).
    /// - Throws: `DestinationBusy` when a live Habitat process holds it; `ReportWriteError` when the lock file cannot
    ///   be made.
    public init(destination: URL, shownPath: String, option: String = "--out") throws {
        let parent = destination.deletingLastPathComponent()
        path = parent.appendingPathComponent(Self.fileName(for: destination.lastPathComponent)).path
        fd = -1
        for _ in 0..<100 {
            let f = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
            guard f >= 0 else {
                throw ReportWriteError(path: shownPath, reason: "cannot make its lock file \(path): \(String(cString: strerror(errno)))")
            }
            if flock(f, LOCK_EX | LOCK_NB) != 0 {
                let e = errno
                close(f)
                if e == EINTR { continue }
                guard e == EWOULDBLOCK else {
                    throw ReportWriteError(path: shownPath, reason: "cannot lock \(path): \(String(cString: strerror(e)))")
                }
                throw DestinationBusy(path: shownPath, holder: Self.readHolder(path), option: option)
            }
            // The holder before us may have removed the file between our open and our flock: lock the file the path names.
            var mine = stat(), named = stat()
            if fstat(f, &mine) == 0, lstat(path, &named) == 0, mine.st_dev == named.st_dev, mine.st_ino == named.st_ino {
                // A file of that name that is not a lock Habitat wrote (left empty, or holding its details) is the
                // user's: it is neither written over nor removed.
                let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? "?"
                guard mine.st_mode & S_IFMT == S_IFREG, text.isEmpty || Self.parseHolder(text) != nil else {
                    close(f)
                    throw OutputRefused(path: shownPath, reason: "\(Self.fileName(for: destination.lastPathComponent)) beside it is not a lock "
                                        + "file Habitat wrote, and Habitat keeps that name for one; move it away or give another \(option)")
                }
                fd = f
                break
            }
            close(f)
        }
        guard fd >= 0 else { throw ReportWriteError(path: shownPath, reason: "cannot take its lock file \(path): it keeps changing") }
        let text = Self.describeSelf()
        if ftruncate(fd, 0) != 0 || text.withCString({ write(fd, $0, strlen($0)) }) != text.utf8.count {
            let e = errno
            release()
            throw ReportWriteError(path: shownPath, reason: "cannot write its lock file \(path): \(String(cString: strerror(e)))")
        }
    }

    deinit { release() }

    /// Removes the lock file and lets go of the lock (the file first, so that a waiting run locks a new file).
    public func release() {
        guard fd >= 0 else { return }
        _ = unlink(path)
        close(fd)
        fd = -1
    }

    /// Whether this lock is still held by this object.
    public var isHeld: Bool { fd >= 0 }

    // MARK: - The holder's details

    /// This machine's name.
    public static let hostName: String = {
        var buffer = [UInt8](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
    }()

    /// What this process writes into its lock file: `key: value` lines.
    static func describeSelf() -> String {
        let owner = ProcessOwner.current
        let clock = DateFormatter()
        clock.dateFormat = "HH:mm:ss"
        var command = (["habitat"] + CommandLine.arguments.dropFirst()).joined(separator: " ")
            .map { $0.isNewline || $0 == "`" ? " " : $0 }.reduce(into: "") { $0.append($1) }
        if command.count > 200 { command = String(command.prefix(199)) + "…" }
        return "pid: \(owner.pid)\nprocess_start: \(owner.startTime.map(String.init) ?? "")\nstarted: \(clock.string(from: Date()))\n"
            + "host: \(hostName)\ncommand: \(command)\n"
    }

    /// The details in a lock file, waiting briefly for a holder that has locked it but not yet written them.
    static func readHolder(_ path: String) -> Holder? {
        for attempt in 0..<20 {
            if let text = try? String(contentsOfFile: path, encoding: .utf8), let holder = parseHolder(text) { return holder }
            if attempt < 19 { usleep(10_000) }
        }
        return nil
    }

    /// Parses the `key: value` lines `describeSelf` writes; nil without a pid.
    static func parseHolder(_ text: String) -> Holder? {
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        guard let pid = fields["pid"].flatMap({ Int32($0) }) else { return nil }
        func nonEmpty(_ key: String) -> String? { fields[key].flatMap { $0.isEmpty ? nil : $0 } }
        return Holder(pid: pid, startedClock: nonEmpty("started"), host: nonEmpty("host"), command: nonEmpty("command"))
    }
}
