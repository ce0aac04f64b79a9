import Behavior
import Foundation
import Reports
import RulesCore
import ScenarioFormat
import Stochastics

/// A behaviour parameter a calibration fits: its `behavior.` key, its validated range and where the fit starts.
public struct CalibrationParameter: Sendable, Hashable {
    /// The scenario key, e.g. `behavior.churn.base_hazard`.
    public var key: String
    public var lower: Double
    public var upper: Double
    /// The scenario's own value (the fit's starting point).
    public var start: Double

    /// The catalogue key without the `behavior.` prefix.
    public var catalogueKey: String { String(key.dropFirst(Calibration.behaviorPrefix.count)) }

    /// Maps a value to the unbounded space the simplex searches (logit of its place in the range).
    func unbounded(_ x: Double) -> Double { NelderMead.toUnbounded(x, lower: lower, upper: upper) }
    /// Maps an unbounded coordinate back into the range.
    func bounded(_ z: Double) -> Double { NelderMead.fromUnbounded(z, lower: lower, upper: upper) }

    /// The first simplex step in the unbounded space: a move of about 30 % of the start value (at least 5 % of the
    /// range), at most 2 logits. Assumption; the simplex adapts its size from there.
    var unboundedStep: Double {
        let width = upper - lower
        let p = min(max((start - lower) / width, 0.001), 0.999)
        let dx = max(0.3 * abs(start), 0.05 * width)
        return min(2, dx / (width * p * (1 - p)))
    }
}

/// How much the loss moves when one fitted parameter moves alone (`Calibration.identifiability(at:)`).
public struct Identifiability: Sendable {
    public var key: String
    public var value: Double, lowValue: Double, highValue: Double
    public var baseLoss: Double, lowLoss: Double, highLoss: Double
    /// The larger rise of the loss of the two moves (negative if both moves lower it: not at a minimum).
    public var lossRise: Double { max(lowLoss, highLoss) - baseLoss }
    /// Whether the loss barely moves (under 1 % of the loss, or 0.001): no target pins the parameter.
    public var unpinned: Bool { abs(lowLoss - baseLoss) < max(0.001, 0.01 * baseLoss) && abs(highLoss - baseLoss) < max(0.001, 0.01 * baseLoss) }
}

/// One evaluation of a calibration: the parameter values, the world check they produced and its loss.
public struct CalibrationEvaluation: Sendable {
    public var number: Int
    public var values: [Double]
    public var rows: [WorldCheckRow]
    /// Σ weight · miss² over the targets (see `Calibration.loss`).
    public var loss: Double
    /// The best loss so far, this evaluation included.
    public var bestLoss: Double
    public var seconds: Double
}

/// Fits behaviour parameters to world-check targets with GSL's Nelder–Mead simplex (`habitat calibrate`).
///
/// * Every evaluation runs the *same* scenario — the same seed, so the same people with the same urges (common
///   random numbers) — with only the fitted parameters changed; the loss then moves with the parameters, not with
///   fresh noise, and the simplex can follow it.
/// * Each parameter is searched through the logit of its place in its validated range, so the simplex never
///   proposes a value the scenario format would refuse.
/// * The loss is Σ weight · miss², a miss being how far a figure's mean lies outside its target range (shrunk by
///   `margin` at each end), in units of the range's width; a target that does not apply in a run (no one reached
///   a first renewal, a horizon too short) counts as a miss of `missingPenalty`, so the fit cannot make a figure
///   go away to improve.
/// * Figures not named as targets are only checked: `Calibration.roles` marks them so in the output.
public struct Calibration {
    /// The key prefix of behaviour parameters.
    public static let behaviorPrefix = "behavior."
    /// Miss charged for a target that does not apply or has no value in a run.
    public static let missingPenalty = 1.0

    /// What `habitat calibrate` fits without `--fit`: the constants that decide the install cohort's retention
    /// (churn hazard and how perceived value lowers it, how often a pickup opens the app) and its purchases (the
    /// paywall's buy constant, the shield's token buy, the renewal intercept). Each moves figures the others hardly
    /// touch, so the simplex is well posed.
    public static let defaultFit = [
        "behavior.churn.base_hazard", "behavior.churn.value_weight", "behavior.engagement.app_open_per_pickup_scale",
        "behavior.purchase.buy_constant", "behavior.shield.constant.buy_token", "behavior.purchase.renew_intercept",
    ]

    public let parameters: [CalibrationParameter]
    public let targets: [CalibrationTarget]
    /// Inset of each target range at both ends, as a share of its width (see `CalibrationTarget.aim`).
    public var margin = 0.10
    /// The arm whose world check is fitted (the first).
    public let arm: String
    /// Simulates the scenario with the given behaviour values (catalogue key → value, e.g. `churn.base_hazard`) and
    /// returns the fitted arm's world-check rows.
    let simulate: ([String: Double]) throws -> [WorldCheckRow]

    public init(parameters: [CalibrationParameter], targets: [CalibrationTarget], arm: String,
                simulate: @escaping ([String: Double]) throws -> [WorldCheckRow]) {
        self.parameters = parameters
        self.targets = targets
        self.arm = arm
        self.simulate = simulate
    }

    /// The parameters named by `keys` (each `behavior.<key>` of a number parameter in `catalogue`, at most once),
    /// starting from the values the scenario's first arm resolves to.
    /// `option` names the command-line option the keys came from, for messages.
    public static func parameters(_ keys: [String], catalogue: [RuleParameter], startValues: ParameterValues,
                                  option: String = "--fit") throws(CalibrationInputError) -> [CalibrationParameter] {
        guard !keys.isEmpty else {
            throw CalibrationInputError(file: option, "name at least one behaviour parameter, e.g. \(option) behavior.churn.base_hazard")
        }
        var out: [CalibrationParameter] = []
        for key in keys {
            guard key.hasPrefix(behaviorPrefix) else {
                throw CalibrationInputError(file: option, "'\(key.echoed())' is not a behaviour parameter; allowed: behavior.<parameter> (see habitat validate --explain)")
            }
            let name = String(key.dropFirst(behaviorPrefix.count))
            guard let p = catalogue.first(where: { $0.keyPath == name }) else {
                let hint = Suggestion.closest(to: name, among: catalogue.map(\.keyPath)).map { " (did you mean 'behavior.\($0)'?)" } ?? ""
                throw CalibrationInputError(file: option, "unknown behaviour parameter '\(key.echoed())'\(hint)")
            }
            guard case .number(let range) = p.kind else {
                throw CalibrationInputError(file: option, "'\(key.echoed())' is \(p.kind), not a number range; only number parameters can be fitted")
            }
            guard !out.contains(where: { $0.key == key }) else { throw CalibrationInputError(file: option, "'\(key.echoed())' is named twice") }
            guard range.upperBound > range.lowerBound else {
                throw CalibrationInputError(file: option, "'\(key.echoed())' has an empty range \(range); nothing to fit")
            }
            let start = startValues[name]?.doubleValue ?? p.defaultValue.doubleValue ?? range.lowerBound
            out.append(CalibrationParameter(key: key, lower: range.lowerBound, upper: range.upperBound, start: start))
        }
        return out
    }

    /// Per-target misses (nil value: the figure did not apply or had no value) and the total loss.
    public func loss(_ rows: [WorldCheckRow]) -> (total: Double, misses: [(target: CalibrationTarget, value: Double?, miss: Double)]) {
        var total = 0.0
        var misses: [(CalibrationTarget, Double?, Double)] = []
        for t in targets {
            let row = rows.first { $0.figure.id == t.figure }
            let value = row.flatMap { $0.applies == WorldCheckRow.applicable ? $0.mean : nil }
            let miss = value.map { t.miss($0, margin: margin) } ?? Self.missingPenalty
            total += t.weight * miss * miss
            misses.append((t, value, miss))
        }
        return (total, misses)
    }

    /// Text of a parameter value as the scenario format reads it back exactly (shortest round-trip form).
    public static func text(_ x: Double) -> String { "\(x)" }

    /// Runs the scenario at `values` (aligned with `parameters`).
    public func evaluate(_ values: [Double]) throws -> [WorldCheckRow] {
        var set: [String: Double] = [:]
        for (p, v) in zip(parameters, values) { set[p.catalogueKey] = v }
        return try simulate(set)
    }

    /// Fits the parameters: at most `budget` evaluations (the first `parameters.count + 1` build the simplex).
    /// `onEvaluation` sees every evaluation (progress, the trace file). Returns the best evaluation.
    public func fit(budget: Int, sizeTolerance: Double = 1e-3,
                    onEvaluation: (CalibrationEvaluation) -> Void) throws -> (best: CalibrationEvaluation, result: NelderMead.Result) {
        var best: CalibrationEvaluation?
        var number = 0
        let clock = ContinuousClock()
        let result = try NelderMead.minimize(
            from: parameters.map { $0.unbounded($0.start) }, steps: parameters.map(\.unboundedStep), maxEvaluations: budget,
            sizeTolerance: sizeTolerance,
            objective: { z in
                let started = clock.now
                let values = zip(parameters, z).map { $0.bounded($1) }
                let rows = try evaluate(values)
                number += 1
                let l = loss(rows).total
                var e = CalibrationEvaluation(number: number, values: values, rows: rows, loss: l, bestLoss: l,
                                              seconds: (clock.now - started).seconds)
                if let b = best, b.loss <= l { e.bestLoss = b.loss } else { best = e }
                onEvaluation(e)
                return l
            })
        guard let best else { throw NelderMead.Failure(description: "no evaluation was made") }
        return (best, result)
    }

    /// Identifiability (issue 26): from the best values, each parameter alone moved 10 % of its value (at least 1 % of
    /// its range) down and up, the loss re-measured. A parameter whose moves barely change the loss is one no target
    /// pins: its fitted value says little. Two evaluations a parameter.
    public func identifiability(at best: [Double]) throws -> [Identifiability] {
        let base = loss(try evaluate(best)).total
        var out: [Identifiability] = []
        for (i, p) in parameters.enumerated() {
            let step = max(0.1 * abs(best[i]), 0.01 * (p.upper - p.lower))
            var losses: [Double] = []
            var values: [Double] = []
            for sign in [-1.0, 1.0] {
                var v = best
                v[i] = min(max(best[i] + sign * step, p.lower), p.upper)
                values.append(v[i])
                losses.append(loss(try evaluate(v)).total)
            }
            out.append(Identifiability(key: p.key, value: best[i], lowValue: values[0], highValue: values[1], baseLoss: base,
                                       lowLoss: losses[0], highLoss: losses[1]))
        }
        return out
    }

    /// Which world-check figures were fitted and which only checked (out of sample), by figure id.
    public func roles() -> [String: String] {
        var roles = Dictionary(uniqueKeysWithValues: WorldFigures.all.map { f in (f.id, "checked") })
        for t in targets { roles[t.figure] = "fitted" }
        return roles
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
