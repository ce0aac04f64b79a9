import RulesCore

extension ScrollOffEngine {
    /// Is the app shielded unless unlocked: on the Blocked list, or covered by an active curfew (§3.1, §7.4)? Nothing
    /// is while the app does not enforce (no authorization, §7.5; the hard paywall, `paywall.mode`).
    @inline(__always) public func isRestricted(_ app: AppID, at now: Instant) -> Bool {
        guard enforcing else { return false }
        return blockedIndex(app) != nil || curfewActive(for: app, at: now)
    }

    /// Seed 000 §3.1 "User selects any installed apps as Blocked"; §5.1 Free "Block 3 apps"; §7.5 50-app shield
    /// limit; §3.3 / §7.4 cooldown "Begins immediately when user toggles app to 'Blocked'" (2 h / 1 h / 30 min),
    /// stored as the absolute `lockedUntil`. §6.1 "User must create at least 1 plan", §4 "Require 1 minimum", §9 "At
    /// least 1 plan required to proceed": blocking waits for the first if-then plan (A1.5 before A2).
    mutating func block(_ app: AppID, _ now: Instant, _ out: inout ScrollOffOutcome) {
        guard authorized else { out.decision = .authorizationRequired; return }
        guard !ifThenPlans.isEmpty else { out.decision = .ifThenPlanRequired; return }
        guard app != .safari else { out.decision = .notFound; return }
        guard blockedIndex(app) == nil else { out.decision = .alreadyBlocked; return }
        if tier == .free && blocked.count >= parameters.freeMaxBlockedApps {
            showChip(.blockedAppLimit, skuShown: .premiumMonthly, &out)
            out.decision = .blockedAppLimitReached
            return
        }
        guard blocked.count < parameters.maxShieldedApps else { out.decision = .shieldLimitReached; return }
        let cooldown = parameters.cooldown[tier]
        blocked.append(BlockedApp(app: app, addedAt: now, lockedUntil: now + cooldown))
        out.events.append(.appBlocked(app: app, tier: tier))
        out.events.append(.cooldownStart(app: app, duration: cooldown))
        out.effects.append(.databaseWrite)
        if cooldown > .zero { out.timers.append(ScrollOffTimer(.cooldownEnd(app), at: now + cooldown)) }
        refreshEarning(now, &out)
        out.decision = .appBlocked
    }

    /// Seed 000 §7.4: "'Unblock' button disabled until `lockedUntil` timestamp expires"; §8.1
    /// `cooldown_unblock_attempted(time_remaining)`, with §6.1's chip "Get 1-hour cooldown → Premium" on Free (Premium
    /// is offered Pro's 30 minutes; Pro has the shortest). A Pro per-app wallet returns to the global wallet.
    mutating func unblock(_ app: AppID, _ now: Instant, _ out: inout ScrollOffOutcome) {
        guard let i = blockedIndex(app) else { out.decision = .notBlocked; return }
        if now < blocked[i].lockedUntil {
            out.events.append(.cooldownUnblockAttempted(timeRemaining: blocked[i].lockedUntil - now))
            switch tier {
            case .free: showChip(.cooldown, skuShown: .premiumMonthly, &out)
            case .premium: showChip(.cooldown, skuShown: .proMonthly, &out)
            case .pro: break
            }
            out.decision = .cooldownActive
            return
        }
        if foreground == app { settleSpend(at: now, &out) }
        let w = blocked[i].wallet.total
        if w > .zero {
            out.credits.append(CreditLedgerEntry(delta: -w, reason: .adjust, app: app))
            out.credits.append(CreditLedgerEntry(delta: w, reason: .adjust))
        }
        blocked[i].wallet.drain(into: &global)
        blocked.remove(at: i)
        if !curfewActive(for: app, at: now) {
            if let a = accessIndex(app) { accesses.remove(at: a) }
            if foreground == app { foreground = nil }
            if pendingShield?.app == app { pendingShield = nil }
            out.effects.append(.shieldRemoved(app))
        }
        out.effects.append(.databaseWrite)
        refreshEarning(now, &out)
        out.decision = .appUnblocked
    }
}
