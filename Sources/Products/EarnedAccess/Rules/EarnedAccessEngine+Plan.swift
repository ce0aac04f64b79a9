import RulesCore

/// Plans, trial, paywall and the downgrade. Seed 003 §0 Monetization, §5 Pricing plan, §5 Trial downgrade behavior.
/// The store's own rules (trial, charge, renewal, cancel, refund) are `StoreSubscription`'s; `standing` and
/// `mrrAtHorizon` — `free`, or `pro` at the plan's price per month, nothing during the free trial or on lifetime —
/// are `SubscriptionEngine`'s.
extension EarnedAccessEngine: SubscriptionEngine {
    // MARK: - Plan and price (what the simulator reads; docs/DESIGN.md, principle 6)

    /// A plan's entry in the price list (seed 003 §5 Pricing suggestion, `prices.*`): the price and its months
    /// (none for lifetime, which never renews).
    public func listPrice(of p: ProPlan) -> PlanPrice { PlanPrice(price: parameters.price(of: p), periodMonths: p.periodMonths) }

    /// `free` or `pro` (seed 003 §0 "Two tiers total: Free + Pro").
    public var planSegment: String { tier.description }

    /// Seed 003 §5 Best paywall / trial trigger moments: each is a hard gate (inventory row 11, assumption): the
    /// Free user's action is refused and the paywall is shown.
    mutating func showPaywall(_ trigger: PaywallTrigger, _ out: inout EarnedAccessOutcome) {
        paywallShowing = trigger
        out.events.append(.paywallShown(trigger))
        out.decision = .paywall
    }

    /// Seed 003 §9 Phase 3 "Paywall placement (after onboarding or after first 'blocked app' moment)"
    /// (`paywall.placement`): shown once, to a Free user who never tried Pro.
    mutating func placePaywall(_ at: PaywallPlacement, _ out: inout EarnedAccessOutcome) {
        guard parameters.paywallPlacement == at, !placementShown, tier == .free, !trialUsed else { return }
        placementShown = true
        paywallShowing = .placement
        out.events.append(.paywallShown(.placement))
    }

    /// The paywall's answer: trial, purchase or dismissal (seed 003 §5, §9 Phase 3).
    mutating func paywallResponse(_ r: PaywallResponse, _ now: Instant, _ out: inout EarnedAccessOutcome) {
        switch r {
        case .dismiss:
            guard paywallShowing != nil else { out.decision = .ok; return }
            paywallShowing = nil
            out.events.append(.paywallDismissed)
            out.decision = .paywallDismissed
        case .startTrial(let p): startTrial(p, now, &out)
        case .buy(let p): buy(p, now, &out)
        }
    }

    /// Seed 003 §0 "Pro includes a free trial from day 1 (recommended: 7 days; adjustable)"; inventory rows 2–4
    /// (assumptions): a store intro offer on the annual plan, one per person, renewing into paid unless cancelled.
    mutating func startTrial(_ p: ProPlan, _ now: Instant, _ out: inout EarnedAccessOutcome) {
        guard !trialUsed else { out.decision = .trialUsed; return }
        guard plan == nil else { out.decision = .alreadySubscribed; return }
        guard parameters.trialPlans.offers(p), parameters.trialDays > 0 else { out.decision = .trialNotOffered; return }
        let old = tier
        subscription.startTrial(p, days: parameters.trialDays, at: now, &out.ledger, &out.events)
        paywallShowing = nil
        out.effects.append(.databaseWrite)
        out.timers.append(EarnedAccessTimer(.periodEnd, at: periodEnd))
        tierChanged(from: old, now, &out)
        out.decision = .trialStarted
    }

    /// Seed 003 §5 Purchase options (Pro): monthly, annual (auto-renew), lifetime (one-time). A purchase during the
    /// trial converts at once (assumption); re-buying the plan held with auto-renew off turns it back on; lifetime
    /// replaces a subscription (its renewal stops; no proration, assumption).
    mutating func buy(_ p: ProPlan, _ now: Instant, _ out: inout EarnedAccessOutcome) {
        if p == .lifetime && !parameters.lifetimeEnabled { out.decision = .lifetimeNotOffered; return }
        let old = tier
        if let current = plan, !inTrial {
            if current == .lifetime { out.decision = .alreadySubscribed; return }
            if current == p {
                if autoRenew { out.decision = .alreadySubscribed } else { subscription.autoRenew = true; out.decision = .ok }
                return
            }
            if p != .lifetime { out.decision = .alreadySubscribed; return }   // plan changes: store-side, not modelled
        }
        paywallShowing = nil
        subscription.purchase(p, price: parameters.price(of: p), months: p.periodMonths, at: now, in: zone, &out.ledger, &out.events)
        out.effects.append(.databaseWrite)
        if p.periodMonths != nil { out.timers.append(EarnedAccessTimer(.periodEnd, at: periodEnd)) }
        tierChanged(from: old, now, &out)
        out.decision = .subscribed
    }

    /// The trial or a paid period ends at `t`: renew into paid, or "User becomes Free immediately (no limbo state)"
    /// (seed 003 §5 Trial downgrade behavior).
    mutating func periodEnded(at t: Instant, _ now: Instant, _ out: inout EarnedAccessOutcome) {
        guard let p = plan, let months = p.periodMonths else { subscription.periodEnd = .distantFuture; return }
        let old = tier
        if autoRenew {
            subscription.renew(p, price: parameters.price(of: p), months: months, at: t, in: zone, &out.ledger, &out.events)
            // A period already over is renewed again by `advance`'s loop; only a future end is armed.
            if periodEnd > now { out.timers.append(EarnedAccessTimer(.periodEnd, at: periodEnd)) }
        } else {
            subscription.expire(p, &out.events)
            tierChanged(from: old, t, &out)
        }
    }

    /// Seed 003 §5 Purchase options: subscriptions "auto-renew"; cancelling stops the next renewal (the trial then
    /// ends in Free: §5 Trial downgrade behavior).
    mutating func cancelAutoRenew(_ out: inout EarnedAccessOutcome) {
        guard plan != .lifetime, subscription.cancelAutoRenew(&out.events) else { out.decision = .noSubscription; return }
        out.decision = .cancelled
    }

    /// A refund acts like a lapse (inventory row 18, assumption): the last charge is returned and the user is Free.
    mutating func refund(_ now: Instant, _ out: inout EarnedAccessOutcome) {
        let old = tier
        guard subscription.refund(at: now, &out.ledger, &out.events) else { out.decision = .noSubscription; return }
        tierChanged(from: old, now, &out)
        out.decision = .refunded
    }

    /// Restore purchases (RevenueCat/StoreKit, seed 003 §8): the engine mirrors the store, so it reports the plan held.
    mutating func restore(_ out: inout EarnedAccessOutcome) {
        guard let p = plan else { out.decision = .noSubscription; return }
        out.events.append(.subscriptionRestored(p))
        out.decision = .restored
    }

    /// Consequences of a tier change.
    ///
    /// To Free (seed 003 §5 Trial downgrade behavior): "keep the highest-priority mode (tie-breaker: most recently
    /// updated). Other modes stay in DB but are locked in UI and not enforced"; "enforce the Free cap (3) … or
    /// auto-keep the 3 most recently added with a banner" (the engine auto-keeps and leaves the prompt pending for
    /// `keepApps`); "hide 15/30 in UI; keep only 5" (the gate offers 5 only); "honor existing grants until they
    /// expire (no rug-pull)" (grants are left alone). The kept mode's strictness falls back to Standard (assumption,
    /// inventory row 18). To Pro: locked modes and dropped apps come back (assumption). Under the hard paywall
    /// (`paywall.mode` hard) Free after onboarding locks the app.
    mutating func tierChanged(from old: AccessTier, _ now: Instant, _ out: inout EarnedAccessOutcome) {
        let new = tier
        guard new != old else { return }
        if new == .free && hardPaywallLocks { lockBehindHardPaywall(now, &out) }
        if new == .pro {
            for i in modes.indices { modes[i].locked = false }
            for i in apps.indices { apps[i].kept = true }
            keepAppsPromptPending = false
            return
        }
        downgradedAt = now
        var modesLocked = 0
        if let keep = modes.indices.max(by: { (modes[$0].spec.priority, modes[$0].updatedAt.millisecondsSinceEpoch, modes[$0].id)
            < (modes[$1].spec.priority, modes[$1].updatedAt.millisecondsSinceEpoch, modes[$1].id) }) {
            for i in modes.indices where i != keep && !modes[i].locked { modes[i].locked = true; modesLocked += 1 }
            modes[keep].locked = false
            modes[keep].spec.strictness = .standard
        }
        var appsDropped = 0
        if apps.count > parameters.freeMaxApps {
            let keepSeqs = apps.map(\.addedSeq).sorted(by: >).prefix(parameters.freeMaxApps)
            for i in apps.indices {
                apps[i].kept = keepSeqs.contains(apps[i].addedSeq)
                if !apps[i].kept { appsDropped += 1 }
            }
            keepAppsPromptPending = true
        }
        out.events.append(.downgradedToFree(modesLocked: modesLocked, appsDropped: appsDropped))
    }
}
