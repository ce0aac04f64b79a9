import Foundation
import Testing
import RulesCore
@testable import ScenarioFormat

/// Inputs found by fuzzing the loader (Fuzz/README.md) that were slow or would not finish; each has its file
/// in Fuzz/regressions/, which `make fuzz-smoke` replays.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    /// Seconds a hostile input may take here (debug build, busy machine); before the fixes these took minutes.
    static let budget: Duration = .seconds(10)

    static func timed<T>(_ body: () throws -> T) rethrows -> (T, Duration) {
        let clock = ContinuousClock()
        var result: T?
        let elapsed = try clock.measure { result = try body() }
        return (result!, elapsed)
    }

    @Test("a 1000 × 1000 sweep is refused before its million arms are built")
    func hugeSweepGrid() throws {
        let values = (0..<1000).map(String.init).joined(separator: ", ")
        let yaml = """
            sweep:
              population.installs: [\((1...1000).map(String.init).joined(separator: ", "))]
              population.params.urge_rate: [\(values)]
            """
        let (error, elapsed) = Self.timed { TestCatalogue.error(yaml) }
        let issue = try #require(error?.issues.first)
        #expect(error?.issues.count == 1)
        #expect(issue.kind == .outOfRange)
        #expect(issue.keyPath == "sweep")
        #expect(issue.message.contains("1000000"))
        #expect(elapsed < Self.budget)
    }

    @Test("a sweep up to the most arms still loads (more with --allow-large), and the count needs no expansion")
    func sweepAtTheLimit() throws {
        let s = try TestCatalogue.loader.load(yaml: """
            sweep:
              population.installs: [\((1...111).map(String.init).joined(separator: ", "))]
              rules.tokens.grant_minutes: [\((1...9).map(String.init).joined(separator: ", "))]
            """)
        #expect(s.sweep.pointCount == 999)
        #expect(s.arms.count == 1000)
        var large = TestCatalogue.loader
        large.maxArms = ScenarioLoader.largeMaxArms
        let big = try large.load(yaml: """
            sweep:
              population.installs: [\((1...100).map(String.init).joined(separator: ", "))]
              rules.tokens.grant_minutes: [\((1...50).map(String.init).joined(separator: ", "))]
              rules.tokens.monthly_purchase_cap: [1, 2]
            """)
        #expect(big.sweep.pointCount == 10_000 && big.arms.count == 10_001)
        // Zip groups count once; a huge grid is counted, not built.
        let zipped = SweepSpec(axes: [.init(keyPath: "a", values: [.int(1), .int(2)]), .init(keyPath: "b", values: [.int(1), .int(2)])],
                               zip: [["a", "b"]])
        #expect(zipped.pointCount == 2 && zipped.points.count == 2)
        let many = (0..<40).map { SweepSpec.Axis(keyPath: "k\($0)", values: Array(repeating: ParameterValue.int(1), count: 10)) }
        #expect(SweepSpec(axes: many, zip: []).pointCount > 9.99e39)
    }

    @Test("a very long unknown time zone is refused at once, without scanning it for a suggestion")
    func longUnknownZone() throws {
        let zone = String(repeating: "Europe/Berlinx", count: 1500)
        let (error, elapsed) = Self.timed {
            TestCatalogue.error("population:\n  time_zones: [{zone: \(zone), share: 1}]\n")
        }
        let issue = try #require(error?.issues.first)
        #expect(issue.kind == .wrongType && issue.message.contains("bytes of text"), "\(issue)")
        #expect(issue.suggestion == nil)
        #expect(elapsed < Self.budget)
    }

    @Test("hundreds of misspelt time zones are all reported, each with its suggestion, quickly")
    func manyUnknownZones() throws {
        let zones = (0..<150).map { "{zone: Europe/Berln\($0 % 10), share: 1}" }.joined(separator: ", ")
        let (error, elapsed) = Self.timed { TestCatalogue.error("population:\n  time_zones: [\(zones)]\n") }
        let bad = try #require(error).issues.filter { $0.kind == .badZone }
        #expect(bad.count == 150)
        #expect(bad.allSatisfy { $0.suggestion == "Europe/Berlin" })
        #expect(elapsed < Self.budget)
    }

    @Test("the cut-off edit distance suggests exactly what the full one does")
    func suggestionUnchanged() {
        /// The rule before the cut-off: the first candidate at the smallest distance, if within the limit.
        func reference(_ word: String, _ candidates: [String]) -> String? {
            let w = Array(word.lowercased())
            var best: (String, Int)?
            for c in candidates {
                let d = Suggestion.distance(w, Array(c.lowercased()))
                if d < (best?.1 ?? .max) { best = (c, d) }
            }
            guard let (c, d) = best, d <= max(2, w.count / 3) else { return nil }
            return c
        }
        let candidates = ["horizon_days", "replications", "population", "name", "seed", "start", "product", "rules", "arms",
                          "sweep", "precision", "outputs", "Europe/Berlin", "Europe/Bern", "America/New_York", "", "a", "ab"]
        var words = candidates + ["horizon_dayz", "HORIZON", "replicashuns", "nmae", "sede", "x", "", "rulez", "Europe/Berln",
                                  "europe/bern", "America/NewYork", "armss", "swep", "populaton", "outptus", "zzzzzzzzzzzzzzz"]
        var generator = SplitMix(state: 2026)
        for _ in 0..<300 {
            var w = Array(candidates.randomElement(using: &generator)!)
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                let i = Int.random(in: 0...w.count, using: &generator)
                switch Int.random(in: 0...2, using: &generator) {
                case 0: w.insert("qx_".randomElement(using: &generator)!, at: i)
                case 1: if i < w.count { w.remove(at: i) }
                default: if i < w.count { w[i] = "e" }
                }
            }
            words.append(String(w))
        }
        for w in words {
            #expect(Suggestion.closest(to: w, among: candidates) == reference(w, candidates), "\(w)")
            #expect(Suggestion.closest(to: w, among: candidates.reversed()) == reference(w, candidates.reversed()), "\(w)")
        }
    }

    @Test("keys and text that YAML would misread are quoted and escaped in the resolved YAML, which loads back equal")
    func resolvedYAMLQuotesWhatItMust() throws {
        let s = try TestCatalogue.loader.load(yaml: """
            population:
              personas: [{name: a, share: 1, params: {"k: v": 1}}]
            sweep:
              "population.params.x: y": [1, 2]
            precision:
              kpis: {"a: b": 1, "#c": 2, "- d": 3, "e\\rf\\u0001g\\u2028h\\u0085": 4}
            outputs:
              dir: "out\\r\\u007Fdir\\u0002"
            """)
        #expect(s.precision?.halfWidths.count == 4)
        #expect(s.sweep.axes.first?.keyPath == "population.params.x: y")
        let again = try TestCatalogue.loader.load(yaml: s.yaml)
        #expect(again == s)
        #expect(again.yaml == s.yaml)
        // Plain keys and names stay plain, so the hash of every ordinary scenario is unchanged.
        let plain = try TestCatalogue.loader.load(yaml: "precision: {kpis: {mrr: 1}}\nsweep: {rules.tokens.grant_minutes: [5]}\n")
        #expect(plain.yaml.contains("\n    mrr: 1.0\n") && plain.yaml.contains("\n  rules.tokens.grant_minutes: [5]\n"))
    }

    @Test("nesting deeper than libyaml allows is a syntax issue, not a stack overflow")
    func deepNesting() throws {
        let depth = 100_000
        for yaml in [
            "outputs:\n  trace_people: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n",
            "rules: " + String(repeating: "{a: ", count: depth) + "1" + String(repeating: "}", count: depth) + "\n",
        ] {
            let issue = try #require(TestCatalogue.error(yaml)?.issues.first)
            #expect(issue.kind == .syntax)
        }
        // Within libyaml's limit, deep rules maps are unknown keys at their first level, not a deep recursion.
        let rules = "rules: " + String(repeating: "{a: ", count: 900) + "1" + String(repeating: "}", count: 900) + "\n"
        let issues = try #require(TestCatalogue.error(rules)).issues
        #expect(issues.count == 1 && issues[0].kind == .unknownKey && issues[0].keyPath == "rules.a")
    }
}

/// A fixed-seed generator, so the word list above is the same on every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
