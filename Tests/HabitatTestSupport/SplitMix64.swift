/// SplitMix64 (Steele, Lea & Flood 2014): a tiny deterministic generator for replayable random test inputs.
///
/// The same seed gives the same numbers on every platform and toolchain (unlike `SystemRandomNumberGenerator` or
/// the standard library's distributions), so a failing seed replays exactly. Conforms to `RandomNumberGenerator`
/// for APIs that take one (`Array.shuffled(using:)`, `Int.random(in:using:)`), but the sweeps use `below` and
/// `chance`, whose results are fixed by this file alone.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's whole state: the next output is a function of it alone.
    public var state: UInt64

    /// A generator whose state starts at `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in `0..<n` (`n > 0`; by remainder, so very slightly biased for huge `n`, which a test does not mind).
    public mutating func below(_ n: Int) -> Int {
        precondition(n > 0, "SplitMix64.below(\(n)): n must be positive")
        return Int(next() % UInt64(n))
    }

    /// True with probability `p` (from 53 random bits).
    public mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < p }

    /// One of `choices`, uniformly (`choices` must not be empty).
    public mutating func pick<C: RandomAccessCollection>(_ choices: C) -> C.Element {
        choices[choices.index(choices.startIndex, offsetBy: below(choices.count))]
    }
}
