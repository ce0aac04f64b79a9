/// The keys of a set of counters: an `Int`-backed enum whose cases are the counted things.
public protocol CounterKey: CaseIterable, RawRepresentable, Sendable where RawValue == Int {
    /// What the counter may hold, checked when a record is read back (`Counters.validate`): any per-person-day count
    /// by default; a key counting people, a subset of another key, or signed money says so.
    var bound: CounterBound<Self> { get }
}

/// Integer counters keyed by an enum, merged as one value (element-wise sums).
///
/// A person's life counts into one; the run's accumulator merges people's counters. Adding a figure is therefore
/// a case of the key enum, the place that counts it and the KPI that uses it — never a new field, `add` and
/// `merge` line. Integer sums are exact, so merging in any grouping gives the same result.
public struct Counters<Key: CounterKey>: Mergeable, Sendable, Hashable, Codable {
    @usableFromInline var values: [Int]

    /// All zero.
    public init() { values = Array(repeating: 0, count: Key.allCases.count) }

    /// The count of one key.
    @inlinable public subscript(_ key: Key) -> Int {
        get { values[key.rawValue] }
        set { values[key.rawValue] = newValue }
    }

    /// Sets a per-person flag (0 or 1), which sums to a count of people.
    @inlinable public mutating func flag(_ key: Key, _ on: Bool = true) { values[key.rawValue] = on ? 1 : 0 }

    public mutating func merge(_ other: Counters) {
        for i in values.indices { values[i] += other.values[i] }
    }

    /// A per-person flag of a figure "within N days of install", kept only for a person observed the whole window,
    /// who is then counted in `eligible` — the figure's population (audit 2026-11-25 E9).
    public mutating func flag(_ key: Key, withinWindowObserved observed: Bool, eligible: Key) {
        flag(eligible, observed)
        if !observed { flag(key, false) }
    }

    /// `a / b`, NaN when `b` is 0.
    public func ratio(_ a: Key, _ b: Key) -> Double { Counters.ratio(self[a], self[b]) }

    /// `a / b`, NaN when `b` is 0.
    public static func ratio(_ a: Int, _ b: Int) -> Double { b > 0 ? Double(a) / Double(b) : .nan }
}
