import RulesCore
import Simulation

extension PersonLife {
    /// Runs the life to its horizon with its journal kept (`LifeJournal`): for tests that build their own world (a
    /// scenario of their own, a whole population) and read each life as values rather than trace text.
    public mutating func runRecorded() -> (summary: LifeSummary<Adapter>, journal: LifeJournal<Adapter>) {
        journal = LifeJournal()
        let summary = run()
        return (summary, journal ?? LifeJournal())
    }
}

extension LifeJournal {
    /// The events at instant `t`, in the order the life observed them.
    public func events(at t: Instant) -> [Event] { events.filter { $0.at == t } }

    /// The events of the first input the adapter sent after `order` (that input's outcome), at the same instant.
    public func eventsOfNextSend(after order: Int) -> [Event] {
        guard let send = sends.first(where: { $0.order > order }) else { return [] }
        let end = sends.first { $0.order > send.order }?.order ?? Int.max
        return events.filter { $0.order > send.order && $0.order < end }
    }

    /// The decisions of any of `kinds` (their ids), in time order.
    public func decisions(anyOf kinds: Set<String>) -> [Decision] { decisions.filter { kinds.contains($0.kind) } }
}

extension PlanStanding {
    /// On the unpaid plan (`free`, as `habitat trace` shows it): no plan bought and no trial running.
    public var isFree: Bool { segment == "free" }
}
