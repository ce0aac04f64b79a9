import Testing
import RulesCore
@testable import ScenarioFormat

/// Issue 5: each point of a `sweep:` grid becomes an arm named after its values.
@Suite("Sweep expansion")
struct SweepExpansionTests {
    @Test("a 3×2 Cartesian grid gives six arms after the control, first axis slowest, named after their values")
    func cartesian() throws {
        let s = try TestCatalogue.loader.load(yaml: """
            sweep:
              rules.tokens.monthly_purchase_cap: [3, 5, 8]
              rules.tokens.grant_minutes: [5, 10]
            """)
        #expect(s.arms.map(\.name) == ["control",
                                       "monthly_purchase_cap=3;grant_minutes=5", "monthly_purchase_cap=3;grant_minutes=10",
                                       "monthly_purchase_cap=5;grant_minutes=5", "monthly_purchase_cap=5;grant_minutes=10",
                                       "monthly_purchase_cap=8;grant_minutes=5", "monthly_purchase_cap=8;grant_minutes=10"])
        let arm = try #require(s.arm(named: "monthly_purchase_cap=8;grant_minutes=5"))
        #expect(arm.rules["tokens.monthly_purchase_cap"] == .int(8))
        #expect(arm.rules["tokens.grant_minutes"] == .int(5))
        #expect(arm.fromSweep)
        #expect(s.arms[0].rules == s.rules)
        // The resolved YAML lists the sweep, not its arms, and loads back to the same scenario.
        let again = try TestCatalogue.loader.load(yaml: s.yaml)
        #expect(again == s)
        #expect(again.scenarioHash == s.scenarioHash)
    }

    @Test("zipped key paths move in lock-step and cross with the rest")
    func zipped() throws {
        let s = try TestCatalogue.loader.load(yaml: """
            arms:
              - name: base
            sweep:
              rules.prices.premium_monthly: [4.99, 5.99]
              population.installs: [100, 200, 300]
              rules.tokens.grant_minutes: [10, 20]
              zip:
                - [rules.prices.premium_monthly, rules.tokens.grant_minutes]
            """)
        #expect(s.arms.map(\.name) == ["base",
                                       "premium_monthly=4.99;grant_minutes=10;installs=100", "premium_monthly=4.99;grant_minutes=10;installs=200",
                                       "premium_monthly=4.99;grant_minutes=10;installs=300", "premium_monthly=5.99;grant_minutes=20;installs=100",
                                       "premium_monthly=5.99;grant_minutes=20;installs=200", "premium_monthly=5.99;grant_minutes=20;installs=300"])
        #expect(s.arms[6].population.installs == 300)
        #expect(s.arms[6].rules["tokens.grant_minutes"] == .int(20))
    }

    @Test("behaviour parameters sweep for every persona or for one; an unknown persona gets a suggestion")
    func behaviour() throws {
        let s = try TestCatalogue.loader.load(yaml: """
            population:
              personas:
                - name: student
                  share: 0.5
                - name: worker
                  share: 0.5
            sweep:
              population.params.urge_share: [0.2, 0.4]
              population.personas.worker.params.pickups_per_day: [60]
            """)
        #expect(s.arms.map(\.name) == ["control", "urge_share=0.2;pickups_per_day=60", "urge_share=0.4;pickups_per_day=60"])
        let a = s.arms[2].population.personas
        #expect(a[0].params["urge_share"] == .fixed(0.4) && a[1].params["urge_share"] == .fixed(0.4))
        #expect(a[0].params["pickups_per_day"] == nil && a[1].params["pickups_per_day"] == .fixed(60))
        let error = try #require(TestCatalogue.error("""
            population:
              personas:
                - name: student
                  share: 1
            sweep:
              population.personas.studnet.params.urge_share: [0.2]
            """))
        #expect(error.issues.map(\.keyPath) == ["sweep.population.personas.studnet.params.urge_share"])
        #expect(error.issues[0].suggestion == "student")
    }

    @Test("two sweep points with the same name (repeated values) are an error")
    func clash() throws {
        let error = try #require(TestCatalogue.error("""
            sweep:
              rules.tokens.monthly_purchase_cap: [3, 3]
            """))
        #expect(error.issues.map(\.kind) == [.duplicateName])
    }
}
