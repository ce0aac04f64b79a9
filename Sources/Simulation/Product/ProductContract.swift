import Foundation
import RulesCore
import ScenarioFormat

/// The product contract as text for `habitat validate --explain`, and the warnings a scenario earns when its arms
/// can only differ in rules the simulated people never reach.
public enum ProductContract {
    /// The marker put beside a parameter no simulated person exercises.
    public static let notExercisedNote = "not exercised by the simulated people"

    /// Funnel, KPI targets, battery budgets, plans and revenue ceiling, each with its source.
    public static func explain(_ d: ProductDescriptor) -> String {
        var text = "# \(d.name) (\(d.id)) — seed \(d.seedFile)\n"
        func table(_ header: [String], _ rows: [[String]]) { text += TextTable.render(header, rows, underline: false) }
        func range(_ t: some TargetRanged) -> String {
            guard t.hasTarget else { return "-" }
            return "\(t.targetMin.map { "≥ \(format($0))" } ?? "")\(t.targetMin != nil && t.targetMax != nil ? ", " : "")\(t.targetMax.map { "≤ \(format($0))" } ?? "")"
        }
        text += "\nActivation funnel (target: conversion from the previous stage)\n"
        table(["stage", "name", "event", "window", "target"],
              d.funnel.map { [$0.id, $0.name, $0.event, $0.windowText.isEmpty ? "-" : $0.windowText,
                             range($0) + ($0.basis == .previousStage || !$0.hasTarget ? "" : " of \($0.basis.text)")
                             + ($0.chained ? "" : " (not chained)")] })
        text += "\nKPIs\n"
        table(["kpi", "unit", "target", "population", "source"],
              d.kpis.map { [$0.id, $0.unit, range($0), $0.population.isEmpty ? "-" : $0.population, $0.source?.description ?? "-"] })
        text += "\nBattery budgets (p90 of person-days must be within)\n"
        table(["metric", "budget", "source"], BatteryMetric.allCases.map {
            [$0.rawValue, d.batteryBudgets[$0].map { "≤ \(format($0)) %" } ?? "-", d.batteryBudgets.source?.description ?? "-"]
        })
        text += "\nRevenue\n"
        text += "plan segments: \(d.revenue.planSegments.joined(separator: ", "))\n"
        text += "sources: \(([d.revenue.subscriptionSource] + (d.revenue.consumableSource.map { [$0] } ?? [])).joined(separator: ", "))\n"
        if let c = d.consumableCeiling, let id = d.revenue.consumableShareKPI {
            text += "consumable ceiling: \(d.revenue.consumableSource ?? "consumables") ≤ \(format(c)) of gross revenue (KPI \(id)'s target"
                + "\(d.kpi(id)?.source.map { ", \($0)" } ?? ""))\n"
        } else {
            text += "consumable ceiling: none\n"
        }
        let costCeiling = d.kpi("cost_per_dau_day")?.targetMax.map { " (per-user ceiling: cost_per_dau_day ≤ \(format($0)) USD)" } ?? ""
        text += "service costs: \(d.revenue.costSource.map { $0 + costCeiling } ?? "none")\n"
        if !d.reports.isEmpty { text += "product reports: \(d.reports.joined(separator: ", "))\n" }
        let undriven = d.inputs.filter { !$0.drivenBySimulatedPeople }.map(\.name)
        if !undriven.isEmpty {
            text += "\nEngine inputs the simulated people never send: \(undriven.joined(separator: ", "))\n"
            text += "Parameters \(notExercisedNote): \(d.parametersNotExercised.joined(separator: ", "))\n"
        }
        return text
    }

    /// A warning for each arm that differs from the first (control) arm only in rule parameters no simulated person
    /// exercises: its results cannot differ from the control's.
    public static func unexercisedArmWarnings(_ scenario: ResolvedScenario, _ d: ProductDescriptor) -> [String] {
        guard let control = scenario.arms.first, scenario.arms.count > 1 else { return [] }
        let unexercised = Set(d.parametersNotExercised)
        return scenario.arms.dropFirst().compactMap { arm in
            // Arms of different products differ in everything the products do.
            guard arm.population == control.population, scenario.product(of: arm) == scenario.product(of: control),
                  scenario.product(of: arm).rawValue == d.id else { return nil }
            let keys = Set(arm.rules.values.keys).union(control.rules.values.keys)
            let changed = keys.filter { arm.rules[$0] != control.rules[$0] }.sorted()
            guard !changed.isEmpty, changed.allSatisfy(unexercised.contains) else { return nil }
            return "arm '\(arm.name.echoed())' differs from '\(control.name.echoed())' only in "
                + changed.map { "rules.\($0)" }.joined(separator: ", ")
                + ", \(changed.count == 1 ? "which is" : "which are") \(notExercisedNote): the arms cannot differ"
        }
    }

    static func format(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e9 ? String(Int(x)) : String(x)
    }
}
