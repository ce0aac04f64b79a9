import Foundation
import RulesCore
#if canImport(Glibc)
import Glibc
#endif

/// A finished run read back from its report directory: the per-replication KPI values of every arm
/// (`kpis.csv`) and its manifest. What `habitat compare` and regression checks work from.
public struct FinishedRun: Sendable {
    /// The directory read.
    public var directory: URL
    public var manifest: RunManifest
    /// Arms in report order with their per-replication KPI values.
    public var arms: [ArmKPIValues]
    /// Each arm's product, from `kpis.csv`'s `product` column (a run's arms may be different products; issue 28).
    public var armProducts: [String: String] = [:]

    /// The most replications a report may declare (the scenario's own limit).
    public static let maxReplications = 10_000

    /// Reads `kpis.csv` and `manifest.json` from `directory`, and checks that they are what Habitat wrote: the
    /// manifest's scenario hash matches its resolved scenario, its file list names only files inside the folder,
    /// and `kpis.csv` is complete (no truncated or duplicated row, replications within the manifest's count).
    /// - Throws: `ComparisonError` naming the file and what is wrong with it.
    public init(directory: URL) throws {
        self.directory = directory
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw ComparisonError("\(directory.path.echoedPath): not found or not a folder — give a finished run's report folder")
        }
        manifest = try Self.readManifest(directory.appendingPathComponent("manifest.json"))
        if manifest.kind == .shard {
            throw ComparisonError("\(directory.path.echoedPath): a shard folder (shard \(manifest.shard?.description ?? "?") of a run), not a report — "
                                  + "merge all the run's shards first: habitat merge SHARD_FOLDER... --out DIR")
        }
        for file in manifest.files {
            let path = directory.appendingPathComponent(file).path
            // Issue 40: a listed file that is there but is a FIFO, a folder or a socket is said to be one, not missing.
            if let problem = InputFile.typeProblem(at: path) {
                guard problem.kind == .missing else { throw ComparisonError("\(path.echoedPath): \(problem.description)") }
                throw ComparisonError("\(directory.appendingPathComponent("manifest.json").path.echoedPath): files: '\(file.echoed())' is listed but "
                                      + "\(directory.path.echoedPath) has no such file: the run is incomplete")
            }
        }
        let kpisURL = directory.appendingPathComponent("kpis.csv")
        guard manifest.files.contains("kpis.csv") else {
            throw ComparisonError("\(directory.appendingPathComponent("manifest.json").path.echoedPath): files: kpis.csv is not listed — not a run report")
        }
        let text: String
        do { text = try Self.readText(kpisURL) } catch let e as ComparisonError { throw e }
        guard text.unicodeScalars.last == "\n" else {
            throw ComparisonError("\(kpisURL.path.echoedPath): the file ends in the middle of a row: it is truncated")
        }
        let (header, rows) = CSVTable.parse(text)
        let needed = ["arm", "replication", "kpi", "unit", "mean"]
        let column = Dictionary(header.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        for name in needed where column[name] == nil {
            throw ComparisonError("\(kpisURL.path.echoedPath): no '\(name.echoed())' column; columns: \(AllowedList.text(header))")
        }
        var arms: [ArmKPIValues] = []
        var order: [String: Int] = [:]
        var seen = Set<String>()
        for (i, row) in rows.enumerated() {
            let line = i + 2
            guard row.count == header.count else {
                throw ComparisonError("\(kpisURL.path.echoedPath):\(line): \(row.count) fields where the header has \(header.count): the file is truncated or corrupt")
            }
            let replicationText = row[column["replication"]!]
            guard replicationText != "all" else { continue }
            guard let replication = Int(replicationText), (1...manifest.replications).contains(replication) else {
                throw ComparisonError("\(kpisURL.path.echoedPath):\(line): replication '\(replicationText.echoed())' is neither 1…\(manifest.replications) "
                                      + "(the manifest's replications) nor all")
            }
            let arm = row[column["arm"]!], kpi = row[column["kpi"]!], unit = row[column["unit"]!]
            guard seen.insert("\(arm)\u{1F}\(replication)\u{1F}\(kpi)").inserted else {
                throw ComparisonError("\(kpisURL.path.echoedPath):\(line): \(kpi.echoed()) of arm \(arm.echoed()), replication \(replication) is given twice")
            }
            let meanText = row[column["mean"]!]
            let value: Double
            if meanText.isEmpty { value = .nan } else if let v = Double(meanText), v.isFinite {
                value = v
            } else {
                throw ComparisonError("\(kpisURL.path.echoedPath):\(line): mean '\(meanText.echoed())' of \(kpi.echoed()) is not a finite number")
            }
            if order[arm] == nil {
                order[arm] = arms.count
                arms.append(ArmKPIValues(arm: arm))
                if let p = column["product"] { armProducts[arm] = row[p] }
            }
            arms[order[arm]!].set(KPIDefinition(kpi, unit: unit), replication: replication, value: value)
        }
        guard !arms.isEmpty else {
            throw ComparisonError("\(kpisURL.path.echoedPath): no per-replication KPI rows (written by habitat 0.1.0 and later)")
        }
        self.arms = arms
    }

    /// Reads and checks a manifest: Habitat's, unedited (its hash matches its resolved scenario), with sane sizes
    /// and plain file names.
    public static func readManifest(_ url: URL) throws -> RunManifest {
        let text = try readText(url)
        let manifest: RunManifest
        do { manifest = try JSONDecoder().decode(RunManifest.self, from: Data(text.utf8)) } catch let e as DecodingError {
            throw ComparisonError("\(url.path.echoedPath): \(e.plainDescription)")
        } catch {
            throw ComparisonError("\(url.path.echoedPath): not valid JSON")
        }
        guard manifest.tool == "habitat" else { throw ComparisonError("\(url.path.echoedPath): tool: '\(manifest.tool.echoed())' — not a Habitat manifest") }
        guard FNV1a64.hex(manifest.resolvedScenario) == manifest.scenarioHash else {
            throw ComparisonError("\(url.path.echoedPath): scenario_hash \(manifest.scenarioHash) does not match its resolved_scenario "
                                  + "(hash \(FNV1a64.hex(manifest.resolvedScenario))): the manifest was edited; re-record the baseline")
        }
        guard (1...maxReplications).contains(manifest.replications) else {
            throw ComparisonError("\(url.path.echoedPath): replications: \(manifest.replications) is out of range; allowed 1…\(maxReplications)")
        }
        if let bad = manifest.files.first(where: { !OutputSafety.isPlainFileName($0) }) {
            throw ComparisonError("\(url.path.echoedPath): files: '\(bad.echoed())' is not a file name inside the report folder")
        }
        return manifest
    }

    /// A report file's text: it must be a regular UTF-8 file of reasonable size (`InputFile`).
    static func readText(_ url: URL, maxBytes: Int = InputLimits.reportFile) throws -> String {
        do { return try InputFile.text(url.path, maxBytes: maxBytes, binaryHint: "not a report file") } catch {
            if error.kind == .missing {
                throw ComparisonError("\(url.path.echoedPath): not found — is \(url.deletingLastPathComponent().path.echoedPath) a finished run's folder?")
            }
            throw ComparisonError("\(url.path.echoedPath): \(error.description)")
        }
    }

    /// The arm named `name`, or a clear error listing the arms there are.
    public func arm(_ name: String) throws -> ArmKPIValues {
        guard let a = arms.first(where: { $0.arm == name }) else {
            throw ComparisonError("\(directory.path.echoedPath) has no arm '\(name.echoed())'; arms: \(AllowedList.text(arms.map(\.arm), seeAlso: "the arm column of its kpis.csv"))")
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

    /// Whether two runs simulated the same people with the same random streams, so that their replications pair: the
    /// same master seed, the same resolved population and the same Habitat version (another version may draw people
    /// differently: issue 30).
    public static func samePeople(_ a: FinishedRun, _ b: FinishedRun) -> Bool {
        a.manifest.seed == b.manifest.seed && a.populationBlock == b.populationBlock && a.manifest.toolVersion == b.manifest.toolVersion
    }
}

extension ArmKPIValues {
    /// Sets the value of a KPI in one replication (1-based), padding with NaN.
    mutating func set(_ d: KPIDefinition, replication: Int, value: Double) {
        if values[d.id] == nil { definitions.append(d); values[d.id] = [] }
        while values[d.id]!.count < replication { values[d.id]!.append(.nan) }
        values[d.id]![replication - 1] = value
    }
}

/// A comparison that cannot be made (missing files, unknown arms), with a message naming the file.
public struct ComparisonError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
