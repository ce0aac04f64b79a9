import Simulation
import Behavior
import NudgeRules
import RulesCore

extension NudgeAdapter {
    // MARK: - What the engine tells the person (seed 001 §4 Features 4b, 5)

    /// Events the person notices: a nudge notification is seen a little later (`reminder.seen_mean_minutes`,
    /// exponential); the Live Activity prompt waits for the dump that brought it to end; a paywall is weighed where
    /// it was shown; the app opened is an active day.
    public static func observe(_ event: NudgeEvent, _ life: inout PersonLife<Self>, at now: Instant) {
        switch event {
        case .appOpened:
            life.recordActiveDay()
            life.summary.tally.markActive(day: life.dayIndex, plan: life.engine.isPro ? 1 : 0, month: life.currentMonth)
        case let .nudgeSent(kind, item, ref, buttons, _):
            life.summary.tally.counts[.remindersSent] += 1
            life.engagement.record(.notificationReceived)
            let delay = life.features.exponential(mean: life.world.constants.taskTool.reminderSeenMeanMinutes * 60_000)
            life.schedule(.seeReminder(kind, item, ref: ref, sentAt: now, buttons: buttons), at: now + .milliseconds(Int64(delay)))
        case .liveActivityPromptShown:
            life.state.liveActivityPromptPending = true
        case .paywallShown(let trigger):
            life.state.pendingPaywall = (trigger, now)
            life.summary.tally.counts[.sawPaywall] = 1
            life.offerDecision(.paywallPurchase, moment: now.millisecondsSinceEpoch)
            // No frustration of its own: a limit that refused something is `limitHit` where it refused; a teaser or
            // Settings refuses nothing.
        case .brainDumpAutoStopped(let cut):
            // The person notices the auto-stop and goes on in a second dump (seed 001 §4 Feature 1).
            life.state.thoughtsCut = cut
        case .brainDumpCompleted, .brainDumpQueuedOffline:
            life.summary.tally.countDump(event)
        case .aiSplitCompleted, .aiSplitFailed:
            // The request is counted here; its cost is the ledger's (`booked`).
            life.summary.tally.countAI(split: true, month: life.currentMonth, plan: life.engine.isPro ? 1 : 0)
        case .draftGenerated:
            life.summary.tally.countAI(split: false, month: life.currentMonth, plan: life.engine.isPro ? 1 : 0)
        case .subscriptionStarted(let plan, _):
            // The plan segment and "ever subscribed" are the life's, from the engine's standing (issue 42).
            life.summary.tally.counts[.subscriber] = 1
            if plan == .annual { life.summary.tally.counts[.annualSubscriber] = 1 }
            if life.dayIndex <= 30 { life.summary.tally.counts[.proByDay30] = 1 }
            life.considerRefund(at: now)
        case .subscriptionRenewed:
            life.summary.tally.renewals += 1
        default:
            break
        }
    }

    /// An intent come due.
    public static func carryOut(_ intent: Intent, _ life: inout PersonLife<Self>, at now: Instant) {
        switch intent {
        case let .seeReminder(kind, item, ref, sentAt, buttons):
            seeReminder(kind, item, ref: ref, sentAt: sentAt, buttons: buttons, &life, at: now)
        case .renewalDecision(let periodEnd):
            renewalDecision(periodEnd: periodEnd, &life, at: now)
        case .backOnline:
            life.send(.connectivity(online: true), at: now)
        }
        settlePaywall(&life, at: now)
    }

    /// A reminder seen (`reminder_reply`, its opportunity the notification): reminders ignored in the last 3 days
    /// wear the person down — each raises the chance of muting today (`reminder.mute_today_per_ignored`) or of
    /// switching Nudge's notifications off for good (`reminder.notifications_off_per_ignored`; seed 001 §2
    /// "Aggressive buzzing → user disables all notifications") — and, for a stale check-in or end-of-day prompt, of
    /// turning that type off instead (`reminder.type_off_per_ignored`). Otherwise the person acts on it
    /// (`TaskToolModel.reminderActProbability`) — with a button where Pro offers them (`reminder.button_share`:
    /// "Call Now"/"Send Text"/"Do it now" does the thing, "Let it go" drops one already done, "Tomorrow" puts it off)
    /// or by opening the app at the card — or ignores it. The more reminders ignored in the last 3 days, the less
    /// likely acting is (`reminder.fatigue_per_ignored`, issue 39). The reminder seen is a pickup of its own
    /// (`reminder.cued_urge_scale`: an urge for a target app may follow) and its reading, with the cards opened from
    /// it, an episode of attention (`attention.reminder_seconds`, `attention.card_seconds`).
    static func seeReminder(_ kind: NudgeKind, _ item: ItemID?, ref: UInt64, sentAt: Instant, buttons: Bool,
                            _ life: inout PersonLife<Self>, at now: Instant) {
        guard !life.dormant else { return }
        let m = life.world.constants.taskTool
        // Issue 39: the reminder seen is a pickup that may bring an urge for a target app, and reading it costs
        // attention whatever the person does with it; the episode ends when they are done with it.
        reminderPickup(&life, at: now)
        attend(m.reminderSeconds, &life)
        defer { endEpisode(&life, at: now) }
        life.offerDecision(.reminderReply, moment: sentAt.millisecondsSinceEpoch)
        let cutoff = now - .days(3)
        life.state.ignoredReminders.removeAll { $0 < cutoff }
        let ignored = Double(life.state.ignoredReminders.count)
        let u = life.features.uniform()
        // A Pro smart nudge (stale check-in, end-of-day prompt) ignored too often is turned off as a type (seed 001 §4
        // Feature 5 "Can disable specific nudge types in settings"; `reminder.type_off_per_ignored`), before all
        // notifications are (audit N15).
        let pType = kind == .resurfacing ? 0 : m.typeOffPerIgnored * ignored
        let pOff = m.notificationsOffPerIgnored * ignored, pMute = m.muteTodayPerIgnored * ignored
        if u < pType {
            life.decide(.reminderReply, .typeOff, at: now)
            life.send(.setNudgeType(kind, on: false), at: now)
            return
        }
        if u < pType + pOff {
            life.decide(.reminderReply, .notificationsOff, at: now)
            life.state.notificationsOff = true
            life.summary.tally.counts[.notificationsOff] = 1
            life.send(.setNotificationsAllowed(false), at: now)
            return
        }
        if u < pType + pOff + pMute {
            life.decide(.reminderReply, .muteToday, at: now)
            life.send(.muteNudgesToday, at: now)
            return
        }
        let r = life.mind(TaskProcess.self).record(ref)
        let urgency = r?.task.urgency ?? 0.5
        // Ignored reminders lose their pull (`reminder.fatigue_per_ignored`, issue 39).
        let pAct = m.reminderActProbability(valueFelt: life.engagement.perceivedValue, urgency: urgency, ignoredRecently: Int(ignored))
        guard life.features.uniform() < pAct else {
            life.decide(.reminderReply, .ignore, at: now)
            life.state.ignoredReminders.append(now)
            return
        }
        life.summary.tally.counts[.remindersActed] += 1
        if now - sentAt <= NudgeKPIs.actedWindow { life.summary.tally.counts[.remindersActedWithinWindow] += 1 }
        if buttons, let item, let r, life.features.uniform() < m.reminderButtonShare {
            let done = life.mind(TaskProcess.self).isDone(ref, at: now)
            let p = m.doNowProbability(effortMinutes: r.task.effortMinutes, urgency: r.task.urgency, efficacy: life.mind(TaskProcess.self).efficacy, overdue: true)
            let reply: NotificationReply
            if done { reply = kind == .stale ? .letItGo : .doItNow }
            else if life.features.uniform() < p {
                reply = r.task.kind == .call ? .callNow : r.task.kind == .text ? .sendText : .doItNow
            } else { reply = .tomorrow }
            if reply == .tomorrow || (reply == .letItGo) {
                life.decide(.reminderReply, reply == .tomorrow ? .tomorrow : .letItGo, at: now)
                life.send(.notificationReply(item, kind, reply), at: now)
                return
            }
            life.decide(.reminderReply, .button, at: now)
            life.send(.notificationReply(item, kind, reply), at: now)
            if reply == .callNow || reply == .sendText || reply == .doItNow, !done,
               life.steer(TaskProcess.self, { $0.doneWithHelp(ref, at: now + .milliseconds(Int64(r.task.effortMinutes * 60_000))) }) {
                life.summary.tally.counts[.doneWithHelp] += 1
                life.engagement.record(.value(life.world.constants.taskDoneValue, .thingDoneWithHelp))
            }
            if let card = life.engine.item(item), card.status.isOpen { life.send(.done(item), at: now) ; life.summary.tally.counts[.itemsDone] += 1; life.state.doneToday += 1 }
            life.send(.appClosed, at: now)
            return
        }
        life.decide(.reminderReply, .open, at: now)
        life.send(.notificationReply(item, kind, .open), at: now)
        life.engagement.record(.appOpened)
        answerPermission(&life, at: now)
        settlePaywall(&life, at: now)
        cardSession(&life, at: now)
        life.send(.appClosed, at: now)
    }
}
