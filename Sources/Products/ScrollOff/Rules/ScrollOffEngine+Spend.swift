import RulesCore

extension ScrollOffEngine {
    func blockedIndex(_ app: AppID) -> Int? { blocked.firstIndex { $0.app == app } }
    func accessIndex(_ app: AppID) -> Int? { accesses.firstIndex { $0.app == app } }

    /// Total credit (global plus the app's wallet).
    @inline(__always) public func balance(for app: AppID? = nil) -> TimeSpan {
        var t = global.total
        if let a = app, let i = blockedIndex(a) { t += blocked[i].wallet.total }
        return t
    }

    /// Credit the app may spend now: its wallet plus global, limited by the Pro daily spend cap (§3.2).
    @inline(__always) public func available(for app: AppID) -> TimeSpan {
        var t = balance(for: app)
        if tier == .pro, let i = blockedIndex(app), let cap = blocked[i].dailySpendCap {
            t = min(t, max(.zero, cap - blocked[i].spentToday))
        }
        return t
    }

    /// Seed 000 §7.4: "Per-app wallets (Pro): Check per-app wallet first, fall back to global wallet".
    mutating func deduct(_ amount: TimeSpan, app: AppID) -> TimeSpan {
        var taken = TimeSpan.zero
        let i = blockedIndex(app)
        if let i { taken = blocked[i].wallet.take(amount, order: parameters.lotOrder) }
        if taken < amount { taken += global.take(amount - taken, order: parameters.lotOrder) }
        if let i { blocked[i].spentToday += taken }
        creditSpentToday += taken
        return taken
    }

    /// Seed 000 §3.2: "Deducted per second of foreground time (no rounding)". Settles the foreground stretch
    /// of a credit session up to `t` and reports it as one `spend_tick`.
    mutating func settleSpend(at t: Instant, _ out: inout ScrollOffOutcome) {
        guard let fg = foreground, let i = accessIndex(fg), accesses[i].kind == .credits,
              let since = accesses[i].foregroundSince, t > since else { return }
        let want = min(t - since, available(for: fg))
        let spent = want > .zero ? deduct(want, app: fg) : .zero
        accesses[i].foregroundSince = t
        out.events.append(.spendTick(spent: spent, remaining: available(for: fg), app: fg))
        if spent > .zero { out.credits.append(CreditLedgerEntry(delta: -spent, reason: .spend, app: fg)) }
        out.effects.append(.databaseWrite)
    }

    /// After anything that may change what the foreground session can spend: re-arm the empty timer, or end now.
    mutating func checkForegroundSession(_ now: Instant, _ out: inout ScrollOffOutcome) {
        guard let fg = foreground else { return }
        walletEmptyTimer(fg, now, &out)
    }

    /// Seed 000 §3.2 / §9: "At 0s, shield reappears instantly" (`wallet_empty`), or the spend cap ran out; §6.1 "at 0s
    /// shield reappears". The shield comes back over the app in front as a shield the user can answer (`reshield`).
    mutating func endCreditSession(_ app: AppID, _ now: Instant, _ out: inout ScrollOffOutcome) {
        if let i = accessIndex(app) { accesses.remove(at: i) }
        if balance(for: app) > .zero {
            out.decision = .dailySpendCapReached
        } else {
            out.events.append(.walletEmpty(app: app))
            out.decision = .walletEmpty
        }
        if foreground == app { reshield(app, now, &out) } else { out.effects.append(.shieldShown(app)) }
        refreshEarning(now, &out)
    }

    /// The wallet-empty timer (or any change to what the session can spend): settle, then re-arm for the credit
    /// left or end the session at 0 s.
    mutating func walletEmptyTimer(_ app: AppID, _ now: Instant, _ out: inout ScrollOffOutcome) {
        guard foreground == app, let i = accessIndex(app), accesses[i].kind == .credits else { return }
        settleSpend(at: now, &out)
        let a = available(for: app)
        if a > .zero {
            out.timers.append(ScrollOffTimer(.walletEmpty(app), at: now + a))
        } else {
            endCreditSession(app, now, &out)
        }
    }

    /// An app comes to the foreground: resume an unlock in force, or show the shield (§3.1, §7.4). Opening the app
    /// of the pending shield again is the same encounter (§9 "Shield persists on relaunch"); opening another app
    /// abandons the pending shield.
    mutating func appForeground(_ app: AppID, _ now: Instant, _ out: inout ScrollOffOutcome) {
        if foreground == app { out.decision = .accessResumed; return }
        if let p = pendingShield, p.app == app, isRestricted(app, at: now) {
            out.decision = p.inCurfew ? .curfewShieldShown : .shieldShown
            return
        }
        if let fg = foreground { appBackground(fg, now, &out) }
        if pendingShield != nil { abandonShield(.otherAppOpened, &out) }
        guard isRestricted(app, at: now) else { out.decision = .notShielded; return }
        let inCurfew = curfewActive(for: app, at: now)
        if let i = accessIndex(app) {
            let a = accesses[i]
            let curfewBlocks = inCurfew && !(a.kind == .token && parameters.tokensWorkDuringCurfew)
            let live = a.until > now && (a.kind != .credits || a.pausedAt.map { now < $0 + parameters.pausedSessionTimeout } ?? true)
            if live && !curfewBlocks && (a.kind != .credits || available(for: app) > .zero) {
                foreground = app
                if a.kind == .credits {
                    accesses[i].foregroundSince = now
                    accesses[i].pausedAt = nil
                    out.timers.append(ScrollOffTimer(.walletEmpty(app), at: now + available(for: app)))
                }
                resetEarnCounter(now, &out)
                out.decision = .accessResumed
                return
            }
            accesses.remove(at: i)
        }
        presentShield(app, inCurfew: inCurfew, now, &out)
        out.decision = inCurfew ? .curfewShieldShown : .shieldShown
    }

    /// Seed 000 §7.4: "Pause: When app backgrounds, pause deduction". Leaving a pending shield abandons it: the user
    /// did not press "Close", so it is no willpower win (audit 2026-11 D8).
    mutating func appBackground(_ app: AppID, _ now: Instant, _ out: inout ScrollOffOutcome) {
        out.decision = .ok
        if let p = pendingShield, p.app == app { abandonShield(.backgrounded, &out) }
        guard foreground == app else { return }
        settleSpend(at: now, &out)
        if let i = accessIndex(app), accesses[i].kind == .credits {
            accesses[i].foregroundSince = nil
            accesses[i].pausedAt = now
            out.timers.append(ScrollOffTimer(.pausedSessionEnd(app), at: now + parameters.pausedSessionTimeout))
        }
        foreground = nil
        refreshEarning(now, &out)
    }

    /// Seed 000 §3.2: "Per-app wallets (Pro): user can earmark minutes per app".
    mutating func earmark(_ app: AppID, _ amount: TimeSpan, _ now: Instant, _ out: inout ScrollOffOutcome) {
        guard tier == .pro else { requiresPro(.perAppWallets, &out); return }
        guard let i = blockedIndex(app) else { out.decision = .notBlocked; return }
        guard amount > .zero, global.total >= amount else { out.decision = .insufficientCredits; return }
        global.move(amount, order: parameters.lotOrder, to: &blocked[i].wallet)
        out.credits.append(CreditLedgerEntry(delta: -amount, reason: .adjust))
        out.credits.append(CreditLedgerEntry(delta: amount, reason: .adjust, app: app))
        out.effects.append(.databaseWrite)
        out.decision = .ok
    }

    /// Seed 000 §3.2: "Anti-binge guard: optional per-app daily spend cap (Pro; advanced control)".
    mutating func setSpendCap(_ app: AppID, _ cap: TimeSpan?, _ now: Instant, _ out: inout ScrollOffOutcome) {
        guard tier == .pro else { requiresPro(.dailySpendCap, &out); return }
        guard let i = blockedIndex(app) else { out.decision = .notBlocked; return }
        blocked[i].dailySpendCap = cap.map { max(.zero, $0) }
        out.decision = .ok
        if foreground == app { checkForegroundSession(now, &out) }
    }

    mutating func requiresPro(_ context: PaywallContext, _ out: inout ScrollOffOutcome) {
        showChip(context, skuShown: .proMonthly, &out)
        out.decision = .requiresPro
    }
}
