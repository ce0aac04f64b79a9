import ArgumentParser
import Simulation

/// The `habitat` command: run, validate, list, bench, … (CONTRACT.md, "Command line").
public struct HabitatCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "habitat",
        abstract: "Simulate synthetic people living through the rule engines of digital-wellbeing apps.",
        discussion: """
        Scenario files are YAML (see Scenarios/README.md). Reports are CSV with a manifest.json.
        Exit status: 0 success; 1 a run or check that failed; 2 bad usage or an invalid scenario.
        """,
        version: "habitat \(ToolVersion.text)",
        subcommands: [RunCommand.self, ValidateCommand.self, ListCommand.self, TraceCommand.self, CompareCommand.self, CheckCommand.self, BenchCommand.self]
    )
    public init() {}

    /// The process entry point: installs the interrupt handler, then parses and runs the command.
    public static func start() {
        StopRequest.installInterruptHandler()
        main()
    }
}
