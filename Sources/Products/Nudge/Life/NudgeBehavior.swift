import Behavior
import Foundation
import RulesCore
import Simulation

/// Nudge's own behaviour parameters (issue 42: declared beside its adapter, not in the generic catalogue): what people
/// do with a task-capture tool (`capture.*`, `card.*`, `reminder.*`, `attention.*`; issue 29, seed 001) and the value
/// of a thing done with its help and the frustration of a tier limit. Keys, defaults and sources are those the generic
/// catalogue had, so scenarios, sweeps and calibration files keep working.
public enum NudgeBehavior {
    /// Each group placed after the generic key it sits beside in `validate --explain`.
    public static let groups: [BehaviorParameterGroup] = [
        BehaviorParameterGroup(after: "engagement.value.earned_credit", [
            .behavior("engagement.value.task_done", 0.03, 0...1, "perceived-value step of a thing to do done with the product's help (share of headroom)",
              .assumption("issue 29; as a willpower win (engagement.value.resisted_urge); not yet fitted")),
            .behavior("engagement.frustration.limit_hit", 0.08, 0...1, "frustration step of a tier limit refusing a capture or a save",
              .assumption("issue 29; as an empty wallet (engagement.frustration.wallet_empty); not yet fitted")),
        ]),
        BehaviorParameterGroup(after: "tasks.efficacy_loss", taskTool),
    ]

    /// What people do with a task-capture tool (`TaskToolModel`, issue 29): assumptions, Nudge's targets calibrate them.
    static let taskTool: [RuleParameter] = {
        let a = ParameterSource.assumption("no published rate for capture tools; Nudge's seed 001 §11 targets calibrate it (issue 29)")
        return [
            .behavior("capture.constant", -0.4, -20...20, "log-odds of writing a thing down as it arises (value 0.5, app-open habit 0.5, urgency 0.5)", a),
            .behavior("capture.value_weight", 2.0, 0...20, "capture log-odds per unit of value felt above 0.5", a),
            .behavior("capture.habit_weight", 2.0, 0...20, "capture log-odds per unit of app-open habit above 0.5", a),
            .behavior("capture.urgency_weight", 0.8, 0...20, "capture log-odds per unit of urgency above 0.5", a),
            .behavior("capture.typed_share", 0.15, 0...1, "share of captures typed rather than spoken (microphone allowed)", a),
            .behavior("capture.dump_memory_hours", 2.0, 0...48, "hours a remembered, uncaptured thing stays in mind for the next brain dump", a),
            .behavior("capture.allow_microphone", 0.85, 0...1, "probability of allowing the microphone when first asked", a),
            .behavior("capture.allow_notifications", 0.6, 0...1, "probability of allowing notifications when first asked",
              .assumption("iOS push opt-in rates are commonly reported at about half of users; not a cited figure")),
            .behavior("capture.allow_contacts", 0.7, 0...1, "probability of allowing contacts when first asked", a),
            .behavior("capture.live_activity_opt_in", 0.12, 0...1, "probability of enabling the lock-screen task when asked once (seed 001 §14 Q12 checks ≥ 5 %)", a),
            .behavior("capture.online_share", 0.97, 0...1, "share of captures made online", a),
            .behavior("capture.split_failure", 0.02, 0...1, "probability an AI split fails (seed 001 §12: likelihood Low)", a),
            .behavior("capture.ramble_median", 1.6, 0.1...10, "median factor stretching a brain dump's words by hesitations and asides (log-normal)",
              .assumption("seed 001 §4 Feature 1 \"Most brain dumps are 15-30 seconds anyway\"; the factor makes a typical dump last that long and a long one reach the 55 s cap (audit N15)")),
            .behavior("capture.ramble_sigma", 0.6, 0...3, "log-sd of that factor", a),
            .behavior("capture.empty_dump", 0.03, 0...1, "probability a brain dump's recording is empty (blanked or interrupted); the person taps again at once",
              .assumption("seed 001 §4 Feature 1 \"Empty recording → ignore\" gives no rate (audit N15)")),
            .behavior("card.do_constant", -0.3, -20...20, "log-odds of doing the shown thing now (10 min effort, urgency 0.5, efficacy 0.5)", a),
            .behavior("card.effort_weight", 0.8, 0...20, "do-now log-odds lowered per ln(effort ÷ 10 min) (present bias)", a),
            .behavior("card.urgency_weight", 1.5, 0...20, "do-now log-odds per unit of urgency above 0.5", a),
            .behavior("card.efficacy_weight", 1.5, 0...20, "do-now log-odds per unit of task efficacy above 0.5", a),
            .behavior("card.overdue_boost", 0.5, -20...20, "do-now log-odds added for an overdue or stale card", a),
            .behavior("card.snooze_share", 0.55, 0...1, "share snoozed among cards not done now (the rest skipped)", a),
            .behavior("card.continue_probability", 0.55, 0...1, "probability of looking at another card after one (at most 5 a visit)", a),
            .behavior("card.mark_done_already_done", 0.8, 0...1, "probability of marking done a card whose thing was already done", a),
            .behavior("card.draft_send_as_is", 0.55, 0...1, "share of AI drafts sent as written", a),
            .behavior("card.draft_edit", 0.3, 0...1, "share of AI drafts edited then sent (the rest abandoned)", a),
            .behavior("card.settings_upgrade", 0.05, 0...1,
              "probability a Free person not yet at a paywall today opens Settings → Upgrade to Pro on a visit, at value felt 1 (linearly none at the floor)",
              .assumption("seed 001 §5 Screen 4 \"Upgrade to Pro (in-app purchase)\" gives no rate; looking at Pro grows with the value felt (audit N3, N15)")),
            .behavior("card.settings_upgrade_floor", 0.3, 0...0.99, "value felt at or below which nobody opens Settings → Upgrade (the value felt at install)",
              .assumption("engagement's starting value felt (0.3): a person looks at Pro only once the app has given them something")),
            .behavior("reminder.seen_mean_minutes", 25, 0.1...600, "mean minutes before a reminder notification is seen", a),
            .behavior("reminder.act_constant", -0.9, -20...20, "log-odds of acting on a reminder (value 0.5, urgency 0.5)", a),
            .behavior("reminder.value_weight", 1.5, 0...20, "reminder log-odds per unit of value felt above 0.5", a),
            .behavior("reminder.urgency_weight", 1.0, 0...20, "reminder log-odds per unit of urgency above 0.5", a),
            .behavior("reminder.button_share", 0.5, 0...1, "share of reminders acted on with a button, where buttons are offered", a),
            .behavior("reminder.mute_today_per_ignored", 0.01, 0...1, "probability of muting today per reminder ignored in 3 days", a),
            .behavior("reminder.notifications_off_per_ignored", 0.004, 0...1,
              "probability of turning notifications off per reminder ignored in 3 days (seed 001 §2 \"Aggressive buzzing → user disables all notifications\")", a),
            .behavior("reminder.type_off_per_ignored", 0.02, 0...1,
              "probability, per reminder ignored in 3 days, that a stale check-in or end-of-day prompt seen makes the person turn that type off",
              .assumption("seed 001 §4 Feature 5 \"Can disable specific nudge types in settings\" gives no rate (audit N15)")),
            // What using the tool costs (issue 39): each off at 0 (`TaskToolModel.costKeys`).
            .behavior("attention.card_seconds", 10, 0...86_400,
              "seconds of attention reading one card and deciding at it: time in the app, and time taken from the person's own things in progress",
              .assumption("no published time per to-do card; a one-line card read and a choice made, a few seconds each (issue 39)")),
            .behavior("attention.capture_seconds", 15, 0...86_400,
              "seconds of attention writing one thing down and triaging it into the app",
              .assumption("seed 001 §4 Feature 1 \"Most brain dumps are 15-30 seconds anyway\": the low end (issue 39)")),
            .behavior("attention.reminder_seconds", 20, 0...86_400,
              "seconds of attention reading a reminder notification, acted on or not",
              .assumption("the phone-use model's median notification session, 20 s (PhoneUseProcess, calibrated to Andrews et al. 2015 and Falaki et al. 2010); notifications cost attention even unanswered (Stothart, Mitchum & Yehnert 2015)")),
            .behavior("attention.resumption_lag_seconds", 3.8, 0...86_400,
              "seconds the thing the person was doing loses to each episode in the app (resumption lag), on top of the episode's own time",
              .publication("Altmann & Trafton 2004: the resumption lag after an interruption was 3.8 s, double the 1.9 s between uninterrupted actions; Mark, Gudith & Klocke 2008 find interrupted work finished no slower (people speed up, at a cost in stress), so no longer lag is assumed")),
            .behavior("reminder.cued_urge_scale", 1.0, 0...20,
              "a reminder seen is a pickup of the phone: the chance an urge for a target app follows, as a multiple of the phone-use model's urge probability for a pickup (0: read at a pickup made anyway, no pickup of its own)",
              .assumption("cue reactivity: a notification-started pickup leads to other apps as often as any other pickup (issue 39); no published rate for reminders")),
            .behavior("reminder.fatigue_per_ignored", 0.357, 0...20,
              "log-odds of acting on a reminder lost per reminder ignored in the last 3 days (ignored reminders lose their pull)",
              .publication("Ancker et al. 2017 (BMC Med Inform Decis Mak 17:36): the likelihood of accepting a clinical reminder dropped by 30 % for each additional reminder received per encounter; −ln 0.70 = 0.357, carried over to reminders ignored in the last 3 days (assumption)")),
        ]
    }()
}

/// Nudge's constants, read once per world (`World.constants`).
public struct NudgeConstants: Sendable, Hashable {
    /// What people do with a task-capture tool (`capture.*`, `card.*`, `reminder.*`, `attention.*`).
    public var taskTool: TaskToolModel
    /// Value step of a thing done with Nudge's help, frustration step of a tier limit hit (issue 29).
    public var taskDoneValue: Double
    public var limitHitFrustration: Double

    public init(values: BehaviorValues) {
        taskTool = TaskToolModel(values: values)
        taskDoneValue = values["engagement.value.task_done"]
        limitHitFrustration = values["engagement.frustration.limit_hit"]
    }
}

extension NudgeAdapter {
    public typealias Constants = NudgeConstants
    public static var behaviorParameterGroups: [BehaviorParameterGroup] { NudgeBehavior.groups }
    public static func constants(_ values: BehaviorValues) -> NudgeConstants { NudgeConstants(values: values) }
}

extension ValueChannel {
    /// Nudge's own value channel (issue 39; declared in its folder, issue 42): a thing to do done with its help (a
    /// card, a reminder, a draft).
    public static let thingDoneWithHelp = ValueChannel("thing_done_with_help")
}
