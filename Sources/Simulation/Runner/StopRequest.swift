import Foundation
import Synchronization

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

/// A process-wide stop request, set from a signal handler and polled by workers between people and by the report
/// writer between files (docs/DESIGN.md, principle 10; issue 11).
///
/// SIGINT, SIGTERM and SIGHUP are handled alike. Inside a clean-stop scope (`withCleanStop`: a simulation or a
/// report being written) the signal only sets a flag, the work stops at the next checkpoint and its staging folder
/// is removed; outside one, or on a second signal, the process prints one line and exits at once with 128 + the
/// signal.
public enum StopRequest {
    static let flag = Atomic<Int32>(0)
    /// Clean-stop scopes in progress; with none, a signal ends the process at once.
    static let activeScopes = Atomic<Int>(0)

    /// Asks every running simulation to stop at the next checkpoint (as `signal` would).
    public static func request(_ signal: Int32 = SIGINT) { flag.store(signal, ordering: .relaxed) }
    /// True once a stop was requested.
    public static var isRequested: Bool { flag.load(ordering: .relaxed) != 0 }
    /// The signal received (0: none).
    public static var received: Int32 { flag.load(ordering: .relaxed) }
    /// Clears a request (tests, or a new run in the same process).
    public static func clear() { flag.store(0, ordering: .relaxed) }

    /// Throws `RunInterrupted` if a stop was requested.
    public static func checkpoint() throws {
        let s = received
        if s != 0 { throw RunInterrupted(signal: s) }
    }

    /// Runs `body` in a clean-stop scope: a signal then only requests a stop, which `body` must honour at its
    /// checkpoints (the runner does between people).
    public static func withCleanStop<T>(_ body: () throws -> T) rethrows -> T {
        activeScopes.add(1, ordering: .sequentiallyConsistent)
        defer { activeScopes.subtract(1, ordering: .sequentiallyConsistent) }
        return try body()
    }

    /// The signals handled.
    static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// `SIGINT`, `SIGTERM`, …
    public static func name(of signal: Int32) -> String {
        switch signal {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        default: return "signal \(signal)"
        }
    }

    /// One-line messages for an immediate exit, made before any signal can arrive (a handler must not allocate).
    nonisolated(unsafe) static var immediateMessages = [UnsafeMutableBufferPointer<UInt8>?](repeating: nil, count: 65)

    /// Installs the handlers (call first thing in `main`). Installing them also overrides an inherited "ignore"
    /// disposition (background jobs of a shell) and an inherited blocked signal mask (children of multi-threaded
    /// parents).
    public static func installInterruptHandler() {
        var set = sigset_t()
        sigemptyset(&set)
        for s in handled {
            let text = Array("habitat: interrupted by \(name(of: s))\n".utf8)
            let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.count)
            _ = buffer.initialize(from: text)
            immediateMessages[Int(s)] = buffer
            sigaddset(&set, s)
        }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        for s in handled {
            var action = sigaction()
            #if os(Linux)
            action.__sigaction_handler.sa_handler = { sig in StopRequest.handle(sig) }
            #else
            action.__sigaction_u.__sa_handler = { sig in StopRequest.handle(sig) }
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART   // a read or write in progress goes on; work stops at the next checkpoint
            sigaction(s, &action, nil)
        }
    }

    /// The handler: only async-signal-safe work (an atomic store, `write`, `_exit`).
    static func handle(_ sig: Int32) {
        if activeScopes.load(ordering: .sequentiallyConsistent) == 0 || flag.load(ordering: .relaxed) != 0 {
            if sig > 0, sig < 65, let m = immediateMessages[Int(sig)] { _ = write(2, m.baseAddress, m.count) }
            _exit(128 + sig)
        }
        flag.store(sig, ordering: .relaxed)
    }
}
