import RulesCore
/// The purpose a random stream serves, e.g. `urges` or `purchases` (docs/DESIGN.md, principle 3).
///
/// Every purpose draws from its own stream, so drawing more for one purpose never shifts another: an arm that
/// shows more paywalls consumes more `purchases` numbers but leaves everyone's `urges` untouched.
/// Custom names are allowed (`StreamName("sessions.app-3")`, or a string literal); the name's UTF-8 bytes are
/// what is hashed, so a name means the same stream on every machine and in every version.
public struct StreamName: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The name as written.
    public let rawValue: String
    /// FNV-1a 64-bit hash of the UTF-8 bytes of `rawValue`, computed once.
    public let fnv1a64: UInt64

    /// A stream name; any non-empty string.
    public init(rawValue: String) {
        precondition(!rawValue.isEmpty, "a stream name must not be empty")
        self.rawValue = rawValue
        self.fnv1a64 = KeyMixing.fnv1a64(rawValue)
    }

    /// A stream name; any non-empty string.
    public init(_ name: String) { self.init(rawValue: name) }
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    public var description: String { rawValue }

    public static func == (a: StreamName, b: StreamName) -> Bool { a.rawValue == b.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// Arrival of urges to pick up the phone.
    public static let urges = StreamName("urges")
    /// Session lengths and in-session behaviour.
    public static let sessions = StreamName("sessions")
    /// Choices at a shield or paywall (multinomial logit).
    public static let choices = StreamName("choices")
    /// Purchase, renewal, cancellation and refund decisions.
    public static let purchases = StreamName("purchases")
    /// The activation funnel: install, permissions, first use.
    public static let onboarding = StreamName("onboarding")
    /// Abandoning the app.
    public static let churn = StreamName("churn")
    /// Reactions to notifications.
    public static let notifications = StreamName("notifications")
    /// Drawing a person's persona, parameters, device and time zone.
    public static let population = StreamName("population")
    /// Install arrival times (a population-level stream).
    public static let installs = StreamName("installs")
}

/// The identity of one random stream: `(scenario seed, replication, person, purpose)`.
///
/// The same key gives the same numbers on every machine, whatever the thread count, shard or arm; different
/// keys give statistically independent-looking streams. Arms of an experiment share keys, which is what makes
/// them paired (common random numbers).
public struct StreamKey: Hashable, Sendable, CustomStringConvertible {
    /// The scenario seed.
    public var seed: UInt64
    /// The Monte Carlo replication, 0-based.
    public var replication: UInt32
    /// The person id; `StreamKey.populationPerson` for streams that belong to no person.
    public var person: UInt64
    /// The purpose.
    public var stream: StreamName

    /// The person id reserved for population-level streams (install arrivals, persona mix, …).
    public static let populationPerson: UInt64 = .max

    /// A person's stream.
    public init(seed: UInt64, replication: UInt32, person: UInt64, stream: StreamName) {
        self.seed = seed
        self.replication = replication
        self.person = person
        self.stream = stream
    }

    /// A population-level stream (person = `StreamKey.populationPerson`).
    public static func population(seed: UInt64, replication: UInt32, stream: StreamName) -> StreamKey {
        StreamKey(seed: seed, replication: replication, person: populationPerson, stream: stream)
    }

    /// The same key for another purpose.
    public func with(stream: StreamName) -> StreamKey {
        var copy = self
        copy.stream = stream
        return copy
    }

    /// The 64-bit value the stream's generator is seeded from (key derivation v1):
    ///
    ///     h = 0x4861626974617431                 // "Habitat1", domain and version tag
    ///     h = mix(h ^ seed)
    ///     h = mix(h ^ UInt64(replication))
    ///     h = mix(h ^ person)
    ///     h = mix(h ^ fnv1a64(utf8(stream name)))
    ///
    /// where `mix` is the SplitMix64 step `x + 0x9E3779B97F4A7C15` followed by its finaliser (Stafford's mix13).
    /// Each step is a bijection of `h` for a fixed field, so keys differing in one field never collide, and
    /// the avalanche makes nearby keys (person 7 and 8) unrelated. Swift's `Hasher` is not used: it is seeded
    /// randomly per process.
    public var derivedSeed: UInt64 {
        var h: UInt64 = 0x4861_6269_7461_7431
        h = KeyMixing.splitMix(h ^ seed)
        h = KeyMixing.splitMix(h ^ UInt64(replication))
        h = KeyMixing.splitMix(h ^ person)
        h = KeyMixing.splitMix(h ^ stream.fnv1a64)
        return h
    }

    public var description: String { "seed \(seed) / replication \(replication) / person \(person) / \(stream)" }
}

/// The integer hashes behind stream keys. Fixed forever: changing one changes every simulated number.
public enum KeyMixing {
    /// FNV-1a, 64 bits, over the UTF-8 bytes of `text`.
    public static func fnv1a64(_ text: String) -> UInt64 { FNV1a64.hash(text) }

    /// One SplitMix64 step: add the golden-ratio increment, then Stafford's mix13 finaliser.
    @inlinable public static func splitMix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The three 32-bit taus2 state words for a derived seed: the next two SplitMix64 outputs after `seed`,
    /// split into halves (the fourth half is unused).
    public static func taus2State(_ seed: UInt64) -> (UInt32, UInt32, UInt32) {
        let first = splitMix(seed)
        let second = splitMix(seed &+ 0x9E37_79B9_7F4A_7C15)
        return (UInt32(truncatingIfNeeded: first >> 32), UInt32(truncatingIfNeeded: first), UInt32(truncatingIfNeeded: second >> 32))
    }
}
