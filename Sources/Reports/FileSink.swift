import Foundation
import RulesCore
#if canImport(Glibc)
import Glibc
#endif

/// An error of the file system in plain words: the path, what was being done and the system's reason
/// (`No space left on device`, `Permission denied`, …) — never a Foundation error dump.
public struct FileSystemError: Error, CustomStringConvertible {
    public let path: String
    public let action: String
    public let code: Int32
    public init(path: String, action: String, code: Int32) { self.path = path; self.action = action; self.code = code }
    public var description: String { "cannot \(action) '\(path.echoedPath)': \(String(cString: strerror(code)))" }
}

/// A file being written with plain POSIX calls, so that every failure (a full disk above all) is reported with its
/// real cause, and large reports can be streamed in pieces instead of being built as one string.
public final class FileSink {
    public let path: String
    private var fd: Int32
    private var buffer: [UInt8] = []
    private static let flushAt = 1 << 16

    /// Creates (or truncates) a regular file that must not exist as anything else; never follows a symbolic link.
    public init(creating path: String) throws {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileSystemError(path: path, action: "create", code: errno) }
        buffer.reserveCapacity(Self.flushAt)
    }

    deinit { if fd >= 0 { _ = Glibc.close(fd) } }

    /// Opens a regular file for appending, creating it when absent; never follows a symbolic link.
    public init(appendingTo path: String) throws {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileSystemError(path: path, action: "create", code: errno) }
        buffer.reserveCapacity(Self.flushAt)
    }

    /// Appends text.
    public func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.flushAt { try flush() }
    }

    /// Appends bytes.
    public func write(bytes: Data) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.flushAt { try flush() }
    }

    /// Appends the whole contents of another file (e.g. a spool), in chunks.
    public func append(contentsOf other: String) throws {
        try flush()
        let input = open(other, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw FileSystemError(path: other, action: "read", code: errno) }
        defer { _ = Glibc.close(input) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; throw FileSystemError(path: other, action: "read", code: errno) }
            if n == 0 { break }
            try writeAll(chunk[0..<n])
        }
    }

    /// Writes what is buffered.
    public func flush() throws {
        guard !buffer.isEmpty else { return }
        try writeAll(buffer[...])
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes, syncs (unless `sync` is false: scratch files) and closes the file.
    public func close(sync: Bool = true) throws {
        try flush()
        guard fd >= 0 else { return }
        let f = fd
        fd = -1
        if sync, fsync(f) != 0 && errno != EINVAL { let e = errno; _ = Glibc.close(f); throw FileSystemError(path: path, action: "write", code: e) }
        if Glibc.close(f) != 0 { throw FileSystemError(path: path, action: "write", code: errno) }
    }

    private func writeAll(_ bytes: ArraySlice<UInt8>) throws {
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; throw FileSystemError(path: path, action: "write", code: errno) }
            offset += n
        }
    }

    /// Writes `text` as the whole file.
    public static func write(_ text: String, to path: String) throws {
        let sink = try FileSink(creating: path)
        try sink.write(text)
        try sink.close()
    }
}
