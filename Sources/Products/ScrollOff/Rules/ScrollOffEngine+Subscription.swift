import RulesCore

/// Plans, upgrades, renewals, cancel, refund and restore (seed 000 §5.1, §9). The store's own rules (charge, renewal,
/// cancel) are `StoreSubscription`'s; `standing` and `mrrAtHorizon` — the plan's tier and its price per month (its MRR
/// contribution: $59.99 a year is $4.999166 a month), renewing or not — are `SubscriptionEngine`'s (no trial here).
extension ScrollOffEngine: SubscriptionEngine {
    // MARK: - Plan and price (what the simulator reads; docs/DESIGN.md, principle 6)

    /// A plan's entry in the price list (seed 000 §5.1 / §11, `prices.*`): the price of one period and its months.
    public func listPrice(of p: Plan) -> PlanPrice { PlanPrice(price: parameters.price(of: p), periodMonths: p.periodMonths) }

    /// The tier in force: `free`, `premium`, `pro` (the descriptor's plan segments).
    public var planSegment: String { tier.description }

    /// Seed 000 §9: "Free → Premium upgrade applies instantly", "Free → Pro upgrade applies instantly",
    /// "Premium → Pro upgrade prorates correctly". Lower tiers and monthly↔annual changes apply at renewal
    /// (App Store behaviour; assumption).
    mutating func buy(_ p: Plan, _ now: Instant, _ out: inout ScrollOffOutcome) {
        let old = tier
        if let current = plan {
            if current == p {
                if !autoRenew || pendingPlan != nil {
                    subscription.autoRenew = true
                    pendingPlan = nil
                    out.decision = .ok
                } else {
                    out.decision = .alreadySubscribed
                }
                return
            }
            guard p.tier > current.tier else {
                pendingPlan = p
                subscription.autoRenew = true
                out.decision = .planChangeScheduled
                return
            }
            // Upgrade: credit the unused part of the current period, start the new plan now.
            let total = (periodEnd - periodStart).milliseconds
            let left = max(0, (periodEnd - now).milliseconds)
            if total > 0 && left > 0 {
                let (hi, lo) = subscription.lastPaid.micros.multipliedFullWidth(by: left)
                let credit = Money(micros: Int64(total.dividingFullWidth((hi, lo)).quotient))
                if credit > .zero {
                    out.ledger.append(LedgerEntry(at: now, amount: .zero - credit, productID: current.sku, kind: .upgradeProration))
                }
            }
            startPeriod(p, now, &out)
            out.decision = .upgraded
        } else {
            startPeriod(p, now, &out)
            out.decision = .subscribed
        }
        tierChanged(from: old, now, &out)
    }

    /// A purchase of `p` now: a paid period, any scheduled change dropped.
    mutating func startPeriod(_ p: Plan, _ now: Instant, _ out: inout ScrollOffOutcome) {
        subscription.purchase(p, price: parameters.price(of: p), months: p.periodMonths, at: now, in: zone, &out.ledger, &out.events)
        pendingPlan = nil
        out.effects.append(.databaseWrite)
        out.timers.append(ScrollOffTimer(.renewal, at: periodEnd))
    }

    /// The period ends: renew (applying a scheduled change) or, if cancelled, return to Free (§5.1: "lapse or
    /// cancel returns to Free at period end").
    mutating func renew(at t: Instant, _ now: Instant, _ out: inout ScrollOffOutcome) {
        guard let current = plan else { return }
        let old = tier
        if autoRenew {
            let next = pendingPlan ?? current
            subscription.renew(next, price: parameters.price(of: next), months: next.periodMonths, at: t, in: zone, &out.ledger, &out.events)
            pendingPlan = nil
            if periodEnd > now { out.timers.append(ScrollOffTimer(.renewal, at: periodEnd)) }
        } else {
            subscription.expire(current, &out.events)
            pendingPlan = nil
        }
        tierChanged(from: old, now, &out)
    }

    mutating func cancel(_ out: inout ScrollOffOutcome) {
        out.decision = subscription.cancelAutoRenew(&out.events) ? .cancelled : .noSubscription
    }

    /// A store refund returns the whole last charge, booked even when nothing was paid (a restored plan), and is
    /// reported as the plan's expiry (`subscription_expired`): the plan lapses at once.
    mutating func refund(_ now: Instant, _ out: inout ScrollOffOutcome) {
        guard let p = plan else { out.decision = .noSubscription; return }
        let old = tier
        out.ledger.append(LedgerEntry(at: now, amount: .zero - subscription.lastPaid, productID: p.sku, kind: .refund))
        subscription.expire(p, &out.events)
        pendingPlan = nil
        tierChanged(from: old, now, &out)
        out.decision = .refunded
    }

    /// Seed 000 §9: "Restore Purchases works after reinstall"; "Subscription entitlements restored correctly".
    mutating func restore(_ e: StoreEntitlement?, _ now: Instant, _ out: inout ScrollOffOutcome) {
        if let e, e.expiresAt > now {
            let old = tier
            subscription.plan = e.plan
            pendingPlan = nil
            subscription.autoRenew = e.autoRenew
            subscription.periodEnd = e.expiresAt
            subscription.periodStart = zone.adding(months: -e.plan.periodMonths, to: e.expiresAt)
            out.events.append(.subscriptionRestored(e.plan))
            out.timers.append(ScrollOffTimer(.renewal, at: periodEnd))
            tierChanged(from: old, now, &out)
            out.decision = .restored
        } else if e == nil, let p = plan {
            out.events.append(.subscriptionRestored(p))
            out.decision = .restored
        } else {
            out.decision = .noSubscription
        }
    }

    /// Consequences of a tier change. Becoming Pro grants this month's included tokens at once (§9 "Pro users start
    /// each month with 3 included tokens"); leaving Pro forfeits unused included tokens and returns per-app wallets
    /// to the global wallet (assumptions). Blocked apps above Free's limit stay blocked; only new blocks are refused.
    /// Under the hard paywall (`paywall.mode` hard) Free locks the app and a plan unlocks it.
    mutating func tierChanged(from old: Tier, _ now: Instant, _ out: inout ScrollOffOutcome) {
        let new = tier
        guard new != old else { return }
        if new == .pro { grantIncludedTokens() }
        if old == .pro {
            includedTokensRemaining = 0
            for i in blocked.indices where blocked[i].wallet.total > .zero {
                let w = blocked[i].wallet.total
                out.credits.append(CreditLedgerEntry(delta: -w, reason: .adjust, app: blocked[i].app))
                out.credits.append(CreditLedgerEntry(delta: w, reason: .adjust))
                blocked[i].wallet.drain(into: &global)
            }
        }
        resumeCappedSlots(now, &out)
        checkForegroundSession(now, &out)
        hardPaywallTierChanged(from: old, now, &out)
    }
}
