import Simulation
import Behavior
import EarnedAccessRules
import Reports
import RulesCore

extension EarnedAccessAdapter {
    // MARK: - Plans the person makes

    /// Books `intent` at `t` on the person's queue.
    static func schedule(_ intent: Intent, at t: Instant, _ life: inout PersonLife<Self>) {
        life.schedule(intent, at: t)
    }

    /// The person's earning for a local day (seed 003 §6 "Earned by focus sessions and habits"): focus sessions
    /// (`FocusSessionModel`: how many, when, how long, and whether they see each through — a session left early
    /// ends at a uniform point of it) and each habit checked off in the evening, 20:00–23:00 (assumption), so
    /// before the 04:00 boundary of the same `day_id`. Nothing is planned without authorization or when dormant.
    static func planDay(_ life: inout PersonLife<Self>, day: LocalDate, after t: Instant) {
        guard !life.dormant, life.engine.authorization == .granted else { return }
        let focus = life.world.constants.focus, value = life.engagement.perceivedValue
        var starts: [Instant] = []
        for _ in 0..<focus.sessionsToday(valueFelt: value, rng: life.features) {
            let start = life.zone.instant(on: day, at: LocalTimeOfDay(secondsSinceMidnight: Int32(focus.startSecondsOfDay(rng: life.features))))
            let minutes = focus.plannedMinutes(rng: life.features)
            let completes = focus.completes(minutes: minutes, selfEfficacy: life.person.selfEfficacy.value, rng: life.features)
            let quits = completes ? nil : max(1, Int(Double(minutes) * life.features.uniform()))
            guard start > t, !starts.contains(where: { abs(($0 - start).seconds) < 5_400 }) else { continue }
            starts.append(start)
            schedule(.startFocus(minutes: minutes, quitsAfter: quits), at: start, &life)
        }
        for id in life.state.habits where life.world.constants.habits.checksOff(valueFelt: value, rng: life.features) {
            let evening = life.zone.instant(on: day, at: LocalTimeOfDay(secondsSinceMidnight: Int32(72_000 + life.features.uniformInt(below: 10_800))))
            if evening > t { schedule(.checkOffHabit(id), at: evening, &life) }
        }
    }

    /// An intent come due: the person carries it out, then weighs a paywall it brought up.
    public static func carryOut(_ intent: Intent, _ life: inout PersonLife<Self>, at now: Instant) {
        perform(intent, &life, at: now)
        settlePaywall(&life, at: now)
    }

    static func perform(_ intent: Intent, _ life: inout PersonLife<Self>, at now: Instant) {
        switch intent {
        case .startFocus(let minutes, let quits):
            guard !life.dormant, life.send(.startFocus(minutes: minutes), at: now) == .focusStarted else { return }
            // Starting a focus session is the person's own use of the product (its integration grows).
            life.recordPersonalUseDay()
            if let quits { schedule(.cancelFocus, at: now + .minutes(Int64(quits)), &life) }
        case .cancelFocus:
            if life.engine.focus != nil { life.send(.cancelFocus, at: now) }
        case .checkOffHabit(let id):
            if !life.dormant { life.send(.completeHabit(id), at: now) }
        case .abandonQuest:
            if life.engine.pending != nil, life.send(.abandonQuest, at: now) == .questAbandoned { leaveGate(&life, at: now) }
        case .abandonEmergencyWait:
            if life.engine.pending != nil, life.send(.cancelEmergency, at: now) == .emergencyWaitAbandoned { leaveGate(&life, at: now) }
        case .retry(let app, let urge, let intended):
            guard life.state.waitingUnlock == nil, life.foregroundApp == nil, life.state.apps.contains(app) else { return }
            openApp(app, urge: urge, intended: intended, &life, at: now)
        case .addSleepMode:
            addSleepMode(&life, at: now)
        case .renewalDecision(let periodEnd):
            renewalDecision(periodEnd: periodEnd, &life, at: now)
        }
    }

    /// The person left the gate part-way: the app stays shielded (a willpower win of sorts; not counted as one).
    static func leaveGate(_ life: inout PersonLife<Self>, at now: Instant) {
        life.state.waitingUnlock = nil
        life.endBusy()
        if life.engine.gateApp != nil { life.send(.leaveGate, at: now) }
    }

    // MARK: - Money (seed 003 §5)

    /// The person weighs the paywall the engine last showed, in the moment it is shown, at most once a local day
    /// (as for every product): monthly, annual (with the 7-day trial where the engine offers it and the person has
    /// not used one), lifetime where enabled (weighed as 36 months, assumption), or not now. The hard paywall
    /// (`paywall.mode` hard) met in Home at the end of onboarding is always weighed (the decision the wall asks for,
    /// even after a paywall moment weighed during onboarding); every later opening of the locked app shows it again, a
    /// new opportunity weighed on the first opening of a local day. Both are placements (no action attempted).
    static func settlePaywall(_ life: inout PersonLife<Self>, at now: Instant) {
        guard let shown = life.state.pendingPaywall else { return }
        life.state.pendingPaywall = nil
        let weighable = life.meetPaywall(hardWall: shown.trigger == .hardPaywall)
        guard shown.at == now, life.engine.paywallShowing != nil, weighable else {
            if life.engine.paywallShowing != nil { declinePaywall(&life, at: now) }
            return
        }
        life.paywallWeighed()
        let p = life.world.parameters
        var offers: [PlanOffer] = []
        var plans: [ProPlan] = []
        for plan in ProPlan.allCases where plan != .lifetime || p.lifetimeEnabled {
            let trial = !life.engine.trialUsed && p.trialPlans.offers(plan) && p.trialDays > 0 ? p.trialDays : 0
            let price = life.engine.listPrice(of: plan)
            offers.append(PlanOffer(id: Int(plan.rawValue), tierRank: 1, periodMonths: price.periodMonths ?? 36, priceUSD: price.price.usd, trialDays: trial))
            plans.append(plan)
        }
        let reason: PaywallReason = shown.trigger == .placement || shown.trigger == .hardPaywall ? .placement : .tierLimit
        let paywall = Paywall(reason: reason, offers: offers)
        guard let pick = life.world.purchase.choose(paywall, willingnessToPay: life.person.willingnessToPayUSDPerMonth,
                                                    valueFelt: life.engagement.perceivedValue, rng: life.purchases) else {
            life.decide(.paywallPurchase, .decline, at: now)
            declinePaywall(&life, at: now)
            return
        }
        let plan = plans[pick], trial = offers[pick].trialDays > 0
        life.decide(.paywallPurchase, trial ? .startTrial : plan == .lifetime ? .buyLifetime : plan == .annual ? .buyAnnual : .buyMonthly, at: now)
        let d = life.send(.paywallResponse(trial ? .startTrial(plan) : .buy(plan)), at: now)
        guard d == .trialStarted || d == .subscribed else { return }
        bookRenewalDecision(&life)
        for app in life.state.wantedApps where life.send(.addApp(app), at: now) == .appAdded { life.state.apps.append(app) }
        life.state.wantedApps.removeAll { life.state.apps.contains($0) }
        if life.state.wantsSleepMode, life.send(.createMode(sleepMode(&life)), at: now) == .modeCreated { life.state.wantsSleepMode = false }
        // The strictness wanted on Free, set now that Pro allows it.
        for m in life.engine.modes where !m.locked && m.spec.strictness != life.state.wantedStrictness {
            life.send(.setStrictness(m.id, life.state.wantedStrictness), at: now)
        }
    }

    /// "Not now": the paywall is dismissed, and the person has learnt what it guards.
    static func declinePaywall(_ life: inout PersonLife<Self>, at now: Instant) {
        life.send(.paywallResponse(.dismiss), at: now)
        life.state.declinedPaywall = true
    }

    /// Books the keep-or-cancel decision a day before the trial or the paid period ends.
    /// Once per period (audit 2026-11-25 E10): the period whose decision is booked is remembered, so the midnight
    /// after the decision does not book — and draw — it again. The period is the decision's opportunity.
    static func bookRenewalDecision(_ life: inout PersonLife<Self>) {
        guard let plan = life.engine.plan, plan != .lifetime, life.engine.autoRenew else { return }
        let end = life.engine.periodEnd
        guard life.offerKeepDecision(life.engine.inTrial ? .trialKeep : .renewalKeep, periodEnd: end) else { return }
        if life.engine.inTrial, cancelsAtTrialStart(plan, &life) {
            // Sophisticated about their own inertia (issue 26): the trial's one keep-or-cancel is taken now; the trial
            // runs to its end unpaid, and a later paywall may sell again.
            life.trace(kind: "renewal-decision", detail: "cancel_at_start \(plan) (trial)", at: life.now)
            life.decide(.trialKeep, .cancelAtStart, at: life.now)
            life.send(.cancelAutoRenew, at: life.now)
            return
        }
        schedule(.renewalDecision(periodEnd: end), at: max(life.engine.periodEnd - .days(1), life.installedAt + .seconds(1)), &life)
    }

    /// Whether a person starting a trial cancels its auto-renewal at once: sophisticated about their inertia (share
    /// `purchase.cancel_at_trial_start`) and not, at the start, meaning to keep (`PurchaseModel.cancelsAtTrialStart`).
    static func cancelsAtTrialStart(_ plan: ProPlan, _ life: inout PersonLife<Self>) -> Bool {
        guard let monthly = life.engine.listPrice(of: plan).monthlyUSD else { return false }
        let pKeep = life.world.purchase.trialConversionProbability(priceUSDPerMonth: monthly, willingnessToPay: life.person.willingnessToPayUSDPerMonth,
                                                                   valueFelt: life.valueAtDecision)
        return life.world.purchase.cancelsAtTrialStart(probabilityOfKeeping: pKeep, rng: life.purchases)
    }

    /// Before the trial ends: convert (`PurchaseModel.trialConversionProbability`) or cancel; before a paid period
    /// ends: renew (`PurchaseModel.renews`) or cancel auto-renew.
    static func renewalDecision(periodEnd: Instant, _ life: inout PersonLife<Self>, at now: Instant) {
        guard let plan = life.engine.plan, life.engine.autoRenew, life.engine.periodEnd == periodEnd, now < periodEnd else { return }
        let price = life.engine.listPrice(of: plan)
        guard let months = price.periodMonths, let monthly = price.monthlyUSD else { return }
        let wtp = life.person.willingnessToPayUSDPerMonth
        // Value weighed now: value felt plus the product's integration into the day (issue 26: a trial builds it).
        let value = life.valueAtDecision
        let inTrial = life.engine.inTrial
        let pKeep = inTrial
            ? life.world.purchase.trialConversionProbability(priceUSDPerMonth: monthly, willingnessToPay: wtp, valueFelt: value)
            : life.world.purchase.renewalProbability(plan: months > 1 ? .annual : .monthly, priceUSDPerMonth: monthly, willingnessToPay: wtp,
                                                     valueFelt: value, isFirstRenewal: life.summary.tally.renewals == 0)
        let outcome = life.keepOrCancel(inTrial ? .trialKeep : .renewalKeep, probabilityOfKeeping: pKeep,
                                        detail: "\(plan)\(inTrial ? " (trial)" : "")", at: now)
        if !outcome.keeps { life.send(.cancelAutoRenew, at: now) }
    }

    // MARK: - The store's side, which outlives the app (issue 38, audit N9)

    /// A trial's or paid period's end is the store's: it charges, renews or lapses whether the app is installed or not.
    public static func outlivesApp(_ kind: EarnedAccessTimer.Kind) -> Bool { kind == .periodEnd }

    /// The keep-or-cancel decision before a trial or period ends is made in the store's settings, app or no app.
    public static func outlivesApp(_ intent: Intent) -> Bool {
        if case .renewalDecision = intent { return true }
        return false
    }

    /// The store's events: a trial converting, a renewal, a cancellation, a plan that lapsed or was refunded.
    public static func outlivesApp(_ event: EarnedAccessEvent) -> Bool {
        switch event {
        case .subscriptionPurchaseCompleted, .subscriptionRenewed, .subscriptionCancelled, .subscriptionExpired, .subscriptionRefunded: true
        default: false
        }
    }

    /// Local midnight, the store's side (also called from `endOfDay` while installed): a refund asked for (never of a
    /// trial), the next keep-or-cancel decision booked.
    public static func storeDay(_ life: inout PersonLife<Self>, at now: Instant) {
        if life.refundIsDue(), life.engine.plan != nil, !life.engine.inTrial { life.send(.refund, at: now, phoneInUse: false) }
        bookRenewalDecision(&life)
    }

    /// Screen Time access revoked (a churn kind): nothing is enforced any more.
    public static func revokeAccess(_ life: inout PersonLife<Self>, at now: Instant) {
        life.send(.authorization(.revoked), at: now, phoneInUse: false)
    }

    /// Earned Access stands in front of the apps the person made distracting.
    public static func restricts(_ app: AppID, _ life: inout PersonLife<Self>) -> Bool { life.state.apps.contains(app) }

    /// Whether the lift is still to be done: Earned Access's lift always completes (it has no edit lock), and ends
    /// the leaving (`liftRestriction`), so while the person is leaving it remains.
    public static func restrictionRemains(_ life: inout PersonLife<Self>) -> Bool { true }

    /// The person leaves by lifting the restriction (the shared `RestrictingAdapter.disableRestriction`): deletes the
    /// modes and removes the apps (Earned Access has no edit lock; assumption), done at once.
    public static func liftRestriction(_ life: inout PersonLife<Self>, at now: Instant) {
        for id in life.engine.modes.map(\.id) { life.send(.deleteMode(id), at: now) }
        for app in life.state.apps { life.send(.removeApp(app), at: now) }
        life.state.apps.removeAll()
        life.blocker?.leavingByUnblocking = false
    }

    // MARK: - Days and the end of the life

    /// Local midnight: tomorrow's earning is planned; a refund asked for; after a downgrade the person picks the 3
    /// apps to keep (their first three, the ones they care most about; assumption) with the configuration step's
    /// completion, else the engine's auto-keep stands (§5 "Prompt user to pick the 3 to keep, or auto-keep the 3
    /// most recently added").
    public static func endOfDay(_ life: inout PersonLife<Self>, at now: Instant) {
        if life.engine.keepAppsPromptPending, !life.dormant, life.state.keepAppsPromptSeen != life.summary.tally.counts[.downgrades] {
            // Once per prompt (the downgrade is the opportunity): pick now, or let the auto-keep stand.
            life.state.keepAppsPromptSeen = life.summary.tally.counts[.downgrades]
            let picks = life.world.onboarding.completesStep(.configuration, techComfort: life.person.techComfort, rng: life.features)
            life.decide(.downgradeChoice, picks ? .pickApps : .autoKeep, at: now)
            if picks { life.send(.keepApps(Array(life.state.apps.prefix(life.world.parameters.freeMaxApps))), at: now) }
        }
        storeDay(&life, at: now)
        planDay(&life, day: life.zone.localDate(now), after: now)
        settlePaywall(&life, at: now)
    }

    /// Nothing needs the whole life: the funnel, both retentions and the unlock days are counted as they happen.
    public static func finish(_ life: inout PersonLife<Self>) {
        life.summary.tally.observedDays = max(0, life.summary.observedDays)
        if life.summary.observedDays > 7 { life.summary.tally.counts.flag(.d7Eligible) }
        // Windowed KPIs count only people observed for their whole window (audit 2026-11-25 E9).
        life.summary.tally.counts.flag(.streak3Within14Days, withinWindowObserved: life.summary.observedDays > 14, eligible: .streak3Eligible)
    }
}
