import ArgumentParser
import Behavior
import Foundation
import ProductRegistry
import Reports
import RulesCore
import ScenarioFormat
import Simulation
import Stochastics

/// `habitat sensitivity SCENARIO`: which behaviour parameters move which KPIs and which experiment conclusions —
/// Morris screening or Sobol indices over a design run on common random numbers (`SensitivityDesign`).
struct SensitivityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sensitivity",
        abstract: "Which behaviour parameters move each KPI and each arm's paired difference (Morris or Sobol, common random numbers).",
        discussion: """
        Varies the chosen behaviour parameters over their ranges and simulates the scenario — every arm, every
        replication — at each point of a design: Morris trajectories (--method morris, the default: r(D + 1) runs,
        to screen many parameters) or Saltelli's design from a scrambled Sobol sequence (--method sobol: N(D + 2)
        runs, at most 20 parameters, for the few that matter). Every point runs with the scenario's seed: the same
        people with the same urges (common random numbers), so differences between points are the parameters', not
        noise, and a parameter no output reads gets an index of exactly 0.

        Parameters: --params KEY… (behavior.<key>), or --assumptions (every parameter whose default is an
        assumption), --unpinned (those today's fits leave unpinned), --all (every number parameter the scenario's
        products read); default: the parameters the scenario's `sensitivity: ranges:` names, else --assumptions.
        Ranges: each parameter's validated range, or the scenario's stated range, or --span F (the default
        ± F × |default|, inside the validated range), or a CSV --ranges FILE (parameter,low,high — a plausible set's
        plausible-widths.csv reads as one), or --range KEY=LO:HI; the later wins.

        Outputs: every KPI's mean and every world-check figure's mean per arm, and for a scenario with arms every
        arm's paired difference against the first arm (does an experiment's conclusion move?). --kpis keeps some.
        Writes sensitivity.csv (μ*, μ, σ or first-order and total indices with 95 % bootstrap intervals, and a rank,
        per output and parameter), sensitivity-design.csv (every point's values and outputs) and manifest.json.

        Large designs: --shard K/N simulates every N-th point into a shard folder; --merge DIR… analyses the
        shard folders of the same design (habitat-ray sensitivity does both on a Ray cluster). --function
        ishigami|g-function runs a test function with published indices instead of a scenario.
        """
    )

    @OptionGroup var options: ScenarioOptions

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Behaviour parameters to vary (behavior.<key>, repeatable or several after one --params).", valueName: "key"))
    var params: [String] = []

    @Flag(help: "Vary every behaviour parameter whose default is an assumption (the default selection).")
    var assumptions = false

    @Flag(help: "Vary the parameters today's fits leave unpinned.")
    var unpinned = false

    @Flag(help: "Vary every number behaviour parameter the scenario's products read.")
    var all = false

    @Option(help: "Vary each parameter over its default ± SPAN × |default| (inside its validated range) instead of the whole validated range.")
    var span: Double?

    @Option(help: "CSV of ranges: parameter,low,high (e.g. a plausible set's plausible-widths.csv).")
    var ranges: String?

    @Option(name: .customLong("range"), help: ArgumentHelp("One parameter's range, KEY=LO:HI (repeatable).", valueName: "KEY=LO:HI"))
    var rangeOverrides: [String] = []

    @Option(help: "morris (screening, r(D + 1) runs) or sobol (Saltelli's design, N(D + 2) runs).")
    var method: MethodName = .morris

    @Option(help: "Morris trajectories (default 10) or Sobol base rows (default 64).")
    var samples: Int?

    @Option(help: "Morris grid levels (even).")
    var levels = 4

    @Option(parsing: .upToNextOption, help: ArgumentHelp("KPI or world-check figure ids to analyse (default: all).", valueName: "id"))
    var kpis: [String] = []

    @Option(name: .customLong("design-seed"), help: "Seed of the design (trajectories, scrambling, bootstrap); the people keep the scenario's seed.")
    var designSeed: UInt64 = 20_261_129

    @Option(help: "Bootstrap resamples for the intervals.")
    var resamples = 1000

    @Option(help: ArgumentHelp("Run a test function with published indices instead of a scenario: ishigami or g-function.", valueName: "name"))
    var function: String?

    @Option(help: ArgumentHelp("Simulate only every N-th design point, from point K (1 ≤ K ≤ N), into a shard folder.", valueName: "K/N"))
    var shard: String?

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Analyse the shard folders of this design instead of simulating.", valueName: "dir"))
    var merge: [String] = []

    @Option(help: "Directory for the analysis (default: Reports/<scenario name>-sensitivity).")
    var out: String?

    @Flag(help: "Run even when the design looks too large for this machine.")
    var allowLarge = false

    @OptionGroup var execution: ExecutionOptions<InteractiveExecution>

    enum MethodName: String, ExpressibleByArgument, CaseIterable { case morris, sobol }

    func validate() throws {
        if let samples { guard (2...100_000).contains(samples) else { throw ValidationError("--samples must be in 2…100000 (got \(samples))") } }
        guard levels >= 2, levels % 2 == 0, levels <= 100 else { throw ValidationError("--levels must be an even number in 2…100 (got \(levels))") }
        guard (0...100_000).contains(resamples) else { throw ValidationError("--resamples must be in 0…100000 (got \(resamples))") }
        if let span { guard span > 0, span.isFinite, span <= 100 else { throw ValidationError("--span must be in (0, 100] (got \(span))") } }
        if let shard { do { _ = try ShardSpec(parsing: shard) } catch { throw ValidationError(error.description) } }
        if shard != nil && !merge.isEmpty { throw ValidationError("--shard simulates a shard and --merge analyses shards: give one") }
        if let function, SensitivityTestFunction(rawValue: function) == nil {
            throw ValidationError("--function '\(function.echoed())' is unknown; allowed: \(SensitivityTestFunction.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if function != nil {
            let given = [("a scenario", options.scenario != nil), ("--params", !params.isEmpty), ("--assumptions", assumptions), ("--unpinned", unpinned),
                         ("--all", all), ("--span", span != nil), ("--ranges", ranges != nil), ("--range", !rangeOverrides.isEmpty),
                         ("--kpis", !kpis.isEmpty), ("--shard", shard != nil), ("--merge", !merge.isEmpty)].filter(\.1).map(\.0)
            if !given.isEmpty { throw ValidationError("--function runs a test function, not a scenario: leave out \(given.joined(separator: ", "))") }
        }
    }

    var resolvedMethod: SensitivityMethod {
        switch method {
        case .morris: .morris(trajectories: samples ?? 10, levels: levels)
        case .sobol: .sobol(baseRows: samples ?? 64)
        }
    }

    func run() throws {
        if let function { return try runTestFunction(SensitivityTestFunction(rawValue: function)!) }
        let scenario = try options.load()
        try ReportRun.checkRunnable(scenario, scenarioFile: options.scenario, threads: execution.threads, allowLarge: allowLarge)
        let parameters = try SensitivitySelection(command: self).parameters(for: scenario)
        guard let design = SensitivityDesign(parameters: parameters, method: resolvedMethod, seed: designSeed) else {
            throw HabitatError.refused("--method sobol takes at most \(SaltelliDesign.maxDimension) parameters (got \(parameters.count)); "
                                       + "screen them with --method morris first and name the few that matter with --params")
        }
        let spec = try shard.map { try ShardSpec(parsing: $0) }
        let points = design.unitPoints.indices.filter { i in spec.map { i % $0.count == $0.index - 1 } ?? true }
        let path = out ?? (spec.map { "Reports/\(scenario.name)-sensitivity-\($0.folderName)" } ?? "Reports/\(scenario.name)-sensitivity")
        let kpiFilter = kpis.isEmpty ? nil : Set(kpis)
        if let kpiFilter {
            var known = Set(WorldFigures.all.map(\.id))
            for p in Set([scenario.product] + scenario.products) { known.formUnion(Products.kpiIDs(p) ?? []) }
            if Set(scenario.products).count > 1 { known.formUnion((ComparisonKPIs.neutral + ComparisonKPIs.shared).map(\.id)) }
            let unknown = kpiFilter.subtracting(known).sorted()
            guard unknown.isEmpty else {
                let hint = unknown.compactMap { u in Suggestion.closest(to: u, among: Array(known)).map { "'\(u.echoed())' (did you mean '\($0)'?)" } }
                throw HabitatError.refused("--kpis: \(unknown.map { "'\($0.echoed())'" }.joined(separator: ", ")) \(unknown.count == 1 ? "is" : "are") not a KPI or world-check figure of \(scenario.name)"
                                           + (hint.isEmpty ? "" : "; " + hint.joined(separator: ", ")) + "; allowed: the kpi column of its kpis.csv and the figure column of its world-check.csv")
            }
        }

        if !merge.isEmpty {
            let merged = try SensitivityShards.read(merge, design: design, controlArm: scenario.arms[0].name, scenarioHash: scenario.scenarioHash,
                                                    toolVersion: ToolInfo.version)
            try write(design, scenario: scenario, outputs: merged.outputs, simulated: merged.simulated, path: path, seconds: merged.seconds,
                      shard: nil, totals: (merged.personDays, merged.events), merged: merge.count)
            return
        }
        // The destination, checked before anything runs (it is claimed again when written).
        do { try OutputSafety.checkReportFolder(path, kind: .sensitivity) } catch {
            throw HabitatError.refused("--out: \(error)")
        }
        // The cost, stated before anything runs (and refused past the run-size limits without --allow-large).
        let size = RunSize(scenario, threads: execution.threads)
        let estimated = size.estimatedSeconds * Double(points.count)
        say("sensitivity \(scenario.name): \(parameters.count) parameter(s), \(design.method), \(design.unitPoints.count) design point(s)"
            + (spec.map { ", shard \($0): \(points.count) of them" } ?? "") + "; each point \(scenario.arms.count) arm(s) × \(scenario.replications) "
            + "replication(s) × \(scenario.arms[0].population.installs) people × \(scenario.horizonDays) days = "
            + "\(Int(size.personDays)) person-days; about \(Self.duration(estimated)) on \(execution.threads) thread(s)")
        if !allowLarge && estimated > RunSize.maxSeconds {
            throw HabitatError.refused("\(options.shownFile): the design would take about \(Self.duration(estimated)) (\(points.count) points), over the "
                + "\(Self.duration(RunSize.maxSeconds)) limit; use fewer --samples, parameters or people, shard it (--shard K/N, habitat-ray "
                + "sensitivity), or pass --allow-large")
        }
        var outputs: [SensitivityOutput] = []
        var simulated: [Int: [Double]] = [:]
        var totals = (personDays: 0, events: 0)
        let clock = ContinuousClock()
        let started = clock.now
        try StopRequest.withCleanStop {
            for (done, i) in points.enumerated() {
                try StopRequest.checkpoint()
                var run = try Products.run(try scenario.withBehavior(design.behavior(ofPoint: i)), threads: execution.threads)
                try run.simulate(progress: nil)
                totals.personDays += run.totals.personDays
                totals.events += run.totals.events
                let reading = SensitivityReading.read(run, kpis: kpiFilter)
                if outputs.isEmpty { outputs = reading.values.keys.sorted() }
                // As sensitivity-design.csv writes them (9 decimals): a merge of shards reads exactly these values back,
                // so a sharded analysis is the single run's byte for byte, and rounding noise (1e-14) is not an effect.
                simulated[i] = outputs.map { SensitivityTables.asWritten(reading.values[$0] ?? .nan) }
                let elapsed = (clock.now - started).seconds
                if execution.progress != .never || done == 0 || done + 1 == points.count || (done + 1) % max(1, points.count / 10) == 0 {
                    let left = elapsed / Double(done + 1) * Double(points.count - done - 1)
                    say(String(format: "  point %d/%d (%@)  %.1f s, about %@ left", done + 1, points.count, design.role(ofPoint: i), elapsed, Self.duration(left)))
                }
            }
        }
        if outputs.isEmpty, kpiFilter != nil, !points.isEmpty {
            throw HabitatError.refused("--kpis \(kpis.joined(separator: " ")): \(scenario.name) measured none of these in this run")
        }
        try write(design, scenario: scenario, outputs: outputs, simulated: simulated, path: path, seconds: (clock.now - started).seconds, shard: spec,
                  totals: totals, merged: 0)
    }

    /// `totals`: person-days and events simulated (the shards' sum when merging `merged` shard folders).
    func write(_ design: SensitivityDesign, scenario: ResolvedScenario, outputs: [SensitivityOutput], simulated: [Int: [Double]],
               path: String, seconds: Double, shard: ShardSpec?, totals: (personDays: Int, events: Int), merged: Int) throws {
        try ReportRun.writeFolder(URL(fileURLWithPath: path), kind: .sensitivity, shownPath: path) { report in
            try report.write("sensitivity-design.csv", table: SensitivityTables.designTable(design, outputs: outputs, simulated: simulated))
            if shard == nil {
                let columns = outputs.indices.map { o in design.unitPoints.indices.map { simulated[$0]?[o] ?? .nan } }
                let table = SensitivityTables.analysisTable(design, outputs: outputs, values: columns, keys: { o in
                    ReportKeys(scenario: scenario.name, arm: o.arm, replication: nil, product: scenario.arm(named: o.arm).map { scenario.product(of: $0).rawValue } ?? scenario.product.rawValue)
                }, resamples: resamples)
                try report.write("sensitivity.csv", table: table)
            }
            var manifest = RunManifest(command: "sensitivity", scenarioName: scenario.name, scenarioHash: scenario.scenarioHash,
                                       resolvedScenario: scenario.yaml, seed: scenario.seed, replications: scenario.replications,
                                       people: scenario.arms[0].population.installs, personDays: totals.personDays, eventsSimulated: totals.events,
                                       threads: execution.threads, wallSeconds: seconds, files: report.writtenFiles, kind: .sensitivity)
            manifest.shard = shard
            try report.write("manifest.json", text: try manifest.json())
        }
        if merged > 0 {
            say(String(format: "%d design point(s) merged from %d shard folder(s) (the longest shard took %.1f s); written to %@",
                        design.unitPoints.count, merged, seconds, path))
        } else {
            let n = shard == nil ? design.unitPoints.count : simulated.count
            say(String(format: "%d design point(s) in %.1f s (%.2f points/s); written to %@", n, seconds, Double(n) / max(seconds, 1e-9), path))
        }
        if shard == nil { printTop(design, outputs: outputs, simulated: simulated) }
        else { say("When every shard is done: habitat sensitivity … --merge SHARD_FOLDER… --out DIR (the same design options)") }
    }

    /// The three most important parameters of each output, as a first look.
    func printTop(_ design: SensitivityDesign, outputs: [SensitivityOutput], simulated: [Int: [Double]]) {
        for (o, output) in outputs.enumerated() where output.quantity != .armMean || outputs.count <= 40 {
            let column = design.unitPoints.indices.map { simulated[$0]?[o] ?? .nan }
            let a = design.analyse(column, resamples: 0)
            guard let ranking = a.ranking, let imp = a.importance else { continue }
            let top = ranking.prefix(3).map { "\(design.parameters[$0].key.replacingOccurrences(of: Calibration.behaviorPrefix, with: "")) \(String(format: "%.3g", imp[$0]))" }
            say("  \(output.column): " + top.joined(separator: ", "))
        }
    }

    /// `--function`: the design on a test function, its indices beside the published ones.
    func runTestFunction(_ f: SensitivityTestFunction) throws {
        let parameters = f.parameters.map { SensitivityParameter(key: $0.name, lower: $0.range.lowerBound, upper: $0.range.upperBound, rangeSource: "published") }
        guard let design = SensitivityDesign(parameters: parameters, method: resolvedMethod, seed: designSeed) else {
            throw HabitatError.refused("the design cannot be built for \(f.rawValue)")
        }
        let output = SensitivityOutput(.armMean, arm: "", kpi: "y", unit: "value")
        var simulated: [Int: [Double]] = [:]
        for i in design.unitPoints.indices { simulated[i] = [f.evaluate(design.values(ofPoint: i))] }
        let path = out ?? "Reports/\(f.rawValue)-sensitivity"
        try ReportRun.writeFolder(URL(fileURLWithPath: path), kind: .sensitivity, shownPath: path) { report in
            try report.write("sensitivity-design.csv", table: SensitivityTables.designTable(design, outputs: [output], simulated: simulated))
            let column = design.unitPoints.indices.map { simulated[$0]![0] }
            try report.write("sensitivity.csv", table: SensitivityTables.analysisTable(design, outputs: [output], values: [column], keys: { _ in
                ReportKeys(scenario: f.rawValue, arm: "", replication: nil, product: "")
            }, resamples: resamples))
            let manifest = RunManifest(command: "sensitivity --function \(f.rawValue)", scenarioName: f.rawValue, scenarioHash: "",
                                       resolvedScenario: "", seed: designSeed, replications: 1, people: 0, personDays: 0, eventsSimulated: 0,
                                       threads: 1, wallSeconds: 0, files: report.writtenFiles, kind: .sensitivity)
            try report.write("manifest.json", text: try manifest.json())
        }
        let a = design.analyse(design.unitPoints.indices.map { simulated[$0]![0] }, resamples: 0)
        let analytic = f.analytic
        say("\(f.rawValue): \(design.unitPoints.count) points, \(design.method)")
        for (i, p) in parameters.enumerated() {
            if let s = a.sobol {
                say(String(format: "  %@  S1 %.4f (published %.4f)  ST %.4f (published %.4f)", p.key, s.firstOrder[i], analytic.firstOrder[i], s.total[i], analytic.total[i]))
            } else if let m = a.morris {
                say(String(format: "  %@  mu* %.4f  mu %.4f  sigma %.4f", p.key, m.muStar[i], m.mu[i], m.sigma[i]))
            }
        }
        say("written to \(path)")
    }

    func say(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }

    static func duration(_ seconds: Double) -> String {
        if seconds < 120 { return String(format: "%.0f s", seconds) }
        if seconds < 7200 { return String(format: "%.0f min", seconds / 60) }
        return String(format: "%.1f h", seconds / 3600)
    }
}

/// Which parameters `habitat sensitivity` varies, over which ranges.
struct SensitivitySelection {
    let command: SensitivityCommand

    func parameters(for scenario: ResolvedScenario) throws -> [SensitivityParameter] {
        let catalogue = Products.behaviorParameters
        let products = Set([scenario.product] + scenario.products)
        func readByScenario(_ p: RuleParameter) -> Bool { Products.behaviorParameterOwner(p.keyPath).map { products.contains($0) } ?? true }
        func isNumber(_ p: RuleParameter) -> Bool { if case .number(let r) = p.kind { return r.upperBound > r.lowerBound }; return false }
        var keys: [String] = []
        for key in command.params {
            guard key.hasPrefix(Calibration.behaviorPrefix) else {
                throw HabitatError.refused("--params: '\(key.echoed())' is not a behaviour parameter; allowed: behavior.<key> (habitat validate SCENARIO --explain lists them)")
            }
            keys.append(key)
        }
        // With no parameter option, a scenario that states ranges (`sensitivity.ranges`) names the parameters to vary.
        let stated = Dictionary(scenario.sensitivityRanges.map { ($0.key, $0.low...$0.high) }, uniquingKeysWith: { a, _ in a })
        let noOption = command.params.isEmpty && !command.assumptions && !command.unpinned && !command.all
        if noOption { keys += scenario.sensitivityRanges.map(\.key) }
        let selectAssumptions = command.assumptions || (noOption && stated.isEmpty)
        let chosen = catalogue.filter { p in
            isNumber(p) && readByScenario(p) && (command.all || (selectAssumptions && p.source.isAssumption)
                                                 || (command.unpinned && BehaviorCatalogue.unpinnedKeys.contains(p.keyPath)))
        }
        keys += chosen.map { Calibration.behaviorPrefix + $0.keyPath }.filter { !keys.contains($0) }
        let resolved: [CalibrationParameter]
        do {
            resolved = try Calibration.parameters(keys, catalogue: catalogue, startValues: scenario.arms[0].behavior, option: "--params")
        } catch {
            throw HabitatError.refused("\(error)")
        }
        let fileRanges = try command.ranges.map { try Self.readRanges($0) } ?? [:]
        let given = try Self.parseRanges(command.rangeOverrides)
        for key in given.keys where !keys.contains(key) {
            throw HabitatError.refused("--range \(key.echoed()): not among the parameters varied (\(resolved.count))")
        }
        return try resolved.map { try Self.range(of: $0, stated: stated, span: command.span, file: command.ranges, fileRanges: fileRanges, given: given) }
    }

    /// The range `p` is varied over: its validated range, or the scenario's stated range (`sensitivity.ranges`), or its
    /// default ± `span` × |default| inside the validated range, or a ranges file's, or `--range`'s — the later wins;
    /// refused when empty or outside the validated range, naming its source. `habitat sensitivity` and
    /// `habitat calibrate --plausible` (the prior) share it.
    static func range(of p: CalibrationParameter, stated: [String: ClosedRange<Double>] = [:], span: Double?, file: String? = nil,
                      fileRanges: [String: ClosedRange<Double>] = [:], given: [String: ClosedRange<Double>]) throws -> SensitivityParameter {
        var lower = p.lower, upper = p.upper, source = "validated", origin = "its validated range"
        if let r = stated[p.key] { (lower, upper, source, origin) = (r.lowerBound, r.upperBound, "scenario", "the scenario's sensitivity.ranges") }
        if let span {
            let half = span * max(abs(p.start), 0.05 * (p.upper - p.lower))
            (lower, upper, source, origin) = (max(p.lower, p.start - half), min(p.upper, p.start + half), "span \(span)", "--span \(span)")
        }
        if let r = fileRanges[p.key] { (lower, upper, source, origin) = (r.lowerBound, r.upperBound, "file", "--ranges \((file ?? "").echoedPath)") }
        if let r = given[p.key] { (lower, upper, source, origin) = (r.lowerBound, r.upperBound, "given", "--range") }
        guard lower >= p.lower, upper <= p.upper, lower < upper else {
            throw HabitatError.refused("\(origin): \(p.key): range \(lower)…\(upper) is empty or outside the validated range; allowed within \(p.lower)…\(p.upper)")
        }
        return SensitivityParameter(key: p.key, lower: lower, upper: upper, rangeSource: source)
    }

    /// `--range KEY=LO:HI`.
    static func parseRanges(_ items: [String]) throws -> [String: ClosedRange<Double>] {
        var out: [String: ClosedRange<Double>] = [:]
        for item in items {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            let bounds = parts.count == 2 ? parts[1].split(separator: ":").map { Double($0) } : []
            guard parts.count == 2, bounds.count == 2, let lo = bounds[0], let hi = bounds[1], lo.isFinite, hi.isFinite, lo < hi else {
                throw HabitatError.refused("--range '\(item.echoed())' is not KEY=LO:HI with LO < HI (e.g. --range behavior.churn.base_hazard=0.2:0.5)")
            }
            out[parts[0]] = lo...hi
        }
        return out
    }

    /// A ranges CSV: columns `parameter`, `low`, `high` (others ignored) — or a plausible set's `plausible-widths.csv`
    /// (`plausible_low`, `plausible_high`).
    static func readRanges(_ file: String) throws -> [String: ClosedRange<Double>] {
        let text: String
        do { text = try InputFile.text(file, maxBytes: InputLimits.targets, binaryHint: "a ranges file is CSV text") } catch {
            throw HabitatError.refused("\(file.echoedPath): cannot read the ranges file: \(error.description)")
        }
        let (header, rows) = CSVTable.parse(text)
        guard let p = header.firstIndex(of: "parameter"),
              let lo = header.firstIndex(of: "plausible_low") ?? header.firstIndex(of: "low"),
              let hi = header.firstIndex(of: "plausible_high") ?? header.firstIndex(of: "high") else {
            throw HabitatError.refused("\(file.echoedPath): expected columns parameter,low,high (or a plausible-widths.csv); got \(header.joined(separator: ",").echoed())")
        }
        var out: [String: ClosedRange<Double>] = [:]
        let known = Set(Products.behaviorParameters.map { Calibration.behaviorPrefix + $0.keyPath })
        for (n, row) in rows.enumerated() where !(row.count == 1 && row[0].isEmpty) {
            guard row.count > max(p, lo, hi) else {
                throw HabitatError.refused("\(file.echoedPath):\(n + 2): \(row.first.map { "'\($0.echoed())': " } ?? "")\(row.count) field(s); expected \(header.count) (\(header.joined(separator: ",").echoed()))")
            }
            guard let a = Double(row[lo]), let b = Double(row[hi]), a.isFinite, b.isFinite, a < b else {
                throw HabitatError.refused("\(file.echoedPath):\(n + 2): \(row[p].echoed()): low \(row[lo].echoed()) and high \(row[hi].echoed()) must be finite numbers, low < high")
            }
            let key = row[p].hasPrefix(Calibration.behaviorPrefix) ? row[p] : Calibration.behaviorPrefix + row[p]
            guard known.contains(key) else {
                let hint = Suggestion.closest(to: key, among: Array(known)).map { " (did you mean '\($0)'?)" } ?? ""
                throw HabitatError.refused("\(file.echoedPath):\(n + 2): parameter '\(row[p].echoed())' is not a behaviour parameter\(hint)")
            }
            guard out[key] == nil else { throw HabitatError.refused("\(file.echoedPath):\(n + 2): \(key) is listed twice") }
            out[key] = a...b
        }
        return out
    }
}

/// The shard folders of one design (`habitat sensitivity --merge`).
enum SensitivityShards {
    static func read(_ dirs: [String], design: SensitivityDesign, controlArm: String, scenarioHash: String,
                     toolVersion: String) throws -> (outputs: [SensitivityOutput], simulated: [Int: [Double]], seconds: Double, personDays: Int, events: Int) {
        var outputs: [SensitivityOutput]?
        var personDays = 0, events = 0
        var columns: [String]?
        var simulated: [Int: [Double]] = [:]
        var seconds = 0.0
        let expected = SensitivityTables.designTable(design, outputs: [], simulated: [:])
        for dir in dirs {
            let manifestPath = URL(fileURLWithPath: dir).appendingPathComponent("manifest.json").path
            let manifestText: String
            do { manifestText = try InputFile.text(manifestPath, maxBytes: 64 << 20, binaryHint: "a manifest is JSON text") } catch {
                throw HabitatError.refused("\(dir.echoedPath): not a sensitivity shard folder (its manifest.json: \(error.description)); give the folders `habitat sensitivity --shard K/N` wrote")
            }
            guard let m = try? JSONSerialization.jsonObject(with: Data(manifestText.utf8)) as? [String: Any] else {
                throw HabitatError.refused("\(dir.echoedPath): no readable manifest.json; give the folders `habitat sensitivity --shard` wrote")
            }
            guard m["kind"] as? String == ReportKind.sensitivity.rawValue, m["shard"] != nil else {
                throw HabitatError.refused("\(dir.echoedPath): not a sensitivity shard folder (it is \((m["kind"] as? String).flatMap(ReportKind.init(rawValue:))?.noun ?? "another kind of folder")"
                                           + "\(m["kind"] as? String == ReportKind.sensitivity.rawValue ? ", a finished analysis" : "")); give the folders `habitat sensitivity --shard K/N` wrote")
            }
            let file = URL(fileURLWithPath: dir).appendingPathComponent("sensitivity-design.csv").path
            let text: String
            do { text = try InputFile.text(file, maxBytes: 1 << 30, binaryHint: "a design file is CSV text") } catch {
                throw HabitatError.refused("\(file.echoedPath): cannot read the shard's design: \(error.description)")
            }
            guard m["scenario_hash"] as? String == scenarioHash else {
                throw HabitatError.refused("\(dir.echoedPath): this shard simulated another scenario or run size (scenario hash \((m["scenario_hash"] as? String ?? "?").prefix(12)) "
                                           + "≠ \(scenarioHash.prefix(12))); give --merge the same scenario, --people, --days, --replications, --seed and --set as the shards")
            }
            guard m["tool_version"] as? String == toolVersion else {
                throw HabitatError.refused("\(dir.echoedPath): written by habitat \(m["tool_version"] as? String ?? "?"), not \(toolVersion); merge with the version that simulated it")
            }
            if let s = m["wall_seconds"] as? Double { seconds = max(seconds, s) }
            if let n = m["person_days"] as? Int { personDays += n }
            if let n = m["events_simulated"] as? Int { events += n }
            let (header, rows) = CSVTable.parse(text)
            let fixed = expected.header.count
            guard Array(header.prefix(fixed)) == expected.header, rows.count == design.unitPoints.count else {
                throw HabitatError.refused("\(file.echoedPath): this shard was made with another design (parameters or points differ); "
                                           + "give --merge the same scenario and design options as the shards")
            }
            let here = Array(header.dropFirst(fixed))
            if let c = columns, c != here, !here.isEmpty {
                throw HabitatError.refused("\(file.echoedPath): its outputs differ from the other shards'")
            }
            if columns == nil || columns!.isEmpty { columns = here }
            for (i, row) in rows.enumerated() {
                let want = expected.rows[i].map(\.rendered)
                guard Array(row.prefix(fixed)) == want else {
                    throw HabitatError.refused("\(file.echoedPath): point \(i + 1) has other parameter values than this design's; give --merge the same design options")
                }
                let cells = Array(row.dropFirst(fixed))
                guard !cells.isEmpty, cells.allSatisfy({ !$0.isEmpty }) else { continue }
                if simulated[i] != nil { throw HabitatError.refused("\(file.echoedPath): point \(i + 1) is in two shards") }
                simulated[i] = cells.map { Double($0) ?? .nan }
            }
        }
        let missing = design.unitPoints.indices.filter { simulated[$0] == nil }
        guard missing.isEmpty else {
            throw HabitatError.refused("the shards miss \(missing.count) of \(design.unitPoints.count) design points (first: point \(missing[0] + 1)); give every shard's folder")
        }
        outputs = try (columns ?? []).map { c in
            guard let o = SensitivityOutput(column: c, controlArm: controlArm) else {
                throw HabitatError.refused("a shard's design names an output '\(c.echoed())' this version does not know")
            }
            return o
        }
        return (outputs ?? [], simulated, seconds, personDays, events)
    }
}
