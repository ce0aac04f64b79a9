import Foundation
import RulesCore
#if canImport(Glibc)
import Glibc
#endif

/// A one-file output (`trace --out`, `compare --out`) written safely: never over a device, folder, link or a file
/// Habitat did not write, and atomically (a temporary file beside it, renamed over it when complete).
///
/// An existing file is replaced only when its first line is `headerLine`: a previous output of the same kind.
public enum SingleFileOutput {
    /// Checks `path` before any work starts.
    /// - Throws: `OutputRefused` naming the path and why.
    public static func check(_ path: String, headerLine: String) throws {
        try check(path, headerLines: [headerLine])
    }

    /// Checks `path` before any work starts; an existing file is replaced only when its first line is one of
    /// `headerLines` (a previous output of the same kind, of this version or an earlier one).
    /// - Throws: `OutputRefused` naming the path and why.
    public static func check(_ path: String, headerLines: [String]) throws {
        guard !path.isEmpty else { throw OutputRefused(path: path, reason: "the path is empty; give a file name, e.g. out.csv") }
        try OutputSafety.checkLength(path)
        let name = URL(fileURLWithPath: path).lastPathComponent
        guard OutputSafety.isPlainFileName(name), !path.hasSuffix("/") else {
            throw OutputRefused(path: path, reason: "it names a folder, not a file; give a file name, e.g. out.csv")
        }
        guard let type = OutputSafety.fileType(path) else { return }
        switch type {
        case S_IFREG:
            let first = firstLine(of: path)
            guard let first, headerLines.contains(where: { $0.trimmingCharacters(in: .newlines) == first }) else {
                throw OutputRefused(path: path, reason: "the file exists and is not a previous output of this command "
                                    + "(its first line is not Habitat's header); give a new file name")
            }
        case S_IFLNK:
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
            throw OutputRefused(path: path, reason: "it is a symbolic link (to \(target)); give the real file's path")
        default:
            throw OutputRefused(path: path, reason: "it is \(OutputSafety.describe(mode: type)), not a file Habitat may write")
        }
    }

    /// Writes `text` to `path` (checked again), through a temporary file in the same folder.
    public static func write(_ text: String, to path: String, headerLine: String) throws {
        try write(text, to: path, headerLines: [headerLine])
    }

    /// Writes `text` to `path` (checked against `headerLines` again), through a temporary file in the same folder.
    public static func write(_ text: String, to path: String, headerLines: [String]) throws {
        try check(path, headerLines: headerLines)
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let folder = url.deletingLastPathComponent()
        let name = url.lastPathComponent
        removeAbandonedTemporaries(in: folder, name: name)
        let temporary = folder.appendingPathComponent(StagingName.make(for: name))
        do {
            try FileSink.write(text, to: temporary.path)
        } catch let e as FileSystemError {
            _ = unlink(temporary.path)
            throw FileSystemError(path: path, action: "write", code: e.code)
        }
        guard rename(temporary.path, url.path) == 0 else {
            let e = errno
            _ = unlink(temporary.path)
            throw FileSystemError(path: path, action: "write", code: e)
        }
    }

    /// Removes temporary files beside `name` left by writers that were killed.
    static func removeAbandonedTemporaries(in folder: URL, name: String) {
        for item in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            guard let owner = StagingName.owner(of: item, name: name), !owner.isAlive else { continue }
            let p = folder.appendingPathComponent(item).path
            if OutputSafety.fileType(p) == S_IFREG { _ = unlink(p) }
        }
    }

    /// The first line of a file (at most `InputLimits.outputHeader` bytes read), without its line ending.
    static func firstLine(of path: String) -> String? {
        guard let data = InputFile.prefix(path, limit: InputLimits.outputHeader) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        return text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).first
            .map { String($0).trimmingCharacters(in: .newlines) }
    }
}
