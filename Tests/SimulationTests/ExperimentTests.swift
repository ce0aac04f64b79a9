import HabitatTestSupport
import Testing
import Reports
import ScenarioFormat
@testable import Simulation
import ProductRegistry
@testable import ScrollOffLife

/// Issue 5: arms run on the same people with the same urges (common random numbers), and `experiment.csv`
/// shows the paired difference beside the unpaired one.
@Suite("Paired experiment arms", .serialized)
struct ExperimentTests {
    static func run(_ yaml: String, threads: Int = 2) throws -> SimulationRun<ScrollOffProduct> {
        let scenario = try ScenarioLoader(catalogues: Products.catalogues).load(yaml: yaml, fileName: "test.yaml")
        var run = SimulationRun<ScrollOffProduct>(scenario: scenario, threads: threads)
        try run.simulate()
        return run
    }

    static func rows(_ t: CSVTable) -> [[String]] { CSVTable.parse(t.text).rows }

    @Test("arms that do not differ give identical per-person event streams and a paired difference of exactly zero")
    func identicalArms() throws {
        let run = try Self.run("""
        name: twins
        horizon_days: 14
        replications: 2
        population:
          installs: 24
        arms:
          - name: left
          - name: right
        """)
        for person in 0..<24 {
            let left = Self.rows(try run.trace(person: person, arm: "left", replication: 2))
            let right = Self.rows(try run.trace(person: person, arm: "right", replication: 2))
            #expect(left.count > 10)
            #expect(left == right, "person \(person): the two arms' timelines differ")
        }
        let comparisons = run.experiment()
        #expect(comparisons.count > 20)
        for c in comparisons where c.pairs > 0 {
            #expect(c.diff == 0, "\(c.kpi): paired difference \(String(describing: c.diff))")
            #expect(c.paired.map { $0.lower == 0 && $0.upper == 0 } ?? true, "\(c.kpi)")
        }
    }

    /// With the two named mechanisms by which a choice moves later pickups switched off: `urges.pickup_follows_actual_session`
    /// (a choice that differs between arms can end a session at another time, and the pickups after it follow that end;
    /// issue 39) and the habit fed or starved by what the person did (`urges.habit_residual_share` 1 holds it still;
    /// issue 26). Then the urges are the same people's in both arms.
    @Test("changing only the price leaves every person's urges identical (traces), while choices may differ")
    func priceChangeKeepsUrges() throws {
        let run = try Self.run("""
        name: price
        horizon_days: 21
        population:
          installs: 40
        \(MechanismBehavior.yaml())  urges.pickup_follows_actual_session: 0
          urges.habit_residual_share: 1
        arms:
          - name: control
          - name: premium-999
            rules:
              prices:
                premium_monthly: 9.99
        """)
        var comparedPickups = 0
        var someoneChoseDifferently = false
        for person in 0..<40 {
            let a = Self.rows(try run.trace(person: person, arm: "control", replication: 1))
            let b = Self.rows(try run.trace(person: person, arm: "premium-999", replication: 1))
            // time, kind and detail (source, session length, urge intensity) of every pickup
            let pa = a.filter { $0[2] == "pickup" }.map { [$0[0], $0[3]] }
            let pb = b.filter { $0[2] == "pickup" }.map { [$0[0], $0[3]] }
            let n = min(pa.count, pb.count)   // a person who uninstalls in one arm stops there
            #expect(Array(pa.prefix(n)) == Array(pb.prefix(n)), "person \(person): urges differ between arms")
            comparedPickups += n
            if a.filter({ $0[2] != "pickup" }).map({ [$0[0], $0[2], $0[3]] }) != b.filter({ $0[2] != "pickup" }).map({ [$0[0], $0[2], $0[3]] }) {
                someoneChoseDifferently = true
            }
        }
        #expect(comparedPickups > 40 * 21 * 30)
        #expect(someoneChoseDifferently, "a doubled price should change someone's purchases")
    }

    @Test("the paired interval of the price test is much narrower than the unpaired one")
    func pairingBuysPrecision() throws {
        let run = try Self.run("""
        name: price
        horizon_days: 14
        replications: 6
        population:
          installs: 150
        arms:
          - name: control
          - name: premium-599
            rules:
              prices:
                premium_monthly: 5.99
        """)
        let comparisons = Dictionary(uniqueKeysWithValues: run.experiment().map { ($0.kpi, $0) })
        for kpi in ["pickups_per_day", "shields_per_day", "willpower_win_share", "d1_retention"] {
            let c = try #require(comparisons[kpi])
            let gain = try #require(c.precisionGain, "\(kpi): no intervals")
            print("pairing: \(kpi) paired ±\(c.paired!.halfWidth) unpaired ±\(c.unpaired!.halfWidth) ratio \(gain)")
            #expect(gain < 0.25, "\(kpi): paired half-width is \(gain) of the unpaired one")
        }
    }
}

/// Issue 5: a precision target adds replications until the named KPIs are known well enough.
@Suite("Precision target", .serialized)
struct PrecisionTargetTests {
    static func scenario(target: Double, max: Int) -> String {
        """
        name: precise
        horizon_days: 7
        replications: 2
        population:
          installs: 30
        arms:
          - name: a
          - name: b
            rules:
              prices:
                premium_monthly: 5.99
        precision:
          kpis:
            pickups_per_day: \(target)
          max_replications: \(max)
        """
    }

    @Test("replications are added until the half-width is reached in every arm, and no further")
    func reachesTheTarget() throws {
        let run = try ExperimentTests.run(Self.scenario(target: 3.0, max: 12))
        let target = try #require(run.scenario.precision)
        let widths = run.precisionHalfWidths(target)
        #expect(run.replicationsRun >= 2 && run.replicationsRun <= 12)
        #expect(run.arms.allSatisfy { $0.replications == run.replicationsRun }, "arms stay paired")
        if run.replicationsRun < 12 {
            #expect(widths.allSatisfy { ($0.halfWidth ?? .infinity) <= 3.0 })
            // One replication fewer would not have met it (otherwise the loop would have stopped there).
            var fewer = SimulationRun<ScrollOffProduct>(scenario: run.scenario, threads: 2)
            fewer.arms = run.arms.map { var a = $0; a.kpiValues.removeLast(); return a }
            #expect(run.replicationsRun == 2 || !fewer.precisionHalfWidths(target).allSatisfy { ($0.halfWidth ?? .infinity) <= 3.0 })
        }
    }

    @Test("an unreachable target stops at max_replications")
    func stopsAtTheMaximum() throws {
        let run = try ExperimentTests.run(Self.scenario(target: 0, max: 4))
        #expect(run.replicationsRun == 4)
    }
}
