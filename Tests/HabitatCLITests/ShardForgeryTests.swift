import Foundation
import HabitatTestSupport
import Testing

/// `habitat merge` against forged and spliced shard records (issue 30): a figure no run can produce (beyond
/// Int64, negative, more active than eligible people) is refused even when the forger re-seals the record; a record
/// moved to another shard, swapped with another or with its people edited is refused by its seal or its identity.
/// Each refusal is exit 2 naming the folder, the record (arm and replication) and the field; nothing is written.
@Suite("Forged shard records", .serialized)
struct ShardForgeryTests {
    static let small = ["--people", "21", "--days", "10", "--replications", "1"]

    /// FNV-1a 64, as habitat seals a record.
    static func fnv(_ bytes: some Sequence<UInt8>, _ start: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
        bytes.reduce(start) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
    }

    /// The line with its seal recomputed over its bytes as they now stand (what a forger who knows the format does).
    static func reseal(_ line: String) -> String {
        let seal = #","seal":""#, acc = #"","accumulator":"#
        let head = line.components(separatedBy: seal)[0]
        let rest = String(line.dropFirst(head.count + seal.count + 16))
        let body = String(rest.dropFirst(acc.count).dropLast())
        let hex = String(fnv(body.utf8, fnv(head.utf8)), radix: 16)
        return head + seal + String(repeating: "0", count: 16 - hex.count) + hex + acc + body + "}"
    }

    /// Replaces the first number after `key` in `line` with `value`.
    static func setFirstNumber(after key: String, to value: String, in line: String) throws -> String {
        let r = try #require(line.range(of: key))
        let digits = line[r.upperBound...].prefix { $0 == "-" || $0.isNumber }
        return line.replacingCharacters(in: r.upperBound..<line.index(r.upperBound, offsetBy: digits.count), with: value)
    }

    struct Fixture {
        let dir: URL
        let shards: [String]
        var out: String { dir.appendingPathComponent("out").path }

        /// A copy of shard 2 whose record `index` (1-based) `edit` rewrites.
        func forged(_ name: String, _ edit: ([String]) throws -> [String]) throws -> String {
            let copy = dir.appendingPathComponent(name).path
            try FileManager.default.copyItem(atPath: shards[1], toPath: copy)
            let state = copy + "/shard-state.jsonl"
            let lines = try String(contentsOfFile: state, encoding: .utf8).components(separatedBy: "\n")
            try (try edit(lines)).joined(separator: "\n").write(toFile: state, atomically: true, encoding: .utf8)
            return copy
        }

        func expectRefused(_ forged: String, _ words: [String], _ comment: Comment, source: SourceLocation = #_sourceLocation) throws {
            let r = try CLIProcess.run(["merge", shards[0], forged, shards[2], "--out", out, "--progress", "never"])
            #expect(r.status == 2, comment, sourceLocation: source)
            for w in ["shard '\(forged)'"] + words where !r.stderr.contains(w) {
                Issue.record("\(comment): the message does not say \(w): \(r.stderr)", sourceLocation: source)
            }
            #expect(!r.stderr.contains("Fatal error") && !r.stderr.contains("DecodingError"), sourceLocation: source)
            #expect(!FileManager.default.fileExists(atPath: out), "nothing written", sourceLocation: source)
            let staging = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".partial-") }
            #expect(staging.isEmpty, "no staging left: \(staging)", sourceLocation: source)
        }
    }

    static func fixture() throws -> Fixture {
        let dir = CLIProcess.tempDir()
        let file = try ShardMergeTests.scenarioFile(in: dir)
        return Fixture(dir: dir, shards: try ShardMergeTests.runShards(file, count: 3, in: dir, extra: small))
    }

    @Test("A figure beyond what its people can reach, negative, or active above eligible is refused even re-sealed")
    func forgedFigures() throws {
        let f = try Self.fixture()
        let place = "record 1 (arm 'control', replication 1)"
        let overflow = try f.forged("overflow") { ls in
            var ls = ls
            ls[1] = Self.reseal(try Self.setFirstNumber(after: #""common":{"values":["#, to: "9223372036854775800", in: ls[1]))
            return ls
        }
        try f.expectRefused(overflow, [place, "accumulator.common.pickups: 9223372036854775800 is more than 7 people can reach"], "a counter near Int64.max")
        let active = try f.forged("active") { ls in
            var ls = ls
            ls[1] = Self.reseal(try Self.setFirstNumber(after: #""active":["#, to: "522", in: ls[1]))
            return ls
        }
        try f.expectRefused(active, [place, "accumulator.retention[", ".active[0]: 522 > eligible"], "more active than eligible people")
        let negative = try f.forged("negative") { ls in
            var ls = ls
            ls[1] = Self.reseal(try Self.setFirstNumber(after: #""reached":["#, to: "-5", in: ls[1]))
            return ls
        }
        try f.expectRefused(negative, [place, "accumulator.funnel.reached[1]: -5 is negative"], "a negative count")
        // Not re-sealed: the seal catches it first.
        let edited = try f.forged("edited") { ls in
            var ls = ls
            ls[1] = try Self.setFirstNumber(after: #""reached":["#, to: "-5", in: ls[1])
            return ls
        }
        try f.expectRefused(edited, [place, "fails its seal"], "an edit without the seal")
        #expect(try CLIProcess.run(["merge"] + f.shards + ["--out", f.out, "--progress", "never"]).status == 0)
    }

    @Test("A record whose decisions name a kind or an outcome the product does not declare is refused, naming them (issue 42)")
    func forgedDecisionVocabulary() throws {
        let f = try Self.fixture()
        let place = "record 1 (arm 'control', replication 1)"
        let kind = try f.forged("kind") { ls in
            var ls = ls
            try #require(ls[1].contains(#""kind":"churn""#), "the record counts churn decisions: \(ls[1].prefix(300))")
            ls[1] = Self.reseal(ls[1].replacingOccurrences(of: #""kind":"churn""#, with: #""kind":"made_up""#))
            return ls
        }
        try f.expectRefused(kind, [place, "accumulator.decisions[made_up]: 'made_up' is not a decision kind of this product (it declares "],
                            "an unknown decision kind")
        let outcome = try f.forged("outcome") { ls in
            var ls = ls
            ls[1] = Self.reseal(ls[1].replacingOccurrences(of: #""outcome":"stay""#, with: #""outcome":"levitate""#))
            return ls
        }
        try f.expectRefused(outcome, [place, "accumulator.decisions[", ".levitate: 'levitate' is not an outcome of decision kind "],
                            "an unknown decision outcome")
    }

    @Test("A record spliced from another shard, two records swapped with their labels, or its people edited are refused")
    func forgedIdentity() throws {
        let f = try Self.fixture()
        let third = try String(contentsOfFile: f.shards[2] + "/shard-state.jsonl", encoding: .utf8).components(separatedBy: "\n")
        let spliced = try f.forged("spliced") { ls in
            var ls = ls
            ls[1] = third[1]
            return ls
        }
        try f.expectRefused(spliced, ["record 1 (arm 'control', replication 1)", "a record of shard 3/3, not of this shard 2/3"], "a record of shard 3 in shard 2")
        let swapped = try f.forged("swapped") { ls in
            var ls = ls
            let a = ls[1].replacingOccurrences(of: #""arm":0,"arm_name":"control""#, with: #""arm":1,"arm_name":"premium-599""#)
            let b = ls[2].replacingOccurrences(of: #""arm":1,"arm_name":"premium-599""#, with: #""arm":0,"arm_name":"control""#)
            ls[1] = b; ls[2] = a
            return ls
        }
        let header = try String(contentsOfFile: f.shards[1] + "/shard-state.jsonl", encoding: .utf8)
        try #require(header.contains(#""arm":1,"arm_name":"premium-599""#), "the second arm's label: \(header.prefix(600))")
        try f.expectRefused(swapped, ["record 1 (arm 'control', replication 1)", "fails its seal"], "two records swapped, labels edited")
        let people = try f.forged("people") { ls in
            var ls = ls
            ls[1] = ls[1].replacingOccurrences(of: #""people":7"#, with: #""people":8"#)
            return ls
        }
        try f.expectRefused(people, ["record 1 (arm 'control', replication 1)", "fails its seal"], "people edited")
        let resealed = try f.forged("people-resealed") { ls in
            var ls = ls
            ls[1] = Self.reseal(ls[1].replacingOccurrences(of: #""people":7,"from":7,"to":14"#, with: #""people":8,"from":7,"to":15"#))
            return ls
        }
        try f.expectRefused(resealed, ["record 1 (arm 'control', replication 1)", "it holds 8 people, ids 7..<15; shard 2/3 of 21 is 7 people"],
                            "people edited and re-sealed")
    }
}
