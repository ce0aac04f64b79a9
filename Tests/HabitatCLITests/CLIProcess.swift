import HabitatTestSupport

/// The shared `habitat` runner (`HabitatTestSupport.CLIProcess`: finds the built binary, reads stdout and stderr
/// concurrently, makes temporary folders), named here for every file of this target without its own import.
typealias CLIProcess = HabitatTestSupport.CLIProcess
