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
/// through `PersonLife.send(_:at:)`.
public protocol ProductAdapter: Sendable {
    /// The product's rule engine.
    associatedtype Engine: RuleEngine
    /// What the person remembers and has set up in this product (blocked apps, last paywall seen, …).
    associatedtype PersonState: Sendable
    /// The person's product-specific figures, folded into `Metrics`.
    associatedtype Tally: Sendable
    /// The product's report figures over many people (its KPIs).
    associatedtype Metrics: ProductMetrics where Metrics.Tally == Tally
    /// What else the person lives through besides pickups (a to-do process, places), merged into the life's loop;
    /// `NoOccurrences` (the default) for none.
    associatedtype Occurrences: OccurrenceProcess = NoOccurrences

    /// A person's state and tally at install.
    static func initialState() -> PersonState
    static func initialTally() -> Tally

    /// Queue slots for the engine's timers: arming a timer of a kind supersedes the earlier one of that kind, so
    /// each kind gets a slot (`0..<timerSlots`) and superseded timers never reach the engine.
    static var timerSlots: Int { get }
    static func slot(of kind: Engine.TimerKind) -> Int

    /// The install: the product's onboarding flow.
    static func onboard(_ life: inout PersonLife<Self>, at now: Instant)
    /// An urge for one of the person's apps (a pickup from `PhoneUseProcess`): what it becomes as engine input.
    static func urge(for app: AppID, pickup: Pickup, _ life: inout PersonLife<Self>, at now: Instant)
    /// One occurrence of the product's `Occurrences` process (a to-do arrives, the person leaves home).
    static func occurrence(_ o: Occurrences.Occurrence, _ life: inout PersonLife<Self>, at now: Instant)
    /// A cue that may make the person open the product's own app (a notification, a spontaneous pickup).
    static func cue(_ cue: AppOpenCue, _ life: inout PersonLife<Self>, at now: Instant)
    /// One analytics event the engine emitted (after the funnel saw it).
    static func observe(_ event: Engine.Event, _ life: inout PersonLife<Self>, at now: Instant)
    /// A due engine timer was handled (its outcome is in `life.out`): e.g. access ran out mid-session.
    static func timerHandled(_ life: inout PersonLife<Self>, at now: Instant)
    /// The person leaves an app whose session the life started (`PersonLife.startSession`).
    static func sessionEnded(app: AppID, _ life: inout PersonLife<Self>, at now: Instant)
    /// The product-specific scheduled decision came due (e.g. keep or cancel a subscription before renewal).
    static func scheduledDecision(_ life: inout PersonLife<Self>, at now: Instant)
    /// End of a local day: the product's own day figures (the life then books battery, churn and months).
    static func endOfDay(_ life: inout PersonLife<Self>, at now: Instant)
    /// The person revokes the app's device permission (a churn kind).
    static func revokeAccess(_ life: inout PersonLife<Self>, at now: Instant)
    /// The person keeps the app but lifts its restriction (a churn kind, `ChurnKind.disableRestriction`): unblocks
    /// the apps, deletes the schedules — as far as the product's rules let them.
    static func disableRestriction(_ life: inout PersonLife<Self>, at now: Instant)
    /// End of the life: figures that need the whole life (e.g. retention eligibility).
    static func finish(_ life: inout PersonLife<Self>)
    /// The columns of `habitat trace` after `time_utc,local_time,kind,detail`: the product's own state columns
    /// with the person's columns placed among them (by default, the product's then the person's).
    static var traceColumns: [TraceColumn] { get }
    /// The kinds of decision the product gives its people (`decisions.csv` rows, in this order); the life's own
    /// daily decisions are `.churn` and, for a product whose shields a dormant person still meets, `.dormantResponse`.
    static var decisionKinds: [DecisionKind] { get }
    /// What a trace row shows of the product now: one value per `.product` column of `traceColumns`, in order.
    static func traceState(_ life: borrowing PersonLife<Self>) -> [CSVField]
}

extension ProductAdapter {
    /// A product with no state columns of its own: the person's columns only.
    public static var traceColumns: [TraceColumn] { TraceColumn.personColumns }
    /// A product whose people decide nothing but, each day, whether to stay.
    public static var decisionKinds: [DecisionKind] { [.churn] }
}

extension ProductAdapter where Occurrences == NoOccurrences {
    /// Nothing occurs besides pickups.
    public static func occurrence(_ o: NoOccurrences.Occurrence, _ life: inout PersonLife<Self>, at now: Instant) {}
}

/// A product's report figures over many people: folded from each person's tally in person order, merged in block
/// order (bit-identical for any thread count), turned into KPI values once per replication.
public protocol ProductMetrics: Mergeable, Sendable, Codable {
    associatedtype Tally
    init()
    /// Folds one person's tally in.
    mutating func add(_ tally: Tally)
    /// The product's KPI values in the order of its descriptor's `kpis` (NaN where a KPI's population is empty),
    /// leaving out Habitat's own figures the descriptor lists only to set their targets (`RunAccumulator.habitatKPIIDs`:
    /// e.g. `cost_per_dau_day`); `common` holds the product-independent figures.
    func kpiValues(common: CommonCounters, tokens: TokenShareAccumulator) -> [(KPIDefinition, Double)]

    /// The reports the product's own figures make (file name and header), written after every run's reports in
    /// this order; each must also be named in the descriptor's `reports` (e.g. Earned Access's `unlocks.csv`).
    /// Their first four columns are the report keys (`ReportKeys.fields`). None by default.
    static var reportFiles: [(name: String, header: [String])] { get }
    /// The rows of one of `reportFiles` for one replication, or for the pool of an arm's replications.
    func reportRows(_ file: String, _ keys: ReportKeys) -> [[CSVField]]
}

extension ProductMetrics {
    public static var reportFiles: [(name: String, header: [String])] { [] }
    public func reportRows(_ file: String, _ keys: ReportKeys) -> [[CSVField]] { [] }
}
