import Simulation
import Behavior
import RulesCore
import ScrollOffRules

extension ScrollOffAdapter {
    /// What the person and the reports take from each analytics event (seed 000 §8.1, §8.3).
    ///
    /// The product is *in use* on a day (retention's `in_use` reading, issue 13 / audit D2) when the
    /// engine says so (`ScrollOffEvent.marksProductInUse`: a shield met, credit spent or earned — earning needs
    /// ScreenTime authorisation and a blocked app, §3.2 — or the app opened): for a blocker the shield, not the
    /// dashboard, is the main surface (§3.1).
    public static func observe(_ event: ScrollOffEvent, _ life: inout PersonLife<Self>, at t: Instant) {
        let sinceInstall = t - life.installedAt
        if event.marksProductInUse { life.recordInUseDay() }
        switch event {
        case .appOpened:
            life.recordActiveDay()
        case .shieldShown(let app, _):
            life.offerShieldDecision(over: app, at: t)
            life.summary.tally.counts[.shields] += 1
            life.state.todayShields += 1
        case .shieldDismissedNoSpend:
            life.summary.tally.counts[.willpowerWins] += 1
        case .ifThenPlanCreated:
            life.summary.tally.counts[.intentions] += 1
        case .milestoneUnlocked(let m, _):
            if m == .streak7 && sinceInstall <= .days(14) { life.summary.tally.counts.flag(.streak7Within14Days) }
            if m == .warrior30 && sinceInstall <= .days(45) { life.summary.tally.counts.flag(.warrior30Within45Days) }
        case .patternInsightShown(let type):
            // §8.3 "≥40% tap on trend card (within first 7 days)": the 7-day trend card only (audit D10).
            if type == .trend7Day, sinceInstall <= .days(7) { life.summary.tally.counts.flag(.insightWithin7Days) }
        case .selfEfficacyMessageShown:
            life.summary.tally.counts.flag(.sawSelfEfficacyMessage)
        case .subscriptionPurchaseCompleted(let plan, _):
            if sinceInstall <= .days(14) { life.summary.tally.counts.flag(.paidWithin14Days) }
            life.summary.tally.latestPlanAnnual = plan.isAnnual
        case .subscriptionRenewed(let plan, _):
            life.summary.tally.latestPlanAnnual = plan.isAnnual
        case .bypassTokenCapHit:
            life.recordConsumableCapHit(at: t)
        case .reliabilityCheckPass(.screenTimeAuthorization):
            life.summary.tally.counts.flag(.reachedA1)
        case .appBlocked:
            life.summary.tally.reachedA2 = true
        case .authorizationRevoked:
            life.summary.tally.revokedAuthorization = true
        case .walletEmpty:
            life.engagement.record(.frustration(life.world.constants.walletEmptyFrustration))
        case .earnAward(let amount, _, _):
            if amount > .zero { life.engagement.record(.value(life.world.constants.earnedCreditValue, .creditEarned)) }
        case .paywallShown(let context, let sku):
            life.engagement.record(.paywallHit)
            life.state.pendingPaywall = (context, sku, t)
            life.offerDecision(.paywallPurchase, moment: t.millisecondsSinceEpoch)
        default:
            break
        }
    }
}
