import RulesCore

/// Plans, paywall, renewals, cancel and refund. Seed 001 §7 Pricing Model, §9 Week 4 "Paywall screen + Free tier
/// limits enforcement"; inventory R38–R42.
extension NudgeEngine {
    // MARK: - Plan and price (what the simulator reads)

    /// A plan's entry in the price list (seed 001 §7 Pricing Model "$9.99/month or $59.99/year", `prices.*`).
    public func listPrice(of p: NudgePlan) -> PlanPrice { PlanPrice(price: parameters.price(of: p), periodMonths: p.periodMonths) }

    /// `free`, or `pro` with the plan's price per month (nothing during a trial).
    public var standing: PlanStanding {
        guard let plan else { return .unpaid("free") }
        return PlanStanding(segment: "pro", monthlyPrice: inTrial ? .zero : listPrice(of: plan).monthly ?? .zero)
    }

    /// The plan's price per month when a paid period (not a trial) runs past `horizon`, else nil.
    public func mrrAtHorizon(_ horizon: Instant) -> Money? {
        guard let plan, !inTrial, periodEnd > horizon else { return nil }
        return listPrice(of: plan).monthly
    }

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
                autoRenew = true
                out.decision = .updated
            } else {
                out.decision = .refused(.alreadySubscribed)
            }
            return
        }
        paywallShowing = nil
        plan = p
        everPro = true
        autoRenew = true
        if parameters.trialDays > 0 && !trialUsed {
            trialUsed = true
            inTrial = true
            lastPaid = .zero
            periodEnd = now + .days(Int64(parameters.trialDays))
            out.ledger.append(LedgerEntry(at: now, amount: .zero, productID: p.sku, kind: .trialStart))
            out.events.append(.trialStarted(p))
            out.decision = .trialStarted(p)
        } else {
            let price = parameters.price(of: p)
            lastPaid = price
            periodEnd = zone.adding(months: p.periodMonths, to: now)
            out.ledger.append(LedgerEntry(at: now, amount: price, productID: p.sku, kind: .subscriptionPurchase))
            out.events.append(.subscriptionStarted(p, price: price))
            out.decision = .purchased(p)
        }
        out.effects.append(.databaseWrite)
    }

    /// A period ends at `t`: it renews unless auto-renew was cancelled; then Pro ends ("Pro features end at period
    /// end", inventory R42; items are kept).
    mutating func periodEnded(at t: Instant, _ now: Instant, _ out: inout NudgeOutcome) {
        guard let p = plan else { periodEnd = .distantFuture; return }
        guard autoRenew else {
            out.events.append(.subscriptionExpired(p))
            becomeFree()
            return
        }
        let price = parameters.price(of: p)
        lastPaid = price
        if inTrial {
            inTrial = false
            out.ledger.append(LedgerEntry(at: t, amount: price, productID: p.sku, kind: .subscriptionPurchase))
            out.events.append(.subscriptionStarted(p, price: price))
        } else {
            out.ledger.append(LedgerEntry(at: t, amount: price, productID: p.sku, kind: .subscriptionRenewal))
            out.events.append(.subscriptionRenewed(p, price: price))
        }
        periodEnd = zone.adding(months: p.periodMonths, to: t)
    }

    /// Auto-renew turned off in the store: Pro runs to the period's end.
    mutating func cancelAutoRenew(_ out: inout NudgeOutcome) {
        guard let p = plan, autoRenew else { out.decision = .refused(.noSubscription); return }
        autoRenew = false
        out.events.append(.subscriptionCancelled(p))
        out.decision = .cancelled
    }

    /// A store refund of the last charge: Free at once (assumption; the seed is silent, inventory §6 "Also silent").
    mutating func refund(_ now: Instant, _ out: inout NudgeOutcome) {
        guard let p = plan else { out.decision = .refused(.noSubscription); return }
        if lastPaid > .zero { out.ledger.append(LedgerEntry(at: now, amount: .zero - lastPaid, productID: p.sku, kind: .refund)) }
        out.events.append(.subscriptionRefunded(p))
        becomeFree()
        out.decision = .refunded
    }

    mutating func becomeFree() {
        plan = nil
        inTrial = false
        autoRenew = false
        lastPaid = .zero
        periodEnd = .distantFuture
    }
}
