import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Errors while writing a report directory.
public struct ReportWriteError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    public init(path: String, reason: String) { self.path = path; self.reason = reason }
    public var description: String { "cannot write report '\(path)': \(reason)" }
}

/// Writes a set of report files so that readers see either the complete previous report or the complete new
/// one, never a mixture or a partial file (DESIGN.md, principle 8).
///
/// Files are written into a hidden staging directory beside the destination (`.<name>.partial-<pid>`); `commit()`
/// swaps it with the destination in one atomic `renameat2(RENAME_EXCHANGE)` (plain `rename` when the
/// destination does not exist yet), then deletes the old contents. A run that fails or is killed before `commit()`
/// leaves the destination untouched; its staging directory is removed by `abort()` or, after a hard kill, by the
/// next writer to the same destination.
public final class ReportDirectory {
    /// The final report directory.
    public let destination: URL
    /// Where files are written until `commit()`.
    public let staging: URL
    private var committed = false
    private let fm = FileManager.default

    /// Prepares a staging directory for `destination` (creating parent directories as needed).
    public init(destination: URL) throws {
        self.destination = destination.standardizedFileURL
        let parent = self.destination.deletingLastPathComponent()
        let name = self.destination.lastPathComponent
        staging = parent.appendingPathComponent(".\(name).partial-\(getpid())")
        do {
            try fm.createDirectory(at: parent, withIntermediateDirectories: true)
            ReportDirectory.removeAbandonedStaging(in: parent, name: name)
            if fm.fileExists(atPath: staging.path) { try fm.removeItem(at: staging) }
            try fm.createDirectory(at: staging, withIntermediateDirectories: false)
        } catch {
            throw ReportWriteError(path: destination.path, reason: "\(error.localizedDescription)")
        }
    }

    deinit { if !committed { try? fm.removeItem(at: staging) } }

    /// Writes one file into the staging directory.
    public func write(_ fileName: String, text: String) throws {
        precondition(!committed, "report already committed")
        let url = staging.appendingPathComponent(fileName)
        do { try Data(text.utf8).write(to: url) } catch {
            throw ReportWriteError(path: destination.appendingPathComponent(fileName).path, reason: error.localizedDescription)
        }
    }

    /// Writes a CSV table as `fileName`.
    public func write(_ fileName: String, table: CSVTable) throws { try write(fileName, text: table.text) }

    /// Makes the staged files the report, atomically replacing any previous report.
    public func commit() throws {
        precondition(!committed, "report already committed")
        let exists = fm.fileExists(atPath: destination.path)
        if exists, let exchange = ReportDirectory.renameExchange {
            guard exchange(AT_FDCWD, staging.path, AT_FDCWD, destination.path, 2 /* RENAME_EXCHANGE */) == 0 else {
                throw ReportWriteError(path: destination.path, reason: String(cString: strerror(errno)))
            }
            committed = true
            try? fm.removeItem(at: staging) // now holds the previous report
            return
        }
        if exists {
            // No renameat2: move the old report aside first (a tiny window where the destination is missing).
            let aside = staging.appendingPathExtension("old")
            try? fm.removeItem(at: aside)
            guard rename(destination.path, aside.path) == 0 else {
                throw ReportWriteError(path: destination.path, reason: String(cString: strerror(errno)))
            }
            guard rename(staging.path, destination.path) == 0 else {
                _ = rename(aside.path, destination.path)
                throw ReportWriteError(path: destination.path, reason: String(cString: strerror(errno)))
            }
            try? fm.removeItem(at: aside)
        } else {
            guard rename(staging.path, destination.path) == 0 else {
                throw ReportWriteError(path: destination.path, reason: String(cString: strerror(errno)))
            }
        }
        committed = true
    }

    /// Discards the staged files; the destination stays as it was.
    public func abort() {
        guard !committed else { return }
        try? fm.removeItem(at: staging)
        committed = true
    }

    /// Deletes staging directories left by writers that no longer run (killed hard).
    static func removeAbandonedStaging(in parent: URL, name: String) {
        let prefix = ".\(name).partial-"
        guard let items = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else { return }
        for item in items where item.hasPrefix(prefix) {
            let pidText = item.dropFirst(prefix.count).prefix { $0.isNumber }
            guard let pid = Int32(pidText), pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(at: parent.appendingPathComponent(item))
            }
        }
    }

    typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    /// glibc's `renameat2`, looked up at run time (Swift's Glibc module does not declare it).
    static let renameExchange: RenameAt2? = {
        #if os(Linux)
        guard let handle = dlopen(nil, RTLD_NOW), let sym = dlsym(handle, "renameat2") else { return nil }
        return unsafeBitCast(sym, to: RenameAt2.self)
        #else
        return nil
        #endif
    }()
}
