import ArgumentParser
import Simulation

/// `--threads` and `--progress`: how a command runs its work, shared by `run`, `check`, `bench kernel` and
/// `bench run` through `@OptionGroup`.
///
/// The commands differ only in defaults and wording, which `Defaults` supplies (`InteractiveExecution`,
/// `QuietExecution`, `AgentsExecution`), so each command's help reads as before. `--threads` must be in 1…1024;
/// the check runs while the options are parsed, before the command's own checks.
struct ExecutionOptions<Defaults: ExecutionDefaults>: ParsableArguments {
    @Option(help: ArgumentHelp(Defaults.threadsHelp))
    var threads: Int = PersonParallelRunner.defaultThreads

    @Option(help: "Progress bar on stderr: auto, always, never.")
    var progress: ProgressMode = Defaults.progress

    init() {}

    func validate() throws {
        guard (1...1024).contains(threads) else { throw ValidationError("--threads must be in 1…1024 (got \(threads))") }
    }
}

/// The defaults and wording of a command's `ExecutionOptions`.
protocol ExecutionDefaults {
    /// `--progress` when not given.
    static var progress: ProgressMode { get }
    /// The help line of `--threads`.
    static var threadsHelp: String { get }
}

/// Commands a person watches (`run`, `bench run`): a progress bar when stderr is a terminal.
enum InteractiveExecution: ExecutionDefaults {
    static let progress = ProgressMode.auto
    static let threadsHelp = "Worker threads (default: the machine's cores)."
}

/// `check`, mostly run by `make` and CI: no progress bar unless asked for.
enum QuietExecution: ExecutionDefaults {
    static let progress = ProgressMode.never
    static let threadsHelp = InteractiveExecution.threadsHelp
}

/// `bench kernel`, where only the agents workload uses threads.
enum AgentsExecution: ExecutionDefaults {
    static let progress = ProgressMode.auto
    static let threadsHelp = "agents: worker threads (default: the machine's cores)."
}
