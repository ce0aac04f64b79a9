import RulesCore

/// The One-Thing View and the item lifecycle: opening, onboarding, ordering, done / skip / snooze / let go, snooze
/// presets, staleness and overdue. Seed 001 §4 Feature 3, Feature 4, §5 Screen 1, 3, 5, 7.
extension NudgeEngine {
    /// Nudge comes to the foreground: pending shares are ingested (seed 001 §4 Feature 2 "ingests into SwiftData on
    /// next launch"), a notification prompt owed by a first share is asked (inventory C17), a paywall owed by a
    /// refused share shows (inventory R40), and the One-Thing card is shown (seed 001 §4 Feature 3 "When you open the
    /// app, you see ONE task card").
    mutating func appOpened(_ via: OpenVia, _ now: Instant, _ out: inout NudgeOutcome) {
        appOpen = true
        out.events.append(.appOpened(via: via, day: Int(zone.localDate(now) - installDate)))
        for k in open where !items[k].ingested { ingest(items[k].id, &out) }
        if notificationPromptOwed {
            notificationPromptOwed = false
            if notificationPermission == .unasked { askPermission(.notifications, &out) }
        }
        if shareLimitPaywallOwed {
            shareLimitPaywallOwed = false
            if !isPro { showPaywall(.shareLimit, &out) }
        }
        shown = .nothing
        refreshCard(now, &out)
        if case .card(let id) = shown { out.decision = .cardShown(id) } else { out.decision = .allClear }
    }

    /// Seed 001 §5 Screen 7 "Maximum 3 screens, skippable" (first launch only): completed or skipped, once.
    mutating func onboarding(_ panels: Int, _ skipped: Bool, _ out: inout NudgeOutcome) {
        guard !onboardingDone else { out.decision = .refused(.nothingPending); return }
        onboardingDone = true
        let n = min(max(panels, 0), 3)
        out.events.append(skipped ? .onboardingSkipped(panels: n) : .onboardingCompleted(panels: n))
        out.decision = .updated
    }

    // MARK: - Ordering (R22)

    /// Seed 001 §4 Feature 3 "Ordering logic | Items with specific due times first → overdue items → most recently
    /// added → shared/snoozed items approaching their time", read as (inventory R22, C7, assumption): due today
    /// (earliest first) → overdue (oldest due first) → the rest, newest `createdAt` first → skipped cards at the end in
    /// skip order; snoozed items are hidden until due, shares until ingested. Ties: the newer id first.
    func precedes(_ a: NudgeItem, _ b: NudgeItem, today d: LocalDate) -> Bool {
        if (a.skipSeq != nil) != (b.skipSeq != nil) { return b.skipSeq != nil }
        if let x = a.skipSeq, let y = b.skipSeq { return x < y }
        let ga = group(a, d), gb = group(b, d)
        if ga != gb { return ga < gb }
        switch ga {
        case 0, 1: if a.dueAt! != b.dueAt! { return a.dueAt! < b.dueAt! }
        default: if a.createdAt != b.createdAt { return a.createdAt > b.createdAt }
        }
        return a.id > b.id
    }

    /// 0 due today, 1 overdue, 2 neither.
    func group(_ i: NudgeItem, _ d: LocalDate) -> Int {
        guard let due = i.dueAt else { return 2 }
        return zone.localDate(due) == d ? 0 : 1
    }

    /// The One-Thing card at `t`: the first item of the queue.
    public func currentCard(at t: Instant) -> NudgeItem? {
        let d = zone.localDate(t)
        var best = -1
        items.withUnsafeBufferPointer { b in
            for k in open where b[k].status == .active && b[k].ingested {
                if best < 0 || precedes(b[k], b[best], today: d) { best = k }
            }
        }
        return best < 0 ? nil : items[best]
    }

    /// The whole queue at `t`, in showing order (seed 001 §5 Screen 3 "Up Next").
    public func queue(at t: Instant) -> [ItemID] {
        let d = zone.localDate(t)
        return open.map { items[$0] }.filter { $0.status == .active && $0.ingested }.sorted { precedes($0, $1, today: d) }.map(\.id)
    }

    /// Seed 001 §4 Feature 4 "🟠 Amber = stale (3+ days untouched) · 🔴 Red = overdue": stale = `nudges.stale_hours`
    /// since max(created, resurfaced, edited) (inventory C6); overdue = active on a later local date than the due time
    /// it resurfaced at (inventory R18); red beats amber.
    public func color(of i: NudgeItem, at t: Instant) -> CardColor {
        if let due = i.dueAt, zone.localDate(t) > zone.localDate(due) { return .red }
        return isStale(i, at: t) ? .amber : .blue
    }

    /// The item is active and untouched for `nudges.stale_hours`.
    public func isStale(_ i: NudgeItem, at t: Instant) -> Bool { i.status == .active && t >= i.touchedAt + parameters.staleSpan }

    /// While the app is open, shows the card that is first now if it changed (`card_shown`, with its draft or teaser),
    /// or the empty state (`all_clear`, seed 001 §4 Feature 3 "Your brain is clear. Go enjoy something.").
    mutating func refreshCard(_ now: Instant, _ out: inout NudgeOutcome) {
        guard appOpen else { return }
        guard let c = currentCard(at: now) else {
            if shown != .allClear { shown = .allClear; out.events.append(.allClear) }
            return
        }
        guard shown != .card(c.id) else { return }
        shown = .card(c.id)
        out.events.append(.cardShown(c.id, color: color(of: c, at: now), ref: c.ref))
        cardShown(c.id, now, &out)
    }

    /// Items became stale (inventory C6): reported once per touch.
    mutating func markStale(at t: Instant, _ out: inout NudgeOutcome) {
        for k in open where items[k].status == .active && !items[k].staleReported && t >= items[k].touchedAt + parameters.staleSpan {
            items[k].staleReported = true
            out.events.append(.itemBecameStale(items[k].id, ref: items[k].ref))
        }
    }

    // MARK: - Done, skip, snooze, let go (seed 001 §4 Feature 3, §5 Screen 3)

    /// The item for an input that needs it open (active or snoozed), or a refusal.
    func openItem(_ id: ItemID, _ out: inout NudgeOutcome) -> Int? {
        guard let i = item(id) else { out.decision = .refused(.notFound); return nil }
        guard i.status.isOpen else { out.decision = .refused(.notActive); return nil }
        return Int(id) - 1
    }

    /// Takes a done or dropped item off the open list.
    mutating func close(_ k: Int) {
        if let j = open.firstIndex(of: k) { open.remove(at: j) }
    }

    /// "Done (mark complete, next card slides in)" (seed 001 §4 Feature 3); also from All Items on a snoozed item.
    mutating func done(_ id: ItemID, _ now: Instant, _ out: inout NudgeOutcome) {
        guard let k = openItem(id, &out) else { return }
        items[k].status = .done
        close(k)
        items[k].completedAt = now
        items[k].snoozedUntil = nil
        items[k].skipSeq = nil
        out.events.append(.itemDone(id, ref: items[k].ref))
        out.effects.append(.databaseWrite)
        liveActivityTaskChanged(&out)
        out.decision = .updated
    }

    /// "Skip (push to end of queue, next card)" (seed 001 §4 Feature 3): skipped cards follow the others in skip order
    /// until 00:00; a skip is no touch (staleness keeps counting; inventory R14, assumption).
    mutating func skip(_ id: ItemID, _ out: inout NudgeOutcome) {
        guard let k = openItem(id, &out) else { return }
        guard items[k].status == .active else { out.decision = .refused(.notActive); return }
        items[k].skipSeq = nextSkipSeq
        nextSkipSeq += 1
        out.events.append(.itemSkipped(id, ref: items[k].ref))
        liveActivityTaskChanged(&out)
        out.decision = .updated
    }

    /// "Snooze (pick new time, card disappears until then)" (seed 001 §4 Feature 3, §5 Screen 5); a snoozed item gets
    /// a new time the same way ("change snooze time", §5 Screen 3). The first snooze asks the notification permission
    /// (seed 001 §5 Screen 7 "notifications on first snooze"): the snooze is done and the decision says the prompt is up.
    mutating func snooze(_ id: ItemID, _ preset: SnoozePreset, _ now: Instant, _ out: inout NudgeOutcome) {
        guard let k = openItem(id, &out) else { return }
        items[k].status = .snoozed
        items[k].snoozedUntil = resurfaceTime(preset, from: now)
        items[k].skipSeq = nil
        items[k].dueAt = nil
        out.events.append(.itemSnoozed(id, preset: preset, ref: items[k].ref))
        out.effects.append(.databaseWrite)
        liveActivityTaskChanged(&out)
        out.decision = .updated
        if notificationPermission == .unasked {
            notificationPromptOwed = false
            askPermission(.notifications, &out)
            out.decision = .needsPermission(.notifications)
        }
    }

    /// "Let it go" (inventory R19, the stale copy "Want to do it now or let it go?" of seed 001 §4 Feature 5): dropped.
    mutating func letGo(_ id: ItemID, _ out: inout NudgeOutcome) {
        guard let k = openItem(id, &out) else { return }
        items[k].status = .dropped
        close(k)
        items[k].snoozedUntil = nil
        items[k].skipSeq = nil
        out.events.append(.itemDropped(id, ref: items[k].ref))
        out.effects.append(.databaseWrite)
        liveActivityTaskChanged(&out)
        out.decision = .updated
    }

    /// Snoozed items come back at their time (seed 001 §4 Feature 3, Feature 2 "At the chosen time, a notification
    /// appears"): active again, due at that time (inventory R18), the stale clock restarted (C6). Items resurfacing at
    /// the same instant share one nudge (inventory R27).
    mutating func resurface(at t: Instant, _ out: inout NudgeOutcome) {
        var back: [ItemID] = []
        for k in open where items[k].status == .snoozed && items[k].snoozedUntil! <= t {
            items[k].status = .active
            items[k].dueAt = items[k].snoozedUntil
            items[k].snoozedUntil = nil
            items[k].touchedAt = t
            items[k].staleReported = false
            out.events.append(.itemResurfaced(items[k].id, ref: items[k].ref))
            back.append(items[k].id)
        }
        if !back.isEmpty { nudge(.resurfacing, back, at: t, &out) }
    }

    // MARK: - Snooze presets (seed 001 §5 Screen 5)

    /// Seed 001 §5 Screen 5 "Quick options: "Later today" (3 hours), "Tomorrow morning" (9am), "This weekend" (Saturday
    /// 10am), "Next week" (Monday 9am)", with the inventory's readings (R15, assumption): later today is +3 h even past
    /// midnight or into quiet hours; tomorrow morning is the next date at 09:00; this weekend is Saturday 10:00 — on a
    /// Saturday from 10:00 Sunday 10:00, on a Sunday next Saturday; next week is the coming Monday 09:00 (on a Monday,
    /// a week on). Wall-clock times through the zone: exact across DST.
    public func resurfaceTime(_ p: SnoozePreset, from now: Instant) -> Instant {
        let d = zone.localDate(now)
        let wd = d.weekday.rawValue       // Monday 1 … Sunday 7
        switch p {
        case .laterToday:
            return now + .hours(Int64(parameters.laterTodayHours))
        case .tomorrowMorning:
            return zone.instant(on: d + 1, at: Self.hour(parameters.tomorrowHour))
        case .thisWeekend:
            let h = Self.hour(parameters.weekendHour)
            switch wd {
            case 6:
                let sat = zone.instant(on: d, at: h)
                return sat > now ? sat : zone.instant(on: d + 1, at: h)
            case 7: return zone.instant(on: d + 6, at: h)
            default: return zone.instant(on: d + Int64(6 - wd), at: h)
            }
        case .nextWeek:
            return zone.instant(on: d + Int64(8 - wd), at: Self.hour(parameters.nextWeekHour))
        }
    }

    // MARK: - Permissions

    /// Shows an OS permission prompt.
    mutating func askPermission(_ kind: PermissionKind, _ out: inout NudgeOutcome) {
        pendingPermission = kind
        out.events.append(.permissionRequested(kind))
        out.effects.append(.askPermission(kind))
    }

    /// The OS's answer (or a change in Settings). A dump waiting for the microphone is recorded when granted and
    /// discarded when denied; an action waiting for contacts shows the picker, or opens without a contact.
    mutating func permission(_ kind: PermissionKind, _ granted: Bool, _ now: Instant, _ out: inout NudgeOutcome) {
        if pendingPermission == kind { pendingPermission = nil }
        let state: PermissionState = granted ? .granted : .denied
        out.events.append(.permissionResult(kind, granted: granted))
        out.decision = .updated
        switch kind {
        case .microphone:
            micPermission = state
            if let d = pendingDump {
                pendingDump = nil
                if granted { brainDump(d, online: online, now, &out) }
            }
        case .notifications:
            notificationPermission = state
        case .contacts:
            contactsPermission = state
            if let id = pendingContactItem, let i = item(id), i.status == .active, let a = i.action {
                if granted { out.effects.append(.contactPicker); out.decision = .contactPickerShown(id) }
                else { pendingContactItem = nil; openAction(a, i, &out) }
            }
        }
    }
}
