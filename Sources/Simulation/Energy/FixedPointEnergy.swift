import RulesCore
import Stochastics

/// Joules by activity summed in fixed point (nanojoules, `Int128`), so that adding and merging give the same bits in
/// any grouping and order — what lets a run split into shards (`habitat run --shard K/N`) merge into the bytes of a
/// whole run. A value is rounded to the nearest nanojoule once, when it is added; the reported sums therefore carry
/// an error below 1 nJ per person-life added, far under the 4 decimals `energy-by-effect.csv` prints.
public struct FixedPointEnergy: Hashable, Sendable, Codable {
    /// Fixed-point units per joule.
    public static let unitsPerJoule = 1e9
    /// One sum per `EnergyActivity`, in `allCases` order.
    var units = [Int128](repeating: 0, count: EnergyActivity.allCases.count)

    public init() {}

    /// Adds every activity's joules (finite, non-negative; larger than 9.2e9 J saturates, far beyond any phone).
    public mutating func add(_ joules: EnergyVector) {
        for (i, a) in EnergyActivity.allCases.enumerated() { units[i] += Int128(fixedPoint: joules[a], scale: Self.unitsPerJoule) }
    }

    /// Folds `other` in (exact).
    public mutating func merge(_ other: FixedPointEnergy) {
        for i in units.indices { units[i] += other.units[i] }
    }

    /// The sums in joules.
    public var joules: EnergyVector {
        var v = EnergyVector()
        for (i, a) in EnergyActivity.allCases.enumerated() { v[a] = Double(units[i]) / Self.unitsPerJoule }
        return v
    }

    /// Encoded as decimal strings (JSON numbers cannot hold every `Int128` exactly).
    public init(from decoder: any Decoder) throws {
        let texts = try decoder.singleValueContainer().decode([String].self)
        guard texts.count == units.count else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "expected \(units.count) activities, found \(texts.count)"))
        }
        units = try texts.map { t in
            guard let v = Int128(t) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "'\(t)' is not an integer"))
            }
            return v
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(units.map { String($0) })
    }
}
