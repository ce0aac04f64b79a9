/// A decision an outcome starts from before an input is handled: the neutral answer (`ok`).
public protocol OutcomeDecision: Hashable, Sendable {
    /// The decision of an input that changed nothing worth a reason code.
    static var ok: Self { get }
}

/// The outcome buffer of an engine that needs nothing beyond the seam's lists: a decision, analytics events, money,
/// priced device effects and timers (Earned Access). A product with lists of its own (Scroll Off's credit ledger)
/// writes its own `EngineOutcome`.
public struct StandardOutcome<Decision: OutcomeDecision, Event: AnalyticsEvent & Hashable, Effect: EnergyPriced & Hashable,
                              Timer: EngineTimer & Hashable>: EngineOutcome, Hashable {
    public var decision: Decision = .ok
    public var events: OutcomeList<Event> = []
    public var ledger: OutcomeList<LedgerEntry> = []
    public var effects: OutcomeList<Effect> = []
    public var timers: OutcomeList<Timer> = []

    @inlinable public init() {}

    /// Empties every list, keeping capacity.
    @inlinable public mutating func reset() {
        decision = .ok
        events.removeAll()
        ledger.removeAll()
        effects.removeAll()
        timers.removeAll()
    }

    /// The energy charges of all effects.
    public var energyCharges: [EnergyCharge] { effects.map(\.energyCharge) }
}
