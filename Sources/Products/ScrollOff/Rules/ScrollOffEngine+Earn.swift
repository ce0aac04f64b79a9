import RulesCore

extension ScrollOffEngine {
    /// Earning runs while the user is authorized, has at least one blocked app and is not inside a restricted app —
    /// and not while the hard paywall locks the app (`paywall.mode` hard, an assumption-option).
    ///
    /// Assumption (README): the earn engine starts with the first blocked app — §6.1 lands the user on the
    /// Dashboard "with earn engine active" once apps are blocked; with nothing blocked there is nothing to abstain from.
    var earningShouldRun: Bool { enforcing && !blocked.isEmpty && foreground == nil }

    /// Starts the abstinence counter if earning should run and it is not running; stops it otherwise.
    mutating func refreshEarning(_ now: Instant, _ out: inout ScrollOffOutcome) {
        if earningShouldRun {
            if abstinenceStart == nil { startAbstinence(now, &out) }
        } else {
            abstinenceStart = nil
        }
    }

    /// Seed 000 §7.4: "Any blocked app opened (including peek) resets counter to 0".
    mutating func resetEarnCounter(_ now: Instant, _ out: inout ScrollOffOutcome) {
        abstinenceStart = nil
        refreshEarning(now, &out)
    }

    mutating func startAbstinence(_ t: Instant, _ out: inout ScrollOffOutcome) {
        abstinenceStart = t
        skipCappedSlots()
        out.timers.append(ScrollOffTimer(.earnAward, at: abstinenceStart! + parameters.earnAbstinence))
    }

    /// Once today's cap has cut an award, the rest of the day's awards would all be discarded: the counter keeps its
    /// phase but skips to its first award at or after local midnight, so the engine stops waking hourly for nothing
    /// (§7.6 "Only track during intervals when earn/spend active", "No long-running timers"; §7.4 "excess discarded
    /// with user notification" — reported once, at the cut; audit 2026-11 D14).
    mutating func skipCappedSlots() {
        guard capCutToday, let s = abstinenceStart, earnedToday >= parameters.dailyEarnCap[tier] else { return }
        let period = parameters.earnAbstinence.milliseconds
        let gap = (nextMidnight - (s + parameters.earnAbstinence)).milliseconds
        guard gap > 0, period > 0 else { return }
        abstinenceStart = s + TimeSpan(milliseconds: (gap + period - 1) / period * period)
    }

    /// A tier change may raise today's cap after the cut: bring a skipped counter back to its last slot ≤ `now`.
    mutating func resumeCappedSlots(_ now: Instant, _ out: inout ScrollOffOutcome) {
        guard var s = abstinenceStart, s > now, frozenDay != today, parameters.earnAbstinence > .zero else { return }
        while s > now { s = s - parameters.earnAbstinence }
        abstinenceStart = s
        skipCappedSlots()
        out.timers.append(ScrollOffTimer(.earnAward, at: abstinenceStart! + parameters.earnAbstinence))
    }

    /// Seed 000 §3.2: "+5:00 credit for each 60 min without opening any blocked app"; §7.4: "Daily earn cap
    /// checked before award; excess discarded with user notification"; §7.7: earning frozen after a rollback.
    mutating func earnTimer(_ now: Instant, _ out: inout ScrollOffOutcome) {
        var awarded = false
        while let s = abstinenceStart, s + parameters.earnAbstinence <= now {
            let at = s + parameters.earnAbstinence
            abstinenceStart = at
            if frozenDay == today {
                abstinenceStart = nextMidnight
                out.decision = .earnFrozen
                break
            }
            award(at: at, &out)
            skipCappedSlots()
            awarded = true
        }
        if let s = abstinenceStart, awarded || out.decision == .earnFrozen {
            out.timers.append(ScrollOffTimer(.earnAward, at: s + parameters.earnAbstinence))
        }
    }

    /// One award: cap checked first, excess discarded. The award the cap cuts is reported once a day with
    /// `daily_cap_hit`, the cap notification and, on Free, the §6.1 paywall chip (Premium's cap is 90 min); later
    /// cut awards that day are silent. A paid award shows an empowering message (§3.5, §6.2 "+5:00 earned — 1 hour
    /// strong!").
    mutating func award(at t: Instant, _ out: inout ScrollOffOutcome) {
        let cap = parameters.dailyEarnCap[tier]
        if cap > capInForceToday { capInForceToday = cap }
        let room = cap - earnedToday
        let amount = max(.zero, min(parameters.earnAward, room))
        let capHit = amount < parameters.earnAward
        if capHit && capCutToday && amount == .zero { out.decision = .dailyEarnCapHit; return }
        if amount > .zero {
            global.add(amount, expiresAt: rolloverExpiry(earnedOn: today))
            earnedToday += amount
            awardsToday += 1
            out.credits.append(CreditLedgerEntry(delta: amount, reason: .earn))
        }
        out.events.append(.earnAward(amount: amount, wallet: .global, dailyCapHit: capHit))
        if amount > .zero { out.events.append(.selfEfficacyMessageShown(context: .earnAward, messageType: awardsToday % 3)) }
        out.effects.append(.monitorCallback)
        out.effects.append(.databaseWrite)
        if capHit {
            if !capCutToday {
                capCutToday = true
                out.effects.append(.notification(.earnCapReached))
                if tier == .free && chipsShownToday & DayChip.earnCap == 0 {
                    chipsShownToday |= DayChip.earnCap
                    showChip(.dailyEarnCap, skuShown: .premiumMonthly, &out)
                }
            }
            out.decision = .dailyEarnCapHit
        } else {
            if earnNotifications { out.effects.append(.notification(.earnAward)) }
            out.decision = .earnAwarded
        }
    }

    /// Seed 000 §3.2: Free "same-day only (expires at local midnight)", Premium 3 days, Pro 7 days.
    /// Assumption `earn.rollover_counts_earning_day`: an N-day rollover includes the earning day.
    func rolloverExpiry(earnedOn day: LocalDate) -> Instant {
        let n = parameters.rolloverDays[tier]
        let days = n <= 1 ? 1 : (parameters.rolloverCountsEarningDay ? n : n + 1)
        return zone.instant(on: day + Int64(days), at: .midnight)
    }

    /// Seed 000 §7.4: "At local midnight, expire credits based on tier rollover rules".
    mutating func expireLots(at t: Instant, _ out: inout ScrollOffOutcome) {
        let g = global.expire(at: t)
        if g > .zero { out.credits.append(CreditLedgerEntry(delta: -g, reason: .adjust)) }
        for i in blocked.indices {
            let e = blocked[i].wallet.expire(at: t)
            if e > .zero { out.credits.append(CreditLedgerEntry(delta: -e, reason: .adjust, app: blocked[i].app)) }
        }
    }

    /// Seed 000 §4 / §9: "Starter credit (+120s) awarded once after onboarding, labeled 'starter credit'",
    /// "excluded from caps/rollover".
    mutating func awardStarterCredit(_ out: inout ScrollOffOutcome) {
        guard !starterCreditAwarded else { out.decision = .ok; return }
        starterCreditAwarded = true
        global.add(parameters.starterCredit, expiresAt: .distantFuture, isStarter: true)
        out.events.append(.earnAward(amount: parameters.starterCredit, wallet: .starterCredit, dailyCapHit: false))
        out.credits.append(CreditLedgerEntry(delta: parameters.starterCredit, reason: .starterDemo))
        out.effects.append(.databaseWrite)
        out.decision = .starterCreditAwarded
    }

    /// Seed 000 §7.7: "If rollback detected (>10 min backwards), freeze earn engine for current day";
    /// "Show warning: 'Clock change detected — earns paused until tomorrow'".
    mutating func freezeEarning(rollback: TimeSpan, now: Instant, _ out: inout ScrollOffOutcome) {
        frozenDay = today
        out.events.append(.clockRollbackDetected(rollback: rollback))
        out.effects.append(.notification(.clockChangeDetected))
        out.decision = .earnFrozen
    }
}
