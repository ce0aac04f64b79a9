import Simulation
import Behavior
import NudgeRules
import RulesCore

extension NudgeAdapter {
    // MARK: - A thing to do arises (seed 001 §4 Features 1, 2)

    /// A thing to do arises: the person lives it by their own means first (forgotten or put off, `TaskMind`), then
    /// — the moment to write it down — captures it in Nudge or not (`TaskToolModel.captureProbability`: value felt,
    /// the app-open habit, urgency). A link to read is shared from the app it is in (Feature 2, a preset by its
    /// deadline); anything else is said in a brain dump (Feature 1, "Talk, don't type") — with the other things on
    /// the person's mind not yet written down — or typed (`capture.typed_share`, or when the microphone is denied).
    /// A Free limit refuses the dump at the mic tap: the paywall is weighed, and without Pro the person types the
    /// thing instead or lets it go. One decision per thing (the capture opportunity is the thing arising).
    public static func occurrence(_ o: PersonOccurrence, _ life: inout PersonLife<Self>, at now: Instant) {
        life.liveUnaided(o, at: now)
        guard let t = o.thingToDo, !life.dormant else { return }
        let m = life.world.taskTool
        life.offerDecision(.capture, moment: Int64(t.ref))
        let p = m.captureProbability(valueFelt: life.engagement.perceivedValue, appOpenHabit: life.engagement.appOpenHabit, urgency: t.urgency)
        guard life.features.uniform() < p else {
            life.decide(.capture, .notCaptured, at: now)
            return
        }
        let outcome: DecisionOutcome
        if t.kind == .read {
            outcome = share(t, &life, at: now) ? .share : .notCaptured
        } else if life.engine.micPermission != .denied, life.features.uniform() >= m.typedShare {
            outcome = brainDump(t, &life, at: now)
        } else {
            outcome = typeIt(t, &life, at: now) ? .type : .notCaptured
        }
        life.decide(.capture, outcome, at: now)
        if outcome != .notCaptured {
            life.summary.tally.counts[.captures] += 1
            // Back in the One-Thing view after saving: the person may look at a card or two.
            if life.features.uniform() < m.continueProbability { cardSession(&life, at: now) }
            life.send(.appClosed, at: now)
        }
    }

    /// The quick action the AI detects for a thing (seed 001 §6 API Contract: Brain Dump Splitting "CALL|TEXT|EMAIL").
    static func action(of t: ThingToDo) -> ActionType? {
        switch t.kind {
        case .call: .call
        case .text: .text
        case .email: .email
        case .read: .openLink
        case .errand: nil
        }
    }

    static func thought(_ t: ThingToDo) -> Thought { Thought(ref: t.ref, action: action(of: t), words: t.words) }

    /// Opens Nudge for a capture: the day is active.
    static func openForCapture(_ life: inout PersonLife<Self>, at now: Instant) {
        life.send(.appOpened(via: .icon), at: now)
        life.engagement.record(.appOpened)
        answerPermission(&life, at: now)
        settlePaywall(&life, at: now)
    }

    /// A brain dump of `t` and the other things on the person's mind: remembered, not written down, not done, arisen
    /// within `capture.dump_memory_hours` (at most 6). Speech at `capture.words_per_second` plus 3 s; online with
    /// `capture.online_share`; the AI split fails with `capture.split_failure`. Returns the capture decision's outcome.
    static func brainDump(_ t: ThingToDo, _ life: inout PersonLife<Self>, at now: Instant) -> DecisionOutcome {
        let m = life.world.taskTool
        var thoughts = [thought(t)]
        let since = now - .milliseconds(Int64(m.dumpMemoryHours * 3_600_000))
        for r in life.tasks.records.reversed() where r.task.ref != t.ref {
            guard r.task.arisenAt >= since, thoughts.count < 6 else { break }
            if !r.captured, r.unaidedDoneAt != nil, !life.tasks.isDone(r.task.ref, at: now) { thoughts.append(thought(r.task)) }
        }
        let words = thoughts.reduce(0) { $0 + $1.words }
        let seconds = 3 + Int((Double(words) / m.wordsPerSecond).rounded())
        let online = life.features.uniform() < m.onlineShare
        let fails = life.features.uniform() < m.splitFailure
        openForCapture(&life, at: now)
        var d = life.send(.brainDump(thoughts: thoughts, seconds: seconds, online: online, splitFails: fails), at: now)
        if d == .needsPermission(.microphone) {
            guard answerPermission(&life, at: now) else { return typeIt(t, &life, at: now) ? .type : .notCaptured }
            // Allowed: the engine records the dump that was waiting for the microphone (nothing is said twice).
            d = life.engine.item(ref: t.ref) != nil ? .dumpSaved(cards: 0)
                : life.engine.queuedTranscripts.isEmpty ? .ok : .dumpQueuedOffline
        }
        if d == .dumpLimitHit {
            life.summary.tally.counts[.dumpLimitHits] += 1
            life.engagement.record(.limitHit)
            settlePaywall(&life, at: now)
            if life.engine.isPro {
                d = life.send(.brainDump(thoughts: thoughts, seconds: seconds, online: online, splitFails: fails), at: now)
            } else {
                // Refused at the mic: type the one thing that prompted the dump, or let it go (assumption: as likely as
                // the capture itself was, read again).
                let p = m.captureProbability(valueFelt: life.engagement.perceivedValue, appOpenHabit: life.engagement.appOpenHabit, urgency: t.urgency)
                return life.features.uniform() < p && typeIt(t, &life, at: now) ? .type : .notCaptured
            }
        }
        switch d {
        case .dumpSaved, .dumpQueuedOffline:
            if d == .dumpQueuedOffline { life.schedule(.backOnline, at: now + .minutes(30)) }
            for th in thoughts where life.engine.item(ref: th.ref) != nil || d == .dumpQueuedOffline { life.tasks.capture(th.ref) }
            offerLiveActivity(&life, at: now)
            return .speak
        default:
            return .notCaptured
        }
    }

    /// A typed card (inventory C11: unlimited, no AI).
    static func typeIt(_ t: ThingToDo, _ life: inout PersonLife<Self>, at now: Instant) -> Bool {
        if !life.engine.appOpen { openForCapture(&life, at: now) }
        guard case .itemAdded = life.send(.addManual(thought(t)), at: now) else { return false }
        life.tasks.capture(t.ref)
        return true
    }

    /// Share → Nudge → a preset by the thing's deadline (seed 001 §5 Screen 6): before this evening "Later today",
    /// by tomorrow "Tomorrow morning", within the week "This weekend", else "Next week". The share sheet is not an
    /// app open (inventory: share-only days are not active days). A Free person over the cap is refused and meets
    /// the paywall at the next open.
    static func share(_ t: ThingToDo, _ life: inout PersonLife<Self>, at now: Instant) -> Bool {
        switch life.send(.share(thought(t), preset: preset(for: t, at: now)), at: now) {
        case .shareSaved:
            life.summary.tally.counts[.shares] += 1
            life.tasks.capture(t.ref)
            return true
        case .shareLimitHit:
            life.summary.tally.counts[.shareLimitHits] += 1
            life.engagement.record(.limitHit)
            return false
        default:
            return false
        }
    }

    /// The one-time Live Activity prompt after the first dump (seed 001 §4 Feature 4b): enable or dismiss.
    static func offerLiveActivity(_ life: inout PersonLife<Self>, at now: Instant) {
        guard life.state.liveActivityPromptPending else { return }
        life.state.liveActivityPromptPending = false
        let enable = life.features.uniform() < life.world.taskTool.liveActivityOptIn
        life.decideAtMoment(.featurePrompt, moment: 0, enable ? .enable : .dismiss, at: now)
        life.summary.tally.counts[enable ? .liveActivityEnabled : .liveActivityDismissed] += 1
        life.send(.liveActivityPrompt(enable: enable), at: now)
    }

    /// The OS prompt the engine is waiting on, answered (`capture.allow_*`): true when allowed. Once per kind.
    @discardableResult
    static func answerPermission(_ life: inout PersonLife<Self>, at now: Instant) -> Bool {
        guard let kind = life.engine.pendingPermission else { return false }
        let m = life.world.taskTool
        let p: Double = switch kind {
        case .microphone: m.allowMicrophone
        case .notifications: m.allowNotifications
        case .contacts: m.allowContacts
        }
        let allow = life.features.uniform() < p
        let moment: Int64 = switch kind { case .microphone: 0; case .notifications: 1; case .contacts: 2 }
        life.decideAtMoment(.permissionAnswer, moment: moment, allow ? .allow : .deny, at: now)
        life.send(.permission(kind, granted: allow), at: now)
        return allow
    }
}
