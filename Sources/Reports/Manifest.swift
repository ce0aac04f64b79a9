import Foundation

/// Identity of the tool that produced a report.
public enum ToolInfo {
    /// Habitat's version (semantic versioning).
    public static let version = "0.1.0"

    /// The git commit of the source tree this binary was built from, looked up at run time in that tree
    /// (`<commit>` or `<commit>-dirty`); `unknown` when the tree or git is not available.
    public static let gitCommit: String = {
        let sourceRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        guard let head = runGit(["-C", sourceRoot.path, "rev-parse", "HEAD"]), !head.isEmpty else { return "unknown" }
        let dirty = runGit(["-C", sourceRoot.path, "status", "--porcelain", "--untracked-files=no"]).map { !$0.isEmpty } ?? false
        return dirty ? head + "-dirty" : head
    }()

    private static func runGit(_ args: [String]) -> String? {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["git"] + args
        // `git status` may refresh the index (and take its lock) in the source tree: Habitat only reads it.
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_OPTIONAL_LOCKS"] = "0"
        p.environment = environment
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// `manifest.json`: what was run and how, written beside every report (CONTRACT.md, report 7).
public struct RunManifest: Codable, Sendable, Equatable {
    public var tool = "habitat"
    /// What the folder is (`report`, `baseline`, `shard`): a command replaces only a folder of the kind it writes.
    /// Absent in manifests written before habitat 0.2 (then a folder with `baseline.json` is a baseline).
    public var kind: ReportKind?
    public var toolVersion = ToolInfo.version
    public var gitCommit = ToolInfo.gitCommit
    /// The command that produced the report (e.g. `run`, `bench kernel`).
    public var command: String
    public var scenarioName: String
    /// Short hash of the canonical resolved scenario.
    public var scenarioHash: String
    /// The fully resolved scenario as YAML (every default filled in).
    public var resolvedScenario: String
    public var seed: UInt64
    public var replications: Int
    public var people: Int
    public var personDays: Int
    public var eventsSimulated: Int
    public var threads: Int
    /// Wall-clock seconds the run took (the only non-reproducible field).
    public var wallSeconds: Double
    /// Report files written, in order.
    public var files: [String]

    public init(command: String, scenarioName: String, scenarioHash: String, resolvedScenario: String, seed: UInt64,
                replications: Int, people: Int, personDays: Int, eventsSimulated: Int, threads: Int,
                wallSeconds: Double, files: [String], kind: ReportKind? = .report) {
        self.kind = kind
        self.command = command
        self.scenarioName = scenarioName
        self.scenarioHash = scenarioHash
        self.resolvedScenario = resolvedScenario
        self.seed = seed
        self.replications = replications
        self.people = people
        self.personDays = personDays
        self.eventsSimulated = eventsSimulated
        self.threads = threads
        self.wallSeconds = wallSeconds
        self.files = files
    }

    enum CodingKeys: String, CodingKey {
        case tool, kind, command, seed, replications, people, threads, files
        case toolVersion = "tool_version", gitCommit = "git_commit", scenarioName = "scenario_name"
        case scenarioHash = "scenario_hash", resolvedScenario = "resolved_scenario", personDays = "person_days"
        case eventsSimulated = "events_simulated", wallSeconds = "wall_seconds"
    }

    /// Pretty JSON with sorted keys.
    public func json() throws -> String {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try enc.encode(self), as: UTF8.self) + "\n"
    }

    /// Reads a manifest back.
    public static func read(from url: URL) throws -> RunManifest {
        try JSONDecoder().decode(RunManifest.self, from: Data(contentsOf: url))
    }
}

/// A value that can absorb another of its kind, so workers' partial results fold into one.
///
/// `merge` must be deterministic: merging the same parts in the same order gives bit-identical results.
public protocol Mergeable {
    mutating func merge(_ other: Self)
}
