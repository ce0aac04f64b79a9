import RulesCore

extension ScrollOffEngine {
    // MARK: - Plan and price (what the simulator reads; docs/DESIGN.md, principle 6)

    /// A plan's entry in the price list (seed 000 §5.1 / §11, `prices.*`): the price of one period and its months.
    public func listPrice(of p: Plan) -> PlanPrice { PlanPrice(price: parameters.price(of: p), periodMonths: p.periodMonths) }

    /// The tier of the plan held (`free`, `premium`, `pro`: the descriptor's plan segments) and the plan's price per
    /// month (its MRR contribution: $59.99 a year is $4.999166 a month).
    public var standing: PlanStanding {
        guard let plan else { return .unpaid(Tier.free.description) }
        return PlanStanding(segment: plan.tier.description, monthlyPrice: listPrice(of: plan).monthly ?? .zero)
    }

    /// The plan's price per month when its paid period runs past `horizon` (renewing or not), else nil.
    public func mrrAtHorizon(_ horizon: Instant) -> Money? {
        guard let plan, periodEnd > horizon else { return nil }
        return listPrice(of: plan).monthly
    }

    /// Seed 000 §9: "Free → Premium upgrade applies instantly", "Free → Pro upgrade applies instantly",
    /// "Premium → Pro upgrade prorates correctly". Lower tiers and monthly↔annual changes apply at renewal
    /// (App Store behaviour; assumption).
    mutating func buy(_ p: Plan, _ now: Instant, _ out: inout ScrollOffOutcome) {
        let old = tier
        if let current = plan {
            if current == p {
                if !autoRenew || pendingPlan != nil {
                    autoRenew = true
                    pendingPlan = nil
                    out.decision = .ok
                } else {
                    out.decision = .alreadySubscribed
                }
                return
            }
            guard p.tier > current.tier else {
                pendingPlan = p
                autoRenew = true
                out.decision = .planChangeScheduled
                return
            }
            // Upgrade: credit the unused part of the current period, start the new plan now.
            let total = (periodEnd - periodStart).milliseconds
            let left = max(0, (periodEnd - now).milliseconds)
            if total > 0 && left > 0 {
                let (hi, lo) = lastPaid.micros.multipliedFullWidth(by: left)
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

    /// Begins a paid period of `p` at `t` and books its charge (a purchase or a renewal); returns the price.
    mutating func beginPeriod(_ p: Plan, at t: Instant, charged kind: LedgerEntry.Kind, _ out: inout ScrollOffOutcome) -> Money {
        let price = parameters.price(of: p)
        plan = p
        pendingPlan = nil
        periodStart = t
        periodEnd = zone.adding(months: p.periodMonths, to: t)
        lastPaid = price
        out.ledger.append(LedgerEntry(at: t, amount: price, productID: p.sku, kind: kind))
        return price
    }

    mutating func startPeriod(_ p: Plan, _ now: Instant, _ out: inout ScrollOffOutcome) {
        autoRenew = true
        let price = beginPeriod(p, at: now, charged: .subscriptionPurchase, &out)
        out.events.append(.subscriptionPurchaseCompleted(p, price: price))
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
            let price = beginPeriod(next, at: t, charged: .subscriptionRenewal, &out)
            out.events.append(.subscriptionRenewed(next, price: price))
            if periodEnd > now { out.timers.append(ScrollOffTimer(.renewal, at: periodEnd)) }
        } else {
            out.events.append(.subscriptionExpired(current))
            plan = nil
            pendingPlan = nil
            periodEnd = .distantFuture
        }
        tierChanged(from: old, now, &out)
    }

    mutating func cancel(_ out: inout ScrollOffOutcome) {
        guard let p = plan, autoRenew else { out.decision = .noSubscription; return }
        autoRenew = false
        out.events.append(.subscriptionCancelled(p))
        out.decision = .cancelled
    }

    mutating func refund(_ now: Instant, _ out: inout ScrollOffOutcome) {
        guard let p = plan else { out.decision = .noSubscription; return }
        let old = tier
        out.ledger.append(LedgerEntry(at: now, amount: .zero - lastPaid, productID: p.sku, kind: .refund))
        out.events.append(.subscriptionExpired(p))
        plan = nil
        pendingPlan = nil
        autoRenew = false
        periodEnd = .distantFuture
        tierChanged(from: old, now, &out)
        out.decision = .refunded
    }

    /// Seed 000 §9: "Restore Purchases works after reinstall"; "Subscription entitlements restored correctly".
    mutating func restore(_ e: StoreEntitlement?, _ now: Instant, _ out: inout ScrollOffOutcome) {
        if let e, e.expiresAt > now {
            let old = tier
            plan = e.plan
            pendingPlan = nil
            autoRenew = e.autoRenew
            periodEnd = e.expiresAt
            periodStart = zone.adding(months: -e.plan.periodMonths, to: e.expiresAt)
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
