import Behavior
import Reports
import RulesCore
import Simulation
import ToyRules

/// The toy's person side (issue 42's seam test): on an app-open cue, or when their own reminders process
/// (`ToyReminders`, the toy's person process) reminds them, the person opens the notebook and decides, at that moment,
/// whether to keep a note (`toy_keep`, its own decision kind), with the probability its own behaviour parameter sets
/// (`toy.keep_probability`); a kept note steers the reminders' mind (sooner reminders). Every other hook is the seam's
/// neutral default.
public enum ToyAdapter: ProductAdapter {
    public typealias Engine = ToyEngine
    public typealias Metrics = ToyMetrics
    public typealias Constants = ToyConstants

    public static func initialState() -> Int { 0 }
    public static func initialTally() -> ToyTally { ToyTally() }
    public static var restrictsApps: Bool { false }
    public static var decisionKinds: [DecisionKind] { [.churn, .dormantResponse, .toyKeep] }
    public static var personProcesses: [any PersonProcess.Type] { [ToyReminders.self] }

    public static func cue(_ cue: AppOpenCue, _ life: inout PersonLife<Self>, at now: Instant) {
        guard !life.dormant else { return }
        let scale = life.world.appOpenPerPickupScale
        let u = life.sessions.uniform()
        guard u < scale, u < life.engagement.appOpenProbability(cue: cue) * scale else { return }
        openNotebook(&life, at: now)
    }

    /// A reminder from the person's own process: a person still using the notebook opens it.
    public static func occurrence(_ o: PersonOccurrence, _ life: inout PersonLife<Self>, at now: Instant) {
        guard o.value(as: ToyReminders.Reminder.self) != nil else { return life.liveUnaided(o, at: now) }
        guard !life.dormant else { return }
        life.summary.tally.recordReminder(day: life.dayIndex)
        openNotebook(&life, at: now)
    }

    /// The notebook opened: the person decides whether to keep a note, and a kept note steers their reminders.
    static func openNotebook(_ life: inout PersonLife<Self>, at now: Instant) {
        life.send(.opened, at: now)
        life.recordActiveDay()
        let keeps = life.features.uniform() < life.world.constants.keepProbability
        life.decideAtMoment(.toyKeep, moment: now.millisecondsSinceEpoch, keeps ? .keep : .drop, at: now)
        life.summary.tally.record(day: life.dayIndex, kept: keeps)
        if keeps {
            life.send(.keep, at: now)
            life.steer(ToyReminders.self) { $0.notesKept += 1 }
        }
    }
}
