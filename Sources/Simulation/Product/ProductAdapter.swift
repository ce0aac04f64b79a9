import Behavior
import Reports
import RulesCore

/// The person side of one product (docs/DESIGN.md, "the product seam"): what a person does with the product's engine.
///
/// The shared machinery — `PersonLife` (population draw, the pickup/queue loop, sending inputs and observing
/// outcomes, money, days, months, churn, energy, traces), `RunAccumulator` and `SimulationRun` (arms,
/// replications, precision targets, the person-parallel runner, every report) — is generic over the adapter and
/// specialised by the compiler, so nothing product-specific sits on the per-event path as an existential.
///
/// An adapter is a namespace of hooks; the person's product-specific memory is its `PersonState` (kept in
/// `PersonLife.state`) and what the reports need from the life is its `Tally` (in `PersonLife.summary.tally`),
/// folded into the product's `Metrics`. Every hook receives the whole life, `inout`, and sends engine inputs
/// through `PersonLife.send(_:at:)`. Like `ParsableCommand`, which needs only `run()`, an adapter must give only
/// its types and its state and tally at install: every hook has a neutral default (docs/ARCHITECTURE.md, "How to
/// add a product").
public protocol ProductAdapter: Sendable {
    /// The product's rule engine.
    associatedtype Engine: RuleEngine
    /// What the person remembers and has set up in this product (blocked apps, last paywall seen, …).
    associatedtype PersonState: Sendable
    /// The person's product-specific figures, folded into `Metrics`.
    associatedtype Tally: Sendable
    /// The product's report figures over many people (its KPIs).
    associatedtype Metrics: ProductMetrics where Metrics.Tally == Tally
    /// Something the person means to do later, with what it needs (start a focus session, decide before a renewal,
    /// try again once a block ends): scheduled on the person's own queue with `PersonLife.schedule(_:at:)` and
    /// handed back to `carryOut` at its time. `Never` (the default) for a product whose people plan nothing.
    associatedtype Intent: Sendable = Never
    /// The product's behaviour constants — its person-side models, the weights of its own value and frustration
    /// events, its shield buttons' roles — read once per world from the arm's behaviour values (`World.constants`),
    /// so the hot path reads typed fields, never a key (issue 42). `NoProductConstants` (the default) for a product
    /// with none.
    associatedtype Constants: Sendable = NoProductConstants

    // MARK: Required: the person's state and tally at install

    static func initialState() -> PersonState
    static func initialTally() -> Tally

    // MARK: Hooks, each with a neutral default

    /// Whether the product is an app the person installs. False only for `none`, the counterfactual: a life with no
    /// app, untreated from the start — no hook is called, nothing is decided, only the product-neutral reports are
    /// written (issue 28). Default: true.
    static var hasApp: Bool { get }
    /// Whether the product restricts the person's apps (a blocker: a device permission to revoke, a restriction to
    /// lift). False for a product that restricts nothing (Nudge): leaving is uninstalling or going dormant only, never
    /// `revokeAccess` or `disableRestriction` (issue 29), and its people keep no blocker bookkeeping (`PersonLife.blocker`,
    /// true time saved; issue 42). Default: true.
    static var restrictsApps: Bool { get }
    /// The ways the product gives its people value (issue 39): value felt — weighed against frustration in the daily
    /// decision to keep using it, and in every purchase — grows only through these channels (a value event on any other
    /// channel is a programming error). Default: none (a product that gives nothing, such as `none`).
    static var valueChannels: Set<ValueChannel> { get }
    /// The product's own behaviour parameters (catalogued in its folder with summaries and sources, like
    /// `BehaviorCatalogue`'s), each group placed after a generic key in the catalogue a scenario is checked against
    /// and `validate --explain` shows (`Products.behaviorParameters`). A key is declared once: by the generic
    /// catalogue or by one product (issue 42). Default: none.
    static var behaviorParameterGroups: [BehaviorParameterGroup] { get }
    /// The product's constants from one arm's behaviour values (the generic catalogue's and the product's own keys),
    /// built once per `World`. Default (`NoProductConstants`): nothing to read.
    static func constants(_ values: BehaviorValues) -> Constants

    /// The install: the product's onboarding flow. Default: nothing to set up.
    static func onboard(_ life: inout PersonLife<Self>, at now: Instant)
    /// An urge for one of the person's apps (a pickup from `PhoneUseProcess`): what it becomes as engine input.
    /// Default: the product stands aside — the person uses the app for the session they meant, unseen by the product
    /// (`PersonLife.useAppUnseen`): the same minutes as with no app, so a product that restricts nothing changes
    /// none (issue 29: a session started through the life instead was cut short by the next one).
    static func urge(for app: AppID, pickup: Pickup, _ life: inout PersonLife<Self>, at now: Instant)
    /// One occurrence of one of the person's own processes (`PersonProcesses`: a thing to do arising, a move to
    /// another place). Default: the product does not see it — the person lives it by their own means
    /// (`PersonLife.liveUnaided`), as with no app; a product that adds to it calls that first.
    static func occurrence(_ o: PersonOccurrence, _ life: inout PersonLife<Self>, at now: Instant)
    /// Person processes the product brings to the people (issue 42): a process is the person's, drawn from their own
    /// stream, so the registry gives every person every registered product's processes whatever product (or none)
    /// they meet (`Products.personProcesses`), and arms stay paired. A product with a process of its own (a toy's
    /// reminders) lists it here; a process Habitat's people all have (things to do, whereabouts) is in
    /// `PersonProcesses.standard`. Default: none.
    static var personProcesses: [any PersonProcess.Type] { get }
    /// A cue that may make the person open the product's own app (a notification, a spontaneous pickup). Default:
    /// nothing.
    static func cue(_ cue: AppOpenCue, _ life: inout PersonLife<Self>, at now: Instant)
    /// One analytics event the engine emitted (after the funnel saw it). Default: nothing.
    static func observe(_ event: Engine.Event, _ life: inout PersonLife<Self>, at now: Instant)
    /// One ledger line of the engine's outcome, as the life books it (`revenue.csv`, the world check): the one source
    /// of the product's own money figures (issue 42) — a report that sets cost against revenue per plan reads the
    /// lines here, never the engine's events. Called for every line, after the uninstall too (the store renews a
    /// subscription bought in the app), with the engine already in the state the input left. Default: nothing.
    static func booked(_ entry: LedgerEntry, _ life: inout PersonLife<Self>)
    /// A due engine timer was handled (its outcome is in `life.out`): e.g. access ran out mid-session. Default:
    /// nothing.
    static func timerHandled(_ life: inout PersonLife<Self>, at now: Instant)
    /// The person leaves an app whose session the life started (`PersonLife.startSession`). Default: nothing.
    static func sessionEnded(app: AppID, _ life: inout PersonLife<Self>, at now: Instant)
    /// The queue slot of an engine timer kind, by the adapter's own arithmetic (fast for the kinds met on every
    /// pickup), or nil to have the life hand each kind a slot at its first arming (`SimKernel.TimerSlots`). Either
    /// way two kinds never share a slot: a map that gives one to two kinds stops the run. Default: nil.
    static func slot(of kind: Engine.TimerKind) -> Int?
    /// An intent the adapter scheduled came due (`PersonLife.schedule(_:at:)`).
    static func carryOut(_ intent: Intent, _ life: inout PersonLife<Self>, at now: Instant)
    /// End of a local day: the product's own day figures (the life then books battery, churn and months). Default:
    /// nothing.
    static func endOfDay(_ life: inout PersonLife<Self>, at now: Instant)
    /// The person revokes the app's device permission (a churn kind). Default: nothing to revoke.
    static func revokeAccess(_ life: inout PersonLife<Self>, at now: Instant)
    /// The person keeps the app but lifts its restriction (a churn kind, `ChurnKind.disableRestriction`): unblocks
    /// the apps, deletes the schedules — as far as the product's rules let them. A blocker conforms to
    /// `RestrictingAdapter`, whose shared default does it (`Simulation/SharedPerson`); otherwise nothing restricts.
    static func disableRestriction(_ life: inout PersonLife<Self>, at now: Instant)
    /// End of the life: figures that need the whole life (e.g. retention eligibility). Default: nothing.
    static func finish(_ life: inout PersonLife<Self>)

    // MARK: The store's side, which outlives the app (issue 38, audit N9)

    /// Whether an engine timer of this kind is the store's, not the app's: a subscription's period end, at which the
    /// store renews, charges or lets the plan lapse whether the app is installed or not ("deleting an app does not
    /// cancel its subscription", App Store). Such a timer still fires after the person uninstalls; every other
    /// timer goes with the app. Default: none.
    static func outlivesApp(_ kind: Engine.TimerKind) -> Bool
    /// Whether a scheduled intent is about the store's side of the product (keep or cancel before a renewal): it is
    /// still carried out after the person uninstalls; every other plan about the product lapses with it. Default:
    /// none.
    static func outlivesApp(_ intent: Intent) -> Bool
    /// Whether an engine event is the store's (a subscription renewed, cancelled, lapsed, refunded): after the
    /// person uninstalled, only these reach the funnel, the adapter and the trace — the engine still applies its
    /// own due happenings lazily at a store timer, but the app they would show is gone. Default: none.
    static func outlivesApp(_ event: Engine.Event) -> Bool
    /// Local midnight after the person uninstalled (in place of `endOfDay`, which is the app's): the store's side of
    /// the day — a refund the person asked for, the next keep-or-cancel decision booked. A product that sells a
    /// subscription calls the same code from its `endOfDay`. Default: nothing.
    static func storeDay(_ life: inout PersonLife<Self>, at now: Instant)
    /// The columns of `habitat trace` after `time_utc,local_time,kind,detail`: the product's own state columns
    /// with the person's columns placed among them. Default: the person's columns only.
    static var traceColumns: [TraceColumn] { get }
    /// The kinds of decision the product gives its people (`decisions.csv` rows, in this order): the life's, the
    /// shared person layer's and the product's own, declared in its `Life` folder (issue 42). The run builds the
    /// product's `DecisionLayout` from it once; a decision of a kind not listed here is an invariant violation. The
    /// life's own daily decisions are `.churn` and, once a person is dormant, `.dormantResponse` (every local day
    /// since issue 39). Default: `[.churn, .dormantResponse]`.
    static var decisionKinds: [DecisionKind] { get }
    /// What a trace row shows of the product now: one value per `.product` column of `traceColumns`, in order.
    /// Default: nothing (no product columns).
    static func traceState(_ life: borrowing PersonLife<Self>) -> [CSVField]
    /// A whole scenario of the product as YAML, for `habitat run` without a file (the first registered product's is
    /// the default scenario). Default: none.
    static var defaultScenario: String? { get }
}

extension ProductAdapter {
    public static var hasApp: Bool { true }
    public static var restrictsApps: Bool { true }
    public static var valueChannels: Set<ValueChannel> { [] }
    public static func onboard(_ life: inout PersonLife<Self>, at now: Instant) {}
    public static func urge(for app: AppID, pickup: Pickup, _ life: inout PersonLife<Self>, at now: Instant) {
        life.useAppUnseen(app, intended: pickup.sessionLength, at: now)
    }
    public static func occurrence(_ o: PersonOccurrence, _ life: inout PersonLife<Self>, at now: Instant) {
        life.liveUnaided(o, at: now)
    }
    public static var personProcesses: [any PersonProcess.Type] { [] }
    public static func cue(_ cue: AppOpenCue, _ life: inout PersonLife<Self>, at now: Instant) {}
    public static func observe(_ event: Engine.Event, _ life: inout PersonLife<Self>, at now: Instant) {}
    public static func booked(_ entry: LedgerEntry, _ life: inout PersonLife<Self>) {}
    public static func timerHandled(_ life: inout PersonLife<Self>, at now: Instant) {}
    public static func sessionEnded(app: AppID, _ life: inout PersonLife<Self>, at now: Instant) {}
    public static func slot(of kind: Engine.TimerKind) -> Int? { nil }
    public static func endOfDay(_ life: inout PersonLife<Self>, at now: Instant) {}
    public static func revokeAccess(_ life: inout PersonLife<Self>, at now: Instant) {}
    public static func disableRestriction(_ life: inout PersonLife<Self>, at now: Instant) {}
    public static func finish(_ life: inout PersonLife<Self>) {}
    public static func outlivesApp(_ kind: Engine.TimerKind) -> Bool { false }
    public static func outlivesApp(_ intent: Intent) -> Bool { false }
    public static func outlivesApp(_ event: Engine.Event) -> Bool { false }
    public static func storeDay(_ life: inout PersonLife<Self>, at now: Instant) {}
    public static var traceColumns: [TraceColumn] { TraceColumn.personColumns }
    public static var decisionKinds: [DecisionKind] { [.churn, .dormantResponse] }
    public static func traceState(_ life: borrowing PersonLife<Self>) -> [CSVField] { [] }
    public static var defaultScenario: String? { nil }
}

extension ProductAdapter where Intent == Never {
    /// Nothing is ever scheduled.
    public static func carryOut(_ intent: Never, _ life: inout PersonLife<Self>, at now: Instant) {}
}

/// A product's report figures over many people: folded from each person's tally in person order, merged in block
/// order (bit-identical for any thread count), turned into KPI values once per replication.
public protocol ProductMetrics: Mergeable, Sendable, Codable, ValidatedAccumulator {
    associatedtype Tally
    init()
    /// Folds one person's tally in.
    mutating func add(_ tally: Tally)
    /// The product's KPI values in the order of its descriptor's `kpis` (NaN where a KPI's population is empty),
    /// leaving out Habitat's own figures the descriptor lists only to set their targets (`RunAccumulator.habitatKPIIDs`:
    /// e.g. `cost_per_dau_day`); `run` holds the run's product-independent figures (people, days, money, consumables).
    func kpiValues(_ run: RunFigures) -> [(KPIDefinition, Double)]

    /// The reports the product's own figures make, each a writer (file name, header, rows from the metrics and the
    /// run's shared figures), written after Habitat's own in this order; each must also be named in the descriptor's
    /// `reports` (e.g. Earned Access's `unlocks.csv`, Scroll Off's `token-revenue-share.csv`). None by default.
    static var reports: [MetricsReport<Self>] { get }
    /// The name of `forecast.csv`'s metric of consumables' share of gross revenue per month, for a product with a
    /// consumable ceiling (`ProductDescriptor.consumableCeiling`; Scroll Off: `token_share`). Default: none.
    static var forecastConsumableShare: String? { get }
}

extension ProductMetrics {
    public static var reports: [MetricsReport<Self>] { [] }
    public static var forecastConsumableShare: String? { nil }
}

extension ProductAdapter {
    /// The product as data (its engine's descriptor).
    public static var descriptor: ProductDescriptor { Engine.descriptor }
}

/// What a product's KPIs may read of a run besides its own metrics: the product-independent counters and money.
public struct RunFigures {
    /// People, person-days, pickups, sessions, subscribers, … (`CommonCounters`).
    public let common: CommonCounters
    /// Money by month and source (`revenue.csv`).
    public let revenue: RevenueAccumulator
    /// Consumables against the rest of gross revenue by month, with purchases refused at the product's cap (for a
    /// product that sells consumables: Scroll Off's `token-revenue-share.csv`).
    public let consumables: ConsumableAccumulator
}
