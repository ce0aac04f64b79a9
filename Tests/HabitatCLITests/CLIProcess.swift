import Foundation

/// Runs the built `habitat` binary as a user would.
struct CLIProcess {
    /// `.build/<config>/habitat`, beside the test bundle.
    static var binary: URL {
        let besideBundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("habitat")
        if FileManager.default.isExecutableFile(atPath: besideBundle.path) { return besideBundle }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/habitat")
    }

    struct Result { var status: Int32; var stdout: String; var stderr: String }

    /// Runs to completion.
    /// Runs to completion, reading stdout and stderr at the same time (reading one to its end first would hang on
    /// a child that fills the other pipe).
    static func run(_ args: [String], cwd: URL? = nil) throws -> Result {
        let p = try start(args, cwd: cwd)
        let errBox = DataBox()
        let reader = Thread { errBox.data = p.stderr.fileHandleForReading.readDataToEndOfFile(); errBox.done.signal() }
        reader.start()
        let out = p.stdout.fileHandleForReading.readDataToEndOfFile()
        errBox.done.wait()
        let err = errBox.data
        p.process.waitUntilExit()
        return Result(status: p.process.terminationStatus, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }

    /// Bytes handed over from the stderr reader thread.
    final class DataBox: @unchecked Sendable {
        var data = Data()
        let done = DispatchSemaphore(value: 0)
    }

    struct Running { var process: Process; var stdout: Pipe; var stderr: Pipe }

    /// Starts without waiting.
    static func start(_ args: [String], cwd: URL? = nil) throws -> Running {
        let p = Process()
        p.executableURL = binary
        p.arguments = args
        if let cwd { p.currentDirectoryURL = cwd }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        return Running(process: p, stdout: out, stderr: err)
    }

    static func tempDir() -> URL {
        let u = FileManager.default.temporaryDirectory.appendingPathComponent("habitat-cli-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
        return u
    }
}
