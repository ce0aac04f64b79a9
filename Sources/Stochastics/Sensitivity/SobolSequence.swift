import Foundation

/// A scrambled Sobol sequence in the unit hypercube: GSL's Sobol points (`GSLSobolGenerator`) under a random digital
/// shift — each coordinate's 30 bits XOR-ed with a mask drawn once per dimension from `seed` (Owen 2003's simplest
/// scrambling: every point stays a point of a (t, s)-net, the design becomes random so estimates get honest
/// intervals, and no point sits on a face of the cube). The same seed gives the same points.
///
/// Up to `GSLSobolGenerator.maxDimension` (40) dimensions: a Saltelli design of D parameters takes 2D.
public struct SobolSequence {
    private let generator: GSLSobolGenerator
    private let masks: [UInt32]
    /// GSL's sequence starts at its second point (it skips the origin); the net property holds from the origin.
    private var atOrigin = true
    /// Coordinates per point.
    public var dimension: Int { generator.dimension }
    /// Bits GSL gives each coordinate.
    static let bits = 30

    /// nil when `dimension` is outside 1…40. `skip` points are drawn and dropped first (0 keeps the first point, the
    /// origin, which the shift moves off it — as scipy's scrambled Sobol sequence, which SALib uses, starts).
    public init?(dimension: Int, seed: UInt64, skip: Int = 0) {
        guard let g = GSLSobolGenerator(dimension: dimension) else { return nil }
        generator = g
        let stream = RandomStream(seed: seed)
        masks = (0..<dimension).map { _ in stream.nextUInt32() >> UInt32(32 - Self.bits) }
        for _ in 0..<skip { _ = next() }
    }

    /// The next point, each coordinate in (0, 1): the shifted cell's midpoint.
    public mutating func next() -> [Double] {
        let scale = Double(1 << Self.bits)
        let x = atOrigin ? [Double](repeating: 0, count: masks.count) : generator.next()
        atOrigin = false
        return zip(x, masks).map { x, mask in
            let cell = UInt32(x * scale) ^ mask
            return (Double(cell) + 0.5) / scale
        }
    }
}
