import Testing
@testable import Reports

@Suite("ShardSpec: the fixed partition of person ids")
struct ShardSpecTests {
    @Test("the blocks of 1…N shards are contiguous, disjoint, cover every person once and differ by at most one",
          arguments: [0, 1, 2, 7, 64, 97, 1_000, 10_007])
    func partition(installs: Int) {
        for n in [1, 2, 3, 7, 8, 64, 100] {
            var next = 0
            var sizes: [Int] = []
            for k in 1...n {
                let block = ShardSpec(index: k, count: n)!.people(of: installs)
                #expect(block.lowerBound == next, "shard \(k)/\(n) of \(installs) starts where \(k - 1) ended")
                next = block.upperBound
                sizes.append(block.count)
            }
            #expect(next == installs)
            #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1)
        }
    }

    @Test("K/N parses for 1 ≤ K ≤ N; anything else is refused with what is allowed")
    func parsing() throws {
        #expect(try ShardSpec(parsing: "3/8") == ShardSpec(index: 3, count: 8))
        #expect(try ShardSpec(parsing: "1/1").folderName == "shard-1-of-1")
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", "-1/2", "1/2/3", "", "/", "1/200000"] {
            #expect(throws: ShardSpecError.self, "\(bad)") { try ShardSpec(parsing: bad) }
        }
        do { _ = try ShardSpec(parsing: "4/3") } catch { #expect(error.description.contains("1 ≤ K ≤ N")) }
    }
}
