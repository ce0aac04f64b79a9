import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reading a scenario (or a CSV it names) as text, with errors that say what the file is and what is wrong with
/// it: not found, a folder or a device, too large, binary, or not UTF-8 (with the line and column of the first bad
/// byte). UTF-8 with or without a byte-order mark and UTF-16 with one are read.
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

    /// Text from bytes: UTF-16 (little or big endian) after its byte-order mark, else UTF-8 (a leading mark dropped).
    public static func decode(_ data: Data) throws(Problem) -> String {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            let little = bytes[0] == 0xFF
            guard bytes.count % 2 == 0 else { throw Problem(description: "not valid UTF-16 text: an odd number of bytes") }
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2 - 1)
            for i in stride(from: 2, to: bytes.count, by: 2) {
                units.append(little ? UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8 : UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]))
            }
            var text = ""
            var it = units.makeIterator()
            var codec = UTF16()
            loop: while true {
                switch codec.decode(&it) {
                case .scalarValue(let s): text.unicodeScalars.append(s)
                case .emptyInput: break loop
                case .error: throw Problem(description: "not valid UTF-16 text (a broken surrogate pair)")
                }
            }
            return try checkedText(text)
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

    static func checkedText(_ text: String) throws(Problem) -> String {
        if let nul = text.firstIndex(of: "\0") {
            let line = text[..<nul].filter { $0 == "\n" }.count + 1
            throw Problem(description: "binary data: a NUL character at line \(line); a scenario is YAML text")
        }
        return text
    }
}
