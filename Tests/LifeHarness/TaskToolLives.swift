import Behavior
import ProductRegistry
import Reports
import RulesCore
import ScenarioFormat
import Simulation

/// Whole populations of people with their things to do (issue 29), for the tests that compare a task tool (Nudge)
/// with no app or another product on the same people: a scenario of the product, and every life run with what
/// became of the person's things to do.
public enum TaskToolLives {
    /// A scenario of `product` (its id): `installs` people, half ADHD adults and half workers, over `days` days, then
    /// the scenario lines `extra`.
    public static func scenario(product: String, installs: Int = 150, days: Int = 28, extra: String = "") throws -> ResolvedScenario {
        let yaml = "name: t\nproduct: \(product)\nhorizon_days: \(days)\npopulation:\n  installs: \(installs)\n"
            + "  personas: [{name: adhd-adult, share: 0.5}, {name: worker, share: 0.5}]\n" + extra
        return try ScenarioLoader(catalogues: Products.catalogues).load(yaml: yaml, fileName: "nudge.yaml")
    }

    /// Every person's life run to its horizon (replication 1), with what became of their things to do (and, with
    /// `ledger`, their ledger).
    public static func lives<A: ProductAdapter>(_: A.Type, _ s: ResolvedScenario, ledger: Bool = false) throws
        -> [(summary: LifeSummary<A>, tasks: [TaskRecord], ledger: [LedgerEntry])] {
        let world = try World<A>(scenario: s, arm: s.arms[0], replication: 1)
        return (0..<s.arms[0].population.installs).map { id in
            var life = PersonLife(world: world, person: id)
            if ledger { life.ledgerLog = [] }
            let summary = life.run()
            return (summary, life.mind(TaskProcess.self).records, life.ledgerLog ?? [])
        }
    }
}
