import Foundation
import ProductRegistry
import Reports
import ScenarioFormat
import Simulation

/// `habitat calibrate … --plausible N`: history matching (`PlausibleSet`) over the fit's parameters and targets.
struct PlausibleRun {
    let command: CalibrateCommand
    let scenarios: [ResolvedScenario]
    let calibration: Calibration
    let wanted: Int
    let path: String

    func run() throws {
        let given = try SensitivitySelection.parseRanges(command.rangeOverrides)
        let parameters = try calibration.parameters.map { try SensitivitySelection.range(of: $0, span: command.span, given: given) }
        for key in given.keys where !parameters.contains(where: { $0.key == key }) {
            throw HabitatError.refused("--range \(key.echoed()): not a fitted parameter (--fit)")
        }
        var set = PlausibleSet(parameters: parameters, targets: calibration.targets, simulate: calibration.evaluate)
        set.cutoff = command.cutoff
        set.discrepancy = command.discrepancy
        set.criterion = command.criterion
        let perWave = max(wanted, command.budget / command.waves)
        let scenario = scenarios[0]
        let keys = CalibrationReport.fitKeys(scenarios, arm: calibration.arm)
        CalibrationReport.say("calibrate \(scenarios.map(\.name).joined(separator: " + ")) --plausible \(wanted): history matching of \(parameters.count) parameter(s) "
            + "on \(calibration.targets.count) target(s), up to \(command.waves) wave(s) of \(perWave) worlds (cutoff \(command.cutoff) on the "
            + "\(ordinal(command.criterion)) largest implausibility, discrepancy \(command.discrepancy) of each range's half-width); each world "
            + "\(scenarios.count) run(s) of \(scenario.arms[0].population.installs) people × \(scenario.horizonDays) days × \(scenario.replications) replication(s)")
        let started = ContinuousClock.now
        var trace = CSVTable(header: ReportKeys.header + ["evaluation", "wave", "criterion_implausibility", "plausible", "seconds"]
                             + parameters.map(\.key) + calibration.targets.map(\.figure))
        var last = ContinuousClock.now
        let defaults = calibration.parameters.map(\.start)
        let (worlds, waves, widths) = try ReportRun.writeFolder(URL(fileURLWithPath: path), kind: .calibration, shownPath: path) { report in
            let result = try set.run(wanted: wanted, waves: command.waves, pointsPerWave: perWave,
                                     start: defaults) { w, n in
                let now = ContinuousClock.now
                trace.append(keys.fields + [.integer(Int64(n)), .integer(Int64(w.wave)), .number(min(w.criterionImplausibility, 1e9), decimals: 4),
                                            .flag(w.plausible), .number((now - last).seconds, decimals: 2)]
                             + w.values.map { .number($0, decimals: 6) } + w.figures.map { .optional($0, decimals: 6) })
                last = now
                CalibrationReport.say(String(format: "world %3d (wave %d)  implausibility %.2f  %@", n, w.wave, min(w.criterionImplausibility, 1e9),
                                             w.plausible ? "plausible" : "ruled out"))
            }
            let plausible = PlausibleSet.select(result.worlds, count: wanted)
            var table = CSVTable(header: ReportKeys.header + ["world", "wave", "max_implausibility", "second_implausibility"]
                                 + parameters.map(\.key) + calibration.targets.map(\.figure))
            for (i, w) in plausible.enumerated() {
                table.append(keys.fields + [.integer(Int64(i + 1)), .integer(Int64(w.wave)), .number(w.maxImplausibility, decimals: 4),
                                            .number(w.secondImplausibility, decimals: 4)]
                             + w.values.map { .number($0, decimals: 9) } + w.figures.map { .optional($0, decimals: 6) })
            }
            let widths = set.widths(result.worlds, defaults: defaults)
            var widthTable = CSVTable(header: ReportKeys.header + ["parameter", "prior_low", "prior_high", "default", "plausible_low", "plausible_high", "width_share", "verdict"])
            for w in widths {
                let p = w.parameter
                widthTable.append(keys.fields + [.text(p.key), .number(p.lower, decimals: 6), .number(p.upper, decimals: 6), .number(w.defaultValue, decimals: 6),
                                             .optional(w.low, decimals: 6), .optional(w.high, decimals: 6), .optional(w.share, decimals: 4), .text(w.verdict)])
            }
            var waveTable = CSVTable(header: ReportKeys.header + ["wave", "points", "non_implausible", "share"])
            for w in result.waves {
                waveTable.append(keys.fields + [.integer(Int64(w.number)), .integer(Int64(w.points)), .integer(Int64(w.nonImplausible)),
                                                .number(Double(w.nonImplausible) / Double(max(1, w.points)), decimals: 4)])
            }
            try report.write("plausible-set.csv", table: table)
            try report.write("plausible-widths.csv", table: widthTable)
            try report.write("plausible-waves.csv", table: waveTable)
            try report.write("plausible-worlds.csv", table: trace)
            let manifest = RunManifest(command: "calibrate --plausible", scenarioName: scenario.name, scenarioHash: scenario.scenarioHash,
                                       resolvedScenario: scenario.yaml, seed: scenario.seed, replications: scenario.replications,
                                       people: scenario.arms[0].population.installs, personDays: 0, eventsSimulated: 0,
                                       threads: command.execution.threads, wallSeconds: (ContinuousClock.now - started).seconds,
                                       files: report.writtenFiles, kind: .calibration)
            try report.write("manifest.json", text: try manifest.json())
            return (result.worlds, result.waves, widths)
        }
        let plausible = PlausibleSet.select(worlds, count: wanted)
        let seconds = (ContinuousClock.now - started).seconds
        CalibrationReport.say("")
        CalibrationReport.say(String(format: "%d of %d simulated worlds not ruled out, in %d wave(s), %.0f s (%.1f s a world); %d kept", worlds.filter(\.plausible).count,
                                     worlds.count, waves.count, seconds, seconds / Double(max(1, worlds.count)), plausible.count))
        if plausible.count < wanted {
            CalibrationReport.say("NOT reached: \(wanted) plausible worlds wanted, \(plausible.count) found; more --budget or --waves, a wider prior, "
                                  + "or a larger --discrepancy if the model misses a figure structurally")
        }
        for w in widths {
            let p = w.parameter
            CalibrationReport.say("  \(p.key): prior \(CalibrationReport.number(p.lower))…\(CalibrationReport.number(p.upper)), plausible "
                + (w.low.map { "\(CalibrationReport.number($0))…\(CalibrationReport.number(w.high!))" } ?? "—") + " — \(w.verdict)")
        }
        CalibrationReport.say("Written to \(path) (plausible-set.csv, plausible-widths.csv, plausible-waves.csv, plausible-worlds.csv, manifest.json)")
    }

    func ordinal(_ n: Int) -> String { n == 1 ? "single" : (n == 2 ? "second" : (n == 3 ? "third" : "\(n)th")) }
}
