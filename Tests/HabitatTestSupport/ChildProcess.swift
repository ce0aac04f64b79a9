import Foundation

/// Runs a program as a child process with its standard output and error captured.
public enum ChildProcess {
    /// A finished child: its exit status (or 128 + signal) and everything it wrote, decoded as UTF-8.
    public struct Result: Sendable {
        /// `Process.terminationStatus`: the exit status, or the signal number when it was killed.
        public var status: Int32
        /// Everything written to standard output.
        public var stdout: String
        /// Everything written to standard error.
        public var stderr: String
    }

    /// A started child and the read ends of its output pipes (for tests that signal a running process).
    public struct Running {
        /// The child process.
        public var process: Process
        /// Its standard output pipe.
        public var stdout: Pipe
        /// Its standard error pipe.
        public var stderr: Pipe
    }

    /// Starts `executable` with `arguments` (in `cwd` when given) without waiting. The caller must drain both pipes
    /// (or let the child end) before `waitUntilExit()`, or a child that fills a pipe blocks.
    public static func start(_ executable: URL, _ arguments: [String], cwd: URL? = nil,
                             environment: [String: String]? = nil) throws -> Running {
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        if let cwd { p.currentDirectoryURL = cwd }
        if let environment { p.environment = environment }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        return Running(process: p, stdout: out, stderr: err)
    }

    /// Runs `executable` to completion, reading its standard output and error at the same time: reading one to its
    /// end first would hang on a child that fills the other pipe (64 KB on Linux) before closing the first.
    public static func run(_ executable: URL, _ arguments: [String], cwd: URL? = nil,
                           environment: [String: String]? = nil) throws -> Result {
        let p = try start(executable, arguments, cwd: cwd, environment: environment)
        let errBox = DataBox()
        let errHandle = p.stderr.fileHandleForReading
        let reader = Thread { errBox.data = errHandle.readDataToEndOfFile(); errBox.done.signal() }
        reader.start()
        let out = p.stdout.fileHandleForReading.readDataToEndOfFile()
        errBox.done.wait()
        p.process.waitUntilExit()
        return Result(status: p.process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                      stderr: String(decoding: errBox.data, as: UTF8.self))
    }

    /// Bytes handed over from the standard-error reader thread (written before `done` is signalled, read after).
    private final class DataBox: @unchecked Sendable {
        var data = Data()
        let done = DispatchSemaphore(value: 0)
    }
}

/// Runs the built `habitat` binary as a user would. Any test target can use it; `swift build --build-tests`
/// (or `swift test`) builds the binary beside the test bundle.
public enum CLIProcess {
    /// The package root (the folder holding `Package.swift`), found from this file's path.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // HabitatTestSupport/
        .deletingLastPathComponent()   // Tests/
        .deletingLastPathComponent()

    /// The binary the CLI tests run: `HABITAT_TEST_BINARY` when it names an executable file (`make test` sets it to
    /// the release build, which simulates 10-20 times faster than the debug one, so the tests that run whole
    /// simulations as a user would cost seconds, not minutes); else `.build/<config>/habitat` beside the running test
    /// bundle when it is there (any configuration); else `.build/debug/habitat` under the package root.
    public static let binary: URL = {
        if let chosen = ProcessInfo.processInfo.environment["HABITAT_TEST_BINARY"], !chosen.isEmpty {
            let url = URL(fileURLWithPath: chosen, relativeTo: packageRoot).standardizedFileURL
            guard FileManager.default.isExecutableFile(atPath: url.path) else {
                fatalError("HABITAT_TEST_BINARY=\(chosen): not an executable file (build it, or unset the variable)")
            }
            return url
        }
        let besideBundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("habitat")
        if FileManager.default.isExecutableFile(atPath: besideBundle.path) { return besideBundle }
        return packageRoot.appendingPathComponent(".build/debug/habitat")
    }()

    /// What a finished `habitat` run gave: exit status, standard output, standard error.
    public typealias Result = ChildProcess.Result
    /// A `habitat` process started without waiting.
    public typealias Running = ChildProcess.Running

    /// Runs `habitat` with `args` to completion (in `cwd` when given), reading both output pipes concurrently.
    public static func run(_ args: [String], cwd: URL? = nil) throws -> Result {
        try ChildProcess.run(binary, args, cwd: cwd)
    }

    /// Starts `habitat` with `args` without waiting (tests that signal a running process).
    public static func start(_ args: [String], cwd: URL? = nil) throws -> Running {
        try ChildProcess.start(binary, args, cwd: cwd)
    }

    /// A new empty temporary folder for one CLI test (`TemporaryDirectory.make(prefix: "habitat-cli")`).
    public static func tempDir() -> URL { TemporaryDirectory.make(prefix: "habitat-cli") }
}
