import RulesCore

/// The hard paywall: `paywall.mode` hard (issue 26 item 5), an assumption-option — an experiment product teams run,
/// not in seed 003. The seed is freemium: §5 Recommended tier definition "Free (forever)" (1 mode, up to 3 apps,
/// 5-minute credit unlocks, breathing quest, emergency unlock) works without paying — §0 Monetization "Free is
/// intentionally useful (so users trust it)" — and §5 Best paywall / trial trigger moments upsell it. Under the hard
/// paywall, once onboarding has landed in Home (§3 A) 6), a person with neither the trial nor Pro gets nothing from
/// the app — no mode enforced, no shield, no credits earned — and meets the paywall whenever they open it. Starting
/// the trial (§0 "Pro includes a free trial from day 1", §5 Purchase options) or buying Pro unlocks everything Pro
/// gives; when the trial ends unconverted or the subscription lapses or is refunded (§5 Trial downgrade behavior
/// "User becomes Free immediately") the app locks again.
extension EarnedAccessEngine {
    /// The hard paywall locks the app now: `paywall.mode` hard, onboarding finished, and no plan (trial included).
    @inline(__always) public var hardPaywallLocks: Bool {
        parameters.paywallMode == .hard && onboardingFinished && plan == nil
    }

    /// The hard paywall withholds earning: `paywall.mode` hard and no plan (trial included). The Focus tab and habit
    /// check-ins (§3 Tab structure, §6 Credits "Earned by focus sessions and habits") sit behind the wall, even for a
    /// person who left onboarding before Home (they reach them only past it), so no focus session shields and no
    /// credit is earned without the trial or Pro.
    @inline(__always) public var hardPaywallWithholdsEarning: Bool {
        parameters.paywallMode == .hard && plan == nil
    }

    /// The hard paywall on screen (`paywall_shown(trigger=hard_paywall)`), answered like any paywall
    /// (`paywallResponse`).
    mutating func showHardPaywall(_ out: inout EarnedAccessOutcome) {
        paywallShowing = .hardPaywall
        out.events.append(.paywallShown(.hardPaywall))
    }

    /// The app locks behind the hard paywall (onboarding finished without Pro, or Pro ended): a focus session in
    /// progress ends unearned, a quest or emergency wait and the gate close; modes stop and shields lift with the
    /// next `refreshModes` / `syncShields` (`shieldingSource` gives nothing while locked). Credits, modes, apps and
    /// habits are kept (§5 "App does not delete user data"), unusable until the app is unlocked.
    mutating func lockBehindHardPaywall(_ now: Instant, _ out: inout EarnedAccessOutcome) {
        if let f = focus {
            focus = nil
            out.events.append(.focusSessionAbandoned(minutesDone: Int((now - f.start).wholeSeconds / 60)))
        }
        if let p = pending { abandonPending(quest: p.choice != .emergency, now, &out) }
        gateApp = nil
        lastBlockedApp = nil
        out.effects.append(.databaseWrite)
    }
}
