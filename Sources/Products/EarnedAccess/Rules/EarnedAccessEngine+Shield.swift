import RulesCore

/// Mode schedules, the shield, "Close & unlock", the last blocked app and grant expiry. Seed 003 §2 Practical UX
/// implication, §3 B) When user opens a blocked app, §7 Key behaviors.
extension EarnedAccessEngine {
    /// What shields the enforced apps at `t`: the highest-priority active, unlocked mode (tie-breaker: most recently
    /// updated), else a running focus session when `focus.shields_apps` (mode nil, Standard). One global app list
    /// shielded by every active mode; overlapping modes are named by the highest priority (inventory row 31).
    /// Nothing shields while the hard paywall locks the app (`paywall.mode` hard): the single gate of shields, the
    /// gate's options and grant re-application.
    public func shieldingSource(at t: Instant) -> (mode: ModeID?, strictness: Strictness)? {
        guard !hardPaywallLocks else { return nil }
        var best: AccessMode?
        for m in modes where !m.locked && m.spec.window.contains(t, in: zone) {
            if let b = best, (b.spec.priority, b.updatedAt) >= (m.spec.priority, m.updatedAt) { continue }
            best = m
        }
        if let b = best { return (b.id, b.spec.strictness) }
        if parameters.focusShieldsApps, let f = focus, f.start <= t, t < f.end { return (nil, .standard) }
        return nil
    }

    /// Whether the app is shielded at `t`: enforced, something shields, and no live grant.
    public func isShielded(_ a: AppID, at t: Instant) -> Bool {
        isEnforced(a) && shieldingSource(at: t) != nil && !grants.contains { $0.app == a && $0.isLive(at: t) }
    }

    /// The live grant of an app, if any.
    public func grant(for a: AppID, at t: Instant) -> AccessGrant? { grants.first { $0.app == a && $0.isLive(at: t) } }

    /// Seed 003 §3 B) 1–2: iOS shows the Shield UI ("Blocked by Work mode", "Next unlock: Earn access in Earned
    /// Access", "Close & unlock"); "Shield writes last_blocked_app_token into App Group".
    ///
    /// Bringing another app to the foreground leaves Earned Access: a quest or emergency wait in progress is abandoned
    /// (inventory row 42: the wait happens in the foreground; leaving cancels it without using the day's emergency) and
    /// the gate closes.
    mutating func appForeground(_ a: AppID, _ now: Instant, _ out: inout EarnedAccessOutcome) {
        if let p = pending { abandonPending(quest: p.choice != .emergency, now, &out) }
        gateApp = nil
        guard authorization == .granted else { out.decision = .notEnforced; return }
        guard isEnforced(a), let source = shieldingSource(at: now) else { out.decision = .notShielded; return }
        if grant(for: a, at: now) != nil { out.decision = .grantInForce; return }
        lastBlockedApp = a
        out.events.append(.shieldShown(a, mode: source.mode, source.strictness))
        out.effects.append(.shieldRendered(a))
        out.decision = .shieldShown
    }

    /// "Close & unlock" (action = close; seed 003 §2 "Shield buttons are limited to … .close and .defer"): the
    /// App Group write of the last blocked app (inventory §5: one `database_write`).
    mutating func shieldClose(_ a: AppID, _ out: inout EarnedAccessOutcome) {
        lastBlockedApp = a
        out.events.append(.shieldClosed(a))
        out.effects.append(.databaseWrite)
        out.decision = .shieldClosed
        placePaywall(.afterFirstBlocked, &out)
    }

    /// Seed 003 §2 "when the user opens Earned Access, it auto-opens the Unlock Gate for that app"; §3 B) 3.
    /// Under the hard paywall (`paywall.mode` hard) every opening of the locked app shows the paywall instead.
    mutating func appOpened(_ now: Instant, _ out: inout EarnedAccessOutcome) {
        out.events.append(.appOpened)
        if hardPaywallLocks {
            lastBlockedApp = nil
            showHardPaywall(&out)
            return
        }
        if let a = lastBlockedApp {
            lastBlockedApp = nil
            openGate(a, .lastBlocked, now, &out)
        }
    }

    /// Seed 003 §3 C) Unlock Gate: shows balance, streak, reason blocked and the options (`gateOffer`); browsing it is
    /// `energy.gate_browse_seconds` of foreground UI (inventory §5).
    mutating func openGate(_ a: AppID, _ source: GateSource, _ now: Instant, _ out: inout EarnedAccessOutcome) {
        gateApp = a
        out.events.append(.unlockGateOpened(a, source))
        out.effects.append(.foreground(seconds: parameters.gateBrowseSeconds))
        out.decision = .gateOpened
    }

    /// Seed 003 §7 "Unlock expired → reapply shield automatically (via monitor)"; §3 D) "On expiry, iOS re-applies
    /// shield (DeviceActivity monitor)" — only when a mode is still active (inventory row 37, assumption).
    mutating func expireGrants(_ now: Instant, _ out: inout EarnedAccessOutcome) -> Int {
        var n = 0
        var i = 0
        while i < grants.count {
            if grants[i].end <= now {
                let g = grants.remove(at: i)
                let reapplied = isEnforced(g.app) && shieldingSource(at: now) != nil
                out.events.append(.unlockExpired(g.app, reapplied: reapplied))
                out.effects.append(.monitorCallback)
                n += 1
            } else {
                i += 1
            }
        }
        return n
    }

    /// Seed 003 §7 Key behaviors "Mode start → apply shield to selected tokens", "Mode end → remove shield (or compute
    /// next active mode)": reports each mode's start and end (one monitor callback each) and arms its next edge. No
    /// mode runs while the hard paywall locks the app (`paywall.mode` hard), as a mode locked by a downgrade.
    mutating func refreshModes(_ now: Instant, _ out: inout EarnedAccessOutcome) {
        let paywalled = hardPaywallLocks
        for i in modes.indices {
            let off = modes[i].locked || paywalled
            let occurrence = off ? nil : modes[i].spec.window.occurrence(containing: now, in: zone)
            let active = occurrence != nil
            if active != modes[i].running {
                modes[i].running = active
                out.events.append(active ? .modeStarted(modes[i].id) : .modeEnded(modes[i].id))
                out.effects.append(.monitorCallback)
            }
            guard !off else { continue }
            let edge: Instant?
            let kind: EarnedAccessTimer.Kind
            if let o = occurrence { edge = o.upperBound; kind = .modeEnd(modes[i].id) }
            else { edge = modes[i].spec.window.nextOccurrence(after: now, in: zone)?.lowerBound; kind = .modeStart(modes[i].id) }
            if let e = edge, e > now, e != modes[i].armedEdge {
                modes[i].armedEdge = e
                out.timers.append(EarnedAccessTimer(kind, at: e))
            }
        }
    }

    /// Mirrors the ManagedSettings store: which apps are shielded now.
    mutating func syncShields(_ now: Instant) {
        shieldedApps.removeAll(keepingCapacity: true)
        guard authorization == .granted, shieldingSource(at: now) != nil else { return }
        for a in apps where a.kept && !grants.contains(where: { $0.app == a.app && $0.isLive(at: now) }) { shieldedApps.append(a.app) }
    }
}
