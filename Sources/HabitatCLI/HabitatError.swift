import ArgumentParser
import ProductRegistry
import Reports
import RulesCore
import ScenarioFormat
import Simulation

/// Why a command stops: the message a person reads on stderr and the exit status (CONTRACT.md, "Exit status").
///
/// The one error path of the command line: a command never writes an error itself nor throws `ExitCode`; it throws
/// a `HabitatError` (or lets a lower layer's error through, which `init(_:)` maps), and `HabitatCommand.start()`
/// prints it once, as `report(_:)` says, and exits with its status.
public struct HabitatError: Error, CustomStringConvertible {
    /// A run or check that failed (a broken engine invariant, a full disk, a regression beyond tolerance).
    public static let failure: Int32 = 1
    /// Bad input: an invalid scenario, baseline or option value, or something Habitat refuses to do.
    public static let badInput: Int32 = 2
    /// What every message but a scenario diagnostic starts with.
    public static let prefix = "habitat: "

    /// The message, without the prefix: what went wrong, naming the file, key path, value and what is allowed.
    public var message: String
    /// The exit status.
    public var status: Int32
    /// `message` is a scenario diagnostic in compiler style (`file:line:column: error: key.path: …`, one line per
    /// problem), printed as it is so that it still starts with the place (README.md, `habitat validate`).
    public var isDiagnostic: Bool

    public init(_ message: String, status: Int32, isDiagnostic: Bool = false) {
        self.message = message
        self.status = status
        self.isDiagnostic = isDiagnostic
    }

    /// Bad input or a refusal (exit status 2).
    static func refused(_ message: String) -> HabitatError { HabitatError(message, status: badInput) }
    /// A run or check that failed (exit status 1).
    static func failed(_ message: String) -> HabitatError { HabitatError(message, status: failure) }
    /// A check that failed and printed why on stdout (`FAIL …`): exit status 1, nothing on stderr.
    static let checkFailed = HabitatError("", status: failure)
    /// A scenario that does not load: its diagnostics as they are (exit status 2).
    static func diagnostics(_ error: some Error) -> HabitatError { HabitatError("\(error)", status: badInput, isDiagnostic: true) }
    /// One problem of `file` (or `<command line>`) in the diagnostics' style, `file: error: message` (exit status 2).
    static func diagnostic(file: String, _ message: String) -> HabitatError {
        HabitatError("\(file): error: \(message)", status: badInput, isDiagnostic: true)
    }

    /// The text written to stderr (without the final newline).
    public var description: String { isDiagnostic ? message : Self.prefix + message }

    /// Any error a command lets through, as the command line reports it:
    /// - a `HabitatError` as it is;
    /// - `RunInterrupted`: 128 + the signal (130 SIGINT, 143 SIGTERM, 129 SIGHUP);
    /// - `OutputRefused` (a destination Habitat will not write), `DestinationBusy` (another run is writing it),
    ///   `ShardRefused` (`merge`), `ComparisonError` (`check`, `compare`: a baseline or run folder that cannot be
    ///   read), `CalibrationInputError` (`calibrate`), `TraceError` (`trace`), a `ScenarioError` (its diagnostics) and
    ///   `ProductWithoutEngine` wherever they escape (issue 40: one error path, never exit 1 for bad input): 2;
    /// - `ExitCode`: its status, with no message;
    /// - anything else (a full disk, a broken invariant): 1.
    ///
    /// Where the same error means something else, the command says so where it is thrown: inside a folder being
    /// written every error but a stop or a refusal is a failed run (`ReportRun.exitStatus`); a scenario that does not
    /// load, a product without an engine and an `--out` Habitat will not write are turned into `HabitatError`s
    /// with the file or option they concern.
    public init(_ error: any Error) {
        switch error {
        case let e as HabitatError: self = e
        case let e as RunInterrupted: self.init("\(e)", status: e.exitStatus)
        case let e as ShardRefused: self = .refused("\(e)")
        case let e as ComparisonError: self = .refused("\(e)")
        case let e as CalibrationInputError: self = .refused("\(e)")
        case let e as TraceError: self = .refused("\(e)")
        case let e as OutputRefused: self = .refused("\(e)")
        case let e as DestinationBusy: self = .refused("\(e)")
        case let e as ScenarioError: self = .diagnostics(e)
        case let e as ProductWithoutEngine: self = .refused("\(e)")
        case let e as ExitCode: self.init("", status: e.rawValue)
        default: self = .failed("\(error)")
        }
    }

    /// The longest line written to stderr before its long words are cut.
    static let longestLine = 1_000

    /// `message` with every word over 100 characters cut as `echoed` cuts it, in any line longer than `longestLine`:
    /// the last guard for text Habitat does not word itself (argument-parser's "The value '…' is invalid for
    /// '--people'" quotes a 100 000-character value whole), so that no input makes a 100 KB line (issue 30).
    static func readable(_ message: String) -> String {
        guard message.utf8.count > longestLine else { return message }
        return message.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard line.utf8.count > longestLine else { return String(line) }
            return line.split(separator: " ", omittingEmptySubsequences: false).map { $0.count > 100 ? $0.echoed() : String($0) }
                .joined(separator: " ")
        }.joined(separator: "\n")
    }

    /// What the catch point writes to stderr for `error` (empty: nothing) and the status it exits with.
    public static func report(_ error: any Error) -> (message: String, status: Int32) {
        let e = HabitatError(error)
        return (e.message.isEmpty ? "" : e.description, e.status)
    }
}
