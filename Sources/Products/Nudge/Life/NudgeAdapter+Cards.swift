import Simulation
import Behavior
import NudgeRules
import RulesCore

extension NudgeAdapter {
    // MARK: - Opening Nudge (seed 001 §4 Feature 3, §5 Screen 1)

    /// Opening Nudge on a cue (the app-open habit, as for every product): the One-Thing view and a few cards.
    public static func cue(_ cue: AppOpenCue, _ life: inout PersonLife<Self>, at now: Instant) {
        guard life.opensAppOnCue(cue) else { return }
        visit(.icon, &life, at: now)
    }

    /// A visit: the app opens (a pending permission prompt and paywall are answered), the person works through
    /// cards, may look at Pro in Settings, and closes it. The cards read are an episode of attention (issue 39).
    static func visit(_ via: OpenVia, _ life: inout PersonLife<Self>, at now: Instant) {
        life.send(.appOpened(via: via), at: now)
        life.engagement.record(.appOpened)
        answerPermission(&life, at: now)
        settlePaywall(&life, at: now)
        cardSession(&life, at: now)
        considerUpgrade(&life, at: now)
        life.send(.appClosed, at: now)
        endEpisode(&life, at: now)
    }

    /// Settings → "Upgrade to Pro" (seed 001 §5 Screen 4): on a visit, a Free person who has met no paywall today
    /// (the once-a-day rule of the shared subscriber layer) opens it with `card.settings_upgrade` at value felt 1,
    /// linearly less down to never at `card.settings_upgrade_floor`, the value felt at install (assumption) — the
    /// paywall they asked for, weighed at once.
    static func considerUpgrade(_ life: inout PersonLife<Self>, at now: Instant) {
        guard !life.engine.isPro, !life.weighedPaywallToday, life.engine.paywallShowing == nil else { return }
        life.offerDecision(.settingsUpgrade, moment: life.state.visits)
        let opens = life.features.uniform() < life.world.constants.taskTool.settingsUpgradeProbability(valueFelt: life.engagement.perceivedValue)
        life.decide(.settingsUpgrade, opens ? .open : .ignore, at: now)
        guard opens else { return }
        life.send(.upgradeTapped, at: now)
        settlePaywall(&life, at: now)
    }

    /// The One-Thing view: one card at a time, each a decision (`card_action`, its opportunity the card shown in this
    /// visit). After the first card the person looks at another with `card.continue_probability`, else closes the
    /// app (the next card's decision), at most `card.max` cards a visit.
    static func cardSession(_ life: inout PersonLife<Self>, at now: Instant) {
        life.state.visits += 1
        let m = life.world.constants.taskTool
        var seen: [ItemID] = []
        for k in 0..<m.maxCards {
            // A card already answered in this visit coming round again (the queue went round) ends the visit.
            guard let card = life.engine.currentCard, card.status == .active, !seen.contains(card.id) else { return }
            seen.append(card.id)
            life.offerDecision(.cardAction, moment: life.state.visits &* 16 &+ Int64(k))
            if k > 0, life.features.uniform() >= m.continueProbability {
                life.decide(.cardAction, .closeApp, at: now)
                return
            }
            // Reading the card and deciding at it costs attention (`attention.card_seconds`, issue 39).
            attend(m.cardSeconds, &life)
            atCard(card, &life, at: now)
            // A paywall the card brought up (a Pro draft's teaser) is weighed where it was shown.
            settlePaywall(&life, at: now)
        }
    }

    /// At a card: a thing already done by other means is marked done (`card.mark_done_already_done`) or skipped;
    /// otherwise the person does it now (`TaskToolModel.doNowProbability`: effort, urgency, task efficacy, the
    /// card's colour) — through its action where it has one — or snoozes it (`card.snooze_share`, a preset by its
    /// deadline) or skips it.
    static func atCard(_ card: NudgeItem, _ life: inout PersonLife<Self>, at now: Instant) {
        let m = life.world.constants.taskTool
        guard let r = life.mind(TaskProcess.self).record(card.ref) else {
            life.decide(.cardAction, .skip, at: now)
            life.send(.skip(card.id), at: now)
            return
        }
        if life.mind(TaskProcess.self).isDone(card.ref, at: now) {
            let marks = life.features.uniform() < m.markDoneAlreadyDone
            life.decide(.cardAction, marks ? .done : .skip, at: now)
            markDone(card, r.task, helped: false, &life, at: now, skipInstead: !marks)
            return
        }
        let overdue = now > r.task.deadline || now.millisecondsSinceEpoch - card.touchedAt.millisecondsSinceEpoch >= 72 * 3_600_000
        let p = m.doNowProbability(effortMinutes: r.task.effortMinutes, urgency: r.task.urgency, efficacy: life.mind(TaskProcess.self).efficacy, overdue: overdue)
        if life.features.uniform() < p {
            if let a = card.action, a != .openLink || r.task.kind == .read {
                life.decide(.cardAction, .act, at: now)
                act(card, a, r.task, &life, at: now)
            } else {
                life.decide(.cardAction, .done, at: now)
                markDone(card, r.task, helped: true, &life, at: now, skipInstead: false)
            }
        } else if life.features.uniform() < m.snoozeShare {
            life.decide(.cardAction, .snooze, at: now)
            life.send(.snooze(card.id, preset(for: r.task, engine: life.engine, at: now)), at: now)
            life.summary.tally.counts[.snoozes] += 1
            answerPermission(&life, at: now)
        } else {
            life.decide(.cardAction, .skip, at: now)
            life.send(.skip(card.id), at: now)
        }
    }

    /// The thing is done now (or was already): Nudge gets the swipe, the person's life the thing done `effort`
    /// minutes later. A raw card (a failed AI split, seed 001 §12 "Fallback to raw text as single card") is swiped
    /// for its first thing only: the other things on it stay to the person's own means — no completion without its
    /// effort, none of a thing already done (audit N7).
    static func markDone(_ card: NudgeItem, _ t: ThingToDo, helped: Bool, _ life: inout PersonLife<Self>, at now: Instant, skipInstead: Bool) {
        if skipInstead {
            life.send(.skip(card.id), at: now)
            return
        }
        let finished = now + .milliseconds(Int64(t.effortMinutes * 60_000))
        if helped, life.steer(TaskProcess.self, { $0.doneWithHelp(t.ref, at: finished) }) {
            life.summary.tally.counts[.doneWithHelp] += 1
            life.engagement.record(.value(life.world.constants.taskDoneValue, .thingDoneWithHelp))
        }
        life.send(.done(card.id), at: now)
        life.summary.tally.counts[.itemsDone] += 1
        life.state.doneToday += 1
    }

    /// The card's action (seed 001 §4 Features 6, 7): 📞 opens the dialer, 💬/📧 a compose sheet — on Pro with the AI
    /// draft, sent as is, edited or abandoned (`draft_use`) — 🔗 the link; a contact is picked the first time
    /// (permission asked once). The thing is done when the message is sent, the call made or the link read; after an
    /// abandoned draft the card is skipped.
    /// One tap opens the action once (audit N12): after the contacts answer the engine already shows the picker (or,
    /// denied, opens the action without a contact), and the contact picked already opens it — no second tap.
    static func act(_ card: NudgeItem, _ a: ActionType, _ t: ThingToDo, _ life: inout PersonLife<Self>, at now: Instant) {
        var d = life.send(.actionTapped(card.id), at: now)
        if d == .needsPermission(.contacts), let answered = answerPermissionDeciding(&life, at: now) { d = answered.decision }
        if case .contactPickerShown = d { d = life.send(.contactPicked(card.id), at: now) }
        life.summary.tally.counts[.actionsTapped] += 1
        if case .actionOpened(_, let draft) = d, draft {
            let m = life.world.constants.taskTool
            let u = life.features.uniform()
            let outcome: DecisionOutcome = u < m.draftSendAsIs ? .sendDraft : u < m.draftSendAsIs + m.draftEdit ? .editDraft : .abandonDraft
            life.decideAtMoment(.draftUse, moment: now.millisecondsSinceEpoch &* 4096 &+ Int64(card.id), outcome, at: now)
            if outcome == .abandonDraft {
                // The message is not sent: the person swipes the card away for now (skip).
                life.send(.draftAbandoned(card.id), at: now)
                life.send(.skip(card.id), at: now)
                return
            }
            life.send(.draftSent(card.id, edited: outcome == .editDraft), at: now)
            life.summary.tally.counts[.draftsSent] += 1
        }
        markDone(card, t, helped: true, &life, at: now, skipInstead: false)
    }

    /// The snooze or share preset a person picks for a thing (seed 001 §5 Screen 5, Screen 6: the presets are clock
    /// times — "Later today" (3 hours), "Tomorrow morning" (9am), "This weekend" (Saturday 10am), "Next week" (Monday
    /// 9am)): the latest whose resurfacing leaves the thing's effort before its deadline, else the earliest (audit
    /// N8; assumption). The resurfacing instants are the engine's own (`NudgeEngine.resurfaceTime(_:from:)`).
    public static func preset(for t: ThingToDo, engine: NudgeEngine, at now: Instant) -> SnoozePreset {
        let latestStart = t.deadline - .milliseconds(Int64(t.effortMinutes * 60_000))
        var fits: (preset: SnoozePreset, at: Instant)?, earliest: (preset: SnoozePreset, at: Instant)?
        for p in SnoozePreset.allCases {
            let at = engine.resurfaceTime(p, from: now)
            if at <= latestStart, fits.map({ at > $0.at }) ?? true { fits = (p, at) }
            if earliest.map({ at < $0.at }) ?? true { earliest = (p, at) }
        }
        return (fits ?? earliest!).preset
    }
}
