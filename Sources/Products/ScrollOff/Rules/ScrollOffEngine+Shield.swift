import RulesCore

extension ScrollOffEngine {
    /// Seed 000 §3.1 "Opening a blocked app triggers a full-screen shield"; §8.1 `shield_shown(bundleID,
    /// credits_available)`: opens a shield encounter the user answers with `.shield(…)`. During curfew there is
    /// nothing to spend (credits shown as 0).
    mutating func presentShield(_ app: AppID, inCurfew: Bool, _ now: Instant, _ out: inout ScrollOffOutcome) {
        pendingShield = ShieldEncounter(app: app, shownAt: now, inCurfew: inCurfew)
        shieldCount += 1
        shieldsByHourThisWeek[zone.hour(now)] &+= 1
        out.events.append(.shieldShown(app: app, creditsAvailable: inCurfew ? .zero : available(for: app)))
        out.events.append(.selfEfficacyMessageShown(context: .shield, messageType: shieldCount % 5))
        out.effects.append(.shieldShown(app))
        if !inCurfew { freePeekChip(&out) }
        if parameters.shieldEncounterResetsEarnCounter { resetEarnCounter(now, &out) }
    }

    /// The shield returns over the app in front when its access runs out — credits at 0 s, the daily spend cap, the
    /// end of a peek or token unlock. Seed 000 §3.2 "At 0s, shield reappears instantly"; §6.1 "60-second timer →
    /// shield reappears"; §7.4 "re-apply shield instantly". It is a shield the user meets and answers like one met
    /// on opening the app, so it counts as `shield_shown` (§8.1 "shield appeared on app open" read as: appeared over
    /// the app the user has open; audit 2026-11 D3). The caller's decision (`walletEmpty`, `unlockEnded`, …) stands.
    mutating func reshield(_ app: AppID, _ now: Instant, _ out: inout ScrollOffOutcome) {
        foreground = nil
        if let p = pendingShield, p.app != app { abandonShield(.otherAppOpened, &out) }
        presentShield(app, inCurfew: curfewActive(for: app, at: now), now, &out)
    }

    /// Seed 000 §6.1 chip when Free's free peek is used up (§3.4 Step 1 "One free 60-sec peek (Free)"; §6.2 "All
    /// peeks used today — fresh start at midnight"): shown with the first shield of the local day that no longer
    /// offers it. Premium and Pro have the same peeks, so the chip is Free's only.
    mutating func freePeekChip(_ out: inout ScrollOffOutcome) {
        guard tier == .free, freePeeksRemaining == 0, chipsShownToday & DayChip.freePeek == 0 else { return }
        chipsShownToday |= DayChip.freePeek
        showChip(.freePeekLimit, skuShown: .premiumMonthly, &out)
    }

    /// The "Close" button. Seed 000 §8.1 `shield_dismissed_no_spend` — "user closed shield without spending
    /// (willpower win)": a win only when nothing was refused in the encounter (after a refusal the user was turned
    /// away, audit 2026-11 D8) and the shield offered something to spend: a shield whose only button is Close (a
    /// curfew, §3.3 "no spending, no bypass") leaves no choice, so closing it is no win and no streak day (audit
    /// 2026-11-25 E4).
    mutating func closeShield(_ now: Instant, _ out: inout ScrollOffOutcome) {
        guard let p = pendingShield else { return }
        if p.refused {
            abandonShield(.closedAfterRefusal, &out)
        } else if shieldOffer()?.shown == ShieldOffer.bit(.close) {
            abandonShield(.forcedClose, &out)
        } else {
            willpowerWin(now, &out)
        }
    }

    /// A willpower win: `shield_dismissed_no_spend`, its empowering message (§6.2 "You resisted — that took real
    /// strength"), and the app's time-saved estimate (assumption `insights.minutes_saved_per_resisted_urge`).
    mutating func willpowerWin(_ now: Instant, _ out: inout ScrollOffOutcome) {
        pendingShield = nil
        willpowerWinsToday += 1
        out.events.append(.shieldDismissedNoSpend)
        out.events.append(.selfEfficacyMessageShown(context: .willpowerWin, messageType: shieldCount % 3))
        if parameters.timeSavedMethod == .perResistedUrge { addTimeSaved(.minutes(Int64(parameters.minutesSavedPerResistedUrge)), &out) }
        out.decision = .willpowerWin
    }

    /// The shield ends without spending but is no win: left, or closed after a refusal (`shield_abandoned`, a
    /// lifecycle event outside §8.1). No time saved.
    mutating func abandonShield(_ reason: ShieldAbandonReason, _ out: inout ScrollOffOutcome) {
        guard let p = pendingShield else { return }
        pendingShield = nil
        out.events.append(.shieldAbandoned(app: p.app, reason: reason))
        out.decision = reason == .closedAfterRefusal ? .shieldClosedAfterRefusal : .shieldAbandoned
    }
}

/// Once-a-day paywall chips (bits of `ScrollOffEngine.chipsShownToday`).
enum DayChip {
    static let earnCap: UInt8 = 1
    static let freePeek: UInt8 = 2
}

extension ScrollOffEngine {
    /// Seed 000 §6.1 "Paywall chips (contextual): Shown when user hits tier limits" — the one place a chip is
    /// raised: only where `paywall.chips.<context>` is on (the charter's two by default; audit 2026-11-25 E2).
    mutating func showChip(_ context: PaywallContext, skuShown: Plan, _ out: inout ScrollOffOutcome) {
        guard parameters.chipsShown.contains(context) else { return }
        out.events.append(.paywallShown(context: context, skuShown: skuShown))
    }
}
