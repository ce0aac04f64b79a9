import Testing
import RulesCore
@testable import ScenarioFormat

@Suite("Scenario validation")
struct ScenarioValidationTests {
    @Test("an unknown key is reported with its line, column and a suggestion")
    func unknownKeyWithSuggestion() throws {
        let error = try #require(TestCatalogue.error("""
            name: typo
            horizon_dayz: 30
            """))
        #expect(error.issues.count == 1)
        let issue = try #require(error.issues.first)
        #expect(issue.kind == .unknownKey)
        #expect(issue.keyPath == "horizon_dayz")
        #expect(issue.suggestion == "horizon_days")
        #expect(issue.line == 2 && issue.column == 1)
        #expect(issue.description == "test.yaml:2:1: error: horizon_dayz: unknown key 'horizon_dayz'; did you mean 'horizon_days'?")
    }

    @Test("a wrong type says what was expected and what was given")
    func wrongType() throws {
        let error = try #require(TestCatalogue.error("""
            horizon_days: five
            """))
        let issue = try #require(error.issues.first)
        #expect(issue.kind == .wrongType)
        #expect(issue.keyPath == "horizon_days")
        #expect(issue.line == 1 && issue.column == 15)
        #expect(issue.description == "test.yaml:1:15: error: horizon_days: expected an integer, got 'five'; allowed an integer in 1…3650")
    }

    @Test("an out-of-range rule value names the key path, the value and the range")
    func outOfRangeRule() throws {
        let error = try #require(TestCatalogue.error("""
            rules:
              tokens:
                monthly_purchase_cap: 50
            """))
        let issue = try #require(error.issues.first)
        #expect(issue.kind == .outOfRange)
        #expect(issue.value == "50")
        #expect(issue.allowed == "an integer in 0…20")
        #expect(issue.description == "test.yaml:3:27: error: rules.tokens.monthly_purchase_cap: value 50 is out of range; allowed an integer in 0…20")
    }

    @Test("every problem in a file is reported in one load, in file order, with a count")
    func severalErrorsAtOnce() throws {
        let error = try #require(TestCatalogue.error("""
            name: many-problems
            product: scroll-off
            horizon_dayz: 30
            replications: 0
            start: 2026-02-30
            population:
              installs: lots
              personas:
                - name: student
                  share: 0.5
                - name: worker
                  share: 0.4
            rules:
              tokens:
                monthly_purchase_cap: 50
              prices:
                premium_montly: 5.99
            arms:
              - name: a
              - name: a
                rules:
                  curfew:
                    start: "25:00"
            """, file: "many.yaml"))
        let paths = error.issues.map(\.keyPath)
        #expect(paths == [
            "horizon_dayz", "replications", "start", "population.installs", "population.personas",
            "rules.tokens.monthly_purchase_cap", "rules.prices.premium_montly", "arms[1].name", "arms[1].rules.curfew.start",
        ])
        #expect(error.issues.allSatisfy { $0.line != nil && $0.column != nil && $0.file == "many.yaml" })
        let lines = error.description.split(separator: "\n")
        #expect(lines.count == 10)
        #expect(lines.last == "9 errors in many.yaml")
        #expect(lines[0] == "many.yaml:3:1: error: horizon_dayz: unknown key 'horizon_dayz'; did you mean 'horizon_days'?")
        #expect(lines[1] == "many.yaml:4:15: error: replications: value 0 is out of range; allowed an integer in 1…10000")
        #expect(lines[2] == "many.yaml:5:8: error: start: '2026-02-30' is not a valid date; allowed a date YYYY-MM-DD from 1970-01-01 to 2200-12-31")
        #expect(lines[3] == "many.yaml:7:13: error: population.installs: expected an integer, got 'lots'; allowed an integer in 1…10000000")
        #expect(lines[4].hasPrefix("many.yaml:9:5: error: population.personas: shares add up to 0.9, not 1"))
        #expect(lines[6] == "many.yaml:17:5: error: rules.prices.premium_montly: unknown rule parameter 'premium_montly' for 'prices'; did you mean 'premium_monthly'?")
        #expect(lines[7].hasPrefix("many.yaml:20:11: error: arms[1].name: duplicate name 'a'"))
        #expect(lines[8] == "many.yaml:23:16: error: arms[1].rules.curfew.start: expected a time of day HH:MM, got '25:00'; allowed a time of day HH:MM")
    }

    @Test("an unknown product is reported with a suggestion")
    func unknownProduct() throws {
        let error = try #require(TestCatalogue.error("product: scrol-off\n"))
        let issue = try #require(error.issues.first)
        #expect(error.issues.count == 1)
        #expect(issue.keyPath == "product")
        #expect(issue.suggestion == "scroll-off")
        #expect(issue.description.contains("allowed one of scroll-off, nudge, lazuri, earned-access, clavis"))
    }

    @Test("shares that do not sum to one are an error, within 1e-6")
    func sharesMustSumToOne() throws {
        let error = try #require(TestCatalogue.error("""
            population:
              devices:
                - model: iphone-13
                  share: 0.5
                - model: iphone-15
                  share: 0.3
            """))
        let issue = try #require(error.issues.first)
        #expect(issue.kind == .sharesDoNotSumToOne)
        #expect(issue.keyPath == "population.devices")
        #expect(issue.line == 3)
        #expect(issue.value == "0.5 + 0.3")
        // Within the tolerance is fine.
        _ = try TestCatalogue.loader.load(yaml: """
            population:
              devices:
                - {model: a, share: 0.3333333}
                - {model: b, share: 0.3333333}
                - {model: c, share: 0.3333334}
            """)
    }

    @Test("a time zone not in the tz database is reported with a suggestion")
    func badZone() throws {
        let error = try #require(TestCatalogue.error("""
            population:
              time_zones:
                - zone: America/New_Yrok
                  share: 1
            """))
        let issue = try #require(error.issues.first)
        #expect(issue.kind == .badZone)
        #expect(issue.keyPath == "population.time_zones[0].zone")
        #expect(issue.line == 3 && issue.column == 13)
        #expect(issue.suggestion == "America/New_York")
    }

    @Test("rules in arms are checked against the product catalogue")
    func armRulesChecked() throws {
        let error = try #require(TestCatalogue.error("""
            arms:
              - name: control
              - name: premium-599
                rules:
                  prices:
                    premium_monthly: 500
                  tokens: {grant_minutes: 10.5}
                  plan:
                    default: premum
                  curfew:
                    enabled: maybe
                    days: [mon, tues, funday]
              - name: bad-key
                rules:
                  tokens.monthly_purchase_cup: 3
            """))
        let byPath = Dictionary(error.issues.map { ($0.keyPath, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byPath["arms[1].rules.prices.premium_monthly"]?.kind == .outOfRange)
        #expect(byPath["arms[1].rules.prices.premium_monthly"]?.allowed == "a number in 0.99…99.99")
        #expect(byPath["arms[1].rules.tokens.grant_minutes"]?.message == "expected an integer, got '10.5'")
        #expect(byPath["arms[1].rules.plan.default"]?.suggestion == "premium")
        #expect(byPath["arms[1].rules.curfew.enabled"]?.kind == .wrongType)
        #expect(byPath["arms[1].rules.curfew.days"]?.value == "funday")
        #expect(byPath["arms[2].rules.tokens.monthly_purchase_cup"]?.suggestion == "tokens.monthly_purchase_cap")
        #expect(error.issues.count == 6)
    }

    @Test("duplicate keys are reported with everything else")
    func duplicateKeys() throws {
        let error = try #require(TestCatalogue.error("""
            seed: 1
            replications: 2
            seed: 2
            horizon_days: 0
            population:
              installs: 5
              installs: 6
            """))
        #expect(error.issues.map(\.kind) == [.duplicateKey, .outOfRange, .duplicateKey])
        #expect(error.issues[0].keyPath == "seed")
        #expect(error.issues[0].line == 3)
        #expect(error.issues[0].message.contains("first given at line 1"))
        #expect(error.issues[2].keyPath == "population.installs")
        #expect(error.issues[2].line == 7 && error.issues[2].column == 3)
    }

    @Test("a YAML syntax error becomes a located issue")
    func syntaxError() throws {
        let error = try #require(TestCatalogue.error("""
            name: broken
            population:
              installs: [1, 2
            seed: 3
            """))
        #expect(error.issues.count == 1)
        let issue = try #require(error.issues.first)
        #expect(issue.kind == .syntax)
        #expect(issue.line != nil && issue.column != nil)
        #expect(issue.description.hasPrefix("test.yaml:"))
    }

    @Test("a missing required key, and a product without a catalogue, are explained")
    func missingAndNoCatalogue() throws {
        let error = try #require(TestCatalogue.error("""
            product: nudge
            population:
              personas:
                - share: 1
            rules:
              queue:
                size: 3
            """))
        #expect(error.issues.map(\.kind) == [.missingKey, .invalid])
        #expect(error.issues[0].keyPath == "population.personas[0].name")
        #expect(error.issues[1].message == "product 'nudge' has no rule catalogue yet, so it accepts no rules keys")
    }

    @Test("sweeps check their key paths, values and zip groups")
    func sweepChecked() throws {
        let ok = try TestCatalogue.loader.load(yaml: """
            sweep:
              rules.tokens.monthly_purchase_cap: [3, 5, 8]
              rules.prices.premium_monthly: [4.99, 5.99, 6.99]
              population.installs: [30, 60]
              zip:
                - [rules.tokens.monthly_purchase_cap, rules.prices.premium_monthly]
            """)
        #expect(ok.sweep.axes.map(\.keyPath) == ["rules.tokens.monthly_purchase_cap", "rules.prices.premium_monthly", "population.installs"])
        #expect(ok.sweep.axes[1].values == [.number(4.99), .number(5.99), .number(6.99)])
        #expect(ok.sweep.zip == [["rules.tokens.monthly_purchase_cap", "rules.prices.premium_monthly"]])

        let error = try #require(TestCatalogue.error("""
            sweep:
              rules.tokens.monthly_purchase_cap: [3, 50]
              rules.prices.premium_monthly: [4.99]
              population.instals: [30]
              horizon_days: [30, 60]
              zip:
                - [rules.tokens.monthly_purchase_cap, rules.prices.premium_monthly]
                - [seed, horizon_days]
            """))
        let paths = error.issues.map(\.keyPath)
        #expect(paths == ["sweep.rules.tokens.monthly_purchase_cap[1]", "sweep.population.instals", "sweep.horizon_days", "sweep.zip[0]",
                          "sweep.zip[1][0]", "sweep.zip[1][1]"])
        #expect(error.issues[1].suggestion == "population.installs")
        #expect(error.issues[2].message.contains("cannot be swept: the arms of a sweep run on the same people"))
    }

    @Test("command-line override problems are reported against the command line")
    func badOverrides() throws {
        let error = try #require(TestCatalogue.error("product: scroll-off\n", overrides: ScenarioOverrides(days: 0, values: ["rules.tokens.monthly_purchase_capp": "3", "sead": "1"])))
        #expect(error.issues.allSatisfy { $0.file == ScenarioLoader.commandLine && $0.line == nil })
        #expect(error.issues.map(\.keyPath) == ["rules.tokens.monthly_purchase_capp", "sead", "horizon_days"])
        #expect(error.issues[0].suggestion == "rules.tokens.monthly_purchase_cap")
        #expect(error.issues[1].suggestion == "seed")
        #expect(error.issues[2].description == "<command line>: error: horizon_days: value 0 is out of range; allowed an integer in 1…3650")
    }
}
