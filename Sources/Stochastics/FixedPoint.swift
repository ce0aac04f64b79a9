extension Int128 {
    /// `x · scale` rounded to the nearest integer — the fixed-point form in which Habitat's sums stay exact, so that
    /// merging parts in any grouping and order gives the same bits (`LogHistogram`, `FixedPointEnergy`). Negative
    /// values count as 0; values whose scaled form reaches 9.2e18 saturate at `Int64.max`.
    @inlinable public init(fixedPoint x: Double, scale: Double) {
        let scaled = (x * scale).rounded()
        self = scaled < 9.2e18 ? Int128(Int64(Swift.max(0, scaled))) : Int128(Int64.max)
    }
}
