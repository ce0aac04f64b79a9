import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reading a file Habitat takes as input — a scenario, a CSV it names, a calibration targets file, a baseline, a run
/// folder's manifest or KPIs, a tolerances file — with one plain reason for each way it can be unusable (issue 30):
/// missing, a folder, a named pipe, a device or a socket (refused from its type alone: a FIFO is never opened for
/// reading, which would block, and `/dev/zero` never read, which would not end), too large, unreadable (the
/// system's reason, "Permission denied" only when it is one), binary or not UTF-8 (with the line and column of the
/// first bad byte). Never a Foundation error: no `NSCocoaErrorDomain`, no "You don't have permission" for a device.
public enum InputFile {
    /// Why a file cannot be read as input, in words, without the path (the caller says which file and what for).
    public struct Problem: Error, CustomStringConvertible, Hashable, Sendable {
        /// The sort of problem, for callers and tests that react without parsing words.
        public enum Kind: String, Hashable, Sendable {
            case missing, folder, notRegularFile, tooLarge, unreadable, notText
        }
        public let kind: Kind
        /// E.g. `it is a folder, not a file`, `it is a named pipe (FIFO), not a regular file`.
        public let description: String
        public init(_ kind: Kind, _ description: String) {
            self.kind = kind
            self.description = description
        }
    }

    /// Checks, without opening it, that `path` is a regular file (symbolic links followed) of at most `maxBytes`
    /// bytes: for a reader that must refuse a file before other work starts.
    public static func check(_ path: String, maxBytes: Int) throws(Problem) {
        var st = stat()
        guard stat(path, &st) == 0 else { throw problemOpening(errno) }
        try checkType(st.st_mode)
        guard Int(st.st_size) <= maxBytes else { throw tooLarge(Int(st.st_size), maxBytes) }
    }

    /// The file's bytes: a regular file (symbolic links followed) of at most `maxBytes` bytes.
    public static func bytes(_ path: String, maxBytes: Int) throws(Problem) -> [UInt8] {
        var st = stat()
        guard stat(path, &st) == 0 else { throw problemOpening(errno) }
        try checkType(st.st_mode)
        guard Int(st.st_size) <= maxBytes else { throw tooLarge(Int(st.st_size), maxBytes) }
        // O_NONBLOCK: should the file be swapped for a FIFO after the stat, opening it still does not wait.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw problemOpening(errno) }
        defer { close(fd) }
        guard fstat(fd, &st) == 0 else { throw Problem(.unreadable, "cannot read it: \(String(cString: strerror(errno)))") }
        try checkType(st.st_mode)
        var data: [UInt8] = []
        data.reserveCapacity(Int(st.st_size))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw Problem(.unreadable, "cannot read it: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            data.append(contentsOf: chunk[0..<n])
            guard data.count <= maxBytes else { throw tooLarge(data.count, maxBytes) }
        }
        return data
    }

    /// At most `limit` bytes from the start of the open file `fd` (`pread`: the file's offset is not moved), read in
    /// a buffer of `limit` bytes whatever the file's size; nil when it cannot be read.
    public static func prefix(fd: Int32, limit: Int) -> [UInt8]? {
        var data = [UInt8](repeating: 0, count: limit)
        var got = 0
        while got < limit {
            let n = data.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + got, limit - got, off_t(got)) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return nil
            }
            if n == 0 { break }
            got += n
        }
        return Array(data[0..<got])
    }

    /// At most `limit` bytes from the start of the regular file at `path` (a final symbolic link is not followed, a
    /// FIFO or a device is never read); nil for anything else or a file that cannot be read.
    public static func prefix(_ path: String, limit: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        return prefix(fd: fd, limit: limit)
    }

    /// The file's UTF-8 text (a leading byte-order mark dropped); `binaryHint` ends the message for a NUL byte, e.g.
    /// `a scenario is YAML text`.
    public static func text(_ path: String, maxBytes: Int, binaryHint: String = "expected text") throws(Problem) -> String {
        try decode(try bytes(path, maxBytes: maxBytes), binaryHint: binaryHint)
    }

    /// Text from UTF-8 bytes (a leading byte-order mark dropped): binary data, UTF-16 and other encodings are named,
    /// with the line and column of the first byte that is not UTF-8 text.
    public static func decode(_ bytes: [UInt8], binaryHint: String = "expected text") throws(Problem) -> String {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            throw Problem(.notText, "the file is UTF-16 text (it starts with a UTF-16 byte-order mark); "
                          + "Habitat reads UTF-8 (YAML's and CSV's usual encoding): save it as UTF-8")
        }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        if !body.contains(0), let text = String(validating: body, as: UTF8.self) { return text }
        var line = 1, column = 1, i = 0
        while i < body.count {
            let b = body[i]
            let length = b < 0x80 ? 1 : b >> 5 == 0b110 ? 2 : b >> 4 == 0b1110 ? 3 : b >> 3 == 0b11110 ? 4 : 0
            var valid = length > 0 && i + length <= body.count
            if valid && length > 1 { for k in 1..<length where body[i + k] >> 6 != 0b10 { valid = false } }
            if valid && length > 1 {
                // Overlong forms and surrogates are not UTF-8 either.
                valid = String(validating: body[i..<(i + length)], as: UTF8.self) != nil
            }
            guard valid else {
                throw Problem(.notText, String(format: "not UTF-8 text: byte 0x%02X at line %d, column %d cannot start or continue a character "
                                               + "(binary data, or text in another encoding such as Latin-1: save the file as UTF-8)", b, line, column))
            }
            if b == 0 { throw Problem(.notText, "binary data: a NUL byte at line \(line), column \(column); \(binaryHint)") }
            if b == 0x0A { line += 1; column = 1 } else { column += 1 }
            i += length
        }
        return String(decoding: body, as: UTF8.self)
    }

    /// Refuses anything but a regular file from its type alone.
    static func checkType(_ mode: mode_t) throws(Problem) {
        switch mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw Problem(.folder, "it is a folder, not a file")
        case S_IFIFO: throw Problem(.notRegularFile, "it is a named pipe (FIFO), not a regular file")
        case S_IFCHR, S_IFBLK: throw Problem(.notRegularFile, "it is a device, not a regular file")
        case S_IFSOCK: throw Problem(.notRegularFile, "it is a socket, not a regular file")
        default: throw Problem(.notRegularFile, "it is not a regular file")
        }
    }

    static func problemOpening(_ code: Int32) -> Problem {
        switch code {
        case ENOENT: return Problem(.missing, "the file does not exist")
        case ENOTDIR: return Problem(.missing, "the file does not exist (a part of its path is not a folder)")
        case ENAMETOOLONG: return Problem(.missing, "the path is too long for a file name")
        default: return Problem(.unreadable, "cannot open it: \(String(cString: strerror(code)))")
        }
    }

    public static func tooLarge(_ size: Int, _ maxBytes: Int) -> Problem {
        Problem(.tooLarge, "the file has \(size) bytes; allowed at most \(InputLimits.describe(maxBytes))")
    }
}
