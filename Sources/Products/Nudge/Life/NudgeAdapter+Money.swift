import Simulation
import Behavior
import NudgeRules
import RulesCore

extension NudgeAdapter {
    // MARK: - Onboarding (seed 001 §5 Screen 7)

    /// "Maximum 3 screens, skippable … 'Get started' … No sign-up. No permissions asked yet": the person reads the
    /// three panels or skips them (one decision: complete = all three read, drop-out = skipped; either way they land
    /// in the One-Thing view — `onboarding.completion.informational` per panel, assumption).
    public static func onboard(_ life: inout PersonLife<Self>, at now: Instant) {
        life.send(.appOpened(via: .icon), at: now)
        life.engagement.record(.appOpened)
        var panels = 0
        for _ in 0..<3 {
            guard life.world.onboarding.completesStep(.informational, techComfort: life.person.techComfort, rng: life.onboarding) else { break }
            panels += 1
        }
        _ = life.onboardingStep(0, completes: panels == 3, at: now)
        life.send(.onboarding(panelsViewed: panels, skipped: panels < 3), at: now + .seconds(Int64(5 + 5 * panels)))
        life.send(.appClosed, at: now + .seconds(Int64(10 + 5 * panels)))
    }

    // MARK: - Money (seed 001 §7)

    /// The person weighs the paywall the engine last showed, at most once a local day (as for every product):
    /// monthly $9.99 or annual $59.99 (no trial: seed 001 §7 names none), or not now.
    static func settlePaywall(_ life: inout PersonLife<Self>, at now: Instant) {
        guard let shown = life.state.pendingPaywall else { return }
        life.state.pendingPaywall = nil
        guard life.engine.paywallShowing != nil else { return }
        guard shown.at == now, life.meetPaywall(hardWall: false) else {
            life.send(.paywallResponse(nil), at: now)
            return
        }
        life.paywallWeighed()
        let offers = NudgePlan.allCases.map { plan in
            let price = life.engine.listPrice(of: plan)
            return PlanOffer(id: plan == .monthly ? 0 : 1, tierRank: 1, periodMonths: plan.periodMonths, priceUSD: price.price.usd, trialDays: 0)
        }
        let reason: PaywallReason = shown.trigger == .settings || shown.trigger == .draftTeaser ? .placement : .tierLimit
        guard let pick = life.world.purchase.choose(Paywall(reason: reason, offers: offers), willingnessToPay: life.person.willingnessToPayUSDPerMonth,
                                                    valueFelt: life.engagement.perceivedValue, rng: life.purchases) else {
            life.decide(.paywallPurchase, .decline, at: now)
            life.send(.paywallResponse(nil), at: now)
            return
        }
        let plan = NudgePlan.allCases[pick]
        life.decide(.paywallPurchase, plan == .annual ? .buyAnnual : .buyMonthly, at: now)
        if case .purchased = life.send(.paywallResponse(plan), at: now) { bookRenewalDecision(&life) }
    }

    /// The money of `ai-cost.csv`, from the ledger alone (issue 42: the engine's events carry the same dollars, but
    /// the ledger is the one source): an AI request's service cost under the plan the person is on, a Pro charge
    /// (purchase or renewal) as Pro revenue — both in the month of the local day lived, the month of the DAU-days
    /// they are set against.
    public static func booked(_ entry: LedgerEntry, _ life: inout PersonLife<Self>) {
        switch entry.kind {
        case .serviceCost: life.summary.tally.bookCost(entry.amount, month: life.currentMonth, plan: life.engine.isPro ? 1 : 0)
        case .subscriptionPurchase, .subscriptionRenewal: life.summary.tally.bookRevenue(entry.amount, month: life.currentMonth)
        default: break
        }
    }

    /// Books the keep-or-cancel decision a day before the paid period ends, once per period.
    static func bookRenewalDecision(_ life: inout PersonLife<Self>) {
        guard life.engine.plan != nil, life.engine.autoRenew else { return }
        let end = life.engine.periodEnd
        guard life.offerKeepDecision(.renewalKeep, periodEnd: end) else { return }
        life.schedule(.renewalDecision(periodEnd: end), at: max(end - .days(1), life.installedAt + .seconds(1)))
    }

    /// Before a paid period ends: renew (`PurchaseModel.renewalProbability`) or cancel auto-renewal.
    static func renewalDecision(periodEnd: Instant, _ life: inout PersonLife<Self>, at now: Instant) {
        guard let plan = life.engine.plan, life.engine.autoRenew, life.engine.periodEnd == periodEnd, now < periodEnd else { return }
        let price = life.engine.listPrice(of: plan)
        guard let monthly = price.monthlyUSD else { return }
        let pKeep = life.world.purchase.renewalProbability(plan: plan == .annual ? .annual : .monthly, priceUSDPerMonth: monthly,
                                                           willingnessToPay: life.person.willingnessToPayUSDPerMonth,
                                                           valueFelt: life.valueAtDecision, isFirstRenewal: life.summary.tally.renewals == 0)
        let outcome = life.keepOrCancel(.renewalKeep, probabilityOfKeeping: pKeep, detail: "\(plan)", at: now)
        if !outcome.keeps { life.send(.cancelAutoRenew, at: now) }
    }

    // MARK: - Days and the end of the life

    /// Local midnight: the north star's day (seed 001 §11 "Daily Active Users who complete at least 1 item per day":
    /// a day the app was opened with ≥ 1 item done — a done from a notification button alone is no DAU-day), a refund
    /// asked for, the next renewal decision booked.
    public static func endOfDay(_ life: inout PersonLife<Self>, at now: Instant) {
        if life.state.doneToday > 0, life.summary.tally.isActive(day: life.dayIndex) { life.summary.tally.counts[.northStarDays] += 1 }
        if life.engine.isPro { life.summary.tally.counts[.proDays] += 1 }
        life.state.doneToday = 0
        storeDay(&life, at: now)
    }

    // MARK: - The store's side, which outlives the app (issue 38, audit N9)

    /// The paid period's end is the store's: deleting Nudge does not cancel Pro (App Store), so it renews or lapses
    /// whether the app is installed or not.
    public static func outlivesApp(_ kind: NudgeTimer.Kind) -> Bool { kind == .periodEnd }

    /// The keep-or-cancel decision before a renewal is made in the store's settings, app or no app.
    public static func outlivesApp(_ intent: Intent) -> Bool {
        if case .renewalDecision = intent { return true }
        return false
    }

    /// The store's events: a trial converting, a renewal, a cancellation, a plan that lapsed or was refunded.
    public static func outlivesApp(_ event: NudgeEvent) -> Bool {
        switch event {
        case .subscriptionStarted, .subscriptionRenewed, .subscriptionCancelled, .subscriptionExpired, .subscriptionRefunded: true
        default: false
        }
    }

    /// Local midnight, the store's side (also called from `endOfDay` while installed): a refund asked for, the next
    /// keep-or-cancel decision booked.
    public static func storeDay(_ life: inout PersonLife<Self>, at now: Instant) {
        if life.refundIsDue(), life.engine.plan != nil { life.send(.refund, at: now, phoneInUse: false) }
        bookRenewalDecision(&life)
    }

    /// The things to do of the whole life by day since install (`tasks.csv`), and the retention windows.
    public static func finish(_ life: inout PersonLife<Self>) {
        let observed = max(0, life.summary.observedDays), active = life.summary.activeDays
        life.summary.tally.observedDays = observed
        // D7 and D30 (the app opened on that local day since install; inventory §4: share-only days do not count),
        // over people observed past the day.
        for (day, eligible, kept) in [(7, NudgeCount.d7Eligible, NudgeCount.d7Active), (30, .d30Eligible, .d30Active)] where observed > day {
            life.summary.tally.counts[eligible] = 1
            if active.contains(day) { life.summary.tally.counts[kept] = 1 }
        }
        // Stickiness: in each 30-day window since install in which the person was a monthly active, their active days
        // over the window's days (DAU/MAU as the mean over days of daily ÷ monthly actives).
        for start in stride(from: 0, to: observed, by: 30) {
            let n = active.reduce(0) { $0 + ($1 >= start && $1 < start + 30 ? 1 : 0) }
            guard n > 0 else { continue }
            life.summary.tally.counts[.dauMauActiveDays] += n
            life.summary.tally.counts[.dauMauWindowDays] += min(30, observed - start)
        }
        life.summary.tally.bookTasks(life.mind(TaskProcess.self).records, zone: life.zone, installDay: life.installDay, horizonEnd: life.horizonEnd)
    }
}
