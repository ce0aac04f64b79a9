import CSystem
import Foundation
import RulesCore
#if canImport(Glibc)
import Glibc
#endif

/// Why Habitat will not write at a path: a refusal made before any work starts, naming the path and what to do
/// instead. The command line turns it into exit status 2 (bad usage).
public struct OutputRefused: Error, CustomStringConvertible {
    /// The path as the user gave it.
    public let path: String
    /// Why, and what would be accepted.
    public let reason: String
    public init(path: String, reason: String) { self.path = path; self.reason = reason }
    public var description: String { "will not write to '\(path.echoedPath)': \(reason)" }
}

/// The kinds of folder Habitat writes, each marked by its `manifest.json` (`"tool": "habitat"`, `"kind"`);
/// a baseline also holds `baseline.json`. A command replaces only a folder of the kind it writes.
public enum ReportKind: String, Codable, Sendable, CaseIterable {
    /// `habitat run` (and `bench … --out`): a run's reports.
    case report
    /// `habitat check --record`: a regression baseline (a report plus `baseline.json`).
    case baseline
    /// `habitat run --shard K/N`: a shard's mergeable state (never a report).
    case shard
    /// `habitat calibrate`: a fit's trace, fitted values and world check (never a report).
    case calibration
    /// `habitat sensitivity`: a sensitivity analysis's design and indices, or one shard of its design points.
    case sensitivity

    /// How the kind reads in a sentence.
    public var noun: String {
        switch self {
        case .report: return "a run report"
        case .baseline: return "a regression baseline"
        case .shard: return "a shard folder"
        case .calibration: return "a calibration"
        case .sensitivity: return "a sensitivity analysis"
        }
    }

    /// The command that writes this kind, for refusals.
    public var writer: String {
        switch self {
        case .report: return "`habitat run`"
        case .baseline: return "`habitat check --record`"
        case .shard: return "`habitat run --shard`"
        case .calibration: return "`habitat calibrate`"
        case .sensitivity: return "`habitat sensitivity`"
        }
    }
}

/// What stands at a report folder's destination, as far as replacing it is concerned.
public enum ExistingOutput: Equatable, Sendable {
    /// Nothing: the folder will be created.
    case absent
    /// An empty folder.
    case empty
    /// A folder Habitat wrote: its kind and the names of the files Habitat wrote there (every other entry is the
    /// user's and is kept).
    case habitat(kind: ReportKind, owned: Set<String>)
    /// A folder with entries but no readable Habitat manifest (a few of its names, for the message).
    case foreign(sample: [String])
    /// Something that is not a folder (what it is, in words).
    case notAFolder(String)
}

/// The rules that keep Habitat from destroying what it did not write (docs/DESIGN.md, principle 9; issue 11).
///
/// A report folder may be written only where nothing stands, into an empty folder, or over a Habitat folder of the
/// kind the command writes — and then only the files Habitat wrote are replaced. The working directory, its
/// ancestors, `/`, the home folder, devices, regular files and symbolic links are refused before any work starts.
public enum OutputSafety {
    /// Checks a report folder destination; returns what stands there now.
    ///
    /// - Parameters:
    ///   - path: the path as given (`--out`, `--baseline`, `outputs.dir` or the default `Reports/<name>`).
    ///   - kind: the kind of folder the command writes.
    /// - Throws: `OutputRefused` naming the path and why.
    @discardableResult
    public static func checkReportFolder(_ path: String, kind: ReportKind) throws -> ExistingOutput {
        try checkNotProtected(path)
        let existing = classify(URL(fileURLWithPath: path).standardizedFileURL.path)
        switch existing {
        case .absent:
            // `notes.txt/rep`: a file where a folder on the way should be is refused input, like the path itself.
            if let blocked = blockingAncestor(of: URL(fileURLWithPath: path).deletingLastPathComponent().path) {
                throw OutputRefused(path: path, reason: blocked)
            }
            return existing
        case .empty:
            return existing
        case .notAFolder(let what):
            throw OutputRefused(path: path, reason: "it is \(what), not a report folder; give a new or empty folder")
        case .foreign(let sample):
            throw OutputRefused(path: path, reason: "the folder holds files Habitat did not write (\(sample.joined(separator: ", "))); "
                                + "Habitat replaces only an empty folder or \(kind.noun) it wrote — give a new or empty folder")
        case .habitat(let found, _):
            guard found == kind else {
                throw OutputRefused(path: path, reason: "it is \(found.noun), which only \(found.writer) replaces; "
                                    + "give another folder for \(kind.noun)")
            }
            return existing
        }
    }

    /// Refuses, before any work, a destination whose replacement would fail half-way: the folder, or an entry in
    /// it, made immutable or append-only (`chattr +i`, `chattr +a`). The commit deletes the previous report's own
    /// files and moves every other entry into the new report; neither can be done to such a file.
    public static func checkReplaceable(_ path: String, _ existing: ExistingOutput) throws {
        let owned: Set<String>
        switch existing {
        case .habitat(_, let o): owned = o
        case .empty: owned = []
        default: return
        }
        if let flag = fixedFlag(path) {
            throw OutputRefused(path: path, reason: "the folder is \(flag), so Habitat cannot replace it; "
                                + "remove the flag (chattr -\(flag == "immutable" ? "i" : "a")) or give another folder")
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { !StagingName.isStaging($0) }.sorted()
        for name in names {
            let item = URL(fileURLWithPath: path).appendingPathComponent(name).path
            guard let type = fileType(item), type == S_IFREG || type == S_IFDIR, let flag = fixedFlag(item) else { continue }
            let undo = "remove the flag (chattr -\(flag == "immutable" ? "i" : "a") \(name)) or give another folder"
            if owned.contains(name) {
                throw OutputRefused(path: path, reason: "the previous report's \(name), which Habitat wrote, is \(flag), "
                                    + "so Habitat cannot replace it; \(undo)")
            }
            throw OutputRefused(path: path, reason: "\(name), which Habitat did not write, is \(flag), "
                                + "so Habitat cannot keep it in the new report; \(undo)")
        }
    }

    /// "immutable" or "append-only" when the inode at `path` carries that flag; nil otherwise (or where flags cannot be read).
    static func fixedFlag(_ path: String) -> String? {
        let flags = habitat_inode_flags(path)
        guard flags >= 0 else { return nil }
        if flags & 0x10 != 0 { return "immutable" }      // FS_IMMUTABLE_FL
        if flags & 0x20 != 0 { return "append-only" }    // FS_APPEND_FL
        return nil
    }

    /// Refuses paths that must never be written: empty, `/`, the working directory or one of its ancestors, the home
    /// folder or one of its ancestors.
    public static func checkNotProtected(_ path: String) throws {
        guard !path.isEmpty else {
            throw OutputRefused(path: path, reason: "an empty path means the working directory; give a folder of its own")
        }
        try checkLength(path)
        let target = physicalPath(path)
        if target == "/" { throw OutputRefused(path: path, reason: "it is the root folder '/'") }
        let cwd = physicalPath(FileManager.default.currentDirectoryPath)
        if isSameOrAncestor(target, of: cwd) {
            throw OutputRefused(path: path, reason: target == cwd ? "it is the working directory; give a folder of its own, e.g. Reports/NAME"
                                                                  : "it is an ancestor of the working directory (\(target))")
        }
        if let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty {
            let h = physicalPath(home)
            if h != "/", isSameOrAncestor(target, of: h) {
                throw OutputRefused(path: path, reason: target == h ? "it is the home folder" : "it is an ancestor of the home folder (\(target))")
            }
        }
    }

    /// Why a folder cannot be made, in words, when what stands in the way is on its path: the nearest existing
    /// ancestor being a file, a device or a FIFO (`notes.txt/rep`) — not Foundation's "The operation could not be
    /// completed".
    public static func blockingAncestor(of path: String) -> String? {
        var p = URL(fileURLWithPath: path).standardizedFileURL
        while p.path != "/" {
            var st = stat()   // links followed: a link to a folder is a folder on the way
            if stat(p.path, &st) == 0 {
                return st.st_mode & S_IFMT == S_IFDIR ? nil : "\(p.path.echoedPath) is \(describe(mode: st.st_mode)), not a folder"
            }
            if errno != ENOENT && errno != ENOTDIR { return nil }
            p.deleteLastPathComponent()
        }
        return nil
    }

    /// The longest name an output may have: the file system's 255 bytes less room for the staging name beside it
    /// (`.NAME.partial-…`, `StagingName`).
    public static let longestName = 200

    /// Refuses a path the file system cannot hold (a name over `longestName` bytes, the whole over 4 000 bytes), so
    /// that it is refused input (exit 2) with its length, not a failed write ("File name too long").
    public static func checkLength(_ path: String) throws {
        if let long = path.split(separator: "/").first(where: { $0.utf8.count > longestName }) {
            throw OutputRefused(path: path, reason: "a name in the path ('\(long.echoed())') has \(long.utf8.count) bytes; allowed at most \(longestName)")
        }
        guard path.utf8.count <= 4_000 else {
            throw OutputRefused(path: path, reason: "the path has \(path.utf8.count) bytes; allowed at most 4000")
        }
    }

    /// What stands at `path` (not following a final symbolic link).
    public static func classify(_ path: String) -> ExistingOutput {
        guard let type = fileType(path) else { return .absent }
        switch type {
        case S_IFDIR: break
        case S_IFLNK:
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
            return .notAFolder("a symbolic link (to \(target)); give the real folder's path")
        default: return .notAFolder(describe(mode: type))
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
        let visible = names.filter { !StagingName.isStaging($0) }
        if visible.isEmpty { return .empty }
        let dir = URL(fileURLWithPath: path)
        guard names.contains("manifest.json"),
              let manifest = try? RunManifest.read(from: dir.appendingPathComponent("manifest.json")), manifest.tool == "habitat" else {
            return .foreign(sample: Array(visible.prefix(3)) + (visible.count > 3 ? ["…"] : []))
        }
        let hasBaseline = names.contains("baseline.json")
        let kind = manifest.kind ?? (hasBaseline ? .baseline : .report)
        var owned = Set(manifest.files.filter(isPlainFileName))
        owned.insert("manifest.json")
        if kind == .baseline { owned.insert("baseline.json") }
        return .habitat(kind: kind, owned: owned)
    }

    /// A single file name (no separators, not `.`/`..`, not empty): the only names Habitat writes or deletes in a folder.
    public static func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0")
    }

    /// The type bits (`S_IFREG`, `S_IFDIR`, `S_IFLNK`, …) of what stands at `path`, not following a final
    /// symbolic link; nil when nothing does.
    public static func fileType(_ path: String) -> mode_t? {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_mode & S_IFMT : nil
    }

    /// `mode` in words ("a character device", "a regular file", …).
    public static func describe(mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: return "a regular file"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFIFO: return "a named pipe (FIFO)"
        case S_IFSOCK: return "a socket"
        case S_IFLNK: return "a symbolic link"
        case S_IFDIR: return "a folder"
        default: return "a special file"
        }
    }

    /// The absolute path with symbolic links resolved as far as the path exists (the rest appended lexically).
    public static func physicalPath(_ path: String) -> String {
        let absolute = URL(fileURLWithPath: path.isEmpty ? "." : path).standardizedFileURL.path
        var head = absolute
        var tail: [String] = []
        while true {
            if let resolved = realpath(head, nil) {
                defer { free(resolved) }
                var result = String(cString: resolved)
                for part in tail.reversed() { result = (result == "/" ? "" : result) + "/" + part }
                return URL(fileURLWithPath: result).standardizedFileURL.path
            }
            let url = URL(fileURLWithPath: head)
            let parent = url.deletingLastPathComponent().path
            if parent == head || head == "/" { return absolute }
            tail.append(url.lastPathComponent)
            head = parent
        }
    }

    /// Whether `a` is `b` or one of its ancestors (both absolute, standardized).
    static func isSameOrAncestor(_ a: String, of b: String) -> Bool {
        a == b || a == "/" || b.hasPrefix(a.hasSuffix("/") ? a : a + "/")
    }
}

/// Names of the hidden staging items Habitat writes beside a destination until they are complete:
/// `.<name>.partial-<pid>-<process start time>`. The owner's start time tells a live writer from a dead one whose
/// process id was reused.
public enum StagingName {
    static let marker = ".partial-"

    /// The staging name for `name` owned by this process.
    public static func make(for name: String) -> String { ".\(name)\(marker)\(ProcessOwner.current.tag)" }

    /// Whether `item` is a staging name (of any destination).
    public static func isStaging(_ item: String) -> Bool { item.hasPrefix(".") && item.contains(marker) }

    /// The owner of `item` if it is a staging name for `name`.
    static func owner(of item: String, name: String) -> ProcessOwner? {
        let prefix = ".\(name)\(marker)"
        guard item.hasPrefix(prefix) else { return nil }
        return ProcessOwner(tag: String(item.dropFirst(prefix.count)))
    }
}

/// A process that owns staging items: its id and, where the system tells it, its start time (clock ticks since boot).
public struct ProcessOwner: Equatable, Sendable {
    public let pid: Int32
    public let startTime: UInt64?

    /// This process.
    public static let current = ProcessOwner(pid: getpid(), startTime: startTime(of: getpid()))

    init(pid: Int32, startTime: UInt64?) { self.pid = pid; self.startTime = startTime }

    /// Parses `<pid>` or `<pid>-<start>`; nil for anything else.
    init?(tag: String) {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let pid = Int32(parts[0]), pid > 0 else { return nil }
        if parts.count == 2 { guard let s = UInt64(parts[1]) else { return nil }; startTime = s } else { startTime = nil }
        self.pid = pid
    }

    /// `<pid>-<start>` (or `<pid>` where the start time is unknown).
    var tag: String { startTime.map { "\(pid)-\($0)" } ?? "\(pid)" }

    /// Whether the owner still runs: the process exists and, where known, started at the same time.
    public var isAlive: Bool {
        if pid == getpid() { return startTime == ProcessOwner.current.startTime }
        if kill(pid, 0) != 0 && errno == ESRCH { return false }
        if let startTime, let now = Self.startTime(of: pid) { return now == startTime }
        return true
    }

    /// Field 22 of `/proc/<pid>/stat` (start time in clock ticks since boot); nil where there is no /proc.
    static func startTime(of pid: Int32) -> UInt64? {
        guard let bytes = InputFile.prefix("/proc/\(pid)/stat", limit: 4096), let text = String(validating: bytes, as: UTF8.self),
              let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After "pid (comm)", fields start at field 3 (state); the start time is field 22.
        guard fields.count > 19 else { return nil }
        return UInt64(fields[19])
    }
}
