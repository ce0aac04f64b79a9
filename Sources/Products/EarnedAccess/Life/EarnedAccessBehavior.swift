import Behavior
import Foundation
import RulesCore
import Simulation

/// Earned Access's own behaviour parameters (issue 42: declared beside its adapter, not in the generic catalogue):
/// focus sessions and habit check-ins (its Focus Bank and habits, seed 003 §6), the frustration of the detour its
/// shield forces, and the pull of its gate's ways through (a quest, the day's emergency unlock, the redirect step,
/// waiting for a block's end). Keys, defaults and sources are those the generic catalogue had, so scenarios, sweeps,
/// calibration files and the fitted `engagement.frustration.detour` keep working.
public enum EarnedAccessBehavior {
    /// Each group placed after the generic key it sits beside in `validate --explain`.
    public static let groups: [BehaviorParameterGroup] = [
        BehaviorParameterGroup(after: "engagement.frustration.paywall_hit", [
            .behavior("engagement.frustration.detour", 0.0636, 0...1, "frustration step of leaving a shield and opening the blocker to get through (Earned Access's gate); fitted to Earned Access's D7–D30 retention (Calibration/earned-access/)"),
        ]),
        BehaviorParameterGroup(after: "shield.plan_effect_decay", [
            .behavior("shield.constant.quest", -0.3, -20...20, "utility constant of an effort unlock (a breathing or typing quest), beside its friction"),
            .behavior("shield.constant.emergency", -1.0, -20...20, "utility constant of spending the day's one emergency unlock"),
            .behavior("shield.redirect_step_seconds", 20, 0...600,
              "seconds of the extra step when a shield cannot open the blocker's own app: close, find and open it (friction of every way through)"),
        ]),
        BehaviorParameterGroup(after: "shield.walk_away_share", [
            .behavior("shield.wait_for_end_minutes", 10, 0...240,
              "a person whose block ends within this many minutes of the urge waits for it instead of choosing at the shield"),
        ]),
        BehaviorParameterGroup(after: "dormant.uninstall_share", focus + habits),
    ]

    /// Focus sessions (`FocusSessionModel`): how often, how long, whether finished (Earned Access's Focus Bank).
    static let focus: [RuleParameter] = [
        .behavior("focus.sessions_per_day", 0.8, 0...20, "mean focus sessions a day started by a person with perceived value 0.5 (Poisson)"),
        .behavior("focus.value_weight", 1.5, 0...20, "log-rate of focus sessions per unit of (value − 0.5)"),
        .behavior("focus.median_minutes", 25, 1...240, "median planned focus length, minutes",
          .publication("the Pomodoro interval, Cirillo 2006")),
        .behavior("focus.minutes_sigma", 0.45, 0...3, "log-sd of the planned focus length"),
        .behavior("focus.min_minutes", 10, 1...240, "shortest planned focus length, minutes"),
        .behavior("focus.max_minutes", 90, 1...480, "longest planned focus length, minutes"),
        .behavior("focus.window_start_hour", 9, 0...24, "earliest local hour a focus session starts"),
        .behavior("focus.window_end_hour", 21, 0...24, "latest local hour a focus session starts"),
        .behavior("focus.completion_intercept", log(0.75 / 0.25), -20...20, "log-odds of finishing a focus session of median length at self-efficacy 0.5"),
        .behavior("focus.completion_efficacy_weight", 2.0, 0...20, "log-odds of finishing per unit of (self-efficacy − 0.5)"),
        .behavior("focus.completion_length_weight", 0.5, 0...20, "log-odds of finishing lowered per unit of ln(minutes / median)"),
    ]

    /// Daily habit check-ins (`HabitCheckInModel`).
    static let habits: [RuleParameter] = [
        .behavior("habits.mean_count", 1.5, 0...10, "mean habits a person sets up when an app asks for them (binomial over habits.max_count)"),
        .behavior("habits.max_count", 3, 0...10, "most habits a person sets up"),
        .behavior("habits.daily_intercept", log(0.6 / 0.4), -20...20, "log-odds of checking off one habit on a day at perceived value 0.5"),
        .behavior("habits.value_weight", 2.0, 0...20, "log-odds of a check-off per unit of (value − 0.5)"),
    ]
}

/// Earned Access's constants, read once per world (`World.constants`).
public struct EarnedAccessConstants: Sendable, Hashable {
    /// Focus sessions and habit check-ins (`focus.*`, `habits.*`).
    public var focus: FocusSessionModel
    public var habits: HabitCheckInModel
    /// Frustration step of a detour through the blocker's own app (`engagement.frustration.detour`).
    public var detourFrustration: Double
    /// Value step of credit earned (`engagement.value.earned_credit`, generic: Scroll Off earns credit too).
    public var earnedCreditValue: Double
    /// The gate's ways through as the person weighs them: an effort unlock, the day's emergency unlock.
    public var quest: OptionRole
    public var emergency: OptionRole
    /// Seconds of the extra step when a shield cannot open the blocker's own app (added to every way through).
    public var redirectStepSeconds: Double
    /// Minutes before a block's end within which a person waits for it instead of choosing.
    public var waitForEndMinutes: Double

    public init(values: BehaviorValues) {
        focus = FocusSessionModel(values: values)
        habits = HabitCheckInModel(values: values)
        detourFrustration = values["engagement.frustration.detour"]
        earnedCreditValue = values["engagement.value.earned_credit"]
        quest = .open(fulfilment: 1, constant: values["shield.constant.quest"])
        emergency = .open(fulfilment: 1, constant: values["shield.constant.emergency"])
        redirectStepSeconds = values["shield.redirect_step_seconds"]
        waitForEndMinutes = values["shield.wait_for_end_minutes"]
    }
}

extension EarnedAccessAdapter {
    public typealias Constants = EarnedAccessConstants
    public static var behaviorParameterGroups: [BehaviorParameterGroup] { EarnedAccessBehavior.groups }
    public static func constants(_ values: BehaviorValues) -> EarnedAccessConstants { EarnedAccessConstants(values: values) }
}
