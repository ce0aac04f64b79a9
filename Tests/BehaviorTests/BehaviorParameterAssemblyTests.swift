import RulesCore
import Testing
@testable import Behavior

/// Issue 42: a product declares its own behaviour parameters; the catalogue a scenario is checked against is the
/// generic one with each product's groups placed after their anchors, and a key is declared once.
@Suite("Behaviour catalogue assembly")
struct BehaviorParameterAssemblyTests {
    static func p(_ key: String) -> RuleParameter { BehaviorCatalogue.parameter(key, 0.5, 0...1, "a test parameter") }
    static let generic = [p("a.one"), p("a.two"), p("b.one")]

    @Test("groups follow their anchors, groups on one anchor in owner order, unanchored groups at the end")
    func placement() throws {
        let out = try BehaviorCatalogue.assembled([
            (owner: "x", groups: [BehaviorParameterGroup(after: "a.one", [Self.p("x.near_a")]), BehaviorParameterGroup([Self.p("x.end")])]),
            (owner: "y", groups: [BehaviorParameterGroup(after: "a.one", [Self.p("y.near_a")]), BehaviorParameterGroup(after: "b.one", [Self.p("y.after_b")])]),
        ], generic: Self.generic)
        #expect(out.map(\.keyPath) == ["a.one", "x.near_a", "y.near_a", "a.two", "b.one", "y.after_b", "x.end"])
        #expect(try BehaviorCatalogue.assembled([], generic: Self.generic).map(\.keyPath) == Self.generic.map(\.keyPath))
    }

    @Test("a product may not redeclare a generic key, nor one another product declared, nor anchor on a key that is not generic")
    func conflictsAreRefused() {
        #expect(throws: BehaviorCatalogueConflict(owner: "x", key: "a.two", kind: .redeclaresGeneric)) {
            try BehaviorCatalogue.assembled([(owner: "x", groups: [BehaviorParameterGroup([Self.p("a.two")])])], generic: Self.generic)
        }
        #expect(throws: BehaviorCatalogueConflict(owner: "y", key: "shared.key", kind: .declaredTwice(other: "x"))) {
            try BehaviorCatalogue.assembled([(owner: "x", groups: [BehaviorParameterGroup([Self.p("shared.key")])]),
                                             (owner: "y", groups: [BehaviorParameterGroup(after: "b.one", [Self.p("shared.key")])])],
                                            generic: Self.generic)
        }
        #expect(throws: BehaviorCatalogueConflict(owner: "x", key: "x.own", kind: .declaredTwice(other: "x"))) {
            try BehaviorCatalogue.assembled([(owner: "x", groups: [BehaviorParameterGroup([Self.p("x.own"), Self.p("x.own")])])], generic: Self.generic)
        }
        #expect(throws: BehaviorCatalogueConflict(owner: "x", key: "x.other", kind: .unknownAnchor)) {
            try BehaviorCatalogue.assembled([(owner: "x", groups: [BehaviorParameterGroup(after: "x.other", [Self.p("x.one")])])], generic: Self.generic)
        }
    }

    @Test("a product's fitted key keeps its fitted default and source wherever it is declared")
    func fittedWhereverDeclared() {
        let p = BehaviorCatalogue.parameter("engagement.plans_view_probability", 0.05, 0...1, "plans")
        #expect(p.defaultValue.doubleValue == BehaviorCatalogue.fittedDefaults["engagement.plans_view_probability"])
        #expect("\(p.source)".contains("issue 39") && p.summary.contains("component value 0.05"))
        #expect(BehaviorCatalogue.parameter("x.unfitted", 0.05, 0...1, "x").defaultValue.doubleValue == 0.05)
    }

    @Test("values of a catalogue with a product's keys: its defaults, a resolved value read, another product's key ignored")
    func valuesOfACatalogue() {
        let catalogue = BehaviorCatalogue.parameters + [Self.p("x.own")]
        let v = BehaviorValues(ParameterValues(["x.own": .number(0.9), "y.other": .number(3), "churn.base_hazard": .number(0.2)]), catalogue: catalogue)
        #expect(v["x.own"] == 0.9 && v["churn.base_hazard"] == 0.2 && v.values["y.other"] == nil)
        #expect(v.values.count == catalogue.count)
        #expect(BehaviorValues(catalogue: catalogue)["x.own"] == 0.5)
        #expect(BehaviorValues.defaults.values["x.own"] == nil)
    }
}
