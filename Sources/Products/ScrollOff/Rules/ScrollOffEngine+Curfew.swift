import RulesCore

extension ScrollOffEngine {
    /// Seed 000 §7.4: "During curfew, affected apps always shielded (credits cannot be spent, bypasses disabled)";
    /// "If 'Block Safari during curfew' enabled, add Safari to shield list during window"; midnight-spanning windows.
    @inline(__always) public func curfewActive(for app: AppID, at now: Instant) -> Bool {
        for c in curfews where c.spec.isActive {
            let covers = app == .safari ? c.spec.blockSafari : c.spec.apps.contains(app)
            if covers && c.spec.window.contains(now, in: zone) { return true }
        }
        return false
    }

    /// The occurrence of a curfew containing `now`, if any.
    func activeOccurrence(_ c: Curfew, _ now: Instant) -> Range<Instant>? {
        c.spec.isActive ? c.spec.window.occurrence(containing: now, in: zone) : nil
    }

    /// Seed 000 §3.3: "Curfew edits locked 30m before start and during active window"; returns the time until
    /// start (zero when active) when locked.
    func editLock(_ c: Curfew, _ now: Instant) -> TimeSpan? {
        guard c.spec.isActive else { return nil }
        if activeOccurrence(c, now) != nil { return .zero }
        if let next = c.spec.window.nextOccurrence(after: now, in: zone), next.lowerBound - parameters.curfewEditLockLead <= now {
            return next.lowerBound - now
        }
        return nil
    }

    /// Seed 000 §3.3: "A 16-hour daily block window" — up to 16 hours, days of week, affected apps.
    func validCurfew(_ s: CurfewSpec) -> Bool {
        s.window.nominalLength <= parameters.curfewMaxLength && s.window.nominalLength > .zero && !s.window.days.isEmpty
            && (s.apps.count + (s.blockSafari ? 1 : 0)) > 0 && s.apps.count <= parameters.maxShieldedApps
    }

    /// Create or edit a curfew (§6.1 Curfew scheduler). Edits of an existing schedule are refused from the lock
    /// lead before start to the end of the window with `curfew_edit_blocked(time_until_start)`.
    mutating func setCurfew(_ id: CurfewID?, _ spec: CurfewSpec, _ now: Instant, _ out: inout ScrollOffOutcome) {
        guard validCurfew(spec) else { out.decision = .curfewInvalid; return }
        let index: Int
        if let id {
            guard let i = curfews.firstIndex(where: { $0.id == id }) else { out.decision = .curfewNotFound; return }
            if let t = editLock(curfews[i], now) {
                out.events.append(.curfewEditBlocked(timeUntilStart: t))
                out.decision = .curfewEditLocked
                return
            }
            curfews[i].spec = spec
            index = i
        } else {
            guard curfews.count < parameters.curfewMaxSchedules else { out.decision = .curfewLimitReached; return }
            curfews.append(Curfew(id: nextCurfewID, spec: spec))
            nextCurfewID &+= 1
            index = curfews.count - 1
        }
        out.effects.append(.databaseWrite)
        out.decision = .curfewSaved
        if activeOccurrence(curfews[index], now) != nil {
            startCurfew(index, now, &out)   // a new schedule whose window is open applies at once
        } else {
            armNextCurfew(index, now, &out)
        }
    }

    /// Deleting (or disabling) a curfew is an edit: locked near and during the window.
    mutating func deleteCurfew(_ id: CurfewID, _ now: Instant, _ out: inout ScrollOffOutcome) {
        guard let i = curfews.firstIndex(where: { $0.id == id }) else { out.decision = .curfewNotFound; return }
        if let t = editLock(curfews[i], now) {
            out.events.append(.curfewEditBlocked(timeUntilStart: t))
            out.decision = .curfewEditLocked
            return
        }
        curfews.remove(at: i)
        out.effects.append(.databaseWrite)
        out.decision = .ok
    }

    /// Arms the next start (and its reminder) of a curfew.
    mutating func armNextCurfew(_ i: Int, _ now: Instant, _ out: inout ScrollOffOutcome) {
        let c = curfews[i]
        guard c.spec.isActive, let next = c.spec.window.nextOccurrence(after: now, in: zone) else { return }
        out.timers.append(ScrollOffTimer(.curfewStart(c.id), at: next.lowerBound))
        let remind = next.lowerBound - parameters.curfewReminderLead
        if remind > now { out.timers.append(ScrollOffTimer(.curfewReminder(c.id), at: remind)) }
    }

    /// The window opens: `curfew_start(schedule_id, app_count)`; unlocks of affected apps end (spend settled).
    mutating func startCurfew(_ i: Int, _ now: Instant, _ out: inout ScrollOffOutcome) {
        guard let occ = activeOccurrence(curfews[i], now) else { return }
        let c = curfews[i]
        if c.lastStartAnnounced != occ.lowerBound {
            curfews[i].lastStartAnnounced = occ.lowerBound
            out.events.append(.curfewStart(schedule: c.id, appCount: c.spec.apps.count))
            out.effects.append(.monitorCallback)
        }
        var k = 0
        while k < accesses.count {
            let a = accesses[k]
            let covers = a.app == .safari ? c.spec.blockSafari : c.spec.apps.contains(a.app)
            if covers && !(a.kind == .token && parameters.tokensWorkDuringCurfew) {
                if foreground == a.app {
                    settleSpend(at: now, &out)
                    foreground = nil
                }
                accesses.remove(at: k)
                out.effects.append(.shieldShown(a.app))
            } else {
                k += 1
            }
        }
        if var p = pendingShield, c.spec.apps.contains(p.app) || (p.app == .safari && c.spec.blockSafari) {
            p.inCurfew = true
            pendingShield = p
        }
        if c.spec.blockSafari && !hardPaywallLocks { out.effects.append(.shieldShown(.safari)) }
        refreshEarning(now, &out)
        out.timers.append(ScrollOffTimer(.curfewEnd(c.id), at: occ.upperBound))
        armNextCurfew(i, now, &out)
        out.decision = .curfewStarted
    }

    /// Seed 000 §7.4 "During curfew, affected apps always shielded": a window opens at its start whatever the order in
    /// which the host delivers inputs and timers due at that instant (another curfew's end, a midnight). Applied lazily
    /// at the start of every call while curfews exist; the caller's decision stands.
    mutating func startDueCurfews(_ now: Instant, _ out: inout ScrollOffOutcome) {
        let decision = out.decision
        for i in curfews.indices {
            if let occ = activeOccurrence(curfews[i], now), curfews[i].lastStartAnnounced != occ.lowerBound { startCurfew(i, now, &out) }
        }
        out.decision = decision
    }

    mutating func curfewStartTimer(_ id: CurfewID, _ now: Instant, _ out: inout ScrollOffOutcome) {
        guard let i = curfews.firstIndex(where: { $0.id == id }), let occ = activeOccurrence(curfews[i], now) else { return }
        if curfews[i].lastStartAnnounced != occ.lowerBound {
            startCurfew(i, now, &out)
        } else if occ.lowerBound == now {
            out.decision = .curfewStarted      // opened at the start of this call (`startDueCurfews`)
        }
    }

    mutating func curfewEndTimer(_ id: CurfewID, _ now: Instant, _ out: inout ScrollOffOutcome) {
        guard let i = curfews.firstIndex(where: { $0.id == id }), activeOccurrence(curfews[i], now) == nil else { return }
        out.effects.append(.monitorCallback)
        if !hardPaywallLocks {
            if curfews[i].spec.blockSafari { out.effects.append(.shieldRemoved(.safari)) }
            for a in curfews[i].spec.apps where blockedIndex(a) == nil { out.effects.append(.shieldRemoved(a)) }
        }
        if var p = pendingShield, p.inCurfew, !curfewActive(for: p.app, at: now) { p.inCurfew = false; pendingShield = p }
        armNextCurfew(i, now, &out)
        out.decision = .curfewEnded
    }

    /// Seed 000 §6.5: "Curfew starts in 10 minutes" (opt-in, Premium/Pro).
    mutating func curfewReminderTimer(_ id: CurfewID, _ now: Instant, _ out: inout ScrollOffOutcome) {
        guard let i = curfews.firstIndex(where: { $0.id == id }), curfews[i].spec.isActive,
              let next = curfews[i].spec.window.nextOccurrence(after: now, in: zone),
              next.lowerBound - now <= parameters.curfewReminderLead else { return }
        out.decision = .ok
        if curfewReminders && tier >= .premium { out.effects.append(.notification(.curfewReminder)) }
    }
}
