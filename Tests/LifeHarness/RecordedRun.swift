import ProductRegistry
import RulesCore
import ScenarioFormat
import Simulation

/// A run of every person's life (replication 1) of the adapter's product, each with the engine events of its journal
/// (by day since the install, and name) and its ledger, and the run's accumulator: for tests that check a run's
/// figures against the people's own events or lines (Nudge's KPIs, money booked once).
public struct RecordedRun<Adapter: ProductAdapter> {
    public var acc: RunAccumulator<Adapter>
    public var lives: [(summary: LifeSummary<Adapter>, events: [(day: Int, name: String)], ledger: [LedgerEntry])]

    /// The run's value of KPI `id`.
    public func kpi(_ id: String) -> Double { acc.kpiValues().first { $0.0.id == id }!.1 }

    /// `installs` people, half ADHD adults and half workers, over `days` days, then the scenario lines `extra`.
    public init(_: Adapter.Type, installs: Int = 150, days: Int = 24, extra: String = "") throws {
        let yaml = "name: t\nproduct: \(Adapter.Engine.descriptor.id)\nhorizon_days: \(days)\npopulation:\n  installs: \(installs)\n"
            + "  personas: [{name: adhd-adult, share: 0.5}, {name: worker, share: 0.5}]\n" + extra
        let s = try ScenarioLoader(catalogues: Products.catalogues).load(yaml: yaml, fileName: "nudge.yaml")
        let world = try World<Adapter>(scenario: s, arm: s.arms[0], replication: 1)
        acc = RunAccumulator<Adapter>(horizonDays: days)
        lives = []
        for id in 0..<installs {
            var life = PersonLife(world: world, person: id)
            life.ledgerLog = []
            let (summary, journal) = life.runRecorded()
            let events = journal.events.map { e in (day: Int(life.zone.localDate(e.at) - life.installDay), name: e.event.name) }
            acc.add(summary)
            lives.append((summary, events, life.ledgerLog ?? []))
        }
    }
}
