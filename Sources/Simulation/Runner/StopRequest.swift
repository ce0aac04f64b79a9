import CSystem
import Foundation
import Reports

/// Raised when a run is stopped by a signal before its report is complete; nothing is written and the previous
/// report, if any, is left as it was.
public struct RunInterrupted: Error, CustomStringConvertible {
    /// The signal that stopped the run (SIGINT when unknown).
    public let signal: Int32
    public init(signal: Int32 = SIGINT) { self.signal = signal == 0 ? SIGINT : signal }
    /// The conventional exit status: 128 + the signal (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP).
    public var exitStatus: Int32 { 128 + signal }
    public var description: String {
        "interrupted by \(StopRequest.name(of: signal)): stopped before the report was complete; nothing was written"
    }
}

/// A process-wide stop request, set from a signal handler and polled by workers between people, by `merge` between
/// shard records and by the report writer between files (docs/DESIGN.md, principle 10; issues 11 and 30).
///
/// SIGINT, SIGTERM and SIGHUP are handled alike, by a handler written in C (`CSystem`) and installed before any
/// library initialiser runs (the executable's `.preinit_array`), so that even a signal in the first milliseconds
/// gets its line. (It used to be installed by `main`, after the Swift runtime's and Foundation's initialisers:
/// some 10 ms more on a loaded machine during which a signal ended the process silently. What still comes first is
/// the kernel's `exec` and the dynamic loader mapping and relocating the shared libraries — 1-3 ms of CPU, more on a
/// busy machine; a signal there ends the process by its default action, which a shell reports as 128 + N, with no
/// line. Only a statically linked binary would close that window.) What a signal does:
///
/// - **Outside a clean-stop scope** (parsing arguments, checking a scenario, printing): the handler writes one line,
///   `habitat: interrupted by SIGINT`, and `_exit`s with 128 + the signal. Nothing is being written.
/// - **The first signal inside a scope** (`withCleanStop`: a simulation or a report being written) only sets the
///   stop flag. The work stops at its next checkpoint (milliseconds: between people, shard records, report files
///   and arms), `ReportDirectory.abort()` removes the staging folder, the lock and the parent folders it made,
///   and the command prints `habitat: interrupted by SIGINT: stopped before the report was complete; nothing was
///   written` and exits with 128 + the signal.
/// - **A second signal inside a scope** must not wait for a checkpoint (the person who sends it is in a hurry, or
///   the work is stuck in a slow write), yet must not leave staging behind either. The handler cannot clean up
///   itself: listing and removing a folder takes memory and Foundation, which are not async-signal-safe. So it
///   hands the signal on — one byte written into a pipe — to a *cleanup thread*, started by
///   `installInterruptHandler()`, which has waited in `read` on that pipe since the process began. That thread
///   runs ordinary Swift: `HurriedCleanup.runAll()` renames each registered staging folder away (so the main
///   thread, still running, can add nothing to it by path), removes it, removes the run lock and the parent
///   folders made, then prints the one line and `_exit`s with 128 + the second signal. `HurriedCleanup` shares a
///   lock with the commit's renames, so a cleanup never runs in the middle of a commit: it waits for it, and
///   its line then says that the report was complete.
/// - **A third signal** (or a second one before the cleanup thread exists) exits at once, as outside a scope.
///
/// Only one error line is ever printed, and the exit status is the one that line belongs to: the handler, the
/// cleanup thread and the main thread claim it with their status (`claimMessage(status:)`); whoever comes second
/// stays silent and ends the process with the first one's status.
///
/// Why a cleanup thread fed by a pipe, and not the alternatives: a handler that removes files itself would need
/// the folder's entries listed without allocating (and a list kept up to date with every file the report adds);
/// a "hurry" flag polled at checkpoints would leave a second signal powerless exactly when it is needed — when the
/// work is stuck between checkpoints; a `sigwait` thread needs the signals blocked in every other thread, including
/// those libraries start before `main` can block them. The pipe needs nothing of the other threads: whichever thread
/// the kernel interrupts, the handler writes one byte and returns.
public enum StopRequest {
    /// Asks every running simulation to stop at the next checkpoint (as `signal` would).
    public static func request(_ signal: Int32 = SIGINT) { habitat_stop_set(signal) }
    /// True once a stop was requested.
    public static var isRequested: Bool { habitat_stop_signal() != 0 }
    /// The signal received (0: none).
    public static var received: Int32 { habitat_stop_signal() }
    /// Clears a request (tests, or a new run in the same process).
    public static func clear() { habitat_stop_set(0) }

    /// Throws `RunInterrupted` if a stop was requested.
    public static func checkpoint() throws {
        let s = habitat_stop_signal()
        if s != 0 { throw RunInterrupted(signal: s) }
    }

    /// Runs `body` in a clean-stop scope: a signal then only requests a stop, which `body` must honour at its
    /// checkpoints (the runner does between people).
    public static func withCleanStop<T>(_ body: () throws -> T) rethrows -> T {
        habitat_scope_enter()
        defer { habitat_scope_leave() }
        return try body()
    }

    /// Claims the process's one error line, to be followed by an exit with `status`: nil for the first caller,
    /// which prints its line and exits with `status`; for a later caller, the status the first claimed — the
    /// caller prints nothing and ends the process with that status (or lets the first end it), so that the line
    /// and the exit status always agree.
    public static func claimMessage(status: Int32) -> Int32? {
        let earlier = habitat_claim_message(status)
        return earlier == 0 ? nil : earlier
    }

    /// After `claimMessage(status:)` returned nil and the line was written: lets the others exit.
    public static func messageWritten() { habitat_message_written() }

    /// After `claimMessage(status:)` returned another caller's status: waits for that caller's line, then ends the
    /// process with its status.
    public static func exitAfterClaimedLine() -> Never { habitat_await_claimed_line() }

    /// `SIGINT`, `SIGTERM`, …
    public static func name(of signal: Int32) -> String {
        switch signal {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        default: return "signal \(signal)"
        }
    }

    /// Installs the handlers again (they are installed before `main`, see above; installing them also overrides an
    /// inherited "ignore" disposition and an inherited blocked signal mask) and starts the cleanup thread a second
    /// signal wakes. Call first thing in `main`; calling it again does nothing more.
    public static func installInterruptHandler() {
        habitat_signals_install()
        _ = cleanupThread
    }

    /// The pipe's write end handed to the handler, and the thread that reads the other end.
    static let cleanupThread: Bool = {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return false }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let readEnd = fds[0]
        let thread = Thread {
            var byte: UInt8 = 0
            while true {
                let n = read(readEnd, &byte, 1)
                if n == 1 { break }
                if n < 0 && errno == EINTR { continue }
                return   // the pipe closed: no more hurried exits
            }
            hurriedExit(signal: Int32(byte))
        }
        thread.name = "habitat-stop"
        thread.stackSize = 1 << 20
        thread.start()
        habitat_set_hurry_fd(fds[1])
        return true
    }()

    /// A second signal during a clean-stop scope (on the cleanup thread): removes what this process staged, prints
    /// the one line and ends the process with 128 + the signal.
    static func hurriedExit(signal: Int32) -> Never {
        let sig = signal == 0 ? SIGINT : signal
        let (cleaned, committed) = HurriedCleanup.runAll()
        if claimMessage(status: 128 + sig) != nil { exitAfterClaimedLine() }
        do {
            let what = cleaned == 0 && !committed.isEmpty
                ? "after the report was complete (\(committed.joined(separator: ", ")))"
                : "before the report was complete; nothing was written"
            let line = "habitat: interrupted by \(name(of: sig)) (a second signal): stopped at once \(what)\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
            messageWritten()
        }
        _exit(128 + sig)
    }
}
