import Testing
import Foundation
import RulesCore
@testable import ScenarioFormat

@Suite("Scenario resolution")
struct ScenarioResolutionTests {
    let loader = TestCatalogue.loader

    @Test("a scenario that states only its product gets every default")
    func defaultsFilled() throws {
        let s = try loader.load(yaml: "product: scroll-off\n", fileName: "Scenarios/baseline.yaml")
        #expect(s.name == "baseline")
        #expect(s.product == "scroll-off")
        #expect(s.seed == 20_261_122)
        #expect(s.start == LocalDate(year: 2026, month: 1, day: 5))
        #expect(s.horizonDays == 90)
        #expect(s.replications == 1)
        #expect(s.population.installs == 1000)
        #expect(s.population.personas == [PersonaShare(name: "general", share: 1)])
        #expect(s.population.devices == [DeviceShare(model: "iphone-13", share: 1)])
        #expect(s.population.timeZones == [ZoneShare(zone: "America/New_York", share: 1)])
        #expect(s.arms.map(\.name) == ["control"])
        #expect(s.rules.values.count == TestCatalogue.parameters.count)
        #expect(s.arms[0].rules == s.rules)
        #expect(s.rules["tokens.monthly_purchase_cap"] == .int(3))
        #expect(s.rules["curfew.start"] == .text("23:00"))
        #expect(s.sweep.isEmpty)
        #expect(s.outputs == OutputSpec(dir: "Reports/baseline", tracePeople: []))
    }

    static let experiment = """
        name: premium-price-test
        product: scroll-off
        seed: 7
        start: 2026-03-02
        horizon_days: 60
        replications: 5
        population:
          installs: 10000
          personas:
            - name: student
              share: 0.4
              params:
                urge_rate: 1.25
                habit_days: {distribution: lognormal, mu: 4.2, sigma: 0.5}
            - name: late-night-scroller
              share: 0.3
            - name: worker
              share: 0.3
          time_zones:
            - {zone: Europe/Berlin, share: 0.25}
            - {zone: America/Los_Angeles, share: 0.75}
        rules:
          tokens:
            monthly_purchase_cap: 5
          curfew:
            enabled: yes
            start: 22:30
            days: [mon, tue, wed]
        arms:
          - name: control
          - name: premium-599
            rules:
              prices:
                premium_monthly: 5.99
          - name: cap-8
            rules:
              tokens.monthly_purchase_cap: 8
            population:
              installs: 2000
        sweep:
          rules.tokens.grant_minutes: [5, 10, 15]
        outputs:
          dir: out/premium
          trace_people: [1, 42]
        """

    @Test("arm rules layer over scenario rules over catalogue defaults")
    func layering() throws {
        let s = try loader.load(yaml: Self.experiment, fileName: "premium.yaml")
        let control = try #require(s.arm(named: "control"))
        let premium = try #require(s.arm(named: "premium-599"))
        let cap8 = try #require(s.arm(named: "cap-8"))
        // Scenario level over defaults.
        #expect(s.rules["tokens.monthly_purchase_cap"] == .int(5))
        #expect(s.rules["prices.premium_monthly"] == .number(4.99))
        #expect(s.rules["curfew.enabled"] == .bool(true))
        #expect(s.rules["curfew.start"] == .text("22:30"))
        #expect(s.rules.weekdays("curfew.days") == [.monday, .tuesday, .wednesday])
        #expect(control.rules == s.rules)
        // Arm over scenario.
        #expect(premium.rules["prices.premium_monthly"] == .number(5.99))
        #expect(premium.rules["tokens.monthly_purchase_cap"] == .int(5))
        #expect(cap8.rules["tokens.monthly_purchase_cap"] == .int(8))
        #expect(cap8.rules["prices.premium_monthly"] == .number(4.99))
        // Arm population overrides only what it names.
        #expect(cap8.population.installs == 2000)
        #expect(cap8.population.personas == s.population.personas)
        #expect(premium.population == s.population)
        #expect(s.population.personas[0].params["habit_days"] == .lognormalMu(mu: 4.2, sigma: 0.5))
        #expect(s.population.personas[0].params["urge_rate"] == .fixed(1.25))
        #expect(s.outputs == OutputSpec(dir: "out/premium", tracePeople: [1, 42]))
    }

    @Test("command-line overrides win over the file and its arms")
    func commandLineWins() throws {
        let overrides = ScenarioOverrides(seed: 99, replications: 3, people: 500, days: 14, outputDir: "tmp/x",
                                          values: ["rules.tokens.monthly_purchase_cap": "7", "rules.curfew.days": "[sat, sun]", "seed": "1"])
        let s = try loader.load(yaml: Self.experiment, fileName: "premium.yaml", overrides: overrides)
        #expect(s.seed == 99)
        #expect(s.replications == 3)
        #expect(s.horizonDays == 14)
        #expect(s.population.installs == 500)
        #expect(s.arms.allSatisfy { $0.population.installs == 500 })
        #expect(s.arms.allSatisfy { $0.rules["tokens.monthly_purchase_cap"] == .int(7) })
        #expect(s.arms.allSatisfy { $0.rules.weekdays("curfew.days") == .weekend })
        #expect(s.arm(named: "premium-599")?.rules["prices.premium_monthly"] == .number(5.99))
        #expect(s.outputs.dir == "tmp/x")
    }

    @Test("the resolved YAML loads back to an equal scenario with the same hash")
    func roundTrip() throws {
        let s = try loader.load(yaml: Self.experiment, fileName: "premium.yaml",
                                overrides: ScenarioOverrides(values: ["rules.plan.default": "pro"]))
        let text = s.yaml
        let again = try loader.load(yaml: text, fileName: "other-name.yaml")
        #expect(again == s)
        #expect(again.yaml == text)
        #expect(again.scenarioHash == s.scenarioHash)
        #expect(s.scenarioHash.count == 16)
        #expect(text.contains("""
            rules:
              curfew:
                days: [mon, tue, wed]
                enabled: true
                start: "22:30"
              plan:
                default: pro
            """))
        #expect(text.contains("""
              - name: premium-599
                rules:
                  prices:
                    premium_monthly: 5.99
            """))
        // Defaults round-trip too, and a different scenario hashes differently.
        let plain = try loader.load(yaml: "product: scroll-off\n", fileName: "baseline.yaml")
        #expect(try loader.load(yaml: plain.yaml) == plain)
        #expect(plain.scenarioHash != s.scenarioHash)
    }

    @Test("explain lists every rule parameter with value, default, range and source")
    func explain() throws {
        let s = try loader.load(yaml: Self.experiment, fileName: "premium.yaml")
        let table = s.explain(TestCatalogue.parameters)
        let lines = table.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("key"))
        #expect(lines[0].contains("value[premium-599]"))
        let cap = try #require(lines.first { $0.hasPrefix("rules.tokens.monthly_purchase_cap") })
        #expect(cap.contains("5 *"))
        #expect(cap.contains("8 *"))
        #expect(cap.contains("an integer in 0…20"))
        #expect(cap.contains("seed 000_5f03618b73c6ae9a.txt §4.3"))
        let grant = try #require(lines.first { $0.hasPrefix("rules.tokens.grant_minutes") })
        #expect(grant.contains("assumption: the seed does not say what a token grants"))
        #expect(lines.last?.contains("7 rule parameters") == true)
    }

    @Test("FNV-1a 64 matches its published test vectors")
    func fnv() {
        #expect(FNV1a64.hex("") == "cbf29ce484222325")
        #expect(FNV1a64.hex("a") == "af63dc4c8601ec8c")
        #expect(FNV1a64.hex("foobar") == "85944171f73967e8")
    }
}

@Suite("Scenario files on disk")
struct ScenarioFileTests {
    @Test("load(path:) reads a file and names it in issues; a missing file is one issue")
    func fromDisk() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("habitat-scenario-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = dir.appendingPathComponent("nudge-baseline.yaml")
        try "product: nudge\nreplications: 2\n".write(to: good, atomically: true, encoding: .utf8)
        let s = try TestCatalogue.loader.load(path: good.path)
        #expect(s.name == "nudge-baseline")
        #expect(s.product == "nudge")
        #expect(s.rules.values.isEmpty)
        #expect(s.explain([]).contains("no rule catalogue"))
        #expect(try TestCatalogue.loader.load(yaml: s.yaml) == s)

        let bad = dir.appendingPathComponent("bad.yaml")
        try "seed: x\n".write(to: bad, atomically: true, encoding: .utf8)
        #expect(throws: ScenarioError.self) { try TestCatalogue.loader.load(path: bad.path) }
        do { _ = try TestCatalogue.loader.load(path: bad.path) } catch {
            #expect(error.issues.first?.file == bad.path)
            #expect(error.issues.first?.line == 1)
        }
        do { _ = try TestCatalogue.loader.load(path: dir.appendingPathComponent("missing.yaml").path) } catch {
            #expect(error.issues.count == 1)
            #expect(error.issues[0].message == "the file does not exist")
        }
    }
}
