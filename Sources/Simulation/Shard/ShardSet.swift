import Foundation
import RulesCore
import Reports

/// A folder `habitat merge` was given that it will not merge, with the folder and the reason.
public struct ShardRefused: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    public init(path: String, reason: String) { self.path = path; self.reason = reason }
    public var description: String { "shard '\(path.echoedPath)': \(reason)" }
}

/// One shard folder opened for merging: its manifest, the header of its state file and a reader positioned at the
/// first record.
public final class ShardFolder {
    /// The folder as the user gave it.
    public let path: String
    public let manifest: RunManifest
    public let header: ShardStateHeader
    let records: JSONLinesReader

    /// Opens `path`; refuses anything but a complete shard folder this Habitat can read.
    public init(path: String) throws(ShardRefused) {
        self.path = path
        func refuse(_ reason: String) -> ShardRefused { ShardRefused(path: path, reason: reason) }
        switch OutputSafety.classify(URL(fileURLWithPath: path).standardizedFileURL.path) {
        case .absent: throw refuse("no such folder")
        case .empty: throw refuse("the folder is empty; a shard folder holds manifest.json and \(ShardState.fileName)")
        case .notAFolder(let what): throw refuse("it is \(what), not a shard folder")
        case .foreign:
            // A manifest.json that stands there but cannot be read (too large, not a regular file): say why.
            let manifestPath = URL(fileURLWithPath: path).appendingPathComponent("manifest.json").path
            if OutputSafety.fileType(manifestPath) != nil {
                do { try InputFile.check(manifestPath, maxBytes: InputLimits.manifest) } catch {
                    throw refuse("manifest.json cannot be read (\(error.description))")
                }
            }
            throw refuse("not a Habitat shard folder (no readable manifest.json); shards are written by `habitat run --shard K/N`")
        case .habitat(let kind, _):
            guard kind == .shard else {
                throw refuse("it is \(kind.noun), not a shard folder; `habitat merge` takes the folders `habitat run --shard K/N` writes")
            }
        }
        let dir = URL(fileURLWithPath: path)
        do { manifest = try RunManifest.read(from: dir.appendingPathComponent("manifest.json")) } catch {
            throw refuse("manifest.json cannot be read (\(plainDescription(of: error)))")
        }
        guard let shard = manifest.shard else { throw refuse("manifest.json names no shard") }
        let statePath = dir.appendingPathComponent(ShardState.fileName).path
        if let type = OutputSafety.fileType(statePath), type != S_IFREG {
            throw refuse("\(ShardState.fileName) is \(OutputSafety.describe(mode: type)), not a regular file")
        }
        do { records = try JSONLinesReader(path: statePath) } catch {
            throw refuse("\(ShardState.fileName) cannot be read (\(error))")
        }
        let first: Data?
        do { first = try records.next() } catch { throw refuse("\(ShardState.fileName) cannot be read (\(error))") }
        guard let first, let h = try? JSONDecoder().decode(ShardStateHeader.self, from: first) else {
            throw refuse("\(ShardState.fileName) does not start with a shard-state header (a truncated or foreign file)")
        }
        guard h.format == ShardState.format else { throw refuse("\(ShardState.fileName) is '\(h.format)', not '\(ShardState.format)'") }
        guard h.formatVersion == ShardState.formatVersion else {
            throw refuse("its state is format version \(h.formatVersion) (habitat \(h.toolVersion)); this habitat (\(ToolInfo.version)) "
                         + "reads version \(ShardState.formatVersion) — re-run the shards with this habitat")
        }
        guard h.shard == shard, h.scenarioHash == manifest.scenarioHash else {
            throw refuse("manifest.json (shard \(shard), scenario \(manifest.scenarioHash)) and \(ShardState.fileName) "
                         + "(shard \(h.shard), scenario \(h.scenarioHash)) disagree")
        }
        header = h
    }

    /// The next record's bytes; refuses a truncated file.
    func nextRecord() throws(ShardRefused) -> Data {
        do {
            if let line = try records.next() { return line }
        } catch {
            throw ShardRefused(path: path, reason: "\(ShardState.fileName) cannot be read (\(error))")
        }
        throw ShardRefused(path: path, reason: "\(ShardState.fileName) ends after \(records.lineNumber - 1) of \(header.recordCount) records (truncated)")
    }

    /// Refuses records beyond those the header announces.
    func expectEnd() throws(ShardRefused) {
        let extra = (try? records.next()) ?? nil
        if extra != nil {
            throw ShardRefused(path: path, reason: "\(ShardState.fileName) holds more than the \(header.recordCount) records its header announces")
        }
    }
}

/// The shards of one run, checked to belong together before anything is merged: one scenario (same hash), one
/// Habitat (same version and commit), shard numbers 1…N each exactly once, and person-id blocks that tile every arm.
public struct ShardSet {
    /// The folders in shard order (1…N).
    public let folders: [ShardFolder]

    /// Opens and checks `paths`; each refusal names the shard at fault.
    public init(paths: [String]) throws(ShardRefused) {
        guard !paths.isEmpty else { throw ShardRefused(path: "", reason: "no shard folders given") }
        var opened: [ShardFolder] = []
        var seen: [String: String] = [:]
        for p in paths {
            let real = OutputSafety.physicalPath(p)
            if let earlier = seen[real] { throw ShardRefused(path: p, reason: "given twice (also as '\(earlier.echoed())')") }
            seen[real] = p
            opened.append(try ShardFolder(path: p))
        }
        let first = opened[0]
        for f in opened.dropFirst() {
            if f.header.scenarioHash != first.header.scenarioHash {
                throw ShardRefused(path: f.path, reason: "it is a shard of another scenario: '\(f.header.scenarioName.echoed())' (hash \(f.header.scenarioHash)), "
                                   + "but '\(first.path.echoedPath)' is of '\(first.header.scenarioName.echoed())' (hash \(first.header.scenarioHash)); "
                                   + "every shard must be run from the same scenario and options")
            }
            if f.header.toolVersion != first.header.toolVersion || f.header.gitCommit != first.header.gitCommit {
                throw ShardRefused(path: f.path, reason: "it was written by habitat \(f.header.toolVersion) (\(f.header.gitCommit)), "
                                   + "'\(first.path.echoedPath)' by habitat \(first.header.toolVersion) (\(first.header.gitCommit)); run every shard with one habitat")
            }
            if f.header.shard.count != first.header.shard.count {
                throw ShardRefused(path: f.path, reason: "it is shard \(f.header.shard) but '\(first.path.echoedPath)' is shard \(first.header.shard): one run has one shard count")
            }
        }
        let n = first.header.shard.count
        var byIndex: [Int: ShardFolder] = [:]
        for f in opened {
            if let other = byIndex[f.header.shard.index] {
                throw ShardRefused(path: f.path, reason: "shard \(f.header.shard) is given twice (also '\(other.path.echoedPath)')")
            }
            byIndex[f.header.shard.index] = f
        }
        let missing = (1...n).filter { byIndex[$0] == nil }
        if !missing.isEmpty {
            let list = missing.prefix(10).map { "\($0)/\(n)" }.joined(separator: ", ") + (missing.count > 10 ? ", …" : "")
            throw ShardRefused(path: paths.joined(separator: " "), reason: "\(missing.count) of \(n) shards missing: \(list)")
        }
        folders = (1...n).map { byIndex[$0]! }
        try Self.checkBlocks(folders)
    }

    /// Every arm's blocks must follow each other from 0 to the arm's installs, as `ShardSpec.people(of:)` cuts them.
    static func checkBlocks(_ folders: [ShardFolder]) throws(ShardRefused) {
        let arms = folders[0].header.arms
        for f in folders {
            guard f.header.arms.map(\.name) == arms.map(\.name), f.header.arms.map(\.installs) == arms.map(\.installs),
                  f.header.replications == folders[0].header.replications else {
                throw ShardRefused(path: f.path, reason: "its arms, sizes or replications differ from '\(folders[0].path.echoedPath)'")
            }
            for a in f.header.arms {
                let expected = f.header.shard.people(of: a.installs)
                guard a.from == expected.lowerBound, a.to == expected.upperBound else {
                    throw ShardRefused(path: f.path, reason: "arm '\(a.name.echoed())' holds people \(a.from)..<\(a.to), but shard \(f.header.shard) "
                                       + "of \(a.installs) people is \(expected.lowerBound)..<\(expected.upperBound)")
                }
            }
        }
    }

    /// The shard count.
    public var count: Int { folders.count }
    /// The scenario every shard ran (the first shard's manifest; the others have its hash).
    public var manifest: RunManifest { folders[0].manifest }
    /// The most threads any shard used (the merged report's `threads`).
    public var threads: Int { folders.map(\.manifest.threads).max() ?? 1 }
}
