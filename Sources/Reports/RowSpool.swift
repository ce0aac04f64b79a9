import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Report rows of finished replications, kept on disk until the report is written, so that a run's memory is
/// bounded by what is in flight (one replication's accumulators per arm) and not by replications × horizon
/// (issue 11: 1 person × 3650 days × 100 replications used to hold 1 GB).
///
/// Rows are grouped by arm and report file and read back in that order, which is the order the reports list
/// them in. Without a folder (tests, `trace`) the rows stay in memory.
public final class RowSpool {
    private let folder: URL?
    /// Without a folder: the tables themselves, rendered only if they are written (a benchmark never renders them).
    private var memory: [String: [CSVTable]] = [:]
    private var paths: Set<String> = []
    /// Put before the arm in every file name, so that several spools share a folder (one per product of a run of
    /// several products).
    private let prefix: String

    /// A spool in `folder` (files named `.spool-<prefix><arm>-<file>`), or in memory when nil.
    public init(folder: URL?, prefix: String = "") {
        self.folder = folder
        self.prefix = prefix
    }

    deinit { removeAll() }

    private func key(_ arm: Int, _ file: String) -> String { ".spool-\(prefix)\(arm)-\(file)" }

    /// Appends the rows of `table` (not its header) for `arm` and `file`.
    public func append(arm: Int, file: String, _ table: CSVTable) throws {
        let k = key(arm, file)
        guard let folder else { memory[k, default: []].append(table); return }
        let path = folder.appendingPathComponent(k).path
        let sink = try FileSink(appendingTo: path)
        paths.insert(path)
        try sink.write(table.bodyText)
        try sink.close(sync: false)
    }

    /// Writes every row spooled for `arm` and `file` into `sink`.
    public func copy(arm: Int, file: String, into sink: FileSink) throws {
        let k = key(arm, file)
        guard let folder else { for t in memory[k] ?? [] { try sink.write(t.bodyText) }; return }
        let path = folder.appendingPathComponent(k).path
        guard paths.contains(path) else { return }
        try sink.append(contentsOf: path)
    }

    /// Deletes the spool's files.
    public func removeAll() {
        for p in paths { _ = unlink(p) }
        paths.removeAll()
        memory.removeAll()
    }
}
