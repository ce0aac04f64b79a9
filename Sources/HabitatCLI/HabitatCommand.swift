import ArgumentParser
import Foundation
import Simulation

/// The `habitat` command: run, validate, list, bench, … (CONTRACT.md, "Command line").
public struct HabitatCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "habitat",
        abstract: "Simulate synthetic people living through the rule engines of digital-wellbeing apps.",
        discussion: """
        Scenario files are YAML (see Scenarios/README.md). Reports are CSV with a manifest.json.
        Exit status: 0 success; 1 a run or check that failed; 2 bad usage, an invalid scenario or an output path
        Habitat will not write; 130, 143, 129 stopped by SIGINT, SIGTERM, SIGHUP (nothing written).
        """,
        version: "habitat \(ToolVersion.text)",
        subcommands: [RunCommand.self, MergeCommand.self, ValidateCommand.self, ListCommand.self, TraceCommand.self, CompareCommand.self, CheckCommand.self, CalibrateCommand.self, SensitivityCommand.self, BenchCommand.self]
    )
    public init() {}

    /// Exit status for bad usage (the help's "2 bad usage"; swift-argument-parser would use 64).
    static let usageStatus: Int32 = 2

    /// The process entry point: installs the signal handlers, then parses and runs the command. Usage errors exit
    /// with status 2, as the help says; `--help` and `--version` are argument-parser's.
    ///
    /// The one place an error is written: whatever the command throws is printed once, as `HabitatError.report`
    /// says (`habitat: …`, or a scenario's diagnostics), and becomes the exit status.
    public static func start() {
        StopRequest.installInterruptHandler()
        if let refusal = nonUTF8Argument() { fail(HabitatError.readable(refusal), status: usageStatus) }
        let arguments = joinNegativeNumbers(Array(CommandLine.arguments.dropFirst()))
        do {
            var command = try parseAsRoot(arguments)
            guard isOwn(type(of: command)) else { return try command.run() }   // argument-parser's `help`
            do {
                try command.run()
            } catch let error where !(error is CleanExit) {   // CleanExit: a command group's help, argument-parser's
                let (message, status) = HabitatError.report(error)
                fail(message.isEmpty ? "" : HabitatError.readable(message), status: status)
            }
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                let message = HabitatError.readable(fullMessage(for: error))   // argument-parser quotes values whole
                FileHandle.standardError.write(Data((message.isEmpty ? "habitat: bad usage" : message).utf8 + [10]))
                Foundation.exit(usageStatus)
            }
            exit(withError: error)
        }
    }

    /// Writes `message` (one line or a scenario's diagnostics) and exits with `status`. The line is claimed first
    /// (`StopRequest.claimMessage(status:)`): when a signal's handler or a second signal's cleanup already printed
    /// its line, this one is not added and the process ends with that line's status (once it is written).
    static func fail(_ message: String, status: Int32) -> Never {
        if StopRequest.claimMessage(status: status) != nil { StopRequest.exitAfterClaimedLine() }
        if !message.isEmpty { FileHandle.standardError.write(Data((message + "\n").utf8)) }
        StopRequest.messageWritten()
        Foundation.exit(status)
    }

    /// The refusal of an argument that is not valid UTF-8, read from the raw `argv` (`CommandLine.arguments` repairs
    /// such bytes into U+FFFD, so `--out` would write under another name than the one given); nil when all are.
    static func nonUTF8Argument() -> String? {
        for i in 1..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[i] else { continue }
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self), count: strlen(raw))
            if String(validating: bytes, as: UTF8.self) == nil {
                let shown = bytes.map { $0 >= 0x20 && $0 < 0x7F ? String(UnicodeScalar($0)) : String(format: "\\x%02X", $0) }.joined()
                return "habitat: argument \(i) ('\(shown)') is not valid UTF-8: Habitat reads arguments, paths included, as UTF-8 "
                    + "text and would write under another name; rename the file or folder, or give another path"
            }
        }
        return nil
    }

    /// Whether `command` is one of Habitat's commands, not one argument-parser adds (`help`, `--help`), whose
    /// errors are argument-parser's to print.
    static func isOwn(_ command: ParsableCommand.Type, in root: ParsableCommand.Type = HabitatCommand.self) -> Bool {
        command == root || root.configuration.subcommands.contains { isOwn(command, in: $0) }
    }

    /// `--people -1` reads `-1` as an option and says "missing value"; a negative number right after an option
    /// that takes a value is joined to it (`--people=-1`), so the range check can say what is allowed.
    static func joinNegativeNumbers(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            if a.hasPrefix("--"), !a.contains("="), i + 1 < arguments.count, Double(arguments[i + 1]) != nil, arguments[i + 1].hasPrefix("-") {
                result.append(a + "=" + arguments[i + 1])
                i += 2
                continue
            }
            result.append(a)
            i += 1
        }
        return result
    }
}
