import Foundation
import Testing
import HabitatTestSupport
@testable import Simulation
import Reports

/// `JSONLinesReader` (shard-state.jsonl): every line back exactly, whatever their lengths against its 1 MB reads.
@Suite("JSON Lines reader")
struct JSONLinesReaderTests {
    /// Lines of `lengths` bytes (a letter per line), joined by newlines, with or without a final newline.
    func lines(_ lengths: [Int]) -> [Data] {
        lengths.enumerated().map { i, n in Data(repeating: UInt8(ascii: "a") + UInt8(i % 26), count: n) }
    }

    func readBack(_ lines: [Data], finalNewline: Bool) throws -> [Data] {
        try withTemporaryDirectory(prefix: "jsonlines") { dir in
            var file = Data()
            for (i, l) in lines.enumerated() {
                file.append(l)
                if i < lines.count - 1 || finalNewline { file.append(10) }
            }
            let path = dir.appendingPathComponent("f.jsonl").path
            try file.write(to: URL(fileURLWithPath: path))
            let reader = try JSONLinesReader(path: path)
            var out: [Data] = []
            while let l = try reader.next() { out.append(l) }
            #expect(reader.lineNumber == out.count)
            return out
        }
    }

    @Test("lines shorter and longer than a read, empty lines, and a last line with or without its newline come back exactly",
          arguments: [[0], [5, 0, 7], [1 << 20, 3], [(1 << 20) - 1, 1, (1 << 20) + 1], [3 << 20], [10, (5 << 19) + 17, 0, 0, 9]])
    func roundTrip(lengths: [Int]) throws {
        let given = lines(lengths)
        for finalNewline in [true, false] {
            let back = try readBack(given, finalNewline: finalNewline)
            // Without a final newline an empty last line is no line at all; with one, the file simply ends.
            let expected = !finalNewline && given.last?.isEmpty == true ? Array(given.dropLast()) : given
            #expect(back == expected, "lengths \(lengths), final newline \(finalNewline): \(back.map(\.count))")
        }
    }

    @Test("a line over the limit is refused once that many bytes are buffered, the lines before it read; at the limit it is read",
          arguments: [(3, [3, 4, 1]), (5, [5, 5]), (1 << 20, [(1 << 20) + 1]), ((1 << 20) + 5, [2 << 20])])
    func lineLimit(maxLine: Int, lengths: [Int]) throws {
        try withTemporaryDirectory(prefix: "jsonlines") { dir in
            let path = dir.appendingPathComponent("f.jsonl").path
            var file = Data()
            for l in lines(lengths) { file.append(l); file.append(10) }
            try file.write(to: URL(fileURLWithPath: path))
            let reader = try JSONLinesReader(path: path, maxLine: maxLine)
            var read = 0
            do {
                while try reader.next() != nil { read += 1 }
                #expect(lengths.allSatisfy { $0 <= maxLine }, "no refusal: \(lengths) against \(maxLine)")
            } catch let e as JSONLinesReader.LineTooLong {
                let first = lengths.firstIndex { $0 > maxLine }
                #expect(first == read && e.line == read + 1, "\(e)")
            }
        }
    }

    @Test("a FIFO or a folder is refused, not waited on")
    func notRegular() throws {
        try withTemporaryDirectory(prefix: "jsonlines") { dir in
            let fifo = dir.appendingPathComponent("p").path
            #expect(mkfifo(fifo, 0o644) == 0)
            #expect(throws: FileSystemError.self) { _ = try JSONLinesReader(path: fifo) }
            #expect(throws: FileSystemError.self) { _ = try JSONLinesReader(path: dir.path) }
        }
    }
}
