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

    /// The lock that keeps other Habitat runs off the destination until the commit (`RunLock`).
    private(set) var lock: RunLock?
    /// Parent folders this writer made (outermost first), removed again if nothing is committed.
    private(set) var createdParents: [String] = []
    /// The key of this writer's entry in `HurriedCleanup` while it holds uncommitted work.
    private var cleanupKey: Int?

    /// Checks `destination` and prepares a staging folder beside it (creating parent folders as needed), after
    /// taking the destination's lock (`RunLock`).
    /// - Throws: `OutputRefused` for a destination Habitat must not replace or a path too long for the file system
    ///   (nothing is made); `DestinationBusy` when another Habitat run is writing it; `ReportWriteError` when the
    ///   staging folder cannot be made (the parent folders this made are removed again).
    public init(destination: URL, kind: ReportKind = .report, shownPath: String? = nil) throws {
        self.destination = destination.standardizedFileURL
        self.kind = kind
        let shown = shownPath ?? destination.path
        let existing: ExistingOutput
        do {
            existing = try OutputSafety.checkReportFolder(self.destination.path, kind: kind)
            try PathLimits.check(self.destination, shownPath: shown)
            try OutputSafety.checkReplaceable(self.destination.path, existing)
        } catch let e as OutputRefused {
            throw OutputRefused(path: shown, reason: e.reason)
        }
        let parent = self.destination.deletingLastPathComponent()
        let name = self.destination.lastPathComponent
        staging = parent.appendingPathComponent(StagingName.make(for: name))
        try HurriedCleanup.critical {
            do {
                createdParents = try Self.makeParents(parent.path)
            } catch let e as FileSystemError {
                throw ReportWriteError(path: shown, reason: "cannot create its parent folder \(e.path.echoedPath) (\(OutputSafety.blockingAncestor(of: e.path) ?? String(cString: strerror(e.code))))")
            }
            var madeStaging = false
            do {
                lock = try RunLock(destination: self.destination, shownPath: shown, option: kind == .baseline ? "--baseline" : "--out")
                Self.removeAbandonedStaging(in: parent, name: name)
                if fm.fileExists(atPath: staging.path) { Self.removeOwnStaging(staging) }
                guard mkdir(staging.path, 0o755) == 0 else {
                    throw ReportWriteError(path: shown, reason: "cannot create a staging folder beside it: \(String(cString: strerror(errno)))")
                }
                madeStaging = true
                try FileSink.write("", to: staging.appendingPathComponent(Self.stagingMarker).path)
            } catch {
                if madeStaging { Self.removeOwnStaging(staging) }
                lock?.release()
                Self.removeMadeParents(createdParents)
                committed = true
                throw error
            }
            cleanupKey = HurriedCleanup.register { [staging, lock, createdParents] in
                Self.hurriedRemoval(staging: staging, name: name, lock: lock, createdParents: createdParents)
            }
        }
    }

    deinit { abort() }

    /// Makes the missing folders of `path`, outermost first, and returns those it made; on failure removes them
    /// again and throws the error of the folder that could not be made.
    static func makeParents(_ path: String) throws -> [String] {
        var missing: [String] = []
        var p = path
        while p != "/" && !p.isEmpty && OutputSafety.fileType(p) == nil {
            missing.append(p)
            p = (p as NSString).deletingLastPathComponent
        }
        var made: [String] = []
        for dir in missing.reversed() {
            if mkdir(dir, 0o755) == 0 {
                made.append(dir)
            } else if errno != EEXIST || OutputSafety.fileType(dir) != S_IFDIR {   // EEXIST: another process made it
                let e = errno
                removeMadeParents(made)
                throw FileSystemError(path: dir, action: "create folder", code: e)
            }
        }
        return made
    }

    /// Removes the parent folders a writer made, innermost first, where they are (still) empty.
    static func removeMadeParents(_ made: [String]) {
        for dir in made.reversed() { _ = rmdir(dir) }
    }

    /// The cleanup run by `HurriedCleanup` (a second signal): the staging folder is first renamed away, so that
    /// nothing the main thread still writes by path can land in it, then emptied and removed; the lock file and the
    /// parent folders made go too.
    static func hurriedRemoval(staging: URL, name: String, lock: RunLock?, createdParents: [String]) {
        let doomed = staging.deletingLastPathComponent().appendingPathComponent(StagingName.make(for: name + ".old"))
        removeOwnStaging(rename(staging.path, doomed.path) == 0 ? doomed : staging)
        lock?.release()
        removeMadeParents(createdParents)
    }

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
    /// keeping every entry in it that Habitat did not write; then lets go of the destination's lock. A hurried
    /// cleanup (`HurriedCleanup`) waits for the whole commit.
    public func commit() throws {
        precondition(!committed, "report already committed")
        try HurriedCleanup.critical {
            try commitNow()
            HurriedCleanup.noteCommitted(destination.path)
            lock?.release()
            cleanupKey.map(HurriedCleanup.unregister)
            cleanupKey = nil
        }
    }

    private func commitNow() throws {
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

    /// Discards the staged files, the lock and the parent folders this writer made; the destination stays as it was.
    public func abort() {
        guard !committed else { return }
        HurriedCleanup.critical {
            Self.removeOwnStaging(staging)
            lock?.release()
            Self.removeMadeParents(createdParents)
            committed = true
            cleanupKey.map(HurriedCleanup.unregister)
            cleanupKey = nil
        }
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
    /// write go (back) into `destination` where that name is free; the old report's own files are deleted, its
    /// manifest last (so that a file that cannot be deleted is still known as Habitat's); the folder is removed once
    /// empty. Anything that cannot be placed stays, so nothing of the user's is ever lost, and a note on stderr says
    /// what stayed — Habitat's own files and the user's apart.
    static func retire(_ old: URL, into destination: URL?, keep foreign: Set<String>) {
        let fm = FileManager.default
        let names = ((try? fm.contentsOfDirectory(atPath: old.path)) ?? []).sorted { a, b in (a == "manifest.json") == (b == "manifest.json") ? a < b : b == "manifest.json" }
        var owned = Set<String>()
        if case .habitat(_, let o) = OutputSafety.classify(old.path) { owned = o }
        var stuck: [String] = []
        for name in names {
            let item = old.appendingPathComponent(name)
            if owned.contains(name) && !foreign.contains(name) {
                if OutputSafety.fileType(item.path) == S_IFREG {
                    if name == "manifest.json" && !stuck.isEmpty { continue }   // keeps saying which files are Habitat's
                    if unlink(item.path) != 0 { stuck.append("\(name) (\(String(cString: strerror(errno))))") }
                }
            } else if let destination {
                let target = destination.appendingPathComponent(name)
                if OutputSafety.fileType(target.path) == nil { _ = rename(item.path, target.path) }
            }
        }
        if rmdir(old.path) != 0, errno == ENOTEMPTY {
            let left = Set((try? fm.contentsOfDirectory(atPath: old.path)) ?? [])
            let users = left.filter { !owned.contains($0) || foreign.contains($0) }.sorted()
            var parts: [String] = []
            if !stuck.isEmpty {
                parts.append("the previous report's own \(stuck.count == 1 ? "file" : "files") \(stuck.joined(separator: ", ")), which Habitat wrote but could not delete")
            }
            if !users.isEmpty {
                parts.append("\(users.joined(separator: ", ")), which Habitat did not write and could not put back")
            }
            if !parts.isEmpty {
                FileHandle.standardError.write(Data("habitat: note: \(old.path) keeps \(parts.joined(separator: "; and "))\n".utf8))
            }
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
