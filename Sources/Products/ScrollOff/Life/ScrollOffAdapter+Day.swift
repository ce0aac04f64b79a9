import Simulation
import Behavior
import Reports
import RulesCore
import ScrollOffRules

extension ScrollOffAdapter {
    // MARK: - Paywalls and renewals (seed 000 §5.1)

    /// The person weighs the paywall the engine last showed, if any (seed 000 §6.1 "Paywall chips (contextual):
    /// Shown when user hits tier limits"). The engine alone decides when a paywall appears (issue 13, audit D1);
    /// every adapter hook that sends inputs ends here. Assumption: a person weighs a purchase at most once a local
    /// day, however many paywalls they meet that day — but for the hard paywall (`paywall.mode` hard) met when
    /// onboarding finishes, always weighed (the decision the wall asks for, even after a chip weighed during
    /// onboarding); every later opening of the locked app shows the wall again, a new opportunity weighed on the
    /// first opening of a local day.
    static func settlePaywall(_ life: inout PersonLife<Self>, at now: Instant) {
        guard let shown = life.state.pendingPaywall else { return }
        life.state.pendingPaywall = nil
        // A chip is weighed in the moment it is shown or not at all (it is contextual to the action attempted).
        guard shown.at == now else { return }
        guard life.meetPaywall(hardWall: shown.context == .hardPaywall) else { return }
        // A subscriber weighs only a higher tier's chip (an upgrade); any other chip is no offer to them.
        if let current = life.engine.plan, !(current.tier == .premium && shown.sku.tier == .pro) { return }
        life.paywallWeighed()
        weighPlans(reason: paywallReason(shown.context), &life, at: now)
    }

    /// Opening Scroll Off, a Free person who values it may look at Settings → Plan & Billing, whose "Upgrade to [next
    /// tier]" CTA shows the plans (seed 000 §5 Settings; audit 2026-11-25 E7: a charter path no one took): with
    /// probability `engagement.plans_view_probability` × 2·value felt, at most once a local day, and not on a day a
    /// chip was already weighed. The plans are weighed as at any paywall (reason `placement`).
    static func maybeViewPlans(_ life: inout PersonLife<Self>, at now: Instant) {
        guard life.engine.plan == nil, !life.weighedPaywallToday, life.state.pendingPaywall == nil else { return }
        let p = life.world.constants.plansViewProbability * 2 * life.engagement.perceivedValue
        guard life.sessions.uniform() < p else { return }
        life.paywallWeighed()
        life.trace(kind: "plans", detail: "Plan & Billing viewed (Upgrade)", at: now)
        life.offerDecision(.paywallPurchase, moment: now.millisecondsSinceEpoch)
        weighPlans(reason: .placement, &life, at: now)
    }

    /// The person weighs the plans on show (a chip's, or Plan & Billing's): buys, upgrades, or declines.
    static func weighPlans(reason: PaywallReason, _ life: inout PersonLife<Self>, at now: Instant) {
        func offer(_ plan: Plan) -> PlanOffer {
            PlanOffer(id: Int(plan.rawValue), tierRank: plan.tier == .pro ? 2 : 1, periodMonths: plan.periodMonths,
                      priceUSD: life.engine.listPrice(of: plan).price.usd)
        }
        let wtp = life.person.willingnessToPayUSDPerMonth, value = life.engagement.perceivedValue
        let chosen: PlanOffer?
        if let current = life.engine.plan {
            // A subscriber at a higher tier's chip: upgrade (Premium → Pro prorates, §9) or keep the plan.
            let paywall = Paywall(reason: reason, offers: [offer(.proMonthly), offer(.proAnnual)])
            chosen = life.world.purchase.chooseUpgrade(paywall, current: offer(current), willingnessToPay: wtp, valueFelt: value,
                                                       rng: life.purchases).map { paywall.offers[$0] }
        } else {
            // Free: the three SKUs of §5.1 / §11, tier × period chosen by the person (audit D7).
            let paywall = Paywall(reason: reason, offers: Plan.allCases.map(offer))
            chosen = life.world.purchase.choose(paywall, willingnessToPay: wtp, valueFelt: value, rng: life.purchases)
                .map { paywall.offers[$0] }
        }
        let plan = chosen.flatMap { Plan(rawValue: UInt8($0.id)) }
        life.decide(.paywallPurchase, plan.map { life.engine.plan != nil ? .upgrade : $0.isAnnual ? .buyAnnual : .buyMonthly } ?? .decline, at: now)
        guard let plan else { return }
        life.send(.upgradeTapped(plan), at: now)
        let d = life.send(.buyPlan(plan), at: now)
        guard d == .subscribed || d == .upgraded else { return }
        bookRenewalDecision(&life)
        // A person may ask the store for a refund within days (D11).
        life.considerRefund(at: now)
        if plan.tier == .pro, life.features.uniform() < life.person.featureUse.perAppBudgetPropensity { life.state.wantsBudgets = true }
    }

    /// Why a chip sells (the behaviour model's reason boost): a limit met in the act, or a feature asked for.
    static func paywallReason(_ context: PaywallContext) -> PaywallReason {
        switch context {
        case .blockedAppLimit, .cooldown, .dailyEarnCap, .freePeekLimit: return .tierLimit
        case .perAppWallets, .dailySpendCap, .curfewReminders, .patternInsights, .trend30Day: return .featureGate
        // The hard paywall (`paywall.mode` hard) is a placement, not tied to an action: after onboarding, at an opening.
        case .hardPaywall: return .placement
        }
    }

    /// Books the keep-or-cancel decision a day before the engine's current period ends. The period is the
    /// engine's (calendar months, §5.1 and `ScrollOffEngine+Subscription`), re-read after every renewal or plan
    /// change at the next local midnight — never a 30-day month (audit D12: around February the old schedule
    /// decided after the charge).
    static func bookRenewalDecision(_ life: inout PersonLife<Self>) {
        guard life.engine.plan != nil, life.engine.autoRenew, life.offerKeepDecision(.renewalKeep, periodEnd: life.engine.periodEnd) else { return }
        life.schedule(.renewalDecision(periodEnd: life.engine.periodEnd), at: life.engine.periodEnd - .days(1))
    }

    /// The adapter's scheduled moments: the end of a mindfulness exercise (the shield encounter resumes), and a
    /// day before renewal, where the person keeps or cancels the plan — each only at its own moment (audit
    /// 2026-11-25 E1: an exercise's end used to draw the renewal decision again). A renewal decision booked for a
    /// period that has since changed — an upgrade, a refund — does nothing.
    public static func carryOut(_ intent: Intent, _ life: inout PersonLife<Self>, at now: Instant) {
        switch intent {
        case .exerciseEnds:
            guard let exercise = life.state.exercise, now >= exercise.endsAt else { return }
            life.state.exercise = nil
            life.endBusy()
            finishExercise(exercise, &life, at: now)
            settlePaywall(&life, at: now)
        case .renewalDecision(let periodEnd):
            decideRenewal(periodEnd: periodEnd, &life, at: now)
        }
    }

    /// Keep or cancel the plan whose period ends at `periodEnd` — only while that is still the engine's period and
    /// the decision booked (one booking per period, so one decision).
    static func decideRenewal(periodEnd: Instant, _ life: inout PersonLife<Self>, at now: Instant) {
        guard let plan = life.engine.plan, life.engine.autoRenew, life.engine.periodEnd == periodEnd, life.keepDecisionIsFor(periodEnd),
              now < periodEnd else { return }
        let monthly = life.engine.listPrice(of: plan).monthlyUSD ?? 0
        let pKeep = life.world.purchase.renewalProbability(plan: plan.isAnnual ? .annual : .monthly, priceUSDPerMonth: monthly,
                                                           willingnessToPay: life.person.willingnessToPayUSDPerMonth, valueFelt: life.valueAtDecision,
                                                           isFirstRenewal: life.engine.periodStart - life.installedAt < .days(40))
        let outcome = life.keepOrCancel(.renewalKeep, probabilityOfKeeping: pKeep, detail: plan.sku, at: now)
        if !outcome.keeps { life.send(.cancelSubscription, at: now) }
    }

    // MARK: - The store's side, which outlives the app (issue 38, audit N9)

    /// A subscription's period end is the store's: it renews or lapses whether the app is installed or not.
    public static func outlivesApp(_ kind: ScrollOffTimer.Kind) -> Bool { kind == .renewal }

    /// The keep-or-cancel decision before a renewal is made in the store's settings, app or no app.
    public static func outlivesApp(_ intent: Intent) -> Bool {
        if case .renewalDecision = intent { return true }
        return false
    }

    /// The store's events: a renewal, a cancellation, a plan that lapsed or was refunded.
    public static func outlivesApp(_ event: ScrollOffEvent) -> Bool {
        switch event {
        case .subscriptionRenewed, .subscriptionCancelled, .subscriptionExpired: true
        default: false
        }
    }

    /// Local midnight after uninstalling: the next keep-or-cancel decision booked, a refund asked for.
    public static func storeDay(_ life: inout PersonLife<Self>, at now: Instant) {
        bookRenewalDecision(&life)
        refundIfDue(&life, at: now)
    }

    /// The refund the person asked the store for, on its day, while a plan is held.
    static func refundIfDue(_ life: inout PersonLife<Self>, at now: Instant) {
        if life.refundIsDue(), life.engine.plan != nil { life.send(.refundSubscription, at: now, phoneInUse: false) }
    }

    /// The person revokes Screen Time access (the engine is told; §8.3 authorization retention).
    public static func revokeAccess(_ life: inout PersonLife<Self>, at now: Instant) {
        life.send(.authorizationRevoked, at: now, phoneInUse: false)
    }

    /// Scroll Off stands in front of the apps the person blocked.
    public static func restricts(_ app: AppID, _ life: inout PersonLife<Self>) -> Bool { life.state.blockedApps.contains(app) }

    /// A blocked app or a schedule is left to lift.
    public static func restrictionRemains(_ life: inout PersonLife<Self>) -> Bool {
        !life.state.blockedApps.isEmpty || !life.engine.curfews.isEmpty
    }

    /// The person leaves by lifting the restriction (audit D11: unblocking as a way to leave, §3.3; the shared
    /// `RestrictingAdapter.disableRestriction`): unblocks their apps and deletes their schedules. What the rules
    /// refuse — an app in its cooldown (with the cooldown chip, §6.1), a schedule in its edit lock (§3.3 "locked 30m
    /// before start and during active window") — is tried again at the person's next urge or local midnight.
    public static func liftRestriction(_ life: inout PersonLife<Self>, at now: Instant) {
        var kept: [AppID] = []
        for app in life.state.blockedApps where life.send(.unblockApp(app), at: now) != .appUnblocked { kept.append(app) }
        life.state.blockedApps = kept
        for id in life.engine.curfews.map(\.id) { life.send(.deleteCurfew(id), at: now) }
        settlePaywall(&life, at: now)
    }

    // MARK: - Days and the end of the life

    /// The day's §8.3 figures: shields on days in use, the app's own time saved, the plan at day 30.
    public static func endOfDay(_ life: inout PersonLife<Self>, at now: Instant) {
        if life.todayInUse {
            life.summary.tally.counts[.shieldsOnActiveDays] += life.state.todayShields
            life.summary.tally.appMinutesSavedPerActiveDay.append(life.engine.timeSavedEstimateToday.minutes)
        }
        life.state.todayShields = 0
        bookRenewalDecision(&life)
        life.liftRestrictionIfLeaving(at: now)
        refundIfDue(&life, at: now)
        if life.state.wantsBudgets, life.engine.tier == .pro { setUpBudgets(&life, at: now) }
        settlePaywall(&life, at: now)
        if life.dayIndex == 30 { life.summary.tally.subscribedAtDay30 = life.engine.plan != nil }
    }

    /// The retention figures of §8.3, which need the whole life: eligibility by days observed and activity.
    public static func finish(_ life: inout PersonLife<Self>) {
        let s = life.summary
        var c = s.tally.counts
        // Ascending day indices, a few dozen at most: in use (the charter KPIs' reading) and app opened.
        let inUse = s.inUseDays, opened = s.activeDays
        func flags(day: Int, _ eligible: ScrollOffCount, _ active: ScrollOffCount, _ appOpened: ScrollOffCount) {
            c.flag(eligible); c.flag(active, inUse.contains(day)); c.flag(appOpened, opened.contains(day))
        }
        if s.observedDays > 1 { flags(day: 1, .d1Eligible, .d1Active, .d1Opened) }
        if s.observedDays > 7, s.tally.reachedA2 { flags(day: 7, .d7ActivesEligible, .d7ActivesActive, .d7ActivesOpened) }
        if s.observedDays > 30, s.tally.subscribedAtDay30 { flags(day: 30, .d30PaidEligible, .d30PaidActive, .d30PaidOpened) }
        // Windowed KPIs count only people observed for their whole window (audit 2026-11-25 E9).
        c.flag(.streak7Within14Days, withinWindowObserved: s.observedDays > 14, eligible: .streak7Eligible)
        c.flag(.warrior30Within45Days, withinWindowObserved: s.observedDays > 45, eligible: .warrior30Eligible)
        c.flag(.insightWithin7Days, withinWindowObserved: s.observedDays > 7, eligible: .insightEligible)
        c.flag(.paidWithin14Days, withinWindowObserved: s.observedDays > 14, eligible: .paid14Eligible)
        if s.everSubscribed && s.tally.latestPlanAnnual { c.flag(.annualSubscribers) }
        if c[.reachedA1] == 1 && s.tally.revokedAuthorization { c.flag(.a1Revoked) }
        life.summary.tally.counts = c
    }
}
