import Behavior
import EarnedAccessLife
import Foundation
import NudgeLife
import ProductRegistry
import Reports
import RulesCore
import ScenarioFormat
import ScrollOffLife
import Testing
@testable import Simulation

/// A toy adapter that declares a behaviour parameter of its own and reads it into its constants (issue 42): nothing
/// outside its declaration names the key.
enum PatientToy: ProductAdapter {
    typealias Engine = Toy.Engine
    typealias Metrics = Toy.Metrics
    struct Constants: Sendable, Equatable { var patience: Double }
    static func initialState() -> Int { 0 }
    static func initialTally() -> Counters<Toy.Count> { Counters() }
    static var behaviorParameterGroups: [BehaviorParameterGroup] {
        [BehaviorParameterGroup(after: "churn.base_hazard", [
            BehaviorCatalogue.parameter("toy.patience", 0.4, 0...1, "how long a toy user waits", .publication("a toy source, 2026")),
        ])]
    }
    static func constants(_ values: BehaviorValues) -> Constants { Constants(patience: values["toy.patience"]) }
}

@Suite("Behaviour parameters a product declares (issue 42)")
struct ProductBehaviorParameterTests {
    @Test("the registered products assemble without a conflict: every key once, each product's keys among them")
    func registeredProductsAssemble() throws {
        let all = try Products.assembledBehaviorParameters()
        #expect(all == Products.behaviorParameters)
        #expect(Set(all.map(\.keyPath)).count == all.count)
        var count = BehaviorCatalogue.parameters.count
        for r in Products.registered { count += r.adapter.behaviorParameters.count }
        #expect(all.count == count)
        let keys = Set(all.map(\.keyPath))
        for key in ["focus.sessions_per_day", "habits.max_count", "capture.constant", "card.snooze_share", "reminder.act_constant",
                    "engagement.plans_view_probability", "shield.constant.peek", "shield.constant.quest", "engagement.frustration.limit_hit"] {
            #expect(keys.contains(key), "\(key)")
            #expect(BehaviorCatalogue.byKey[key] == nil, "\(key) is a product's, not generic")
        }
        #expect(EarnedAccessAdapter.behaviorParameters.contains { $0.keyPath == "focus.median_minutes" })
        #expect(NudgeAdapter.behaviorParameters.contains { $0.keyPath == "capture.constant" })
        #expect(NoAppAdapterHasNone.check)
    }

    @Test("a product's key is accepted in a scenario of products as arms, and each product's world reads its own")
    func valuesReachEveryProductsWorld() throws {
        let yaml = """
            name: arms
            horizon_days: 3
            population:
              installs: 4
            behavior:
              card.snooze_share: 0.9
              shield.constant.peek: 1.5
              focus.median_minutes: 40
            arms:
              - name: so
                product: scroll-off
              - name: nudge
                product: nudge
              - name: ea
                product: earned-access
                behavior:
                  engagement.frustration.detour: 0.2
            """
        let scenario = try ScenarioLoader(catalogues: Products.catalogues).load(yaml: yaml, fileName: "arms.yaml")
        let so = try World<ScrollOffProduct>(scenario: scenario, arm: scenario.arms[0], replication: 1)
        let nudge = try World<NudgeAdapter>(scenario: scenario, arm: scenario.arms[1], replication: 1)
        let ea = try World<EarnedAccessAdapter>(scenario: scenario, arm: scenario.arms[2], replication: 1)
        #expect(so.constants.peek == .open(fulfilment: 0.6, constant: 1.5))
        #expect(nudge.constants.taskTool.snoozeShare == 0.9)
        #expect(ea.constants.focus.medianMinutes == 40 && ea.constants.detourFrustration == 0.2)
        // Each world holds its own product's keys, not another product's.
        #expect(so.behavior.values["card.snooze_share"] == nil && nudge.behavior.values["shield.constant.peek"] == nil)
        // `validate --explain` shows a product's parameters with their sources.
        let explain = scenario.explainBehavior()
        #expect(explain.contains("behavior.card.snooze_share") && explain.contains("behavior.focus.median_minutes"))
        #expect(explain.contains("Nudge's seed 001 §11 targets calibrate it"))
        // A key no product declares is still refused.
        #expect(throws: ScenarioError.self) {
            try ScenarioLoader(catalogues: Products.catalogues).load(yaml: "name: x\nbehavior:\n  toy.patience: 0.9\n", fileName: "x.yaml")
        }
    }

    @Test("a new product's parameter: refused until its product is in the catalogue, then its value reaches world.constants")
    func toyProductParameter() throws {
        let yaml = "name: toy\nhorizon_days: 2\npopulation:\n  installs: 2\nbehavior:\n  toy.patience: 0.9\n"
        var catalogues = Products.catalogues
        catalogues.behavior = try BehaviorCatalogue.assembled(
            Products.registered.map { (owner: $0.descriptor.id, groups: $0.adapter.behaviorParameterGroups) }
                + [(owner: "toy", groups: PatientToy.behaviorParameterGroups)])
        let scenario = try ScenarioLoader(catalogues: catalogues).load(yaml: yaml, fileName: "toy.yaml")
        let world = try World<PatientToy>(scenario: scenario, arm: scenario.arms[0], replication: 1)
        #expect(world.constants == PatientToy.Constants(patience: 0.9))
        let defaults = try ScenarioLoader(catalogues: catalogues).load(yaml: "name: toy\n", fileName: "toy.yaml")
        #expect(try World<PatientToy>(scenario: defaults, arm: defaults.arms[0], replication: 1).constants.patience == 0.4)
        // Placed after its anchor; its source shown.
        let keys = catalogues.behavior!.map(\.keyPath)
        #expect(keys[keys.firstIndex(of: "churn.base_hazard")! + 1] == "toy.patience")
        #expect(scenario.explainBehavior().contains("a toy source, 2026"))
        // Declaring a key a registered product declares, or a generic one, is refused.
        #expect(throws: BehaviorCatalogueConflict.self) {
            try BehaviorCatalogue.assembled(Products.registered.map { (owner: $0.descriptor.id, groups: $0.adapter.behaviorParameterGroups) }
                                            + [(owner: "toy", groups: [BehaviorParameterGroup([BehaviorCatalogue.parameter("capture.constant", 0, -1...1, "x")])])])
        }
        #expect(throws: BehaviorCatalogueConflict.self) {
            try BehaviorCatalogue.assembled([(owner: "toy", groups: [BehaviorParameterGroup([BehaviorCatalogue.parameter("churn.base_hazard", 0, 0...1, "x")])])])
        }
    }
}

/// `none` declares nothing and needs nothing to (the protocol's defaults).
enum NoAppAdapterHasNone {
    static var check: Bool {
        guard let none = Products.adapter(for: Product(rawValue: "none")) else { return false }
        return none.behaviorParameterGroups.isEmpty
    }
}
