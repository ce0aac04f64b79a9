import Simulation
import Behavior
import EarnedAccessRules
import RulesCore

extension EarnedAccessAdapter {
    /// What the person and the reports take from each analytics event (seed 003 §9 "event log"; names inventory §3).
    ///
    /// Retention's two readings: *app opened* (`app_opened`, CONTRACT's definition: a voluntary open — a forced
    /// detour through the Unlock Gate is not one, issue 39 item 2) and *in use* (`in_use`) — on a day a mode
    /// started or a shield was shown with authorization intact (inventory §4 "enforced retention": a blocker works
    /// without being opened), the person earned or spent credits, or opened the app (a detour included).
    ///
    /// Per-day figures (unlocks, credits, emergencies, enforced days) are bucketed by the seed's `day_id` — the day
    /// that starts at 04:00 local (seed 003 §6 Day boundary) — counted from the install's day_id (audit 2026-11-25
    /// §3: they were bucketed by local midnight).
    public static func observe(_ event: EarnedAccessEvent, _ life: inout PersonLife<Self>, at t: Instant) {
        let day = life.summary.tally.day(max(0, Int(life.engine.dayID - life.state.installDayID)))
        switch event {
        case .appOpened:
            // A detour through the Unlock Gate is use of the product, not a voluntary open (issue 39 item 2).
            if life.state.openingAsDetour { life.recordInUseDay() } else { life.recordActiveDay() }
        case .modeStarted:
            markEnforced(&life, day: day)
        case .shieldShown(let app, _, _):
            life.offerShieldDecision(over: app, at: t)
            life.summary.tally.counts[.shields] += 1
            markEnforced(&life, day: day)
        case .unlockGateOpened:
            life.summary.tally.days[day].gateVisits += 1
            life.offerDecision(.gateOption, moment: t.millisecondsSinceEpoch)
        case .unlockAttemptCreated(_, let method):
            life.summary.tally.days[day].attempts[Int(method.rawValue)] += 1
        case .unlockGranted(_, let method, let minutes, _):
            let m = Int(method.rawValue)
            life.summary.tally.days[day].grants[m] += 1
            life.summary.tally.days[day].minutes[m] += minutes
            if method != .credits { life.summary.tally.days[day].completed[m] += 1 }
            switch method {
            case .credits: life.summary.tally.counts[.grantsCredits] += 1
            case .quest: life.summary.tally.counts[.grantsQuest] += 1
            case .emergency:
                life.summary.tally.counts[.grantsEmergency] += 1
                if life.summary.tally.lastEmergencyDay != day {
                    life.summary.tally.lastEmergencyDay = day
                    life.summary.tally.counts[.emergencyDays] += 1
                }
            }
        case .questAbandoned:
            life.summary.tally.days[day].abandoned[Int(UnlockMethod.quest.rawValue)] += 1
        case .emergencyWaitAbandoned:
            life.summary.tally.days[day].abandoned[Int(UnlockMethod.emergency.rawValue)] += 1
        case .creditsEarned(_, let amount):
            life.summary.tally.days[day].creditsEarned += amount
            life.summary.tally.counts[.creditsEarned] += amount
            if amount > 0 { life.engagement.record(.value(life.world.constants.earnedCreditValue, .creditEarned)) }
            life.recordInUseDay()
        case .creditsSpent(let amount):
            life.summary.tally.days[day].creditsSpent += amount
            life.summary.tally.counts[.creditsSpent] += amount
            life.recordInUseDay()
        case .dayRolledOver(_, _, _, let expired):
            // The credits of the day_id that just ended expire at its 04:00 boundary: counted on that day.
            life.summary.tally.days[max(0, day - 1)].creditsExpired += expired
            life.summary.tally.counts[.creditsExpired] += expired
        case .streakQualified(_, let length):
            life.summary.tally.longestStreak = max(life.summary.tally.longestStreak, length)
            if length >= 3, t - life.installedAt <= .days(14) { life.summary.tally.counts.flag(.streak3Within14Days) }
        case .paywallShown(let trigger):
            life.engagement.record(.paywallHit)
            life.summary.tally.counts.flag(.sawPaywall)
            life.state.pendingPaywall = (trigger, t)
            life.offerDecision(.paywallPurchase, moment: t.millisecondsSinceEpoch)
        case .trialStarted:
            life.summary.tally.counts.flag(.startedTrial)
        case .subscriptionPurchaseCompleted(let plan, _):
            life.summary.tally.counts.flag(.subscriber)
            life.summary.tally.counts.flag(.annualSubscriber, plan == .annual)
            if life.summary.tally.counts[.startedTrial] == 1 { life.summary.tally.counts.flag(.trialThenPaid) }
            // Every first charge — bought outright or a trial converting — may be refunded by the store within days.
            life.considerRefund(at: t)
        case .subscriptionRenewed(let plan, _):
            life.summary.tally.renewals += 1
            life.summary.tally.counts.flag(.annualSubscriber, plan == .annual)
        case .downgradedToFree:
            life.summary.tally.counts[.downgrades] += 1
            // The decision's moment is the "pick the 3 to keep" prompt, shown only when more apps than Free allows remain.
            if life.engine.keepAppsPromptPending { life.offerDecision(.downgradeChoice, moment: t.millisecondsSinceEpoch) }
        default:
            break
        }
    }

    /// A day the product enforced something for the person (authorization intact): the product in use.
    static func markEnforced(_ life: inout PersonLife<Self>, day: Int) {
        guard life.engine.authorization == .granted, life.summary.tally.lastEnforcedDay != day else { return }
        life.summary.tally.lastEnforcedDay = day
        life.summary.tally.counts[.enforcedDays] += 1
        life.recordInUseDay()
        if day == 7 { life.summary.tally.counts.flag(.d7Enforced) }
    }
}
