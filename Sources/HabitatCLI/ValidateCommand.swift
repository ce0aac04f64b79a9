import ArgumentParser
import Foundation
import ProductRegistry
import RulesCore
import ScenarioFormat
import Simulation

/// `habitat validate SCENARIO.yaml [--explain]`: checks a scenario without running it and prints it fully resolved.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a scenario without running it; print it fully resolved (every default filled in).",
        discussion: """
        Every problem is reported at once as file:line:column, key path, value given and what is allowed.
        With --explain, the product's whole contract is shown: each rule parameter with its value, the source of
        its default (seed section, publication or assumption) and its allowed range — marked when no simulated
        person exercises it — then the activation funnel, KPI targets, battery budgets and revenue ceiling with
        their seed sections, then every behaviour parameter (behavior.<key>) with its value, default, range and source. Exit status 2 when the scenario is invalid or its product has no rule engine yet.
        """
    )

    @Argument(help: "The scenario file (YAML).")
    var scenario: String

    @Flag(help: "Explain the product contract: every rule parameter (value, default, source, range), funnel, KPIs, budgets.")
    var explain = false

    @Flag(help: "Accept a scenario that looks too large for this machine (time, reports, memory, sweep points).")
    var allowLarge = false

    func run() throws {
        do {
            let resolved = try ScenarioLoader(catalogues: Products.catalogues, allowLarge: allowLarge).load(path: scenario)
            try ReportRun.requireEngine(resolved, scenarioFile: scenario)
            let descriptor = Products.descriptor(resolved.product)!
            let size = RunSize(resolved, threads: PersonParallelRunner.defaultThreads)
            if !allowLarge, let refusal = size.refusal {
                throw HabitatError.diagnostic(file: scenario, refusal)
            }
            for warning in ProductContract.unexercisedArmWarnings(resolved, descriptor) {
                ReportRun.warn("\(scenario): warning: \(warning)")
            }
            print(resolved.yaml, terminator: resolved.yaml.hasSuffix("\n") ? "" : "\n")
            print("# scenario_hash: \(resolved.scenarioHash)")
            print("# size: \(size.summary)")
            if explain {
                print("")
                print(resolved.explain(descriptor.parameters, notExercised: Set(descriptor.parametersNotExercised),
                                       note: ProductContract.notExercisedNote))
                print(ProductContract.explain(descriptor), terminator: "")
                print("")
                print(resolved.explainBehavior(), terminator: "")
                print("")
                print("store commission (store:): \(resolved.store.summary)")
            }
        } catch let e as HabitatError {
            throw e
        } catch {
            throw HabitatError.diagnostics(error)
        }
    }
}
