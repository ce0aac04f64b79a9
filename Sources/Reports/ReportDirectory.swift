import Foundation
import RulesCore
#if canImport(Glibc)
import Glibc
#endif

/// Errors while writing a report directory.
public struct ReportWriteError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    public init(path: String, reason: String) { self.path = path; self.reason = reason }
    public var description: String { "cannot write report '\(path.echoedPath)': \(reason)" }
}

/// Writes a set of report files so that readers see either the complete previous report or the complete new
/// one, never a mixture or a partial file (docs/DESIGN.md, principle 10) — and replaces only what Habitat wrote.
///
/// `init` refuses a destination that is not absent, empty or a Habitat folder of `kind` (`OutputSafety`), before any
/// work starts. Files are written into a hidden staging folder beside the destination
/// (`.<name>.partial-<pid>-<start>`, see `StagingName`). `commit()` swaps it with the destination in one
/// `renameat2(RENAME_EXCHANGE)` (a plain `rename` when the destination does not exist), moves every entry of the old
/// folder that Habitat did not write (notes, plots, …) into the new one, and then deletes only the old report's own
/// files. A run that fails or is interrupted before `commit()` leaves the destination untouched; its staging folder
/// is removed by `abort()` or, after a hard kill, by the next writer beside it (`removeAbandonedStaging`).
public final class ReportDirectory {
    /// The final report directory.
    public let destination: URL
    /// The kind of folder this writes (recorded in `manifest.json`).
    public let kind: ReportKind
    /// Where files are written until `commit()`.
    public let staging: URL
    private var committed = false
    private let fm = FileManager.default
    /// The files written so far, in order (what the manifest lists).
    public private(set) var writtenFiles: [String] = []
    /// Present in the staging folder until the swap: everything beside it is Habitat's.
    static let stagingMarker = ".habitat-staging"

    /// Checks `destination` and prepares a staging folder beside it (creating parent folders as needed).
    /// - Throws: `OutputRefused` for a destination Habitat must not replace; `ReportWriteError` when the staging
    ///   folder cannot be made.
    public init(destination: URL, kind: ReportKind = .report, shownPath: String? = nil) throws {
        self.destination = destination.standardizedFileURL
        self.kind = kind
        let shown = shownPath ?? destination.path
        do { try OutputSafety.checkReportFolder(self.destination.path, kind: kind) } catch let e as OutputRefused {
            throw OutputRefused(path: shown, reason: e.reason)
        }
        let parent = self.destination.deletingLastPathComponent()
        let name = self.destination.lastPathComponent
        staging = parent.appendingPathComponent(StagingName.make(for: name))
        do {
            try fm.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw ReportWriteError(path: shown, reason: "cannot create its parent folder \(parent.path.echoedPath) (\(OutputSafety.blockingAncestor(of: parent.path) ?? Self.reason(error)))")
        }
        Self.removeAbandonedStaging(in: parent, name: name)
        if fm.fileExists(atPath: staging.path) { Self.removeOwnStaging(staging) }
        guard mkdir(staging.path, 0o755) == 0 else {
            throw ReportWriteError(path: shown, reason: "cannot create a staging folder beside it: \(String(cString: strerror(errno)))")
        }
        try FileSink.write("", to: staging.appendingPathComponent(Self.stagingMarker).path)
    }

    deinit { if !committed { Self.removeOwnStaging(staging) } }

    /// Writes one file into the staging directory.
    public func write(_ fileName: String, text: String) throws {
        let sink = try open(fileName)
        try sink.write(text)
        try close(sink, fileName)
    }

    /// Writes a CSV table as `fileName`.
    public func write(_ fileName: String, table: CSVTable) throws { try write(fileName, text: table.text) }

    /// Opens `fileName` in the staging directory for streaming writes; finish with `close(_:_:)`.
    public func open(_ fileName: String) throws -> FileSink {
        precondition(!committed, "report already committed")
        precondition(OutputSafety.isPlainFileName(fileName) && fileName != Self.stagingMarker, "not a report file name: \(fileName)")
        do { return try FileSink(creating: staging.appendingPathComponent(fileName).path) } catch let e as FileSystemError {
            throw ReportWriteError(path: destination.appendingPathComponent(fileName).path, reason: String(cString: strerror(e.code)))
        }
    }

    /// Finishes a file opened with `open(_:)`.
    public func close(_ sink: FileSink, _ fileName: String) throws {
        do { try sink.close() } catch let e as FileSystemError {
            throw ReportWriteError(path: destination.appendingPathComponent(fileName).path, reason: String(cString: strerror(e.code)))
        }
        if !writtenFiles.contains(fileName) { writtenFiles.append(fileName) }
    }

    /// Makes the staged files the report, atomically replacing a previous Habitat report of the same kind and
    /// keeping every entry in it that Habitat did not write.
    public func commit() throws {
        precondition(!committed, "report already committed")
        let shown = destination.path
        // The destination may have changed while the run worked: check it again.
        let existing = try OutputSafety.checkReportFolder(shown, kind: kind)
        let newFiles = Set(((try? fm.contentsOfDirectory(atPath: staging.path)) ?? []).filter { $0 != Self.stagingMarker })
        var foreign: [String] = []
        if case .habitat(_, let owned) = existing {
            foreign = ((try? fm.contentsOfDirectory(atPath: shown)) ?? []).filter { !owned.contains($0) && !StagingName.isStaging($0) }
            if let clash = foreign.sorted().first(where: newFiles.contains) {
                throw ReportWriteError(path: shown, reason: "it holds '\(clash.echoed())', which Habitat did not write but the new report needs; move it away first")
            }
        }
        guard unlink(staging.appendingPathComponent(Self.stagingMarker).path) == 0 else {
            throw ReportWriteError(path: shown, reason: String(cString: strerror(errno)))
        }
        if existing == .absent {
            guard rename(staging.path, shown) == 0 else {
                let e = errno
                try? FileSink.write("", to: staging.appendingPathComponent(Self.stagingMarker).path)
                throw ReportWriteError(path: shown, reason: String(cString: strerror(e)))
            }
            committed = true
            return
        }
        try swap()
        committed = true
        // `staging` now holds the previous folder: bring the user's entries over, then drop the old report's files.
        Self.retire(staging, into: destination, keep: Set(foreign))
    }

    /// Exchanges the staging folder and the destination (renameat2), or moves the old one aside first.
    private func swap() throws {
        let shown = destination.path
        if let exchange = Self.renameExchange {
            if exchange(AT_FDCWD, staging.path, AT_FDCWD, shown, 2 /* RENAME_EXCHANGE */) == 0 { return }
            if errno != ENOSYS && errno != EINVAL {
                let e = errno
                try? FileSink.write("", to: staging.appendingPathComponent(Self.stagingMarker).path)
                throw ReportWriteError(path: shown, reason: String(cString: strerror(e)))
            }
        }
        // No renameat2: the old folder goes aside first (a tiny window where the destination is missing).
        let aside = staging.deletingLastPathComponent().appendingPathComponent(StagingName.make(for: destination.lastPathComponent + ".old"))
        guard rename(shown, aside.path) == 0 else { throw ReportWriteError(path: shown, reason: String(cString: strerror(errno))) }
        guard rename(staging.path, shown) == 0 else {
            let e = errno
            _ = rename(aside.path, shown)
            throw ReportWriteError(path: shown, reason: String(cString: strerror(e)))
        }
        _ = rename(aside.path, staging.path)
    }

    /// Discards the staged files; the destination stays as it was.
    public func abort() {
        guard !committed else { return }
        Self.removeOwnStaging(staging)
        committed = true
    }

    // MARK: - Cleaning up

    /// Removes a staging folder that holds only Habitat's files (its marker says so), or otherwise retires it.
    static func removeOwnStaging(_ dir: URL) {
        let fm = FileManager.default
        if fm.fileExists(atPath: dir.appendingPathComponent(stagingMarker).path) {
            for item in (try? fm.contentsOfDirectory(atPath: dir.path)) ?? [] { _ = unlink(dir.appendingPathComponent(item).path) }
            _ = rmdir(dir.path)
        } else {
            retire(dir, into: nil, keep: [])
        }
    }

    /// Empties a previous report folder that was swapped out (or left by a killed writer): entries Habitat did not
    /// write go (back) into `destination` where that name is free; the old report's own files are deleted; the
    /// folder is removed once empty. Anything that cannot be placed stays, so nothing of the user's is ever lost.
    static func retire(_ old: URL, into destination: URL?, keep foreign: Set<String>) {
        let fm = FileManager.default
        let names = (try? fm.contentsOfDirectory(atPath: old.path)) ?? []
        var owned = Set<String>()
        if case .habitat(_, let o) = OutputSafety.classify(old.path) { owned = o }
        for name in names {
            let item = old.appendingPathComponent(name)
            if owned.contains(name) && !foreign.contains(name) {
                if OutputSafety.fileType(item.path) == S_IFREG { _ = unlink(item.path) }
            } else if let destination {
                let target = destination.appendingPathComponent(name)
                if OutputSafety.fileType(target.path) == nil { _ = rename(item.path, target.path) }
            }
        }
        if rmdir(old.path) != 0, errno == ENOTEMPTY {
            let left = ((try? fm.contentsOfDirectory(atPath: old.path)) ?? []).sorted()
            FileHandle.standardError.write(Data("habitat: note: \(old.path) keeps \(left.joined(separator: ", ")), which Habitat did not write and could not put back\n".utf8))
        }
    }

    /// Cleans up staging folders beside a destination left by writers that no longer run (killed hard): a folder
    /// still marked as staging holds only Habitat's files and is deleted; a swapped-out previous report gives the
    /// user's entries back to the destination first.
    static func removeAbandonedStaging(in parent: URL, name: String) {
        guard let items = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else { return }
        let destination = parent.appendingPathComponent(name)
        for item in items {
            guard let owner = StagingName.owner(of: item, name: name) ?? StagingName.owner(of: item, name: name + ".old"),
                  !owner.isAlive else { continue }
            let dir = parent.appendingPathComponent(item)
            guard OutputSafety.fileType(dir.path) == S_IFDIR else { continue }
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent(stagingMarker).path) {
                removeOwnStaging(dir)
            } else {
                retire(dir, into: destination, keep: [])
            }
        }
    }

    static func reason(_ error: Error) -> String {
        if let e = error as? CocoaError, let u = e.userInfo[NSUnderlyingErrorKey] as? NSError, u.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(u.code)))
        }
        if let e = error as NSError?, e.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(e.code))) }
        return (error as? CocoaError)?.localizedDescription ?? "\(error)"
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
