import Foundation

/// A finished run read back from its report directory: the per-replication KPI values of every arm
/// (`kpis.csv`) and its manifest. What `habitat compare` and regression checks work from.
public struct FinishedRun: Sendable {
    /// The directory read.
    public var directory: URL
    public var manifest: RunManifest
    /// Arms in report order with their per-replication KPI values.
    public var arms: [ArmKPIValues]

    /// Reads `kpis.csv` and `manifest.json` from `directory`.
    /// - Throws: `ComparisonError` naming the file and what is wrong with it.
    public init(directory: URL) throws {
        self.directory = directory
        let manifestURL = directory.appendingPathComponent("manifest.json")
        guard FileManager.default.fileExists(atPath: manifestURL.path) else {
            throw ComparisonError("\(manifestURL.path): not found — is \(directory.path) a finished run directory?")
        }
        do { manifest = try RunManifest.read(from: manifestURL) } catch {
            throw ComparisonError("\(manifestURL.path): unreadable manifest (\(error))")
        }
        let kpisURL = directory.appendingPathComponent("kpis.csv")
        guard let text = try? String(contentsOf: kpisURL, encoding: .utf8) else {
            throw ComparisonError("\(kpisURL.path): not found or not UTF-8")
        }
        let (header, rows) = CSVTable.parse(text)
        let needed = ["arm", "replication", "kpi", "unit", "mean"]
        let column = Dictionary(header.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        for name in needed where column[name] == nil {
            throw ComparisonError("\(kpisURL.path): no '\(name)' column; columns: \(header.joined(separator: ", "))")
        }
        var arms: [ArmKPIValues] = []
        var order: [String: Int] = [:]
        for (i, row) in rows.enumerated() where row.count == header.count {
            let replicationText = row[column["replication"]!]
            guard replicationText != "all" else { continue }
            guard let replication = Int(replicationText), replication >= 1 else {
                throw ComparisonError("\(kpisURL.path):\(i + 2): replication '\(replicationText)' is neither 1…N nor all")
            }
            let arm = row[column["arm"]!], kpi = row[column["kpi"]!], unit = row[column["unit"]!]
            let meanText = row[column["mean"]!]
            let value: Double
            if meanText.isEmpty { value = .nan } else if let v = Double(meanText) { value = v } else {
                throw ComparisonError("\(kpisURL.path):\(i + 2): mean '\(meanText)' of \(kpi) is not a number")
            }
            if order[arm] == nil { order[arm] = arms.count; arms.append(ArmKPIValues(arm: arm)) }
            arms[order[arm]!].set(KPIDefinition(kpi, unit: unit), replication: replication, value: value)
        }
        guard !arms.isEmpty else {
            throw ComparisonError("\(kpisURL.path): no per-replication KPI rows (written by habitat 0.1.0 and later)")
        }
        self.arms = arms
    }

    /// The arm named `name`, or a clear error listing the arms there are.
    public func arm(_ name: String) throws -> ArmKPIValues {
        guard let a = arms.first(where: { $0.arm == name }) else {
            throw ComparisonError("\(directory.path) has no arm '\(name)'; arms: \(arms.map(\.arm).joined(separator: ", "))")
        }
        return a
    }

    /// The `population:` block of the resolved scenario (who the people are).
    public var populationBlock: String {
        var lines: [Substring] = []
        var inside = false
        for line in manifest.resolvedScenario.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("population:") { inside = true; lines.append(line); continue }
            if inside {
                if let first = line.first, first != " ", first != "-" { break }
                lines.append(line)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Whether two runs simulated the same people with the same random streams, so that their replications pair:
    /// the same master seed and the same resolved population.
    public static func samePeople(_ a: FinishedRun, _ b: FinishedRun) -> Bool {
        a.manifest.seed == b.manifest.seed && a.populationBlock == b.populationBlock
    }
}

extension ArmKPIValues {
    /// Sets the value of a KPI in one replication (1-based), padding with NaN.
    mutating func set(_ d: KPIDefinition, replication: Int, value: Double) {
        if values[d.kpi] == nil { definitions.append(d); values[d.kpi] = [] }
        while values[d.kpi]!.count < replication { values[d.kpi]!.append(.nan) }
        values[d.kpi]![replication - 1] = value
    }
}

/// A comparison that cannot be made (missing files, unknown arms), with a message naming the file.
public struct ComparisonError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
