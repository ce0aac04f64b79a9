/// Timer kinds mapped to an `EventQueue`'s timer slots: each distinct kind gets its own slot the first time it is
/// armed, so arming a kind supersedes only that kind's earlier timer. Two kinds can never share a slot — there is
/// no folding (an adapter used to fold kinds into a fixed number of slots, `mode % 9`, which silently let one mode's
/// timer cancel another's) — and kinds with a payload (a timer per snoozed item, per mode, per app) get a slot each.
///
/// A person has a handful of kinds: they are found by a linear scan; past `indexThreshold` kinds a dictionary takes
/// over, so a life with thousands (an item per task) stays O(1) per timer.
public struct TimerSlots<Kind: Hashable> {
    @usableFromInline var kinds: [Kind] = []
    @usableFromInline var index: [Kind: Int] = [:]
    /// Kinds found by a scan before the dictionary takes over.
    public static var indexThreshold: Int { 16 }

    public init() {}

    /// The slots handed out so far.
    @inlinable public var count: Int { kinds.count }

    /// The slot of `kind`: its own, handed out at its first arming.
    @inlinable public mutating func slot(for kind: Kind) -> Int {
        if index.isEmpty {
            for i in 0..<kinds.count where kinds[i] == kind { return i }
            kinds.append(kind)
            if kinds.count > Self.indexThreshold {
                for (i, k) in kinds.enumerated() { index[k] = i }
            }
            return kinds.count - 1
        }
        if let i = index[kind] { return i }
        kinds.append(kind)
        index[kind] = kinds.count - 1
        return kinds.count - 1
    }

    /// The kind that holds `slot`, nil for a slot not handed out.
    @inlinable public func kind(of slot: Int) -> Kind? { kinds.indices.contains(slot) ? kinds[slot] : nil }
}
