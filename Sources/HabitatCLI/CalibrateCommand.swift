import ArgumentParser
import Behavior
import Foundation
import ProductRegistry
import Reports
import RulesCore
import ScenarioFormat
import Simulation
import Stochastics

/// `habitat calibrate [SCENARIO] [--targets FILE] [--fit PARAM …] [--budget N]`: fits behaviour parameters to
/// world-check targets with GSL's Nelder–Mead simplex (`Calibration`), on the same people at every evaluation.
struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Fit behaviour parameters to world-check targets (GSL Nelder–Mead, common random numbers).",
        discussion: """
        Every evaluation simulates the scenario's first arm with the same seed (the same people, the same urges) and
        only the fitted `behavior.*` parameters changed, and scores its world check against the targets: the loss is
        Σ weight·miss², a miss being how far a figure lies outside its range (shrunk by 10 % at each end) in units of
        the range's width. Writes to --out: calibration.csv (every evaluation), fitted-behavior.yaml (a `behavior:`
        block of the fitted values, to paste into or `include:` from any scenario), world-check.csv (the fitted
        model's world check, each figure marked fitted or checked) and manifest.json. Cost: budget × one run.
        """
    )

    @OptionGroup var options: ScenarioOptions

    @Option(help: "Targets CSV: figure,low,high[,weight] (figure = a world-check id). Default: every world-check figure and its published range.")
    var targets: String?

    @Option(help: ArgumentHelp("A behaviour parameter to fit, e.g. behavior.churn.base_hazard (repeat the option). Default: \(Calibration.defaultFit.joined(separator: ", ")).", valueName: "param"))
    var fit: [String] = []

    @Option(name: .customLong("also"), help: ArgumentHelp(
        "Another scenario, of another product, simulated at every evaluation with the same behaviour values (repeatable): a joint fit, one loss over every product's world check. --people, --days, --replications, --seed and --set apply to each; --targets then names figures <product>:<figure> (e.g. earned-access:retention_d7).",
        valueName: "scenario"))
    var also: [String] = []

    @Option(help: "Most simulations to run (the first simplex takes parameters + 1).")
    var budget = 60

    @Option(help: "Directory for the calibration (default: Reports/<scenario name>-calibration).")
    var out: String?

    @Option(help: ArgumentHelp(
        "Instead of one best point, find N parameter vectors the targets cannot rule out (history matching in waves; "
        + "writes plausible-set.csv, plausible-widths.csv, plausible-waves.csv, plausible-worlds.csv, manifest.json). "
        + "--budget is then the most worlds simulated.", valueName: "N"))
    var plausible: Int?

    @Option(name: .customLong("waves"), help: "History matching: most waves (default 4).")
    var wavesGiven: Int?
    var waves: Int { wavesGiven ?? 4 }

    @Option(name: .customLong("discrepancy"), help: "History matching: model discrepancy, as a share of each target range's half-width (a standard deviation; default 0.5).")
    var discrepancyGiven: Double?
    var discrepancy: Double { discrepancyGiven ?? 0.5 }

    @Option(name: .customLong("cutoff"), help: "History matching: the implausibility above which a world is ruled out (default 3).")
    var cutoffGiven: Double?
    var cutoff: Double { cutoffGiven ?? 3 }

    @Option(name: .customLong("criterion"), help: "History matching: rule a world out on its k-th largest implausibility (1 = every figure counts; default 2 = all but the worst).")
    var criterionGiven: Int?
    var criterion: Int { criterionGiven ?? 2 }

    @Option(help: "History matching: the prior is each parameter's default ± SPAN × |default| inside its validated range (default: the validated range).")
    var span: Double?

    @Option(name: .customLong("range"), help: ArgumentHelp("History matching: one parameter's prior range, KEY=LO:HI (repeatable).", valueName: "KEY=LO:HI"))
    var rangeOverrides: [String] = []

    @OptionGroup var execution: ExecutionOptions<InteractiveExecution>

    func validate() throws {
        guard (2...100_000).contains(budget) else { throw ValidationError("--budget must be in 2…100000 (got \(budget))") }
        if let plausible { guard (1...10_000).contains(plausible) else { throw ValidationError("--plausible must be in 1…10000 (got \(plausible))") } }
        guard (1...50).contains(waves) else { throw ValidationError("--waves must be in 1…50 (got \(waves))") }
        guard discrepancy >= 0, discrepancy <= 100, discrepancy.isFinite else { throw ValidationError("--discrepancy must be in 0…100 (got \(discrepancy))") }
        guard cutoff > 0, cutoff.isFinite else { throw ValidationError("--cutoff must be a positive number (got \(cutoff))") }
        guard (1...10).contains(criterion) else { throw ValidationError("--criterion must be in 1…10 (got \(criterion))") }
        if let span { guard span > 0, span <= 100 else { throw ValidationError("--span must be in (0, 100] (got \(span))") } }
        if plausible == nil {
            let given = [("--span", span != nil), ("--range", !rangeOverrides.isEmpty), ("--waves", wavesGiven != nil),
                         ("--discrepancy", discrepancyGiven != nil), ("--cutoff", cutoffGiven != nil), ("--criterion", criterionGiven != nil)]
                .filter(\.1).map(\.0)
            if !given.isEmpty { throw ValidationError("\(given.joined(separator: ", ")) shape a plausible set (history matching): give --plausible N, or leave \(given.count == 1 ? "it" : "them") out") }
        }
    }

    func run() throws {
        let scenario = try options.load()
        try ReportRun.checkRunnable(scenario, scenarioFile: options.scenario, threads: execution.threads, allowLarge: false)
        let calibration: Calibration
        let scenarios: [ResolvedScenario]
        do {
            let others = try also.map { try options.load(other: $0) }
            for (path, other) in zip(also, others) { try ReportRun.checkRunnable(other, scenarioFile: path, threads: execution.threads, allowLarge: false) }
            scenarios = [scenario] + others
            let products = scenarios.map(\.product.rawValue)
            guard Set(products).count == products.count else {
                throw CalibrationInputError(file: "--also", "a joint fit takes one scenario per product; got \(products.joined(separator: ", "))")
            }
            let joint = !others.isEmpty
            let targetList = try targets.map { path -> [CalibrationTarget] in
                try CalibrationTargets.read(file: path, products: joint ? products : [])
            } ?? (joint ? products.flatMap { p in CalibrationTargets.worldFigures.map {
                CalibrationTarget(figure: CalibrationTargets.jointID(product: p, figure: $0.figure), low: $0.low, high: $0.high) } }
                  : CalibrationTargets.worldFigures)
            let parameters = try Calibration.parameters(fit.isEmpty ? Calibration.defaultFit : fit, catalogue: Products.behaviorParameters,
                                                        startValues: scenario.arms[0].behavior)
            guard budget >= parameters.count + 1 else {
                throw CalibrationInputError(file: "--budget", "\(budget) evaluations cannot build the first simplex of \(parameters.count + 1) points")
            }
            let threads = execution.threads
            calibration = Calibration(parameters: parameters, targets: targetList, arm: scenario.arms[0].name) { values in
                var rows: [WorldCheckRow] = []
                for s in scenarios {
                    var run = try Products.run(try s.withBehavior(values), threads: threads)
                    try StopRequest.withCleanStop { try run.simulate(progress: nil) }
                    let own = run.worldCheck().first?.rows ?? []
                    rows += joint ? own.map { $0.relabelled(CalibrationTargets.jointID(product: s.product.rawValue, figure: $0.figure.id)) } : own
                }
                return rows
            }
        }   // a CalibrationInputError: exit status 2 (HabitatError)
        let path = out ?? "Reports/\(scenario.name)-calibration"
        if let plausible {
            return try PlausibleRun(command: self, scenarios: scenarios, calibration: calibration, wanted: plausible, path: path).run()
        }
        let (best, result, seconds) = try ReportRun.writeFolder(URL(fileURLWithPath: path), kind: .calibration, shownPath: path) { report in
            let started = ContinuousClock.now
            CalibrationReport.say("calibrate \(scenario.name)\(also.isEmpty ? "" : " jointly with " + also.joined(separator: ", ")): \(calibration.parameters.count) parameter(s), \(calibration.targets.count) target(s), "
                  + "budget \(budget) runs of \(scenario.arms[0].population.installs) people × \(scenario.horizonDays) days × \(scenario.replications) replication(s)")
            let fitKeys = CalibrationReport.fitKeys(scenarios, arm: calibration.arm)
            var trace = CalibrationTrace(calibration, keys: fitKeys)
            let (best, result) = try calibration.fit(budget: budget) { e in
                trace.append(e)
                CalibrationReport.say(CalibrationReport.progressLine(e, calibration, budget: budget))
            }
            CalibrationReport.say("identifiability: each parameter moved alone by 10 % of its value (\(2 * calibration.parameters.count) more runs)")
            let pins = try calibration.identifiability(at: best.values)
            let seconds = (ContinuousClock.now - started).seconds
            try report.write("calibration.csv", table: trace.table)
            try report.write("identifiability.csv", table: CalibrationReport.identifiabilityTable(pins, keys: fitKeys))
            for p in pins { CalibrationReport.say(CalibrationReport.identifiabilityLine(p)) }
            try report.write("fitted-behavior.yaml", text: CalibrationReport.overlay(best, calibration, result: result, scenario: scenario,
                                                                                   command: CommandLine.arguments.dropFirst().joined(separator: " ")))
            try report.write("world-check.csv", table: CalibrationReport.worldCheckTable(best, calibration, scenarios: scenarios))
            let manifest = RunManifest(command: "calibrate", scenarioName: scenario.name, scenarioHash: scenario.scenarioHash,
                                       resolvedScenario: scenario.yaml, seed: scenario.seed, replications: scenario.replications,
                                       people: scenario.arms[0].population.installs, personDays: 0, eventsSimulated: 0,
                                       threads: execution.threads, wallSeconds: seconds, files: report.writtenFiles, kind: .calibration)
            try report.write("manifest.json", text: try manifest.json())
            return (best, result, seconds)
        }
        CalibrationReport.say(CalibrationReport.summary(best, calibration, result: result, seconds: seconds, dir: path))
    }
}

/// Every evaluation as a row of `calibration.csv`.
struct CalibrationTrace {
    private(set) var table: CSVTable
    let calibration: Calibration

    /// The fit's report keys (`CalibrationReport.fitKeys`), leading every row.
    let keys: ReportKeys

    init(_ c: Calibration, keys: ReportKeys) {
        calibration = c
        self.keys = keys
        table = CSVTable(header: CalibrationTrace.fixedHeader + c.parameters.map(\.key) + c.targets.map(\.figure))
    }

    /// The columns before the fitted parameters' and the targets' (docs/report-spec.json, `outputs` id `calibration`).
    static let fixedHeader = ReportKeys.header + ["evaluation", "loss", "best_loss", "seconds"]

    mutating func append(_ e: CalibrationEvaluation) {
        let misses = calibration.loss(e.rows).misses
        table.append(keys.fields + [.integer(Int64(e.number)), .number(e.loss, decimals: 6), .number(e.bestLoss, decimals: 6), .number(e.seconds, decimals: 2)]
                     + e.values.map { .number($0, decimals: 6) } + misses.map { m in m.value.map { CSVField.number($0, decimals: 6) } ?? .empty })
    }
}

/// The texts `habitat calibrate` prints and writes.
enum CalibrationReport {
    static func number(_ x: Double) -> String { String(format: "%.4g", x) }

    /// Writes a line to stdout at once (unbuffered, so progress shows while the fit runs, even through a pipe).
    static func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

    static func progressLine(_ e: CalibrationEvaluation, _ c: Calibration, budget: Int) -> String {
        let values = zip(c.parameters, e.values).map { "\($0.catalogueKey)=\(number($1))" }.joined(separator: " ")
        return String(format: "eval %3d/%d  loss %.4f  best %.4f  %5.1f s  ", e.number, budget, e.loss, e.bestLoss, e.seconds) + values
    }

    /// A `behavior:` block of the fitted values, nested as a scenario writes it, with its provenance as comments.
    static func overlay(_ best: CalibrationEvaluation, _ c: Calibration, result: NelderMead.Result, scenario: ResolvedScenario,
                        command: String) -> String {
        var text = "# Fitted by: habitat \(command)\n"
        text += "# Scenario \(scenario.name), seed \(scenario.seed), \(scenario.arms[0].population.installs) people × \(scenario.horizonDays) days × \(scenario.replications) replication(s)\n"
        text += "# Best of \(result.evaluations) evaluations (evaluation \(best.number)), loss \(String(format: "%.6f", best.loss)), stop: \(result.stop.rawValue)\n"
        text += "# Targets fitted: \(c.targets.map(\.figure).joined(separator: ", "))\n"
        // Every value of the fitted model that is not a catalogue default: the fitted ones and those the scenario
        // (or --set) gave, so that the block alone reproduces the fitted model on any scenario.
        let fitted = c.parameters.map(\.catalogueKey)
        var values = nonDefaultBehavior(scenario.arms[0].behavior)
        let given = values.keys.filter { !fitted.contains($0) }.sorted()
        for i in 0..<min(fitted.count, best.values.count) { values[fitted[i]] = best.values[i] }
        text += "# Fitted: \(fitted.joined(separator: ", "))\n"
        if !given.isEmpty { text += "# Given by the scenario or --set (not fitted here): \(given.joined(separator: ", "))\n" }
        text += "behavior:\n"
        var tree: [(path: [String], value: Double)] = []
        for key in values.keys.sorted() { tree.append((key.split(separator: ".").map(String.init), values[key]!)) }
        var open: [String] = []
        for (path, value) in tree {
            var common = 0
            while common < min(open.count, path.count - 1) && open[common] == path[common] { common += 1 }
            open = Array(open.prefix(common))
            for level in common..<(path.count - 1) {
                text += String(repeating: "  ", count: level + 1) + path[level] + ":\n"
                open.append(path[level])
            }
            text += String(repeating: "  ", count: path.count) + path.last! + ": \(Calibration.text(value))\n"
        }
        return text
    }

    /// The report keys of a fit's own files (`calibration.csv`, `identifiability.csv`; issue 40): the fitted
    /// scenario's name, its first arm (the one fitted), replication `all`, its product — in a joint fit every
    /// scenario's name and every product, in `--also` order, joined by `+` (`scroll-off+earned-access`), since one
    /// evaluation and one parameter belong to all of them.
    static func fitKeys(_ scenarios: [ResolvedScenario], arm: String) -> ReportKeys {
        ReportKeys(scenario: scenarios.map(\.name).joined(separator: "+"), arm: arm, replication: nil,
                   product: scenarios.map(\.product.rawValue).joined(separator: "+"))
    }

    /// `identifiability.csv`'s header (docs/report-spec.json, `outputs` id `identifiability`).
    static let identifiabilityHeader = ReportKeys.header
        + ["parameter", "value", "low_value", "high_value", "loss", "loss_at_low", "loss_at_high", "loss_rise", "pinned"]

    /// `identifiability.csv`: per fitted parameter, the loss at the best value and with the parameter moved down and up.
    static func identifiabilityTable(_ pins: [Identifiability], keys: ReportKeys) -> CSVTable {
        var t = CSVTable(header: identifiabilityHeader)
        for p in pins {
            t.append(keys.fields + [.text(p.key), .number(p.value, decimals: 6), .number(p.lowValue, decimals: 6), .number(p.highValue, decimals: 6),
                      .number(p.baseLoss, decimals: 6), .number(p.lowLoss, decimals: 6), .number(p.highLoss, decimals: 6),
                      .number(p.lossRise, decimals: 6), .flag(!p.unpinned)])
        }
        return t
    }

    static func identifiabilityLine(_ p: Identifiability) -> String {
        "  \(p.key) = \(number(p.value)): loss \(number(p.lowLoss)) at \(number(p.lowValue)), \(number(p.highLoss)) at \(number(p.highValue)) (best \(number(p.baseLoss)))"
            + (p.unpinned ? "  — NOT pinned by any target" : "")
    }

    /// The behaviour values of `arm` that differ from the catalogue's defaults.
    static func nonDefaultBehavior(_ arm: ParameterValues) -> [String: Double] {
        var out: [String: Double] = [:]
        for p in Products.behaviorParameters {
            let d = p.defaultValue.doubleValue!
            if let v = arm[p.keyPath]?.doubleValue, v != d { out[p.keyPath] = v }
        }
        return out
    }

    /// The fitted model's world check, each row marked `fitted` (a target) or `checked` (out of sample). Each row
    /// carries its own scenario's keys: in a joint fit a `<product>:<figure>` row is labelled with the scenario of
    /// that product, its first arm and its product (issue 40: every row carried the first scenario's).
    static func worldCheckTable(_ best: CalibrationEvaluation, _ c: Calibration, scenarios: [ResolvedScenario]) -> CSVTable {
        var table = CSVTable(header: WorldCheck.fileHeader + ["role"])
        let roles = c.roles()
        for row in best.rows {
            let s = scenario(of: row.figure.id, among: scenarios)
            let keys = ReportKeys(scenario: s.name, arm: s.arms[0].name, replication: nil, product: s.product.rawValue)
            for fields in WorldCheck.fileRows(keys, [row]) { table.append(fields + [.text(roles[row.figure.id] ?? "checked")]) }
        }
        return table
    }

    /// The scenario a world-check row belongs to: in a joint fit the one whose product prefixes the figure id
    /// (`earned-access:retention_d7`), else the fitted scenario.
    static func scenario(of figure: String, among scenarios: [ResolvedScenario]) -> ResolvedScenario {
        guard scenarios.count > 1, let colon = figure.firstIndex(of: ":") else { return scenarios[0] }
        let product = String(figure[..<colon])
        return scenarios.first { $0.product.rawValue == product } ?? scenarios[0]
    }

    static func summary(_ best: CalibrationEvaluation, _ c: Calibration, result: NelderMead.Result, seconds: Double, dir: String) -> String {
        var lines = ["", String(format: "Best: evaluation %d of %d, loss %.6f (stop: %@), %.1f s in all (%.1f s per run)",
                                best.number, result.evaluations, best.loss, result.stop.rawValue, seconds, seconds / Double(max(1, result.evaluations)))]
        for (p, v) in zip(c.parameters, best.values) {
            lines.append("  \(p.key) = \(number(v))   (start \(number(p.start)), range \(number(p.lower))…\(number(p.upper)))")
        }
        lines.append("")
        lines.append("World check of the fitted model (fitted = a target; checked = out of sample):")
        let roles = c.roles()
        for row in best.rows {
            let role = roles[row.figure.id] ?? "checked"
            let value = row.mean.map(number) ?? "—"
            let verdict = row.applies != WorldCheckRow.applicable ? "n/a: \(row.applies)" : (row.inside.map { $0 ? "inside" : "OUTSIDE" } ?? "—")
            lines.append("  " + row.figure.id.padding(toLength: 36, withPad: " ", startingAt: 0) + role.padding(toLength: 9, withPad: " ", startingAt: 0)
                         + "\(number(row.figure.low))…\(number(row.figure.high))".padding(toLength: 16, withPad: " ", startingAt: 0)
                         + value.padding(toLength: 12, withPad: " ", startingAt: 0) + verdict)
        }
        var outside: [String] = [], unmeasured: [String] = []
        for t in c.targets {
            guard let row = best.rows.first(where: { $0.figure.id == t.figure }), row.applies == WorldCheckRow.applicable, let m = row.mean else {
                unmeasured.append(t.figure)
                continue
            }
            if m < t.low || m > t.high { outside.append(t.figure) }
        }
        if outside.isEmpty {
            lines.append("Every measured target is inside its range.")
        } else {
            lines.append("NOT reached — \(outside.count) of \(c.targets.count - unmeasured.count) measured target(s) still outside their range after the fit: "
                         + outside.joined(separator: ", "))
        }
        if !unmeasured.isEmpty {
            lines.append("Not measurable in this run (see the n/a reasons above), so not fitted: " + unmeasured.joined(separator: ", "))
        }
        lines.append("Written to \(dir) (calibration.csv, identifiability.csv, fitted-behavior.yaml, world-check.csv, manifest.json)")
        return lines.joined(separator: "\n")
    }
}
