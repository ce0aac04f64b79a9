import Behavior
import ProductRegistry
import RulesCore
import ScenarioFormat
import Simulation

/// Follows people through one product's adapter for the product's life tests (`Tests/<Name>LifeTests`): a small world
/// of the product from a scenario, and each person's life run to its horizon with a typed record of it
/// (`LifeJournal`: the engine's events, every decision with its kind and outcome, the ledger, the urges and
/// occurrences handed to the adapter). A test may script the person's pickups and occurrences (`LifeScript`) to drive
/// them to a moment, and the person's answers through behaviour parameters (`behavior:` in `yaml`), then assert on
/// values rather than on trace text.
public struct LifeHarness<Adapter: ProductAdapter> {
    public let scenario: ResolvedScenario
    public let world: World<Adapter>

    /// A world of the adapter's product: `people` installs over `days` days, the `personas` mix, then the scenario
    /// lines `yaml` (a `behavior:` block, `rules:`, …).
    public init(_ adapter: Adapter.Type = Adapter.self, people: Int = 20, days: Int = 14, seed: UInt64 = 20261128,
                personas: String = "[{name: worker, share: 0.5}, {name: adhd-adult, share: 0.5}]", yaml extra: String = "") throws {
        let yaml = "name: life-harness\nproduct: \(Adapter.Engine.descriptor.id)\nseed: \(seed)\nhorizon_days: \(days)\n"
            + "population:\n  installs: \(people)\n  personas: \(personas)\n" + extra
        scenario = try ScenarioLoader(catalogues: Products.catalogues).load(yaml: yaml, fileName: "life-harness.yaml")
        world = try World<Adapter>(scenario: scenario, arm: scenario.arms[0], replication: 1)
    }

    /// The people of the world (0…installs − 1).
    public var people: Range<Int> { 0..<scenario.arms[0].population.installs }

    /// Person `id`'s life run to the horizon and recorded; with `script`, their pickups and occurrences are the
    /// script's instead of drawn; `traced` keeps the timeline too (`habitat trace`'s rows).
    public func live(person id: Int, script: LifeScript? = nil, traced: Bool = false) -> LivedLife<Adapter> {
        var rows: [TraceRow] = []
        let sink = RowSink()
        var life = PersonLife(world: world, person: id, trace: traced ? { sink.rows.append($0) } : nil)
        life.journal = LifeJournal()
        if let script { life.follow(script) }
        let summary = life.run()
        rows = sink.rows
        return LivedLife(id: id, summary: summary, journal: life.journal ?? LifeJournal(), state: life.state, installedAt: life.installedAt,
                         uninstalled: life.uninstalled, dormant: life.dormant, trace: rows)
    }

    /// Every person's life (`live`), with the same script for each.
    public func everyone(script: LifeScript? = nil) -> [LivedLife<Adapter>] { people.map { live(person: $0, script: script) } }

    /// A trace row collector the life's closure appends to (a class: the closure outlives the call's frame).
    final class RowSink { var rows: [TraceRow] = [] }
}

/// One person's life as the harness recorded it.
public struct LivedLife<Adapter: ProductAdapter> {
    public let id: Int
    public let summary: LifeSummary<Adapter>
    public let journal: LifeJournal<Adapter>
    /// The adapter's memory of the person at the horizon.
    public let state: Adapter.PersonState
    public let installedAt: Instant
    public let uninstalled: Bool
    public let dormant: Bool
    /// The timeline, when traced.
    public let trace: [TraceRow]

    /// Whether the person completed every onboarding step they were shown (none dropped out).
    public var completedOnboarding: Bool {
        let steps = journal.decisions("onboarding_step")
        return !steps.isEmpty && steps.allSatisfy { $0.outcome == "complete" }
    }

    /// The engine events at instant `t`.
    public func events(at t: Instant) -> [String] { journal.events.filter { $0.at == t }.map(\.event.name) }

    /// The decisions at instant `t`, as `kind:outcome`.
    public func decisions(at t: Instant) -> [String] { journal.decisions.filter { $0.at == t }.map { "\($0.kind):\($0.outcome)" } }
}

extension LifeHarness where Adapter: RestrictingAdapter {
    /// The blocker layer's permission step refused (issue 42 item 3), as every product that restricts apps must show
    /// it: with `onboarding.completion.permission` 0, each of a few people given urges for app 1 drops out at the
    /// first onboarding step, is left dormant (their first day ends with a dormant person's response, not a churn
    /// decision), restricts nothing (`restrictsNothing`, read from the person's state at the horizon) and meets no shield (`shieldEvent`). Returns what failed,
    /// by person; empty when the product holds to it.
    public static func permissionRefusedProblems(shieldEvent: String = "shield_shown",
                                                 restrictsNothing: (Adapter.PersonState) -> Bool) throws -> [String] {
        let harness = try LifeHarness(people: 12, days: 6, yaml: "behavior:\n  onboarding.completion.permission: 0\n")
        var script = LifeScript()
        for hour in [20.0, 30, 44] { script.urge(app: 1, after: .minutes(Int64(hour * 60)), intensity: 0.9, minutes: 10) }
        var problems: [String] = []
        for person in harness.people {
            let life = harness.live(person: person, script: script)
            let steps = life.journal.decisions("onboarding_step").map(\.outcome)
            if steps != ["drop_out"] { problems.append("person \(person): onboarding steps \(steps), not one drop_out") }
            let firstDayEnd = life.journal.decisions.dropFirst().first?.kind
            if firstDayEnd != "dormant_response" { problems.append("person \(person): first day ends with \(firstDayEnd ?? "nothing")") }
            if !restrictsNothing(life.state) { problems.append("person \(person): restricts something") }
            let shields = life.journal.events(named: shieldEvent).count
            if shields > 0 { problems.append("person \(person): \(shields) shields") }
        }
        return problems
    }
}

extension LifeHarness {
    /// The shared app-open draw (`PersonLife.opensAppOnCue`, issue 42), as every product with an app must show it: at
    /// `engagement.app_open_per_pickup_scale` 0 a person never opens the app on `cue`, at 1 they sometimes do, and a
    /// dormant person never does (200 draws each). Returns what failed; empty when the product holds to it.
    public static func opensAppOnCueProblems(_ cue: AppOpenCue) throws -> [String] {
        func person(scale: Int) throws -> PersonLife<Adapter> {
            let harness = try LifeHarness(people: 1, days: 3, yaml: "behavior:\n  engagement.app_open_per_pickup_scale: \(scale)\n")
            return PersonLife(world: harness.world, person: 0)
        }
        var problems: [String] = []
        var never = try person(scale: 0)
        if !(0..<200).allSatisfy({ _ in !never.opensAppOnCue(cue) }) { problems.append("opened at scale 0") }
        var always = try person(scale: 1)
        if !(0..<200).contains(where: { _ in always.opensAppOnCue(cue) }) { problems.append("never opened in 200 cues at scale 1") }
        always.dormant = true
        if !(0..<200).allSatisfy({ _ in !always.opensAppOnCue(cue) }) { problems.append("opened while dormant") }
        return problems
    }
}
