import Behavior
import Reports
import RulesCore
import ScrollOffRules

extension ScrollOffAdapter {
    // MARK: - Paywalls and renewals (seed 000 §5.1)

    /// A paywall moment (§5.1 chips): the person may subscribe. Assumption: a person weighs a purchase at most
    /// once a local day, however many paywalls they meet that day.
    static func paywall(_ reason: PaywallReason, _ life: inout PersonLife<Self>, at now: Instant) {
        guard life.engine.tier == .free, life.state.lastPaywallDay != life.dayIndex else { return }
        life.state.lastPaywallDay = life.dayIndex
        let prices = life.world.parameters
        let moment = PaywallMoment(reason: reason, monthlyPriceUSD: prices.price(of: .premiumMonthly).usd,
                                   annualPriceUSD: prices.price(of: .proAnnual).usd)
        let decision = life.world.purchase.decide(moment, willingnessToPay: life.person.willingnessToPayUSDPerMonth,
                                                  valueFelt: life.engagement.perceivedValue, rng: life.purchases)
        let plan: Plan
        switch decision {
        case .none: return
        case .monthly: plan = .premiumMonthly
        case .annual: plan = .proAnnual
        }
        life.send(.upgradeTapped(plan), at: now)
        if life.send(.buyPlan(plan), at: now) == .subscribed { bookRenewalDecision(&life) }
    }

    /// Books the keep-or-cancel decision a day before the engine's current period ends. The period is the
    /// engine's (calendar months, §5.1 and `ScrollOffEngine+Subscription`), re-read after every renewal or plan
    /// change at the next local midnight — never a 30-day month (audit D12: around February the old schedule
    /// decided after the charge).
    static func bookRenewalDecision(_ life: inout PersonLife<Self>) {
        guard life.engine.plan != nil, life.engine.autoRenew, life.state.renewalDecisionFor != life.engine.periodEnd else { return }
        life.state.renewalDecisionFor = life.engine.periodEnd
        life.scheduleDecision(at: life.engine.periodEnd - .days(1))
    }

    /// A day before renewal the person keeps or cancels the plan. (A decision booked for a period that has since
    /// changed — an upgrade, a refund — does nothing.)
    public static func scheduledDecision(_ life: inout PersonLife<Self>, at now: Instant) {
        guard let plan = life.engine.plan, life.engine.autoRenew, life.state.renewalDecisionFor == life.engine.periodEnd,
              now < life.engine.periodEnd else { return }
        let monthly = life.world.parameters.price(of: plan).usd / Double(plan.periodMonths)
        let keeps = life.world.purchase.renews(plan: plan.isAnnual ? .annual : .monthly, priceUSDPerMonth: monthly,
                                               willingnessToPay: life.person.willingnessToPayUSDPerMonth,
                                               valueFelt: life.engagement.perceivedValue,
                                               isFirstRenewal: life.engine.periodStart - life.installedAt < .days(40), rng: life.purchases)
        life.trace(kind: "renewal-decision", detail: "\(keeps ? "keep" : "cancel") \(plan.sku)", at: now)
        if !keeps { life.send(.cancelSubscription, at: now) }
    }

    /// The person revokes Screen Time access (the engine is told; §8.3 authorization retention).
    public static func revokeAccess(_ life: inout PersonLife<Self>, at now: Instant) {
        life.send(.authorizationRevoked, at: now, phoneInUse: false)
    }

    // MARK: - Days and the end of the life

    /// The day's §8.3 figures: shields on days in use, the app's own time saved, the plan at day 30.
    public static func endOfDay(_ life: inout PersonLife<Self>, at now: Instant) {
        if life.todayInUse {
            life.summary.tally.counts[.shieldsOnActiveDays] += life.state.todayShields
            life.summary.tally.appMinutesSavedPerActiveDay.append(life.engine.timeSavedToday.minutes)
        }
        life.state.todayShields = 0
        bookRenewalDecision(&life)
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
        if s.everSubscribed && s.tally.latestPlanAnnual { c.flag(.annualSubscribers) }
        if c[.reachedA1] == 1 && s.tally.revokedAuthorization { c.flag(.a1Revoked) }
        life.summary.tally.counts = c
    }
}
