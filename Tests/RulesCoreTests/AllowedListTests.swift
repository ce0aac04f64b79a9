import Foundation
import RulesCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 40: listings of allowed values stay short (a joint fit's 69 figures once made a 2,348-character line), and
/// what stands where a file should be is named by its type.
@Suite("bounded listings and file types in words")
struct AllowedListTests {
    @Test("a short list is shown whole")
    func shortIsWhole() {
        #expect(AllowedList.text(["a", "b", "c"]) == "a, b, c")
        #expect(AllowedList.text([]) == "")
    }

    @Test("a long list shows its first values, how many more and where to read them, under 1 KB")
    func longIsCut() {
        let figures = (0..<69).map { "earned-access:figure_number_\($0)" }
        let text = AllowedList.text(figures, seeAlso: "habitat list")
        #expect(text.hasPrefix("earned-access:figure_number_0, earned-access:figure_number_1"))
        #expect(text.hasSuffix("more (see habitat list)"))
        let shown = text.components(separatedBy: ", ").count - 1
        #expect(text.contains("… and \(69 - shown) more"))
        #expect(shown >= 1 && shown <= AllowedList.maxItems)
        #expect(text.utf8.count < 600)
    }

    @Test("one huge value is cut, not echoed whole")
    func hugeValueIsCut() {
        let text = AllowedList.text([String(repeating: "x", count: 100_000), "b"])
        #expect(text.utf8.count < 200)
        #expect(text.contains("(100000 characters)"))
    }

    @Test("typeProblem names a FIFO, a folder, a socket and a missing file, and passes a regular file")
    func typeProblems() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("habitat-type-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let file = dir.appendingPathComponent("file").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let socketPath = dir.appendingPathComponent("sock").path
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(socketPath.utf8)
            for (i, b) in bytes.prefix(raw.count - 1).enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        defer { close(fd) }
        #expect(bound == 0)
        #expect(InputFile.typeProblem(at: fifo)?.description == "it is a named pipe (FIFO), not a regular file")
        #expect(InputFile.typeProblem(at: dir.path)?.kind == .folder)
        #expect(InputFile.typeProblem(at: socketPath)?.description == "it is a socket, not a regular file")
        #expect(InputFile.typeProblem(at: dir.appendingPathComponent("none").path)?.kind == .missing)
        #expect(InputFile.typeProblem(at: file) == nil)
    }
}
