import Foundation
import RulesCore
#if canImport(Glibc)
import Glibc
#endif

/// The file system's limits on a report folder's path, checked before anything is made (issue 30): a name longer
/// than the file system takes (`NAME_MAX`, 255 bytes on most) or a path longer than the system takes (`PATH_MAX`,
/// 4096 bytes with its final NUL) would otherwise fail half-way, after the parent folders were made.
///
/// Habitat's own names count: the staging folder beside the destination is `.NAME.partial-<pid>-<start>` (and
/// `.NAME.old.partial-…` while a previous report is set aside), so the destination's own name must leave room for
/// that suffix, and the staging folder's path must leave room for the longest file Habitat writes inside it.
public enum PathLimits {
    /// Bytes kept free for the names of the files Habitat writes inside a staging folder (`.spool-<arm>-<file>`,
    /// `trace-<arm>-person-<id>.csv`, …).
    static let innerNameReserve = 128
    /// The longest process tag a staging name can carry (`<pid>-<start time>`: 10 + 1 + 20 digits).
    static let longestTag = 31

    /// Checks the absolute path of `destination`.
    /// - Throws: `OutputRefused` naming the part that is too long, its length and the limit.
    public static func check(_ destination: URL, shownPath: String) throws {
        let absolute = destination.standardizedFileURL.path
        let existing = nearestExistingAncestor(of: absolute)
        let nameMax = limit(existing, Int32(_PC_NAME_MAX), fallback: 255)
        let pathMax = limit(existing, Int32(_PC_PATH_MAX), fallback: 4096)
        let components = absolute.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let last = components.last else { return }
        for c in components.dropLast() where c.utf8.count > nameMax {
            throw OutputRefused(path: shownPath, reason: "its folder name '\(c.echoed(limit: 60))' is \(c.utf8.count) bytes long; "
                                + "the file system takes names of at most \(nameMax) bytes — give a shorter path")
        }
        let lastMax = nameMax - stagingOverhead(last)
        if last.utf8.count > lastMax {
            throw OutputRefused(path: shownPath, reason: "its name '\(last.echoed(limit: 60))' is \(last.utf8.count) bytes long; "
                                + "at most \(max(0, lastMax)) bytes leave room for Habitat's staging folder beside it "
                                + "(the file system takes names of at most \(nameMax) bytes) — give a shorter name")
        }
        let longest = absolute.utf8.count + stagingOverhead(last) + 1 + innerNameReserve
        if longest >= pathMax {
            let most = pathMax - 1 - stagingOverhead(last) - 1 - innerNameReserve
            throw OutputRefused(path: shownPath, reason: "its full path is \(absolute.utf8.count) bytes long; "
                                + "at most \(max(0, most)) bytes leave room for the report's files inside it "
                                + "(the system takes paths of at most \(pathMax - 1) bytes) — give a shorter path")
        }
    }

    /// The bytes a staging name adds to the destination's name (`.` before it, `.old.partial-<tag>` after it).
    static func stagingOverhead(_ name: String) -> Int {
        StagingName.make(for: name + ".old").utf8.count - name.utf8.count - ProcessOwner.current.tag.utf8.count + longestTag
    }

    /// The deepest existing folder on the way to `path` (at worst `/`).
    static func nearestExistingAncestor(of path: String) -> String {
        var p = path
        while p != "/" && !p.isEmpty {
            if OutputSafety.fileType(p) != nil { return p }
            p = (p as NSString).deletingLastPathComponent
        }
        return "/"
    }

    static func limit(_ path: String, _ name: Int32, fallback: Int) -> Int {
        errno = 0
        let v = pathconf(path, name)
        return v > 0 ? v : fallback
    }
}
