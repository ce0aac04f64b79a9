import Foundation
import Testing
@testable import ScenarioFormat

/// Issue 11 ("silent acceptance ends"): input that used to run the 1000-person default, or to write somewhere
/// unexpected, is now a clear error naming the file, the key path, the value and what is allowed.
@Suite("Scenario input that is refused, not guessed")
struct SilentAcceptanceTests {
    func messages(_ yaml: String, file: String = "s.yaml", overrides: ScenarioOverrides = .none) -> [String] {
        TestCatalogue.error(yaml, file: file, overrides: overrides)?.issues.map(\.description) ?? []
    }

    @Test("an empty, comment-only or null document is an error", arguments: [
        ("", "is empty"), ("   \n\n", "is empty"), ("# only a comment\n# another\n", "holds only comments"), ("~\n", "holds only a null value"),
        ("null\n", "holds only a null value"),
    ])
    func emptyDocuments(_ yaml: String, _ phrase: String) {
        let m = messages(yaml)
        #expect(m.count == 1)
        #expect(m.first?.contains("the scenario file \(phrase)") == true, "\(m)")
    }

    @Test("a key with no value is an error, not the default", arguments: ["horizon_days:", "seed: ~", "population:\n  installs:"])
    func keyWithoutValue(_ text: String) {
        let m = messages("name: x\n" + text + "\n")
        #expect(m.contains { $0.contains("has no value") }, "\(m)")
    }

    @Test("names are bounded slugs: no '.', '..', separators, leading dots or hundreds of characters",
          arguments: [".", "..", "../x", "a/b", ".hidden", "with space", String(repeating: "a", count: 65)])
    func badNames(_ name: String) {
        let m = messages("name: '\(name)'\n")
        #expect(m.count == 1 && m[0].contains("name:") && m[0].contains("is not a usable name"), "\(m)")
    }

    @Test func goodNamesAndDefaultNames() throws {
        #expect(messages("name: a.b_c-1\n").isEmpty)
        #expect(messages("name: \(String(repeating: "a", count: 64))\n").isEmpty)
        let s = try TestCatalogue.loader.load(yaml: "product: scroll-off\n", fileName: "dir/..weird name!.yaml")
        #expect(s.name == "weird-name-")
        let long = try TestCatalogue.loader.load(yaml: "product: scroll-off\n", fileName: String(repeating: "b", count: 300) + ".yaml")
        #expect(long.name.count == 64)
    }

    @Test("dates before 1970 or after 2200 are refused", arguments: ["0000-01-01", "1969-12-31", "2201-01-01", "9999-12-01"])
    func dateRange(_ date: String) {
        let m = messages("start: \(date)\n")
        #expect(m.count == 1 && m[0].contains("start:") && m[0].contains("1970-01-01 to 2200-12-31"), "\(m)")
    }

    @Test("outputs.dir stays inside the scenario's folder unless --out is given",
          arguments: ["/home/me", "..", "../x", "a/../../b", ".", ""])
    func outputsDirEscapes(_ dir: String) throws {
        let m = messages("outputs:\n  dir: '\(dir)'\n", file: "/tmp/scen/s.yaml")
        #expect(m.count == 1 && m[0].contains("outputs.dir"), "\(m)")
        // An explicit --out takes the responsibility.
        #expect(messages("outputs:\n  dir: '\(dir)'\n", file: "/tmp/scen/s.yaml", overrides: ScenarioOverrides(outputDir: "/tmp/elsewhere")).isEmpty)
    }

    @Test func outputsDirIsRelativeToTheScenario() throws {
        let s = try TestCatalogue.loader.load(yaml: "outputs:\n  dir: out/r\n", fileName: "Scenarios/s.yaml")
        #expect(s.outputs.resolvedDir == "Scenarios/out/r")
        let d = try TestCatalogue.loader.load(yaml: "name: n\n", fileName: "Scenarios/s.yaml")
        #expect(d.outputs.resolvedDir == "Reports/n", "the default stays relative to the working directory")
    }

    @Test("a sweep with more points than a run may hold is refused before its arms are made")
    func hugeSweep() {
        let prices = (0..<1000).map { String(format: "%.2f", 1 + Double($0) / 100) }.joined(separator: ", ")
        let caps = (0...20).map(String.init).joined(separator: ", ")
        let m = messages("sweep:\n  rules.prices.premium_monthly: [\(prices)]\n  rules.tokens.monthly_purchase_cap: [\(caps)]\n")
        #expect(m.count == 1)
        #expect(m.first?.contains("21000 points (1000 × 21)") == true && m.first?.contains("--allow-large") == true, "\(m.prefix(1))")
    }

    @Test("a list of thousands of bad items is listed up to a limit, then counted")
    func issueCap() {
        let zones = (0..<500).map { "{zone: Nowhere/Z\($0), share: 1}" }.joined(separator: ", ")
        let m = messages("population:\n  time_zones: [\(zones)]\n")
        #expect(m.count == ScenarioChecker.maxIssues + 1)
        #expect(m.last?.contains("more problems not listed") == true, "\(m.suffix(1))")
    }

    @Test("trace_people must be inside the population")
    func tracePeople() {
        #expect(messages("population:\n  installs: 20\noutputs:\n  trace_people: [20]\n").first?.contains("person 20 is not in the population of 20") == true)
        #expect(messages("population:\n  installs: 20\noutputs:\n  trace_people: [0, 19]\n").isEmpty)
    }

    @Test("distribution parameters say what they need")
    func distributions() {
        let sd = messages("population:\n  personas:\n    - name: general\n      share: 1\n      params:\n        pickups_per_day: {distribution: normal, mean: 50, sd: -1}\n")
        #expect(sd.first?.contains("allowed a number > 0") == true, "\(sd)")
        let mu = messages("population:\n  personas:\n    - name: general\n      share: 1\n      params:\n        pickups_per_day: {distribution: lognormal, mu: 1000, sigma: 1}\n")
        #expect(mu.first?.contains("mu: value 1000 is out of range") == true, "\(mu)")
    }

    @Test("duplicate keys in a flow map name their key path and first line")
    func flowDuplicates() {
        let m = messages("name: x\npopulation: {installs: 5, installs: 6}\n")
        #expect(m == ["s.yaml:2:27: error: population.installs: duplicate key 'installs' (first given at line 2); allowed each key once per map"])
    }

    @Test("files that are not UTF-8 text say so, with where")
    func encodings() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("habitat-enc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let latin = dir.appendingPathComponent("latin.yaml")
        try Data("name: x\nhorizon_days: 14\n".utf8 + [0xE9, 0x3A, 0x20, 0x31, 0x0A]).write(to: latin)
        #expect(TestCatalogue.errorAt(path: latin.path)?.issues.first?.message.contains("not UTF-8 text: byte 0xE9 at line 3, column 1") == true)
        let utf16 = dir.appendingPathComponent("u16.yaml")
        try "name: x\n".data(using: .utf16)!.write(to: utf16)
        #expect(TestCatalogue.errorAt(path: utf16.path)?.issues.first?.message.contains("UTF-16") == true)
        #expect(TestCatalogue.errorAt(path: dir.path)?.issues.first?.message == "it is a folder, not a file")
        #expect(TestCatalogue.errorAt(path: "/dev/zero")?.issues.first?.message == "it is a device, not a regular file")
    }
}
