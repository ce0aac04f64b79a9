import Foundation
import RulesCore
#if canImport(Glibc)
import Glibc
#endif

extension RunLock {
    /// One attempt at taking a destination's lock file (`RunLock`): the checks that decide whether a file at the
    /// lock's name is Habitat's, in the order that never writes, truncates or removes anything that is not.
    struct Claim {
        let path: String
        /// Where a new lock file is written before it is linked to `path`.
        let staging: String
        let shownPath: String
        let lockName: String
        let option: String

        /// The locked descriptor of the lock file, now holding this run's record; nil when the path changed under
        /// this attempt (try again).
        /// - Throws: `DestinationBusy`, `OutputRefused` (the file is not Habitat's: kept as it is), `ReportWriteError`.
        func attempt() throws -> Int32? {
            var named = stat()
            guard lstat(path, &named) == 0 else {
                guard errno == ENOENT else { throw failure("cannot look at its lock file", errno) }
                return try create()
            }
            // Links are counted only once the file is locked: a live run links its new lock into place and then
            // unlinks the staging name, and meanwhile (it holds the lock) the file has two.
            try checkStanding(named, links: false)
            let f = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
            guard f >= 0 else {
                let e = errno
                if e == ENOENT || e == ELOOP { return nil }   // replaced since the lstat
                throw refused("Habitat cannot open it (\(String(cString: strerror(e))))")
            }
            var opened = stat()
            guard fstat(f, &opened) == 0, opened.st_dev == named.st_dev, opened.st_ino == named.st_ino else { close(f); return nil }
            if flock(f, LOCK_EX | LOCK_NB) != 0 {
                let e = errno
                defer { close(f) }
                if e == EINTR { return nil }
                guard e == EWOULDBLOCK else { throw failure("cannot lock", e) }
                guard let holder = RunLock.readHolder(f) else {
                    throw refused("another process holds a lock on it, and it does not hold Habitat's lock record")
                }
                throw DestinationBusy(path: shownPath, holder: holder, option: option)
            }
            // The holder before us may have removed the file between our open and our flock: lock the file the path names.
            var now = stat()
            guard lstat(path, &now) == 0, now.st_dev == opened.st_dev, now.st_ino == opened.st_ino, fstat(f, &opened) == 0 else {
                close(f)
                return nil
            }
            do {
                try checkStanding(opened, links: true)
                guard let bytes = InputFile.prefix(fd: f, limit: InputLimits.runLock + 1) else {
                    throw refused("Habitat cannot read it (\(String(cString: strerror(errno))))")
                }
                if bytes.isEmpty { throw refused("it is empty (a lock file Habitat writes always holds its record)") }
                guard RunLock.parse(bytes) != nil else {
                    throw refused("it does not hold a lock record in Habitat's format (its first line `\(RunLock.magic)`, then pid, "
                                  + "process_start, started, host and command, nothing else)")
                }
            } catch {
                close(f)
                throw error
            }
            // A dead holder's record, and the file is ours to rewrite.
            let text = Array(RunLock.describeSelf().utf8)
            if ftruncate(f, 0) != 0 || !Self.writeAll(f, text) {
                let e = errno
                close(f)
                throw failure("cannot write its lock file", e)
            }
            return f
        }

        /// Refuses, from its `lstat`/`fstat` alone, a file that cannot be a lock Habitat wrote: not a regular file,
        /// over `InputLimits.runLock` bytes, immutable or append-only, or (`links`) with more than one link.
        func checkStanding(_ st: stat, links: Bool) throws {
            let type = st.st_mode & S_IFMT
            switch type {
            case S_IFREG: break
            case S_IFLNK:
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
                throw refused("it is a symbolic link (to \(target.echoedPath))")
            default: throw refused("it is \(OutputSafety.describe(mode: type))")
            }
            if links && st.st_nlink > 1 { throw refused("it has \(st.st_nlink) hard links (a lock file Habitat writes has one)") }
            if Int(st.st_size) > InputLimits.runLock {
                throw refused("it has \(st.st_size) bytes (a lock file Habitat writes has at most \(InputLimits.runLock))")
            }
            if let flag = OutputSafety.fixedFlag(path) { throw refused("it is \(flag) (chattr +\(flag == "immutable" ? "i" : "a"))") }
        }

        /// A new lock file: written and locked under the staging name, then linked to `path` (which fails if a file
        /// appeared there: nil, try again).
        func create() throws -> Int32? {
            let text = Array(RunLock.describeSelf().utf8)
            _ = unlink(staging)   // this process's own, from an attempt that lost a race
            let f = open(staging, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard f >= 0 else { throw failure("cannot make its lock file", errno) }
            guard flock(f, LOCK_EX | LOCK_NB) == 0, Self.writeAll(f, text) else {
                let e = errno
                close(f); _ = unlink(staging)
                throw failure("cannot write its lock file", e)
            }
            if link(staging, path) == 0 {
                _ = unlink(staging)
                return f
            }
            let e = errno
            close(f); _ = unlink(staging)
            if e == EEXIST { return nil }
            guard [EPERM, EOPNOTSUPP, ENOSYS, EMLINK].contains(e) else { throw failure("cannot make its lock file", e) }
            return try createInPlace(text)
        }

        /// A new lock file where hard links cannot be made: created (`O_EXCL`), locked and written at `path`.
        func createInPlace(_ text: [UInt8]) throws -> Int32? {
            let f = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard f >= 0 else {
                if errno == EEXIST { return nil }
                throw failure("cannot make its lock file", errno)
            }
            guard flock(f, LOCK_EX | LOCK_NB) == 0 else { close(f); return nil }   // found by another run in that instant
            guard Self.writeAll(f, text) else {
                let e = errno
                _ = unlink(path); close(f)
                throw failure("cannot write its lock file", e)
            }
            return f
        }

        func refused(_ why: String) -> OutputRefused {
            OutputRefused(path: shownPath, reason: "\(lockName) beside it is not a lock file Habitat wrote: \(why); Habitat keeps "
                          + "that name for its lock and leaves the file as it is — move it away (if a killed habitat run left it, "
                          + "remove it) or give another \(option)")
        }

        func failure(_ what: String, _ code: Int32) -> ReportWriteError {
            ReportWriteError(path: shownPath, reason: "\(what) \(path): \(String(cString: strerror(code)))")
        }

        /// Writes `bytes` at the start of `fd`.
        static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
            var done = 0
            while done < bytes.count {
                let n = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + done, bytes.count - done, off_t(done)) }
                if n < 0 { if errno == EINTR { continue }; return false }
                done += n
            }
            return true
        }
    }
}
