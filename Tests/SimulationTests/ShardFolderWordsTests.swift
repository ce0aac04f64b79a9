import Foundation
import Testing
@testable import Simulation
#if canImport(Glibc)
import Glibc
#endif

/// Issue 40: a shard folder whose manifest.json is there but is a FIFO, a folder or not JSON is told what it is, not
/// only "no readable manifest.json".
@Suite("merge: what a shard's manifest.json is, in words")
struct ShardFolderWordsTests {
    func shardFolder(_ manifest: (String) throws -> Void) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("habitat-shardwords-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data("{}\n".utf8).write(to: URL(fileURLWithPath: dir + "/shard-state.jsonl"))
        try manifest(dir + "/manifest.json")
        return dir
    }

    func refusal(_ dir: String) -> String {
        do { _ = try ShardFolder(path: dir); return "" } catch { return error.description }
    }

    @Test("a FIFO manifest.json is named a FIFO; a folder a folder; a missing one missing; bad JSON unreadable")
    func manifestTypes() throws {
        let fifo = try shardFolder { #expect(mkfifo($0, 0o600) == 0) }
        #expect(refusal(fifo).contains("manifest.json: it is a named pipe (FIFO), not a regular file"), "\(refusal(fifo))")
        let folder = try shardFolder { try FileManager.default.createDirectory(atPath: $0, withIntermediateDirectories: false) }
        #expect(refusal(folder).contains("manifest.json: it is a folder, not a file"), "\(refusal(folder))")
        let missing = try shardFolder { _ in }
        #expect(refusal(missing).contains("it has no manifest.json"), "\(refusal(missing))")
        let garbage = try shardFolder { try Data("not json".utf8).write(to: URL(fileURLWithPath: $0)) }
        #expect(refusal(garbage).contains("manifest.json cannot be read ("), "\(refusal(garbage))")
        for d in [fifo, folder, missing, garbage] { try? FileManager.default.removeItem(atPath: d) }
    }
}
