/// A parameter Stochastics cannot work with, reported in words a scenario author can act on.
///
/// Thrown by the types that are built from scenario data (`CategoricalTable`, `LognormalParameters`,
/// `NonHomogeneousPoissonSampler`, `BatchMeans`). Per-draw samplers on `RandomStream` use preconditions instead.
public enum StochasticsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `parameter` was given `value`, which breaks `requirement`.
    case invalidParameter(parameter: String, value: String, requirement: String)
    /// GSL reported a failure.
    case gsl(GSLError)

    public var description: String {
        switch self {
        case let .invalidParameter(parameter, value, requirement):
            return "\(parameter) = \(value) is not allowed: \(requirement)"
        case let .gsl(error):
            return error.description
        }
    }
}
