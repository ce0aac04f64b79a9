/// The map from timer kinds to an `EventQueue`'s timer slots: arming a kind supersedes only that kind's earlier
/// timer, so two kinds must never share a slot. The map fails loudly instead of folding (an adapter used to fold
/// kinds into a fixed number of slots, `mode % 9`, so one mode's timer could silently cancel another's).
///
/// Slots come two ways:
/// - **given** (`claim(_:slot:)`): the adapter's own arithmetic map (`ProductAdapter.slot(of:)`, fast for the kinds
///   met on every pickup); the map remembers which kind holds each slot and stops the run (`precondition`) when a
///   second kind claims it — one equality per timer;
/// - **handed out** (`slot(for:)`): a kind without a given slot gets the next free one at its first arming (kinds with
///   payloads — a timer per snoozed item — need no formula); found by a scan while a person has few, by a dictionary
///   past `indexThreshold`.
public struct TimerSlots<Kind: Hashable> {
    /// The kind that holds each slot (nil: free).
    @usableFromInline var owners: [Kind?] = []
    @usableFromInline var index: [Kind: Int] = [:]
    /// Kinds found by a scan before the dictionary takes over.
    public static var indexThreshold: Int { 16 }

    public init() {}

    /// The slots in use so far (the highest given or handed out, plus one).
    @inlinable public var count: Int { owners.count }

    /// The kind that holds `slot`, nil for a free slot.
    @inlinable public func kind(of slot: Int) -> Kind? { owners.indices.contains(slot) ? owners[slot] : nil }

    /// `kind` takes the slot the adapter's map gives it; a second kind in the same slot is a collision and stops
    /// the run, naming both.
    @inlinable public mutating func claim(_ kind: Kind, slot: Int) -> Int {
        precondition(slot >= 0, "timer slot \(slot) of \(kind) is negative")
        if slot < owners.count, let owner = owners[slot] {
            precondition(owner == kind, "timer kinds collide: \(kind) and \(owner) both map to slot \(slot)")
            return slot
        }
        if slot >= owners.count { owners.append(contentsOf: repeatElement(nil, count: slot + 1 - owners.count)) }
        owners[slot] = kind
        if !index.isEmpty { index[kind] = slot }
        return slot
    }

    /// The slot of `kind`: its own, handed out at its first arming.
    @inlinable public mutating func slot(for kind: Kind) -> Int {
        if index.isEmpty {
            for i in 0..<owners.count where owners[i] == kind { return i }
            owners.append(kind)
            if owners.count > Self.indexThreshold {
                for (i, k) in owners.enumerated() { if let k { index[k] = i } }
            }
            return owners.count - 1
        }
        if let i = index[kind] { return i }
        owners.append(kind)
        index[kind] = owners.count - 1
        return owners.count - 1
    }
}
