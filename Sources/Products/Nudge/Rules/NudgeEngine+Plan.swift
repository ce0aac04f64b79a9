import RulesCore

/// Plans, paywall, renewals, cancel and refund. Seed 001 §7 Pricing Model, §9 Week 4 "Paywall screen + Free tier
/// limits enforcement"; inventory R38–R42. The store's own rules (trial, charge, renewal, cancel, refund) are
/// `StoreSubscription`'s; `standing` (`free`, or `pro` at the plan's price per month, nothing during a trial) and
/// `mrrAtHorizon` are `SubscriptionEngine`'s.
extension NudgeEngine: SubscriptionEngine {
    // MARK: - Plan and price (what the simulator reads)

    /// A plan's entry in the price list (seed 001 §7 Pricing Model "$9.99/month or $59.99/year", `prices.*`).
    public func listPrice(of p: NudgePlan) -> PlanPrice { PlanPrice(price: parameters.price(of: p), periodMonths: p.periodMonths) }

    /// `free` or `pro` (seed 001 §7).
    public var planSegment: String { isPro ? "pro" : "free" }

    // MARK: - Paywall

    /// Shows the paywall (inventory R40 triggers: the 4th dump of a Free day, a share over the cap — at the next open —,
    /// the locked draft teaser, Settings "Upgrade to Pro").
    mutating func showPaywall(_ t: PaywallTrigger, _ out: inout NudgeOutcome) {
        paywallShowing = t
        out.events.append(.paywallShown(t))
    }

    /// Settings "Upgrade to Pro" (seed 001 §5 Screen 4).
    mutating func upgradeTapped(_ out: inout NudgeOutcome) {
        guard !isPro else { out.decision = .refused(.alreadySubscribed); return }
        showPaywall(.settings, &out)
        out.decision = .paywallShown(.settings)
    }

    /// The paywall's answer: "not now", or a plan bought (a trial first when `trial_days` > 0 and none was used;
    /// inventory R39). Re-buying the plan held with auto-renew off turns it back on.
    mutating func paywallResponse(_ p: NudgePlan?, _ now: Instant, _ out: inout NudgeOutcome) {
        guard let p else {
            if paywallShowing != nil { paywallShowing = nil; out.events.append(.paywallDismissed) }
            out.decision = .declined
            return
        }
        if let current = plan {
            if current == p && !autoRenew {
                subscription.autoRenew = true
                out.decision = .updated
            } else {
                out.decision = .refused(.alreadySubscribed)
            }
            return
        }
        paywallShowing = nil
        everPro = true
        if parameters.trialDays > 0 && !trialUsed {
            subscription.startTrial(p, days: parameters.trialDays, at: now, &out.ledger, &out.events)
            out.decision = .trialStarted(p)
        } else {
            subscription.purchase(p, price: parameters.price(of: p), months: p.periodMonths, at: now, in: zone, &out.ledger, &out.events)
            out.decision = .purchased(p)
        }
        out.effects.append(.databaseWrite)
    }

    /// A period ends at `t`: it renews unless auto-renew was cancelled; then Pro ends ("Pro features end at period
    /// end", inventory R42; items are kept).
    mutating func periodEnded(at t: Instant, _ now: Instant, _ out: inout NudgeOutcome) {
        guard let p = plan else { subscription.periodEnd = .distantFuture; return }
        if autoRenew {
            subscription.renew(p, price: parameters.price(of: p), months: p.periodMonths, at: t, in: zone, &out.ledger, &out.events)
        } else {
            subscription.expire(p, &out.events)
        }
    }

    /// Auto-renew turned off in the store: Pro runs to the period's end.
    mutating func cancelAutoRenew(_ out: inout NudgeOutcome) {
        out.decision = subscription.cancelAutoRenew(&out.events) ? .cancelled : .refused(.noSubscription)
    }

    /// A store refund of the last charge: Free at once (assumption; the seed is silent, inventory §6 "Also silent").
    mutating func refund(_ now: Instant, _ out: inout NudgeOutcome) {
        out.decision = subscription.refund(at: now, &out.ledger, &out.events) ? .refunded : .refused(.noSubscription)
    }
}
