import Foundation
import HabitatTestSupport
import Reports
import RulesCore
import Testing
@testable import Simulation
#if canImport(Glibc)
import Glibc
#endif

/// Issue 40: a baseline's report files are read within `InputLimits.reportFile`, refused in words past it — before
/// the simulation (`checkStoredFiles`) and when compared (`firstDifference`), never allocated by their size.
@Suite("A baseline's report files are read within their limit")
struct BaselineFileLimitTests {
    @Test("a 3 GB sparse retention.csv is refused naming the file and the limit; a FIFO as not a regular file; a missing file is left to the comparison")
    func refused() throws {
        try withTemporaryDirectory(prefix: "baseline-limits") { dir in
            let big = dir.appendingPathComponent("retention.csv").path
            #expect(makeSparseFile(big, bytes: 3 << 30))
            try "a,b\n1,2\n".write(to: dir.appendingPathComponent("kpis.csv"), atomically: false, encoding: .utf8)
            #expect(mkfifo(dir.appendingPathComponent("funnel.csv").path, 0o644) == 0)
            #expect(throws: Never.self) { try RegressionCheck.checkStoredFiles(["kpis.csv", "missing.csv"], in: dir) }
            do {
                try RegressionCheck.checkStoredFiles(["kpis.csv", "retention.csv"], in: dir)
                Issue.record("not refused")
            } catch let e as ComparisonError {
                #expect("\(e)".contains("retention.csv: the file has 3221225472 bytes; allowed at most \(InputLimits.reportFile >> 20) MB"), "\(e)")
            }
            #expect(throws: ComparisonError.self) { try RegressionCheck.checkStoredFiles(["funnel.csv"], in: dir) }
            // The comparison itself: the same words, and a file missing on one side is a difference, not an error.
            #expect(throws: ComparisonError.self) { _ = try RegressionCheck.firstDifference(files: ["retention.csv"], baseline: dir, current: dir) }
            let d = try RegressionCheck.firstDifference(files: ["kpis.csv", "missing.csv"], baseline: dir, current: dir.appendingPathComponent("nowhere"))
            #expect(d?.file == "kpis.csv" && d?.actual == "<missing>")
        }
    }

    @Test("InputFile.prefix reads at most its limit of a huge file and nothing of a FIFO or a symbolic link")
    func prefix() throws {
        try withTemporaryDirectory(prefix: "input-prefix") { dir in
            let big = dir.appendingPathComponent("big").path
            #expect(makeSparseFile(big, bytes: 3 << 30))
            #expect(InputFile.prefix(big, limit: 10)?.count == 10)
            #expect(mkfifo(dir.appendingPathComponent("p").path, 0o644) == 0)
            #expect(InputFile.prefix(dir.appendingPathComponent("p").path, limit: 10) == nil)
            #expect(symlink(big, dir.appendingPathComponent("l").path) == 0)
            #expect(InputFile.prefix(dir.appendingPathComponent("l").path, limit: 10) == nil)
            #expect(throws: InputFile.Problem.self) { try InputFile.check(big, maxBytes: 1 << 20) }
        }
    }
}
