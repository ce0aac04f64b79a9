import Behavior
import Reports
import RulesCore
import Simulation
import ToyRules

/// The toy's person side (issue 42's seam test): on an app-open cue the person opens the notebook and decides,
/// at that moment, whether to keep a note (`toy_keep`, its own decision kind), with the probability its own behaviour
/// parameter sets (`toy.keep_probability`). Every other hook is the seam's neutral default.
public enum ToyAdapter: ProductAdapter {
    public typealias Engine = ToyEngine
    public typealias Metrics = ToyMetrics
    public typealias Constants = ToyConstants

    public static func initialState() -> Int { 0 }
    public static func initialTally() -> ToyTally { ToyTally() }
    public static var restrictsApps: Bool { false }
    public static var decisionKinds: [DecisionKind] { [.churn, .dormantResponse, .toyKeep] }

    public static func cue(_ cue: AppOpenCue, _ life: inout PersonLife<Self>, at now: Instant) {
        guard !life.dormant else { return }
        let scale = life.world.appOpenPerPickupScale
        let u = life.sessions.uniform()
        guard u < scale, u < life.engagement.appOpenProbability(cue: cue) * scale else { return }
        life.send(.opened, at: now)
        life.recordActiveDay()
        let keeps = life.features.uniform() < life.world.constants.keepProbability
        life.decideAtMoment(.toyKeep, moment: now.millisecondsSinceEpoch, keeps ? .keep : .drop, at: now)
        life.summary.tally.record(day: life.dayIndex, kept: keeps)
        if keeps { life.send(.keep, at: now) }
    }
}
