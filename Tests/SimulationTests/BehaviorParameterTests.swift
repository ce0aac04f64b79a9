import HabitatTestSupport
import Behavior
import Foundation
import ScenarioFormat
import Testing
@testable import Simulation
import ProductRegistry
@testable import ScrollOffLife

/// Issue 14 part 2: the behaviour parameters reach the simulated people. A run at the defaults is unchanged (the
/// goldens and baselines check that byte for byte); a changed value changes a run.
@Suite("Behaviour parameters in runs", .serialized)
struct BehaviorParameterTests {
    static func run(_ yaml: String) throws -> SimulationRun<ScrollOffProduct> {
        let scenario = try ScenarioLoader(catalogues: Products.catalogues).load(yaml: yaml, fileName: "behavior.yaml")
        var run = SimulationRun<ScrollOffProduct>(scenario: scenario, threads: 2)
        try run.simulate()
        return run
    }

    static func kpi(_ arm: ArmResult<ScrollOffProduct>, _ id: String) -> Double {
        arm.kpiValues.compactMap { $0.first { $0.0.id == id }?.1 }.reduce(0, +) / Double(max(1, arm.kpiValues.count))
    }

    @Test("the catalogue is registered, and an arm at the defaults builds the default models")
    func registeredAndDefault() throws {
        #expect(Products.catalogues.behavior == Products.behaviorParameters)
        let scenario = try ScenarioLoader(catalogues: Products.catalogues).load(yaml: "name: d\n", fileName: "d.yaml")
        #expect(BehaviorValues(scenario.arms[0].behavior) == BehaviorValues.defaults)
        let world = try World<ScrollOffProduct>(scenario: scenario, arm: scenario.arms[0], replication: 1)
        #expect(world.choice == ShieldChoiceModel(values: .defaults))
        #expect(world.purchase == PurchaseModel(values: .defaults))
        var engagement = EngagementModel(values: .defaults)
        engagement.valueChannels = ScrollOffProduct.valueChannels   // the product's own value channels (issue 39)
        #expect(world.engagement == engagement)
        // The product's own constants, from its own parameters' defaults (issue 42).
        #expect(world.constants == ScrollOffConstants(values: BehaviorValues(catalogue: ScrollOffProduct.behaviorCatalogue)))
        // The fitted defaults (Calibration/), not the models' component values.
        #expect(world.engagement.baseChurnHazard == BehaviorCatalogue.fittedDefaults["churn.base_hazard"])
    }

    /// Nobody only tries the app and dormant people rarely come back (component values), so the base hazard is what
    /// moves retention.
    @Test("a high churn base hazard lowers retention")
    func churnHazardLowersRetention() throws {
        let run = try Self.run("""
        name: churn
        horizon_days: 14
        population:
          installs: 60
        behavior:
          retention.trying_share: 0
          dormant.come_back_constant: -6
        arms:
          - name: control
          - name: leaky
            behavior:
              churn.base_hazard: 1
        """)
        let control = Self.kpi(run.arms[0], "d7_retention_actives"), leaky = Self.kpi(run.arms[1], "d7_retention_actives")
        #expect(leaky < control - 0.1, "d7 retention: control \(control), base hazard 1: \(leaky)")
        let world = try World<ScrollOffProduct>(scenario: run.scenario, arm: run.scenario.arms[1], replication: 1)
        #expect(world.engagement.baseChurnHazard == 1)
    }

    @Test("each of these behaviour parameters, changed alone, changes some report")
    func changedAloneChangesAReport() throws {
        let probes: [(String, Double)] = [
            ("churn.base_hazard", 0.95), ("churn.split.dormant", 0.01), ("engagement.app_open_habit_gain", 0.9),
            ("engagement.app_open_per_pickup_scale", 0.5), ("engagement.insight_view_probability", 1),
            ("churn.frustration_weight", 20), ("onboarding.completion.permission", 0.2),
            ("onboarding.completion.informational", 0.1), ("purchase.buy_constant", 3), ("purchase.tier_weight", 10),
            ("shield.urge_weight", 0), ("shield.temperature", 10), ("shield.constant.peek", -10),
        ]
        // The component purchase behaviour, so that purchases happen among 30 people (the purchase probes move them).
        var yaml = "name: probes\nhorizon_days: 10\npopulation:\n  installs: 60\n" + MechanismBehavior.yaml() + "arms:\n  - name: control\n"
        for (i, (key, value)) in probes.enumerated() { yaml += "  - name: p\(i)\n    behavior: {\(key): \(value)}\n" }
        let run = try Self.run(yaml)
        let prints = run.arms.map(ParameterSensitivityTests.fingerprint)
        for (i, (key, value)) in probes.enumerated() {
            let moved = prints[i + 1] != prints[0]
            #expect(moved, "behavior.\(key) = \(value) moved no report")
        }
    }

    @Test("withBehavior re-resolves a loaded scenario for a calibration step")
    func withBehaviorRuns() throws {
        let scenario = try ScenarioLoader(catalogues: Products.catalogues)
            .load(yaml: "name: w\nhorizon_days: 7\npopulation:\n  installs: 20\n", fileName: "w.yaml")
        let moved = try scenario.withBehavior(["churn.base_hazard": 0.9, "engagement.app_open_per_pickup_scale": 0.2])
        #expect(BehaviorValues(moved.arms[0].behavior)["churn.base_hazard"] == 0.9)
        #expect(moved.scenarioHash != scenario.scenarioHash, "the manifest's resolved scenario records the change")
        let world = try World<ScrollOffProduct>(scenario: moved, arm: moved.arms[0], replication: 1)
        #expect(world.appOpenPerPickupScale == 0.2)
        #expect(throws: ScenarioError.self) { try scenario.withBehavior(["churn.base_hazard": 7]) }
        #expect(throws: ScenarioError.self) { try scenario.withBehavior(["churn.no_such_key": 0.1]) }
    }
}
