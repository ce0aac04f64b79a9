import Foundation
import RulesCore
import ScenarioFormat

/// The size of what a scenario asks for — arms × replications × people × days, the reports it will write and the
/// memory it will hold — estimated before any work starts, with the limits a run must stay within on this machine
/// (issue 11: a 10⁶-point sweep or 10,000 replications × 3,650 days must be refused with the numbers, not run until
/// the machine gives out).
///
/// The estimates are deliberately simple and on the safe side; `--allow-large` skips the limits.
public struct RunSize: Sendable {
    /// Arms (explicit and from the sweep).
    public let arms: Int
    /// Replications per arm (the maximum under a precision target).
    public let replications: Int
    /// People per arm (the largest arm).
    public let people: Int
    /// Days simulated.
    public let days: Int
    /// Worker threads.
    public let threads: Int

    /// People × days simulated in all.
    public var personDays: Double { Double(arms) * Double(replications) * Double(people) * Double(days) }

    /// Person-days per second and thread measured on the 2-core development machine (`habitat bench run`:
    /// 90–97 k people×days/s on 2 threads); an estimate, not a promise.
    public static let personDaysPerSecondPerThread = 45_000.0
    /// Longest run accepted without `--allow-large`.
    public static let maxSeconds = 24.0 * 3600
    /// Largest report set accepted without `--allow-large`.
    public static let maxOutputBytes = 2.0 * 1024 * 1024 * 1024
    /// Share of the machine's memory a run may plan to use.
    public static let maxMemoryShare = 0.5

    /// Estimated wall time.
    public var estimatedSeconds: Double {
        let cores = Double(max(1, min(threads, ProcessInfo.processInfo.activeProcessorCount)))
        return personDays / (Self.personDaysPerSecondPerThread * cores)
    }

    /// Retention cells of one accumulator: (install-week cohorts + `all`) × (`all` + personas + plans).
    let retentionCells: Double
    /// Estimated bytes of every report file: the retention table dominates (one row per cell and day, per
    /// replication and pooled).
    public var outputBytes: Double {
        let rowsPerReplication = retentionCells * Double(days + 1) + 400
        return Double(arms) * Double(replications + 1) * rowsPerReplication * 80
    }

    /// Estimated peak memory: a fixed base, each arm's pooled accumulator, the workers' blocks in flight and the
    /// per-replication KPI values.
    public var memoryBytes: Double {
        let accumulator = retentionCells * Double(days + 1) * 16 + 64 * 1024
        let inFlight = Double(max(1, threads)) * 3 * accumulator
        return 40 * 1024 * 1024 + Double(arms) * (accumulator + 8 * 1024) + inFlight + Double(arms * replications) * 60 * 16
    }

    /// The machine's physical memory.
    public static var physicalMemory: Double {
        Double(sysconf(Int32(_SC_PHYS_PAGES))) * Double(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The size of `scenario` run on `threads` threads; of one of its shards when `shards` > 1 (`--shard K/N`:
    /// the largest shard's people).
    public init(_ scenario: ResolvedScenario, threads: Int, shards: Int = 1) {
        arms = scenario.arms.count
        replications = max(scenario.replications, scenario.precision?.maxReplications ?? 0)
        let installs = scenario.arms.map(\.population.installs).max() ?? scenario.population.installs
        people = (installs + max(1, shards) - 1) / max(1, shards)
        days = scenario.horizonDays
        self.threads = threads
        let cohorts = scenario.arms.contains { $0.population.acquisition != nil } ? Double(days / 7 + 2) + 1 : 3
        let personas = Double(scenario.arms.map(\.population.personas.count).max() ?? 1)
        retentionCells = cohorts * (1 + personas + 4)
    }

    /// Why the run may not start without `--allow-large`, with the numbers; nil when it is within every limit.
    public var refusal: String? {
        var problems: [String] = []
        if estimatedSeconds > Self.maxSeconds {
            problems.append("it would take about \(Self.duration(estimatedSeconds)) (limit \(Self.duration(Self.maxSeconds)))")
        }
        if outputBytes > Self.maxOutputBytes {
            problems.append("its reports would take about \(Self.bytes(outputBytes)) (limit \(Self.bytes(Self.maxOutputBytes)))")
        }
        let memoryLimit = Self.physicalMemory * Self.maxMemoryShare
        if memoryLimit > 0, memoryBytes > memoryLimit {
            problems.append("it would need about \(Self.bytes(memoryBytes)) of memory (limit \(Self.bytes(memoryLimit)), half of this machine's)")
        }
        guard !problems.isEmpty else { return nil }
        return "the run is too large for this machine: \(description); " + problems.joined(separator: "; ")
            + ". Make it smaller (--people, --days, --replications, fewer sweep points), or pass --allow-large to run it anyway"
    }

    /// `3 arms × 5 replications × 10,000 people × 90 days = 13.5 M person-days`.
    public var description: String {
        "\(arms) arm\(arms == 1 ? "" : "s") × \(replications) replication\(replications == 1 ? "" : "s") × "
            + "\(Self.count(Double(people))) people × \(days) days = \(Self.count(personDays)) person-days"
    }

    /// One line for `validate`: the size, the estimated time, report size and memory.
    public var summary: String {
        "\(description); about \(Self.duration(estimatedSeconds)) on \(threads) thread\(threads == 1 ? "" : "s"), "
            + "reports about \(Self.bytes(outputBytes)), memory about \(Self.bytes(memoryBytes))"
    }

    static func count(_ x: Double) -> String {
        if x >= 1e9 { return String(format: "%.3g G", x / 1e9) }
        if x >= 1e6 { return String(format: "%.3g M", x / 1e6) }
        let f = NumberFormatter()
        f.numberStyle = .decimal
        f.groupingSeparator = ","
        return f.string(from: NSNumber(value: x)) ?? String(Int(x))
    }

    static func bytes(_ b: Double) -> String {
        if b >= 1024 * 1024 * 1024 { return String(format: "%.1f GB", b / (1024 * 1024 * 1024)) }
        if b >= 1024 * 1024 { return String(format: "%.0f MB", b / (1024 * 1024)) }
        return String(format: "%.0f KB", b / 1024)
    }

    static func duration(_ s: Double) -> String {
        if s >= 2 * 86400 { return String(format: "%.0f days", s / 86400) }
        if s >= 2 * 3600 { return String(format: "%.0f hours", s / 3600) }
        if s >= 120 { return String(format: "%.0f minutes", s / 60) }
        return String(format: "%.0f s", max(1, s))
    }
}
