import Foundation
import RulesCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The words of every input message (issue 30): input files refused by kind without being opened when that would
/// block or never end, and echoed input cut to a readable length.
@Suite("input files and echoed input in words")
struct InputWordsTests {
    private func folder() -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("habitat-input-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("a long echo is its first characters and its length; a short one is whole")
    func echoedIsCut() {
        let long = String(repeating: "k", count: 100_000)
        #expect(long.echoed() == String(repeating: "k", count: 60) + "… (100000 characters)")
        #expect("rules.tokens.cap".echoed() == "rules.tokens.cap")
        #expect(String(repeating: "é", count: 80).echoed() == String(repeating: "é", count: 80))
        #expect(String(repeating: "/x", count: 2_000).echoedPath.count < 280)
    }

    @Test("a folder, a FIFO, a device, a missing file, a huge, Latin-1 or binary file: one plain reason each")
    func everyKindHasItsReason() throws {
        let dir = folder()
        let fifo = dir.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let latin = dir.appendingPathComponent("latin1.csv")
        try Data([0x66, 0x69, 0xE9, 0x0A]).write(to: latin)
        let binary = dir.appendingPathComponent("binary.csv")
        try Data([0x61, 0x00, 0x62]).write(to: binary)
        let big = dir.appendingPathComponent("big.csv")
        try Data(repeating: 0x61, count: 2_000).write(to: big)
        func problem(_ path: String, maxBytes: Int = 1 << 20) -> InputFile.Problem? {
            do { _ = try InputFile.text(path, maxBytes: maxBytes); return nil } catch { return error }
        }
        #expect(problem(dir.path)?.description == "it is a folder, not a file")
        #expect(problem(".")?.kind == .folder)
        #expect(problem(fifo)?.description == "it is a named pipe (FIFO), not a regular file")   // and it did not block
        #expect(problem("/dev/zero")?.description == "it is a device, not a regular file")
        #expect(problem(dir.appendingPathComponent("nope.csv").path)?.description == "the file does not exist")
        #expect(problem(latin.path)?.description.hasPrefix("not UTF-8 text: byte 0xE9 at line 1, column 3") == true)
        #expect(problem(binary.path)?.description.hasPrefix("binary data: a NUL byte at line 1, column 2") == true)
        #expect(problem(big.path, maxBytes: 1_000)?.description == "the file has 2000 bytes; allowed at most 1000 bytes")
        for p in [dir.path, fifo, "/dev/zero", latin.path, binary.path] {
            let words = problem(p)?.description ?? ""
            #expect(!words.contains("permission") && !words.contains("NSCocoaErrorDomain"), "\(p): \(words)")
        }
        #expect(try InputFile.text(big.path, maxBytes: 4_000).count == 2_000)
    }
}
