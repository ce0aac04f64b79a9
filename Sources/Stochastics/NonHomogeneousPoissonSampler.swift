/// Arrivals of a non-homogeneous Poisson process with a piecewise-constant intensity, by Lewis–Shedler thinning.
///
/// The intensity is given as a table of rates in **events per hour**, one per piece — typically 24 pieces
/// (hour of day) or 168 (hour of week). Which piece an instant falls in is the caller's business: the simulator
/// maps an absolute instant to the person's local hour of week (time zone and DST included) and passes that
/// mapping as `pieceIndex`. Pieces need not be an hour long; the rate is still read as events per hour.
///
/// Exact behaviour of `next(after:notAfter:scale:pieceIndex:using:)`, with λ* = `maxRatePerHour · scale`:
/// 1. If λ* = 0, return `nil` (no arrival ever).
/// 2. Keep a continuous candidate time `t` (milliseconds, `Double`), starting at `after`.
/// 3. Add an exponential gap with mean `3_600_000 / λ*` ms (one draw from the stream).
/// 4. Round the candidate up to a whole millisecond, `c = max(ceil(t), after + 1)`. If `c > notAfter`, return `nil`.
/// 5. Accept with probability `rates[pieceIndex(c)] / maxRatePerHour` (one uniform `u`; accept iff
///    `u · maxRatePerHour < rates[pieceIndex(c)]`). If accepted return `c`; otherwise continue at step 3 from `t`.
///
/// So each call consumes 2 draws per candidate, and the result is strictly after `after`. Successive calls
/// with `after` = the previous arrival generate the whole process (the rounding to whole ms is the only
/// approximation).
public struct NonHomogeneousPoissonSampler: Sendable, Hashable {
    /// Rates per piece, events per hour.
    public let ratesPerHour: [Double]
    /// The largest rate, the thinning bound.
    public let maxRatePerHour: Double

    /// - Throws: `StochasticsError.invalidParameter` when `ratesPerHour` is empty or holds a negative or
    ///   non-finite rate. All-zero rates are allowed (the process never fires).
    public init(ratesPerHour: [Double]) throws(StochasticsError) {
        guard !ratesPerHour.isEmpty else {
            throw .invalidParameter(parameter: "rates_per_hour", value: "[]", requirement: "at least one piece is needed")
        }
        var top = 0.0
        for (i, r) in ratesPerHour.enumerated() {
            guard r >= 0 && r.isFinite else {
                throw .invalidParameter(parameter: "rates_per_hour[\(i)]", value: "\(r)", requirement: "rates must be finite and >= 0 events per hour")
            }
            top = max(top, r)
        }
        self.ratesPerHour = ratesPerHour
        self.maxRatePerHour = top
    }

    /// Expected number of events per hour averaged over the pieces (all pieces weighted equally).
    public var meanRatePerHour: Double { ratesPerHour.reduce(0, +) / Double(ratesPerHour.count) }

    /// The first arrival strictly after `after` (ms since the epoch), or `nil` if none occurs at or before `notAfter`.
    ///
    /// - Parameters:
    ///   - after: the time to start from, in ms; usually the previous arrival.
    ///   - notAfter: the horizon, in ms (inclusive).
    ///   - scale: a multiplier ≥ 0 applied to every rate (e.g. a person's activity level).
    ///   - pieceIndex: maps an instant in ms to an index into `ratesPerHour`; must return a valid index.
    ///   - stream: the random stream to draw from.
    public func next(
        after: Int64,
        notAfter: Int64 = .max,
        scale: Double = 1,
        pieceIndex: (Int64) -> Int,
        using stream: RandomStream
    ) -> Int64? {
        precondition(scale >= 0 && scale.isFinite, "NonHomogeneousPoissonSampler.next: scale \(scale) must be finite and >= 0")
        let bound = maxRatePerHour * scale
        guard bound > 0, after < notAfter else { return nil }
        let meanGapMs = 3_600_000 / bound
        let limit = Double(notAfter)
        var t = Double(after)
        while true {
            t += stream.generator.exponential(mean: meanGapMs)
            if t > limit || t >= 9.2e18 { return nil }
            let candidate = Swift.max(Int64(t.rounded(.up)), after + 1)
            if candidate > notAfter { return nil }
            let index = pieceIndex(candidate)
            precondition(ratesPerHour.indices.contains(index), "pieceIndex returned \(index), outside 0..<\(ratesPerHour.count)")
            if stream.generator.uniform() * maxRatePerHour < ratesPerHour[index] { return candidate }
        }
    }
}
