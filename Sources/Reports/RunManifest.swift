import Foundation
import RulesCore

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
    /// The shard a shard folder holds (`habitat run --shard K/N`); absent in every other folder.
    public var shard: ShardSpec?
    /// The number of shards a report was merged from (`habitat merge`); absent in a report run whole. With
    /// `wall_seconds`, `threads` and `shard`, the only fields in which a merged report's manifest differs from a
    /// whole run's.
    public var mergedShards: Int?

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

    /// Spelled out rather than `.convertToSnakeCase`: the JSON would be byte-identical, but decoding with
    /// `.convertFromSnakeCase` makes a `DecodingError` name Swift's keys (`personDays: missing`), and `compare` and
    /// `check` quote those errors to users, who see `person_days` in the file.
    enum CodingKeys: String, CodingKey {
        case tool, kind, command, seed, replications, people, threads, files, shard
        case mergedShards = "merged_shards"
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

    /// Reads a manifest back (`InputFile`: a FIFO or a device standing there is refused, not opened).
    public static func read(from url: URL) throws -> RunManifest {
        try JSONDecoder().decode(RunManifest.self, from: Data(try InputFile.bytes(url.path, maxBytes: InputLimits.manifest)))
    }
}
