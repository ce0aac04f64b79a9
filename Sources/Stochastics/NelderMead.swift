import Foundation

/// Derivative-free minimisation with GSL's Nelder–Mead simplex (`gsl_multimin_fminimizer_nmsimplex2`).
///
/// The objective may be noisy or piecewise flat (a simulation with common random numbers is smooth only in the
/// large), which is why a simplex method and not a gradient one. Budgets are in *evaluations* (each one a
/// simulation run), not iterations: the minimiser never calls the objective more than `maxEvaluations` times, and
/// the result is the best point it ever evaluated — GSL's simplex is interrupted mid-iteration when the budget runs
/// out, and a minimiser's own "current best" would then lag behind.
public enum NelderMead {
    /// Why the minimisation stopped.
    public enum Stop: String, Sendable, Hashable {
        /// The simplex shrank below `sizeTolerance` (GSL's `gsl_multimin_test_size`).
        case converged
        /// `maxEvaluations` objective evaluations were spent.
        case budgetSpent = "budget_spent"
        /// The objective asked to stop (it threw `NelderMead.StopRequested`), e.g. on Ctrl-C.
        case stopped
    }

    /// Thrown by an objective to end the minimisation early; the best point so far is returned.
    public struct StopRequested: Error, Sendable {
        public init() {}
    }

    /// One objective evaluation, as reported to `onEvaluation`.
    public struct Evaluation: Sendable, Hashable {
        /// 1-based evaluation number.
        public let number: Int
        /// Where the objective was evaluated.
        public let point: [Double]
        /// The objective's value there (may be +∞).
        public let value: Double
        /// The best value so far, this one included.
        public let bestValue: Double
    }

    /// The outcome of a minimisation.
    public struct Result: Sendable, Hashable {
        /// The best point evaluated.
        public let minimum: [Double]
        /// The objective there.
        public let value: Double
        /// Objective evaluations spent.
        public let evaluations: Int
        /// Simplex iterations completed.
        public let iterations: Int
        /// The simplex's characteristic size when it stopped.
        public let finalSize: Double
        public let stop: Stop
    }

    /// A failure of the minimiser itself (not of the objective).
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// Minimises `objective` from `start`, with the initial simplex spanned by `steps` (one per coordinate).
    ///
    /// - Parameters:
    ///   - maxEvaluations: at most this many calls of `objective` (at least `start.count + 1`, the first simplex).
    ///   - sizeTolerance: stop once the simplex's size (mean distance of its vertices from their centre) is below.
    ///   - onEvaluation: called after every evaluation (progress, a trace file).
    /// - Throws: the first error `objective` throws other than `StopRequested`, or `Failure`.
    public static func minimize(from start: [Double], steps: [Double], maxEvaluations: Int, sizeTolerance: Double = 1e-3,
                                objective: ([Double]) throws -> Double,
                                onEvaluation: (Evaluation) -> Void = { _ in }) throws -> Result {
        guard !start.isEmpty, steps.count == start.count else {
            throw Failure(description: "Nelder–Mead needs one step per coordinate (\(start.count) coordinates, \(steps.count) steps)")
        }
        guard maxEvaluations >= start.count + 1 else {
            throw Failure(description: "a budget of \(maxEvaluations) evaluations cannot build the first simplex of \(start.count + 1) points")
        }
        var evaluations = 0
        var best: (point: [Double], value: Double) = (start, .infinity)
        var thrown: Error?
        var stop = Stop.converged
        var iterations = 0
        var size = Double.nan
        // GSL calls back synchronously on this thread; the closure only lives for the call below.
        let status = withoutActuallyEscaping(objective) { objective in
            withoutActuallyEscaping(onEvaluation) { onEvaluation in
                GSLSimplex.run(start: start, steps: steps, objective: { x in
                    // Once stopped, every further call is answered without evaluating (GSL finishes its iteration).
                    guard thrown == nil, evaluations < maxEvaluations else { return .infinity }
                    evaluations += 1
                    let value: Double
                    do { value = try objective(x) } catch { thrown = error; return .infinity }
                    let finite = value.isNaN ? Double.infinity : value
                    if finite < best.value || evaluations == 1 { best = (x, finite) }
                    onEvaluation(Evaluation(number: evaluations, point: x, value: finite, bestValue: best.value))
                    return finite
                }, iteration: { k, s in
                    iterations = k
                    size = s
                    if thrown != nil { stop = .stopped; return false }
                    if evaluations >= maxEvaluations { stop = .budgetSpent; return false }
                    if s < sizeTolerance { stop = .converged; return false }
                    return true
                })
            }
        }
        if let thrown {
            guard thrown is StopRequested else { throw thrown }
            stop = .stopped
        } else if status != 0 {
            // GSL gives up when it cannot improve (e.g. every value +∞): report the best point rather than fail,
            // unless nothing was evaluated at all.
            guard evaluations > 0 else { throw Failure(description: GSLError(code: status, function: "gsl_multimin_fminimizer_nmsimplex2").description) }
            stop = evaluations >= maxEvaluations ? .budgetSpent : .converged
        }
        return Result(minimum: best.point, value: best.value, evaluations: evaluations, iterations: iterations, finalSize: size, stop: stop)
    }

    /// Maps a value in the open interval (lower, upper) to the whole real line (logit of its position), so an
    /// unconstrained minimiser can search a bounded parameter; `fromUnbounded` is its inverse.
    public static func toUnbounded(_ x: Double, lower: Double, upper: Double) -> Double {
        let width = upper - lower
        guard width > 0 else { return 0 }
        let p = min(max((x - lower) / width, 1e-9), 1 - 1e-9)
        return log(p / (1 - p))
    }

    /// The inverse of `toUnbounded`: any real number back into (lower, upper).
    public static func fromUnbounded(_ z: Double, lower: Double, upper: Double) -> Double {
        lower + (upper - lower) / (1 + exp(-z))
    }
}
