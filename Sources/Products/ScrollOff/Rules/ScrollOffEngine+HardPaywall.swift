import RulesCore

/// The hard paywall: `paywall.mode` hard (issue 26 item 5), an assumption-option — an experiment product teams run,
/// not in seed 000. The seed is freemium: §5.1 Tiers' Free plan ($0, "Try-it": Block 3 apps, 2h cooldown, Cap 45m/day,
/// 1× 60s peek/day …) works without paying, and §6.1 "Paywall chips (contextual): Shown when user hits tier limits"
/// are its only paywalls. Under the hard paywall, once onboarding has finished (§6.1 step 6, the Dashboard) a person
/// without a plan gets nothing from the app — no shield, no earning, no curfew — and meets the paywall whenever they
/// open it. Seed 000 has no trial (§5.1 lists prices only), so only buying a plan (§5.1 Premium or Pro) unlocks it;
/// when the plan lapses or is refunded (§5.1 "lapse or cancel returns to Free at period end") it locks again.
extension ScrollOffEngine {
    /// The hard paywall locks the app now: `paywall.mode` hard, onboarding finished and no plan (Free).
    @inline(__always) public var hardPaywallLocks: Bool {
        parameters.paywallMode == .hard && onboardingFinished && plan == nil
    }

    /// The app enforces its rules now: ScreenTime authorization granted (§7.5) and no hard paywall in the way. The
    /// single gate of shields (`isRestricted`), earning (`earningShouldRun`) and time saved.
    @inline(__always) var enforcing: Bool { authorized && !hardPaywallLocks }

    /// The hard paywall on screen: `paywall_shown(context=hard_paywall)` with Premium, the entry plan of §5.1, as the
    /// SKU shown (the wall offers every plan).
    mutating func showHardPaywall(_ out: inout ScrollOffOutcome) {
        out.events.append(.paywallShown(context: .hardPaywall, skuShown: .premiumMonthly))
    }

    /// The app locks behind the hard paywall (onboarding finished on Free, or a plan lapsed or was refunded): a credit
    /// session is settled and ends, unlocks and the pending shield are dropped, every shield is lifted (the
    /// ManagedSettings store cleared) and earning stops — as when authorization is revoked (§7.5). Credits held are
    /// kept, unusable until the app is unlocked.
    mutating func lockBehindHardPaywall(_ now: Instant, _ out: inout ScrollOffOutcome) {
        settleSpend(at: now, &out)
        accesses.removeAll()
        foreground = nil
        pendingShield = nil
        for b in blocked { out.effects.append(.shieldRemoved(b.app)) }
        out.effects.append(.databaseWrite)
        refreshEarning(now, &out)
    }

    /// The lock changes with the tier (called from `tierChanged`): Free after a plan locks the app again; a plan
    /// bought on Free unlocks it (shields return with the next opening of a blocked app, earning starts now).
    mutating func hardPaywallTierChanged(from old: Tier, _ now: Instant, _ out: inout ScrollOffOutcome) {
        guard parameters.paywallMode == .hard, onboardingFinished else { return }
        if tier == .free { lockBehindHardPaywall(now, &out) } else if old == .free { refreshEarning(now, &out) }
    }
}
