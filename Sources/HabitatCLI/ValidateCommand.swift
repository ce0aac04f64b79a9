import ArgumentParser
import Foundation
import ScenarioFormat
import Simulation

/// `habitat validate SCENARIO.yaml [--explain]`: checks a scenario without running it and prints it fully resolved.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a scenario without running it; print it fully resolved (every default filled in).",
        discussion: """
        Every problem is reported at once as file:line:column, key path, value given and what is allowed.
        With --explain, each rule parameter is listed with its value, the source of its default (seed section,
        publication or assumption) and its allowed range. Exit status 2 when the scenario is invalid.
        """
    )

    @Argument(help: "The scenario file (YAML).")
    var scenario: String

    @Flag(help: "Explain every rule parameter: value, default, source and allowed range.")
    var explain = false

    @Flag(help: "Accept a scenario that looks too large for this machine (time, reports, memory, sweep points).")
    var allowLarge = false

    func run() throws {
        do {
            let resolved = try ScenarioLoader(catalogues: Products.catalogues, allowLarge: allowLarge).load(path: scenario)
            try ScrollOffWorld.check(resolved)   // personas and devices, for every product
            let size = RunSize(resolved, threads: PersonParallelRunner.defaultThreads)
            if !allowLarge, let refusal = size.refusal {
                FileHandle.standardError.write(Data("\(scenario): error: \(refusal)\n".utf8))
                throw ExitCode(2)
            }
            print(resolved.yaml, terminator: resolved.yaml.hasSuffix("\n") ? "" : "\n")
            print("# scenario_hash: \(resolved.scenarioHash)")
            print("# size: \(size.summary)")
            if explain {
                print("")
                if let catalogue = Products.info(resolved.product).parameters {
                    print(resolved.explain(catalogue))
                } else {
                    print("# product \(resolved.product) has no rule engine in Habitat yet: no rule parameters to explain")
                }
            }
        } catch let e as ExitCode {
            throw e
        } catch let e as PopulationError {
            FileHandle.standardError.write(Data("\(e.rendered(file: scenario))\n".utf8))
            throw ExitCode(2)
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}
