import RulesCore

/// Nudge notifications: the three types, the daily cap, quiet hours, tiers, user control, replies. Seed 001 §4
/// Feature 5: Gentle Nudge Notifications, §7 Pricing Model.
extension NudgeEngine {
    /// Sends one nudge about `ids` (the first named; several items resurfacing together share it) at `t`, or says why
    /// not. The rules, in order:
    /// - notifications not granted or switched off in the OS → `no_permission` (a resurfacing still happens, silently);
    /// - Free gets "Basic (snoozed items only)" (seed 001 §7 Pricing Model; inventory C4) → `tier` for stale / EOD;
    /// - "Can disable specific nudge types" → `type_off`; "Can mute nudges for today" → `muted` (§4 Feature 5);
    /// - "Never after 9pm. Never before 8am" (`nudges.quiet_*_hour`): a resurfacing is deferred to the end of quiet
    ///   hours (inventory R27), another type is suppressed (`quiet`);
    /// - "Max 3 nudges per day" (`nudges.max_per_day`, every type and deferred ones counted) → `cap`: a silent return;
    /// - else sent, with buttons on Pro only ("Actionable notification buttons ❌ / ✅", §7).
    mutating func nudge(_ kind: NudgeKind, _ ids: [ItemID], at t: Instant, _ out: inout NudgeOutcome) {
        guard let first = ids.first else { return }
        let why: SuppressReason?
        if notificationPermission != .granted || !notificationsAllowed { why = .noPermission }
        else if kind != .resurfacing && !isPro { why = .tier }
        else if !typeOn[kind.index] { why = .typeOff }
        else if mutedToday { why = .muted }
        else if isQuiet(t) {
            guard kind == .resurfacing else { out.events.append(.nudgeSuppressed(kind, item: first, reason: .quiet)); return }
            for id in ids where !deferred.contains(id) {
                deferred.append(id)
                out.events.append(.nudgeDeferred(kind, item: id, ref: items[Int(id) - 1].ref))
            }
            let end = zone.nextOccurrence(of: Self.hour(parameters.quietEndHour), after: t)
            quietEndAt = min(quietEndAt ?? end, end)
            return
        }
        else if nudgesSentToday >= parameters.maxNudgesPerDay { why = .cap }
        else { why = nil }
        if let why {
            out.events.append(.nudgeSuppressed(kind, item: first, reason: why))
            return
        }
        nudgesSentToday += 1
        sentToday.append(t)
        if kind == .stale { items[Int(first) - 1].lastStaleNudgeAt = t }
        out.events.append(.nudgeSent(kind, item: first, ref: items[Int(first) - 1].ref, buttons: isPro, merged: ids.count))
        out.effects.append(.notification)
    }

    /// The end of quiet hours: the deferred resurfacings still active go out as one nudge (inventory R27).
    mutating func flushDeferred(at t: Instant, _ out: inout NudgeOutcome) {
        quietEndAt = nil
        let ids = deferred.filter { item($0)?.status == .active }
        deferred.removeAll()
        if !ids.isEmpty { nudge(.resurfacing, ids, at: t, &out) }
    }

    /// Pro's stale check-in at `nudges.stale_hour` (seed 001 §4 Feature 5 "(2) Stale item check-in (3+ days old)";
    /// time and choice are assumptions, inventory R26): about the oldest stale active item not checked in on within
    /// `nudges.stale_hours`; nothing when there is none. On Free the moment is still reached and the check-in
    /// suppressed for its tier (`nudge_suppressed(reason: tier)`, §7 "Basic (snoozed items only)"), so reports can
    /// show what Free misses (audit N14).
    mutating func staleCheckIn(at t: Instant, _ out: inout NudgeOutcome) {
        markStale(at: t, &out)
        var pick: NudgeItem?
        for k in open where items[k].ingested && isStale(items[k], at: t) {
            let i = items[k]
            if let last = i.lastStaleNudgeAt, t < last + parameters.staleSpan { continue }
            if pick == nil || (i.createdAt, i.id) < (pick!.createdAt, pick!.id) { pick = i }
        }
        if let pick { nudge(.stale, [pick.id], at: t, &out) }
    }

    /// Pro's end-of-day prompt at `nudges.end_of_day_hour` when ≥ 1 item is active (seed 001 §4 Feature 5 "(3)
    /// End-of-day "one thing left" prompt", copy "It's 4pm — you've got one big thing left"; inventory R26), about the
    /// One-Thing card. On Free: `nudge_suppressed(reason: tier)` at the same moment (audit N14).
    mutating func endOfDayPrompt(at t: Instant, _ out: inout NudgeOutcome) {
        guard let c = currentCard(at: t) else { return }
        nudge(.endOfDay, [c.id], at: t, &out)
    }

    // MARK: - Replies (seed 001 §4 Feature 5 Actionable notifications)

    /// A reply to a nudge. Buttons are Pro-only (§7; inventory C4): refused on Free. `open` (a tap on the banner) opens
    /// the app; "Call Now" / "Send Text" "route through the app first" and open the action; "Tomorrow" snoozes to
    /// tomorrow morning "silently in the background"; "Do it now" opens the app; "Let it go" drops the item in the
    /// background (inventory R28).
    mutating func notificationReply(_ id: ItemID?, _ kind: NudgeKind, _ reply: NotificationReply, _ now: Instant, _ out: inout NudgeOutcome) {
        if reply.isButton && !isPro { out.decision = .refused(.proOnly); return }
        if reply == .open { out.events.append(.nudgeOpened(kind, item: id)) } else { out.events.append(.nudgeAction(kind, item: id, action: reply)) }
        switch reply {
        case .open, .doItNow:
            appOpened(.notification, now, &out)
        case .callNow, .sendText:
            appOpened(.notification, now, &out)
            if let id { actionTapped(id, &out) }
        case .tomorrow:
            out.effects.append(.backgroundWake)
            if let id { snooze(id, .tomorrowMorning, now, &out) } else { out.decision = .updated }
        case .letItGo:
            out.effects.append(.backgroundWake)
            if let id { letGo(id, &out) } else { out.decision = .updated }
        }
    }

    // MARK: - User control (seed 001 §4 Feature 5 User control, §5 Screen 4)

    /// "Can mute nudges for today": until 00:00 local.
    mutating func muteToday(_ out: inout NudgeOutcome) {
        if !mutedToday { mutedToday = true; out.events.append(.nudgesMutedToday) }
        out.decision = .updated
    }

    /// "Can disable specific nudge types in settings".
    mutating func setNudgeType(_ k: NudgeKind, _ on: Bool, _ out: inout NudgeOutcome) {
        if typeOn[k.index] != on {
            typeOn[k.index] = on
            out.events.append(on ? .nudgeTypeEnabled(k) : .nudgeTypeDisabled(k))
        }
        out.decision = .updated
    }

    /// The OS switch for Nudge's notifications (seed 001 §2 "Aggressive buzzing → user disables all notifications").
    mutating func setNotificationsAllowed(_ on: Bool, _ out: inout NudgeOutcome) {
        if notificationsAllowed != on {
            notificationsAllowed = on
            out.events.append(on ? .notificationsEnabled : .notificationsDisabled)
        }
        out.decision = .updated
    }
}
