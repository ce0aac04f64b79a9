import Simulation
import Behavior
import NudgeRules
import RulesCore
import Foundation

extension NudgeAdapter {
    // MARK: - A thing to do arises (seed 001 §4 Features 1, 2)

    /// A thing to do arises: the person lives it by their own means first (forgotten or put off, `TaskMind`), then
    /// — the moment to write it down — captures it in Nudge or not (`TaskToolModel.captureProbability`: value felt,
    /// the app-open habit, urgency). A link to read is shared from the app it is in (Feature 2, a preset by its
    /// deadline); anything else is said in a brain dump (Feature 1, "Talk, don't type") — with the other things on
    /// the person's mind not yet written down — or typed (`capture.typed_share`, when the microphone is denied, or
    /// when a dump was refused at the Free limit earlier today: the person knows the limit, audit N6). A Free limit
    /// refuses the dump at the mic tap: the paywall is weighed, and without Pro the person types the thing instead
    /// or lets it go. One decision per thing (the capture opportunity is the thing arising).
    ///
    /// Only a capture made in the app (said or typed) may be followed by a look at the One-Thing view: the share
    /// sheet is not an app open (seed 001 §4 Feature 2 "done in 2 taps", §5 Screen 6 "share sheet dismisses"; audit
    /// N1). Whenever the app was opened for the capture it is closed again, captured or not (audit N2).
    public static func occurrence(_ o: PersonOccurrence, _ life: inout PersonLife<Self>, at now: Instant) {
        life.liveUnaided(o, at: now)
        guard let t = o.value(as: ThingToDo.self), !life.dormant else { return }
        let m = life.world.constants.taskTool
        life.offerDecision(.capture, moment: Int64(t.ref))
        let p = m.captureProbability(valueFelt: life.engagement.perceivedValue, appOpenHabit: life.engagement.appOpenHabit, urgency: t.urgency)
        guard life.features.uniform() < p else {
            life.decide(.capture, .notCaptured, at: now)
            return
        }
        let outcome: DecisionOutcome
        if t.kind == .read {
            outcome = share(t, &life, at: now) ? .share : .notCaptured
        } else if life.engine.micPermission != .denied, life.features.uniform() >= m.typedShare, !knowsDumpLimit(life) {
            outcome = brainDump(t, &life, at: now)
        } else {
            outcome = typeIt(t, &life, at: now) ? .type : .notCaptured
        }
        life.decide(.capture, outcome, at: now)
        // Writing it down and triaging it costs attention (`attention.capture_seconds`, issue 39); the episode ends
        // with the capture's card session, if any.
        defer { endEpisode(&life, at: now) }
        if outcome != .notCaptured {
            life.summary.tally.counts[.captures] += 1
            attend(m.captureSeconds, &life)
        }
        guard life.engine.appOpen else { return }
        // Back in the One-Thing view after saving in the app: the person may look at a card or two.
        if outcome == .speak || outcome == .type, life.features.uniform() < m.continueProbability { cardSession(&life, at: now) }
        life.send(.appClosed, at: now)
    }

    /// A Free person whose dump was refused earlier today knows the limit: they type instead of tapping the mic
    /// (audit N6; seed 001 §4 Feature 1 "Free tier limit | 3 brain dumps per day", counted per local day).
    static func knowsDumpLimit(_ life: borrowing PersonLife<Self>) -> Bool {
        !life.engine.isPro && life.state.dumpLimitKnownDay == life.dayIndex
    }

    /// A dump refused at the Free limit. Only the day's first refusal frustrates (`engagement.frustration.limit_hit`)
    /// — after it the person knows the limit (audit N6) — and the paywall it showed is weighed (at most one a day,
    /// the shared subscriber layer). True when the person bought Pro there.
    static func dumpRefused(_ life: inout PersonLife<Self>, at now: Instant) -> Bool {
        life.summary.tally.counts[.dumpLimitHits] += 1
        if life.state.dumpLimitKnownDay != life.dayIndex {
            life.state.dumpLimitKnownDay = life.dayIndex
            life.engagement.record(.frustration(life.world.constants.limitHitFrustration))
        }
        settlePaywall(&life, at: now)
        return life.engine.isPro
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
    /// within `capture.dump_memory_hours` (at most 6). Speech at `capture.words_per_second`, stretched by a log-normal
    /// factor (`capture.ramble_*`: hesitations and asides), plus 3 s; online with `capture.online_share`; the AI split
    /// fails with `capture.split_failure`. With `capture.empty_dump` the first recording is empty (seed 001 §4
    /// Feature 1 "Empty recording → ignore") and the person taps again at once. A dump the 55 s cap cut short (§4
    /// Feature 1 "auto-stop, process what we have, and allow a second dump immediately") is followed at once by a
    /// second one of the thoughts cut, said without the asides (assumption: the person still talking goes on).
    /// Returns the capture decision's outcome: `speak` when `t` is held by Nudge.
    static func brainDump(_ t: ThingToDo, _ life: inout PersonLife<Self>, at now: Instant) -> DecisionOutcome {
        let m = life.world.constants.taskTool
        var thoughts = [thought(t)]
        let since = now - .milliseconds(Int64(m.dumpMemoryHours * 3_600_000))
        let tasks = life.mind(TaskProcess.self)
        for r in tasks.records.reversed() where r.task.ref != t.ref {
            guard r.task.arisenAt >= since, thoughts.count < 6 else { break }
            if !r.captured, r.unaidedDoneAt != nil, !tasks.isDone(r.task.ref, at: now) { thoughts.append(thought(r.task)) }
        }
        let words = thoughts.reduce(0) { $0 + $1.words }
        let ramble = life.features.lognormal(mu: log(m.rambleMedian), sigma: m.rambleSigma)
        let seconds = 3 + Int((Double(words) / m.wordsPerSecond * ramble).rounded())
        let online = life.features.uniform() < m.onlineShare
        let fails = life.features.uniform() < m.splitFailure
        let empty = life.features.uniform() < m.emptyDump
        openForCapture(&life, at: now)
        let queuedBefore = life.engine.queuedTranscripts.count
        life.state.thoughtsCut = 0
        if empty, life.engine.micPermission == .granted,
           life.send(.brainDump(thoughts: [], seconds: 2, online: online, splitFails: false), at: now) == .dumpLimitHit,
           !dumpRefused(&life, at: now) {
            return refusedAtTheMic(t, &life, at: now)
        }
        let d = life.send(.brainDump(thoughts: thoughts, seconds: seconds, online: online, splitFails: fails), at: now)
        // Allowed, the engine records the dump that was waiting for the microphone (nothing is said twice).
        if d == .needsPermission(.microphone), !answerPermission(&life, at: now) { return typeIt(t, &life, at: now) ? .type : .notCaptured }
        if d == .dumpLimitHit {
            guard dumpRefused(&life, at: now) else { return refusedAtTheMic(t, &life, at: now) }
            life.send(.brainDump(thoughts: thoughts, seconds: seconds, online: online, splitFails: fails), at: now)
        }
        let cut = life.state.thoughtsCut
        life.state.thoughtsCut = 0
        if cut > 0 {
            let rest = Array(thoughts.suffix(cut))
            let restSeconds = 3 + Int((Double(rest.reduce(0) { $0 + $1.words }) / m.wordsPerSecond).rounded())
            if life.send(.brainDump(thoughts: rest, seconds: restSeconds, online: online, splitFails: fails), at: now) == .dumpLimitHit,
               dumpRefused(&life, at: now) {
                life.send(.brainDump(thoughts: rest, seconds: restSeconds, online: online, splitFails: fails), at: now)
            }
        }
        if life.engine.queuedTranscripts.count > queuedBefore { life.schedule(.backOnline, at: now + .minutes(30)) }
        for th in thoughts where holds(th.ref, life.engine) { life.steer(TaskProcess.self) { $0.capture(th.ref) } }
        offerLiveActivity(&life, at: now)
        return holds(t.ref, life.engine) ? .speak : .notCaptured
    }

    /// Refused at the mic (the Free limit, after `dumpRefused`): type the one thing that prompted the dump, or let it
    /// go (assumption: as likely as the capture itself was, read again).
    static func refusedAtTheMic(_ t: ThingToDo, _ life: inout PersonLife<Self>, at now: Instant) -> DecisionOutcome {
        let m = life.world.constants.taskTool
        let p = m.captureProbability(valueFelt: life.engagement.perceivedValue, appOpenHabit: life.engagement.appOpenHabit, urgency: t.urgency)
        return life.features.uniform() < p && typeIt(t, &life, at: now) ? .type : .notCaptured
    }

    /// Nudge holds a thing: on a card (a raw card's other things included) or in a transcript waiting to be split.
    static func holds(_ ref: UInt64, _ engine: NudgeEngine) -> Bool {
        engine.item(ref: ref) != nil || engine.queuedTranscripts.contains { q in q.thoughts.contains { $0.ref == ref } }
    }

    /// A typed card (inventory C11: unlimited, no AI).
    static func typeIt(_ t: ThingToDo, _ life: inout PersonLife<Self>, at now: Instant) -> Bool {
        if !life.engine.appOpen { openForCapture(&life, at: now) }
        guard case .itemAdded = life.send(.addManual(thought(t)), at: now) else { return false }
        life.steer(TaskProcess.self) { $0.capture(t.ref) }
        return true
    }

    /// Share → Nudge → a preset by the thing's deadline (seed 001 §5 Screen 6, the same clock-time presets as Screen
    /// 5: `preset(for:engine:at:)`). The share sheet is not an app open (inventory: share-only days are not active
    /// days). A Free person over the cap is refused and meets the paywall at the next open.
    static func share(_ t: ThingToDo, _ life: inout PersonLife<Self>, at now: Instant) -> Bool {
        switch life.send(.share(thought(t), preset: preset(for: t, engine: life.engine, at: now)), at: now) {
        case .shareSaved:
            life.summary.tally.counts[.shares] += 1
            life.steer(TaskProcess.self) { $0.capture(t.ref) }
            return true
        case .shareLimitHit:
            life.summary.tally.counts[.shareLimitHits] += 1
            life.engagement.record(.frustration(life.world.constants.limitHitFrustration))
            return false
        default:
            return false
        }
    }

    /// The one-time Live Activity prompt after the first dump (seed 001 §4 Feature 4b): enable or dismiss.
    static func offerLiveActivity(_ life: inout PersonLife<Self>, at now: Instant) {
        guard life.state.liveActivityPromptPending else { return }
        life.state.liveActivityPromptPending = false
        let enable = life.features.uniform() < life.world.constants.taskTool.liveActivityOptIn
        life.decideAtMoment(.featurePrompt, moment: 0, enable ? .enable : .dismiss, at: now)
        life.summary.tally.counts[enable ? .liveActivityEnabled : .liveActivityDismissed] += 1
        life.send(.liveActivityPrompt(enable: enable), at: now)
    }

    /// The OS prompt the engine is waiting on, answered (`capture.allow_*`): true when allowed. Once per kind.
    @discardableResult
    static func answerPermission(_ life: inout PersonLife<Self>, at now: Instant) -> Bool {
        answerPermissionDeciding(&life, at: now)?.allowed ?? false
    }

    /// The same, with the engine's decision on the answer (a contact picker shown, an action opened without one);
    /// nil when no prompt was waiting.
    static func answerPermissionDeciding(_ life: inout PersonLife<Self>, at now: Instant) -> (allowed: Bool, decision: NudgeDecision)? {
        guard let kind = life.engine.pendingPermission else { return nil }
        let m = life.world.constants.taskTool
        let p: Double = switch kind {
        case .microphone: m.allowMicrophone
        case .notifications: m.allowNotifications
        case .contacts: m.allowContacts
        }
        let allow = life.features.uniform() < p
        let moment: Int64 = switch kind { case .microphone: 0; case .notifications: 1; case .contacts: 2 }
        life.decideAtMoment(.permissionAnswer, moment: moment, allow ? .allow : .deny, at: now)
        return (allow, life.send(.permission(kind, granted: allow), at: now))
    }
}
