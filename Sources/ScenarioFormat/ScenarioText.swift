import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reading a scenario (or a CSV it names) as text, with errors that say what the file is and what is wrong with
/// it: not found, a folder or a device, too large, binary, or not UTF-8 (with the line and column of the first bad
/// byte), or UTF-16 (named as such). UTF-8 is read with or without a byte-order mark.
public enum ScenarioText {
    /// A file that cannot be read as text, in words.
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    /// The largest scenario file read.
    public static let maxBytes = 100 << 20

    /// The file's text.
    public static func read(_ path: String, maxBytes: Int = ScenarioText.maxBytes) throws(Problem) -> String {
        var st = stat()
        guard stat(path, &st) == 0 else {
            throw Problem(description: errno == ENOENT ? "the file does not exist" : "cannot open the file: \(String(cString: strerror(errno)))")
        }
        switch st.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw Problem(description: "it is a folder, not a file")
        case S_IFCHR, S_IFBLK: throw Problem(description: "it is a device, not a file")
        case S_IFIFO: throw Problem(description: "it is a named pipe (FIFO), not a file")
        default: throw Problem(description: "it is not a regular file")
        }
        guard Int(st.st_size) <= maxBytes else {
            throw Problem(description: "the file has \(st.st_size) bytes; allowed at most \(maxBytes >> 20) MB")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Problem(description: "cannot read the file: \(String(cString: strerror(errno == 0 ? EACCES : errno)))")
        }
        return try decode(data)
    }

    /// Text from UTF-8 bytes (a leading byte-order mark dropped).
    public static func decode(_ data: Data) throws(Problem) -> String {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            throw Problem(description: "the file is UTF-16 text (it starts with a UTF-16 byte-order mark); "
                          + "scenarios are read as UTF-8 (YAML's usual encoding): save it as UTF-8")
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
                valid = String(bytes: body[i..<(i + length)], encoding: .utf8) != nil
            }
            guard valid else {
                throw Problem(description: String(format: "not UTF-8 text: byte 0x%02X at line %d, column %d cannot start or continue a character "
                                                  + "(binary data, or text in another encoding such as Latin-1: save the file as UTF-8)", b, line, column))
            }
            if b == 0 { throw Problem(description: "binary data: a NUL byte at line \(line), column \(column); a scenario is YAML text") }
            if b == 0x0A { line += 1; column = 1 } else { column += 1 }
            i += length
        }
        return String(decoding: body, as: UTF8.self)
    }
}
