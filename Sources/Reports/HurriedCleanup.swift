import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What this process must remove if it is stopped at once — a second SIGINT, SIGTERM or SIGHUP while a report is
/// being written (`StopRequest` in Simulation): the staging folders, run locks and parent folders it made and has
/// not yet committed or removed itself.
///
/// Every `ReportDirectory` registers its cleanup while it holds uncommitted work, and changes the file system
/// around its destination only inside `critical` sections (preparing, committing, aborting). `runAll()`, called by
/// `StopRequest`'s cleanup thread, takes the same lock, so it never runs in the middle of a commit's renames; it
/// runs every registered cleanup and marks the process as ending: a `critical` section entered afterwards never
/// runs (its thread waits for the `_exit` that follows), so nothing is staged or committed after the cleanup.
public enum HurriedCleanup {
    private static let lock = NSRecursiveLock()
    nonisolated(unsafe) private static var actions: [Int: () -> Void] = [:]
    nonisolated(unsafe) private static var next = 0
    nonisolated(unsafe) private static var ending = false
    nonisolated(unsafe) private static var committed: [String] = []

    /// Runs `body` while no hurried cleanup can run (and never after one ran: the process is then ending).
    public static func critical<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        while ending { pause() }   // the cleanup thread is about to _exit the process
        return try body()
    }

    /// Registers `cleanup`, run if the process is stopped at once; returns the key that `unregister` takes.
    /// Call inside `critical`.
    public static func register(_ cleanup: @escaping () -> Void) -> Int {
        lock.lock()
        defer { lock.unlock() }
        next += 1
        actions[next] = cleanup
        return next
    }

    /// Forgets a cleanup (its work was committed or removed). Call inside `critical`.
    public static func unregister(_ key: Int) {
        lock.lock()
        defer { lock.unlock() }
        actions[key] = nil
    }

    /// Notes a folder committed (its report is complete): a hurried exit afterwards says so. Call inside `critical`.
    public static func noteCommitted(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        committed.append(path)
    }

    /// Runs every registered cleanup, once, and marks the process as ending (the caller `_exit`s next). Returns the
    /// number of cleanups run and the folders this process had already committed.
    @discardableResult
    public static func runAll() -> (cleaned: Int, committed: [String]) {
        lock.lock()
        defer { lock.unlock() }
        ending = true
        let pending = actions.sorted { $0.key > $1.key }.map(\.value)   // the newest first
        actions.removeAll()
        for cleanup in pending { cleanup() }
        return (pending.count, committed)
    }
}
