import Behavior
import Foundation
import Stochastics

/// What people do with a task-capture tool (issue 29; Nudge, seed 001): whether they write a thing to do down the
/// moment it arises and how, what they do at a card that shows them one thing, and how they answer a reminder.
/// Nudge's own model since issue 42 (Nudge's folder): every constant is a behaviour parameter Nudge declares
/// (`NudgeBehavior`: `capture.*`, `card.*`, `reminder.*`), most of them assumptions — no published rate was found for capture tools — to be set by
/// calibration against Nudge's published targets (seed 001 §11).
public struct TaskToolModel: Hashable, Sendable {
    /// Log-odds of capturing a thing as it arises, at value felt 0.5 and the app-open habit 0.5.
    public var captureConstant = -0.4
    public var captureValueWeight = 2.0
    public var captureHabitWeight = 2.0
    /// Log-odds added per unit of urgency (urgent things are written down more).
    public var captureUrgencyWeight = 0.8
    /// Share of captures that are typed rather than spoken when the microphone is allowed.
    public var typedShare = 0.15
    /// Hours a remembered, uncaptured thing stays in mind for the next brain dump.
    public var dumpMemoryHours = 2.0
    /// Words spoken per second in a brain dump (2.5 w/s ≈ 150 wpm conversational speech, Yuan et al. 2006).
    public var wordsPerSecond = 2.5
    /// Probability of answering a permission prompt with "Allow": microphone, notifications, contacts.
    public var allowMicrophone = 0.85, allowNotifications = 0.6, allowContacts = 0.7
    /// Probability of enabling a lock-screen live view when asked once.
    public var liveActivityOptIn = 0.12
    /// Share of the time the phone is online.
    public var onlineShare = 0.97
    /// Probability an AI split fails (seed 001 §12: "AI splitting produces garbage results", likelihood Low).
    public var splitFailure = 0.02
    /// Speech in a brain dump is stretched by hesitations and asides: a log-normal factor on the words' time, with
    /// this median and log-sd (seed 001 §4 Feature 1 "Most brain dumps are 15-30 seconds anyway"; a long one reaches
    /// the 55 s cap).
    public var rambleMedian = 1.6, rambleSigma = 0.6
    /// Probability a brain dump's recording is empty (tapped, then blanked or interrupted; seed 001 §4 Feature 1
    /// "Empty recording → ignore"): the person taps again at once.
    public var emptyDump = 0.03

    /// Log-odds of doing the thing on the card now, at 10 minutes' effort, urgency 0.5, efficacy 0.5.
    public var doConstant = -0.3
    public var doEffortWeight = 0.8
    public var doUrgencyWeight = 1.5
    public var doEfficacyWeight = 1.5
    /// Log-odds added when the card is overdue or stale (the colour asks).
    public var doOverdueBoost = 0.5
    /// Of cards not done now: share snoozed (the rest skipped).
    public var snoozeShare = 0.55
    /// Probability of looking at another card after one, up to `maxCards`.
    public var continueProbability = 0.55
    public var maxCards = 5
    /// Probability of marking done a card whose thing the person already did by other means.
    public var markDoneAlreadyDone = 0.8
    /// Of drafts shown: share sent as is, share edited then sent (the rest abandoned).
    public var draftSendAsIs = 0.55, draftEdit = 0.3
    /// Probability that a Free person who has not met a paywall today opens Settings → "Upgrade to Pro" on a visit,
    /// at value felt 1, linearly less down to none at `settingsUpgradeFloor` (the value felt at install: nothing
    /// gained yet; seed 001 §5 Screen 4).
    public var settingsUpgrade = 0.05, settingsUpgradeFloor = 0.3

    /// Mean minutes before a reminder notification is seen.
    public var reminderSeenMeanMinutes = 25.0
    /// Log-odds of acting on a reminder (opening or a button), at value 0.5 and urgency 0.5.
    public var reminderActConstant = -0.9
    public var reminderValueWeight = 1.5
    public var reminderUrgencyWeight = 1.0
    /// Of reminders acted on with buttons offered: share using a button rather than opening.
    public var reminderButtonShare = 0.5
    /// Probability, per reminder ignored in the last 3 days, of muting today / turning notifications off (seed 001
    /// §2: "Aggressive buzzing → user disables all notifications").
    public var muteTodayPerIgnored = 0.01, notificationsOffPerIgnored = 0.004
    /// Probability, per reminder ignored in the last 3 days, that a stale check-in or end-of-day prompt seen makes the
    /// person turn that type off in Settings instead (seed 001 §4 Feature 5 "Can disable specific nudge types").
    public var typeOffPerIgnored = 0.02

    // MARK: What using the tool costs the person (issue 39)
    //
    // Each is a mechanism that can make a task tool's effect on things done negative; each is off at 0
    // (`TaskToolModel.costsOff`: all of them).

    /// Seconds of attention reading one card and deciding at it (`attention.card_seconds`).
    public var cardSeconds = 10.0
    /// Seconds of attention writing one thing down and triaging it into the app (`attention.capture_seconds`).
    public var captureSeconds = 15.0
    /// Seconds of attention reading a reminder notification, acted on or not (`attention.reminder_seconds`).
    public var reminderSeconds = 20.0
    /// Seconds of resumption lag the thing the person was doing loses to each episode in the app
    /// (`attention.resumption_lag_seconds`; Altmann & Trafton 2004).
    public var resumptionLagSeconds = 3.8
    /// A reminder seen is a pickup of the phone: the probability that, phone in hand, an urge for one of the person's
    /// target apps follows, as a multiple of the phone-use model's urge probability for a pickup
    /// (`reminder.cued_urge_scale`; 0: the reminder is read at a pickup the person made anyway, as before issue 39).
    public var reminderCuedUrgeScale = 1.0
    /// Log-odds of acting on a reminder lost per reminder ignored in the last 3 days (`reminder.fatigue_per_ignored`;
    /// Ancker et al. 2017: odds of accepting a reminder × 0.70 per additional reminder).
    public var reminderFatiguePerIgnored = 0.357

    public init() {}

    public init(values: BehaviorValues) {
        captureConstant = values["capture.constant"]
        captureValueWeight = values["capture.value_weight"]
        captureHabitWeight = values["capture.habit_weight"]
        captureUrgencyWeight = values["capture.urgency_weight"]
        typedShare = values["capture.typed_share"]
        dumpMemoryHours = values["capture.dump_memory_hours"]
        allowMicrophone = values["capture.allow_microphone"]
        allowNotifications = values["capture.allow_notifications"]
        allowContacts = values["capture.allow_contacts"]
        liveActivityOptIn = values["capture.live_activity_opt_in"]
        onlineShare = values["capture.online_share"]
        splitFailure = values["capture.split_failure"]
        rambleMedian = values["capture.ramble_median"]
        rambleSigma = values["capture.ramble_sigma"]
        emptyDump = values["capture.empty_dump"]
        doConstant = values["card.do_constant"]
        doEffortWeight = values["card.effort_weight"]
        doUrgencyWeight = values["card.urgency_weight"]
        doEfficacyWeight = values["card.efficacy_weight"]
        doOverdueBoost = values["card.overdue_boost"]
        snoozeShare = values["card.snooze_share"]
        continueProbability = values["card.continue_probability"]
        markDoneAlreadyDone = values["card.mark_done_already_done"]
        draftSendAsIs = values["card.draft_send_as_is"]
        draftEdit = values["card.draft_edit"]
        settingsUpgrade = values["card.settings_upgrade"]
        settingsUpgradeFloor = values["card.settings_upgrade_floor"]
        reminderSeenMeanMinutes = values["reminder.seen_mean_minutes"]
        reminderActConstant = values["reminder.act_constant"]
        reminderValueWeight = values["reminder.value_weight"]
        reminderUrgencyWeight = values["reminder.urgency_weight"]
        reminderButtonShare = values["reminder.button_share"]
        muteTodayPerIgnored = values["reminder.mute_today_per_ignored"]
        notificationsOffPerIgnored = values["reminder.notifications_off_per_ignored"]
        typeOffPerIgnored = values["reminder.type_off_per_ignored"]
        cardSeconds = values["attention.card_seconds"]
        captureSeconds = values["attention.capture_seconds"]
        reminderSeconds = values["attention.reminder_seconds"]
        resumptionLagSeconds = values["attention.resumption_lag_seconds"]
        reminderCuedUrgeScale = values["reminder.cued_urge_scale"]
        reminderFatiguePerIgnored = values["reminder.fatigue_per_ignored"]
    }

    /// The keys of the issue-39 costs of using a task tool, each off at 0: with all of them 0 a person uses the tool as
    /// before issue 39 (attention free, reminders read at pickups made anyway and never tiring).
    public static let costKeys = ["attention.card_seconds", "attention.capture_seconds", "attention.reminder_seconds",
                                  "attention.resumption_lag_seconds", "reminder.cued_urge_scale", "reminder.fatigue_per_ignored"]

    static func logistic(_ x: Double) -> Double { 1 / (1 + exp(-x)) }

    /// Probability of capturing a thing of `urgency` as it arises.
    public func captureProbability(valueFelt: Double, appOpenHabit: Double, urgency: Double) -> Double {
        Self.logistic(captureConstant + captureValueWeight * (valueFelt - 0.5) + captureHabitWeight * (appOpenHabit - 0.5)
                      + captureUrgencyWeight * (urgency - 0.5))
    }

    /// Probability of doing the thing on the card now.
    public func doNowProbability(effortMinutes: Double, urgency: Double, efficacy: Double, overdue: Bool) -> Double {
        Self.logistic(doConstant - doEffortWeight * log(max(effortMinutes, 0.5) / 10) + doUrgencyWeight * (urgency - 0.5)
                      + doEfficacyWeight * (efficacy - 0.5) + (overdue ? doOverdueBoost : 0))
    }

    /// Probability of opening Settings → "Upgrade to Pro" on a visit, at value felt `valueFelt`.
    public func settingsUpgradeProbability(valueFelt: Double) -> Double {
        settingsUpgrade * max(0, (valueFelt - settingsUpgradeFloor) / max(1e-9, 1 - settingsUpgradeFloor))
    }

    /// Probability of acting on a reminder (opening it or using a button), after `ignoredRecently` reminders ignored
    /// in the last 3 days: each takes `reminderFatiguePerIgnored` off the log-odds (issue 39: ignored reminders lose
    /// their pull — alert fatigue, Ancker et al. 2017).
    public func reminderActProbability(valueFelt: Double, urgency: Double, ignoredRecently: Int = 0) -> Double {
        Self.logistic(reminderActConstant + reminderValueWeight * (valueFelt - 0.5) + reminderUrgencyWeight * (urgency - 0.5)
                      - reminderFatiguePerIgnored * Double(ignoredRecently))
    }
}
