/// A timer an engine asks its host to arm, of the engine's own `Kind` (Scroll Off's `ScrollOffTimer`, Earned
/// Access's, Nudge's: each is `ArmedTimer` of the product's kinds; issue 42).
///
/// Contract (lazy cancellation): a timer's `kind` is its slot — arming a timer of a kind supersedes any earlier
/// timer of the same kind, and the host may drop superseded ones. Delivering a superseded, duplicate or early timer
/// is always safe: the engine re-checks the state it guards and does nothing when it is no longer due. Every armed
/// timer lies strictly after the `now` of the call that armed it.
public struct ArmedTimer<Kind: Hashable & Sendable>: Hashable, Sendable, CustomStringConvertible, EngineTimer {
    /// What comes due.
    public var kind: Kind
    /// When.
    public var at: Instant
    @inlinable public init(_ kind: Kind, at: Instant) { self.kind = kind; self.at = at }
    /// Equal when kind and instant are (as the synthesized conformance would be, inlinable for the engines).
    @inlinable public static func == (a: Self, b: Self) -> Bool { a.kind == b.kind && a.at == b.at }
    @inlinable public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(at)
    }
    /// `kind@instant`, as traces show it.
    public var description: String { "\(kind)@\(at)" }
}
