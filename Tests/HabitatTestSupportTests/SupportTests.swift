import Foundation
import Testing
import HabitatTestSupport

@Suite("Test support: generator, temporary folders, child processes")
struct SupportTests {
    @Test("SplitMix64 gives the reference outputs for seed 0 (so sweeps replay on any platform)")
    func splitMixReference() {
        var r = SplitMix64(seed: 0)
        #expect([r.next(), r.next(), r.next()] == [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F])
    }

    @Test("below and chance stay in range and are roughly uniform")
    func belowAndChance() {
        var r = SplitMix64(seed: 12)
        var counts = [Int](repeating: 0, count: 5)
        var heads = 0
        for _ in 0..<10_000 {
            counts[r.below(5)] += 1
            if r.chance(0.25) { heads += 1 }
        }
        // Binomial(10 000, 0.2): sd 40; (10 000, 0.25): sd 43. Bounds at about 5 sd.
        #expect(counts.allSatisfy { abs($0 - 2_000) < 200 }, "\(counts)")
        #expect(abs(heads - 2_500) < 220, "\(heads)")
    }

    @Test("a temporary folder is new and empty, and withTemporaryDirectory removes it afterwards")
    func temporaryFolders() throws {
        let a = TemporaryDirectory.make(prefix: "support-test"), b = TemporaryDirectory.make(prefix: "support-test")
        #expect(a != b)
        #expect(a.lastPathComponent.hasPrefix("support-test-"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: a.path).isEmpty)
        try? FileManager.default.removeItem(at: a)
        try? FileManager.default.removeItem(at: b)
        let kept = try withTemporaryDirectory(prefix: "support-test") { dir -> URL in
            try "x".write(to: dir.appendingPathComponent("f.txt"), atomically: true, encoding: .utf8)
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("f.txt").path))
            return dir
        }
        #expect(!FileManager.default.fileExists(atPath: kept.path))
    }

    /// A child that fills one pipe before writing to the other blocks unless both are read at once; with the old
    /// read-stdout-then-stderr helper this test never finished. No timer is involved: it ends or it hangs.
    @Test("a child writing over 1 MB to stderr and then to stdout (and the reverse) does not hang, and nothing is lost",
          arguments: [true, false])
    func bigOutputOnBothPipes(stderrFirst: Bool) throws {
        let first = "head -c 1200000 /dev/zero", second = "head -c 1500000 /dev/zero"
        let script = stderrFirst ? "\(first) >&2; \(second)" : "\(first); \(second) >&2"
        let r = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script])
        #expect(r.status == 0)
        #expect(r.stderr.utf8.count == (stderrFirst ? 1_200_000 : 1_500_000))
        #expect(r.stdout.utf8.count == (stderrFirst ? 1_500_000 : 1_200_000))
    }

    @Test("exit status and working folder reach the caller")
    func statusAndWorkingFolder() throws {
        try withTemporaryDirectory(prefix: "support-test") { dir in
            let r = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "pwd; echo oops >&2; exit 3"], cwd: dir)
            #expect(r.status == 3)
            #expect(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix(dir.lastPathComponent))
            #expect(r.stderr == "oops\n")
        }
    }
}
