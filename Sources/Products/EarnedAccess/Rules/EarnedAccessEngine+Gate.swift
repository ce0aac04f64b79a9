import RulesCore

/// One option of the Unlock Gate: what it is, what it grants, what it costs, and why it is disabled (nil: enabled).
/// Seed 003 §3 C) "available options (enabled/disabled with reasons)"; UX principle 3 "Always show the cost
/// (credits, cooldown, daily limits) before committing".
public struct GateOption: Hashable, Sendable {
    public var choice: GateChoice
    /// Minutes of unlock it grants.
    public var minutes: Int
    /// Credits it costs (0 for quests and the emergency unlock).
    public var cost: Int
    /// Seconds of effort or waiting before the grant (0 for credits).
    public var delaySeconds: Int
    /// Why the option is disabled; nil when it can be chosen. `.paywall` means choosing it shows the paywall.
    public var disabledReason: EarnedAccessDecision?
    public var isEnabled: Bool { disabledReason == nil }
}

/// What the Unlock Gate offers for an app right now (the gate's offer → choose → apply, mirroring Scroll Off's
/// `ShieldOffer`): the person chooses among exactly these with `EarnedAccessInput.unlock(app, choice)`.
public struct GateOffer: Hashable, Sendable {
    public var app: AppID
    /// Seed 003 §3 C) "Shows: balance, streak, reason blocked".
    public var balance: Int
    public var streak: Int
    /// The mode that blocks the app (nil: a focus session, or nothing blocks it now).
    public var mode: ModeID?
    public var strictness: Strictness
    /// Options in the gate's order: credits 5/15/30, breathing, copy-text, emergency.
    public var options: [GateOption]
    /// UX principle 3 "Always show the cost (credits, cooldown, daily limits)": when Strict's cooldown ends (nil: none
    /// running), and what is left of the day_id's quest and emergency limits.
    public var cooldownEndsAt: Instant?
    public var questsLeftToday: Int
    public var emergenciesLeftToday: Int
    /// The options that can be chosen now.
    public var enabled: [GateOption] { options.filter(\.isEnabled) }
    /// The option for a choice, if shown.
    public func option(_ c: GateChoice) -> GateOption? { options.first { $0.choice == c } }
}

extension EarnedAccessEngine {
    /// The gate for the app it is open for (nil when no gate is open).
    public func gateOffer(at now: Instant) -> GateOffer? {
        gateApp.map { gateOffer(for: $0, at: now) }
    }

    /// The gate's options for an app at `now`.
    public func gateOffer(for app: AppID, at now: Instant) -> GateOffer {
        let source = shieldingSource(at: now)
        var options: [GateOption] = []
        for m in EarnedAccessParameters.creditDurations where !hiddenAfterDowngrade(minutes: m) {
            let c = GateChoice.credits(minutes: m)
            options.append(GateOption(choice: c, minutes: m, cost: creditCost(minutes: m), delaySeconds: 0,
                                      disabledReason: refusal(app, c, now)))
        }
        options.append(GateOption(choice: .breathingQuest, minutes: parameters.questUnlockMinutes, cost: 0,
                                  delaySeconds: Int(parameters.breathingLength.wholeSeconds), disabledReason: refusal(app, .breathingQuest, now)))
        if parameters.copyTextEnabled {
            options.append(GateOption(choice: .copyTextQuest, minutes: parameters.questUnlockMinutes, cost: 0,
                                      delaySeconds: Int(parameters.copyTextLength.wholeSeconds), disabledReason: refusal(app, .copyTextQuest, now)))
        }
        options.append(GateOption(choice: .emergency, minutes: parameters.emergencyUnlockMinutes, cost: 0,
                                  delaySeconds: Int(parameters.emergencyWait.wholeSeconds), disabledReason: refusal(app, .emergency, now)))
        // Strict's cooldown, and on Pro the mode's own (UX principle 3 "Always show the cost (… cooldown …)").
        let strictEnd = source?.strictness == .strict ? lastGrantEnd + parameters.strictCooldown : .distantPast
        let modeMinutes = tier == .pro ? source?.mode.flatMap { id in modes.first { $0.id == id }?.spec.cooldownMinutes } : nil
        let cooldownEnd = max(strictEnd, modeMinutes.map { lastGrantEnd + .minutes(Int64($0)) } ?? .distantPast)
        return GateOffer(app: app, balance: balance, streak: streak, mode: source?.mode, strictness: source?.strictness ?? .standard,
                         options: options, cooldownEndsAt: now < cooldownEnd ? cooldownEnd : nil,
                         questsLeftToday: max(0, parameters.questMaxPerDay - questUnlocksToday),
                         emergenciesLeftToday: max(0, parameters.emergencyPerDay - emergenciesToday))
    }

    /// Seed 003 §5 Trial downgrade behavior: "Unlock durations: hide 15/30 in UI; keep only 5" — after a downgrade
    /// the longer credit unlocks are not shown at all (not behind the paywall) until the person is Pro again (audit
    /// 2026-11-25 E12).
    func hiddenAfterDowngrade(minutes m: Int) -> Bool {
        tier == .free && downgradedAt != nil && m > parameters.freeMaxUnlockMinutes
    }

    /// Why a gate choice cannot be applied now (nil: it can). The single rule of the gate, used by the offer and by
    /// `unlock` alike.
    ///
    /// - Seed 003 §3 C) "Credits unlock (durations: 5/15/30; plan-gated)"; §5 Free "5 min only", trigger "Choosing
    ///   15/30-minute unlocks" (→ paywall); §5 downgrade "hide 15/30 in UI; keep only 5".
    /// - Seed 003 §6 Unlock methods: "QUEST: breathing quest grants unlock"; copy-text is Pro (§5 "Quest variants").
    /// - Seed 003 §6 Unlock methods: "EMERGENCY: 1/day global, 5 min unlock after 60s delay" — any balance, any
    ///   strictness (inventory row 42).
    /// - Strictness (inventory row 33, assumption): Strict has no quests and a cooldown; Hard only the emergency.
    /// - No stacking (inventory row 43); one quest or wait at a time; only an app shielded now can be unlocked.
    public func refusal(_ app: AppID, _ c: GateChoice, _ now: Instant) -> EarnedAccessDecision? {
        if case .credits(let m) = c, !EarnedAccessParameters.creditDurations.contains(m) || hiddenAfterDowngrade(minutes: m) { return .invalidChoice }
        if c == .copyTextQuest && !parameters.copyTextEnabled { return .methodDisabled }
        guard authorization == .granted else { return .authorizationRequired }
        guard let source = shieldingSource(at: now), isEnforced(app) else { return .appNotShielded }
        if grant(for: app, at: now) != nil { return .alreadyGranted }
        if pending != nil { return .busy }
        if c.method != .emergency, let r = modeControlsRefusal(source.mode, now) { return r }
        switch c {
        case .credits(let m):
            if tier == .free && m > parameters.freeMaxUnlockMinutes { return .paywall }
            if source.strictness == .hard { return .strictnessForbids }
            if source.strictness == .strict && now < lastGrantEnd + parameters.strictCooldown { return .cooldownActive }
            if balance < creditCost(minutes: m) { return .insufficientCredits }
        case .breathingQuest, .copyTextQuest:
            if c == .copyTextQuest && tier == .free { return parameters.copyTextPaywall ? .paywall : .proOnly }
            if source.strictness != .standard { return .strictnessForbids }
            if questUnlocksToday >= parameters.questMaxPerDay { return .questLimitReached }
        case .emergency:
            if emergenciesToday >= parameters.emergencyPerDay { return .emergencyUsed }
        }
        return nil
    }

    /// Applies a gate choice: credits grant at once; a quest or the emergency wait starts and grants when its time is
    /// over (`questEnd`, `emergencyWaitEnd`). A Pro-only choice on Free shows the paywall and spends nothing.
    mutating func unlock(_ app: AppID, _ c: GateChoice, _ now: Instant, _ out: inout EarnedAccessOutcome) {
        if let r = refusal(app, c, now) {
            if r == .paywall {
                showPaywall(c == .copyTextQuest ? .copyText : .longUnlock, &out)
            } else {
                out.events.append(.unlockDenied(app, reason: r))
                out.decision = r
            }
            return
        }
        gateApp = app
        out.events.append(.unlockAttemptCreated(app, c.method))
        switch c {
        case .credits(let m):
            let cost = creditCost(minutes: m)
            balance -= cost
            out.events.append(.creditsSpent(amount: cost))
            makeGrant(app, .credits, minutes: m, cost: cost, now, &out)
        case .breathingQuest, .copyTextQuest:
            let len = c == .breathingQuest ? parameters.breathingLength : parameters.copyTextLength
            pending = PendingUnlock(app: app, choice: c, startedAt: now, dueAt: now + len)
            out.events.append(.questStarted(c == .breathingQuest ? .breathing : .copyText))
            out.timers.append(EarnedAccessTimer(.questEnd, at: now + len))
            out.decision = .questStarted
        case .emergency:
            pending = PendingUnlock(app: app, choice: c, startedAt: now, dueAt: now + parameters.emergencyWait)
            out.events.append(.emergencyWaitStarted(app))
            if parameters.emergencyWait > .zero {
                out.timers.append(EarnedAccessTimer(.emergencyWaitEnd, at: now + parameters.emergencyWait))
                out.decision = .emergencyWaitStarted
            } else {
                pendingDue(now, &out)
            }
        }
    }

    /// Seed 003 §3 D) "App calls iOS native module to temporarily unshield the target app … until the unlock ends";
    /// §11 `temporarilyUnshield(appId, durationSeconds)`.
    mutating func makeGrant(_ app: AppID, _ m: UnlockMethod, minutes: Int, cost: Int, _ now: Instant, _ out: inout EarnedAccessOutcome) {
        let g = AccessGrant(app: app, method: m, minutes: minutes, start: now, end: now + .minutes(Int64(minutes)), tierAtGrant: tier)
        grants.append(g)
        lastGrantEnd = max(lastGrantEnd, g.end)
        if m != .emergency { countModeUnlock(now) }
        out.events.append(.unlockGranted(app, m, minutes: minutes, cost: cost))
        out.effects.append(.shieldLifted(app))
        out.timers.append(EarnedAccessTimer(.unlockEnd(app), at: g.end))
        out.decision = .granted
    }

    /// A quest's minimum time or the emergency wait is over: grant the unlock. The emergency is used up only now
    /// (inventory row 42: leaving the wait earlier does not use it). Limits are checked again (a day boundary may have
    /// passed; the counters only reset).
    mutating func pendingDue(_ now: Instant, _ out: inout EarnedAccessOutcome) {
        guard let p = pending, p.dueAt <= now else { return }
        pending = nil
        let seconds = Int((now - p.startedAt).wholeSeconds)
        out.effects.append(.foreground(seconds: seconds))
        let alreadyGranted = grant(for: p.app, at: now) != nil
        switch p.choice {
        case .emergency:
            guard emergenciesToday < parameters.emergencyPerDay, !alreadyGranted else { out.decision = .emergencyUsed; return }
            emergenciesToday += 1
            makeGrant(p.app, .emergency, minutes: parameters.emergencyUnlockMinutes, cost: 0, now, &out)
        case .breathingQuest, .copyTextQuest:
            let kind: QuestKind = p.choice == .breathingQuest ? .breathing : .copyText
            out.events.append(.questCompleted(kind))
            guard questUnlocksToday < parameters.questMaxPerDay, !alreadyGranted else { out.decision = .questLimitReached; return }
            questUnlocksToday += 1
            makeGrant(p.app, .quest, minutes: parameters.questUnlockMinutes, cost: 0, now, &out)
        case .credits:
            break
        }
    }

    /// The person abandons the quest (`quest: true`) or leaves the emergency wait.
    mutating func abandonPending(quest: Bool, _ now: Instant, _ out: inout EarnedAccessOutcome) {
        guard let p = pending, (p.choice == .emergency) != quest else {
            out.decision = quest ? .noQuestInProgress : .noWaitInProgress
            return
        }
        pending = nil
        out.effects.append(.foreground(seconds: Int((now - p.startedAt).wholeSeconds)))
        switch p.choice {
        case .emergency:
            out.events.append(.emergencyWaitAbandoned(p.app))
            out.decision = .emergencyWaitAbandoned
        default:
            out.events.append(.questAbandoned(p.choice == .breathingQuest ? .breathing : .copyText))
            out.decision = .questAbandoned
        }
    }

    /// The person leaves the gate: whatever is in progress is abandoned (the emergency is not used up).
    mutating func leaveGate(_ now: Instant, _ out: inout EarnedAccessOutcome) {
        if let p = pending { abandonPending(quest: p.choice != .emergency, now, &out) } else { out.decision = .ok }
        gateApp = nil
    }
}
