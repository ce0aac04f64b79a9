import Foundation

/// The standard test functions of variance-based sensitivity analysis, with their published indices: what
/// `habitat sensitivity --function` runs and the estimators' tests check against (and SALib, `Tests/Oracles`).
public enum SensitivityTestFunction: String, CaseIterable, Sendable {
    /// Ishigami & Homma 1990: f = sin x₁ + a sin² x₂ + b x₃⁴ sin x₁, xᵢ ~ U(−π, π), a = 7, b = 0.1.
    case ishigami
    /// Sobol's g-function (Saltelli & Sobol 1995): f = Πᵢ (|4xᵢ − 2| + aᵢ) / (1 + aᵢ), xᵢ ~ U(0, 1), with SALib's
    /// a = (0, 1, 4.5, 9, 99, 99, 99, 99).
    case gFunction = "g-function"

    static let ishigamiA = 7.0, ishigamiB = 0.1
    static let gA: [Double] = [0, 1, 4.5, 9, 99, 99, 99, 99]

    /// Parameter names and ranges.
    public var parameters: [(name: String, range: ClosedRange<Double>)] {
        switch self {
        case .ishigami: (1...3).map { ("x\($0)", -Double.pi...Double.pi) }
        case .gFunction: (1...Self.gA.count).map { ("x\($0)", 0.0...1.0) }
        }
    }

    /// f at `x` (in the parameters' own ranges).
    public func evaluate(_ x: [Double]) -> Double {
        switch self {
        case .ishigami:
            return sin(x[0]) + Self.ishigamiA * pow(sin(x[1]), 2) + Self.ishigamiB * pow(x[2], 4) * sin(x[0])
        case .gFunction:
            return zip(x, Self.gA).reduce(1.0) { $0 * (abs(4 * $1.0 - 2) + $1.1) / (1 + $1.1) }
        }
    }

    /// The analytic first-order and total indices.
    public var analytic: (firstOrder: [Double], total: [Double]) {
        switch self {
        case .ishigami:
            let a = Self.ishigamiA, b = Self.ishigamiB, pi4 = pow(Double.pi, 4), pi8 = pi4 * pi4
            let v1 = 0.5 * pow(1 + b * pi4 / 5, 2), v2 = a * a / 8, v13 = b * b * pi8 * 8 / 225
            let v = v1 + v2 + v13
            return ([v1 / v, v2 / v, 0], [(v1 + v13) / v, v2 / v, v13 / v])
        case .gFunction:
            let vi = Self.gA.map { 1 / (3 * pow(1 + $0, 2)) }
            let v = vi.reduce(1) { $0 * (1 + $1) } - 1
            let first = vi.map { $0 / v }
            let total = vi.indices.map { i in vi[i] * vi.indices.filter { $0 != i }.reduce(1) { $0 * (1 + vi[$1]) } / v }
            return (first, total)
        }
    }
}
