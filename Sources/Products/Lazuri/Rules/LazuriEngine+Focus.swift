import RulesCore

/// Opening the app, permissions, the selection, schedules and the shield (seed `002_80c8c6af1a4e5690.txt` §3.2 Focus
/// Tab, §4.1.2, §4.2.2, §5.2, §5.4).
extension LazuriEngine {
    // MARK: Opening and permissions

    /// §4.1.8 "When a user opens the app, it automatically restores active monitoring schedules" (the engine's schedules
    /// never stop while enabled, so nothing is lost); §5.6.1 Game Center authenticates at launch; with
    /// `permissions.screen_time_ask = first_launch` an undetermined Screen Time permission is asked (§3.2).
    mutating func appOpened(_ now: Instant, _ out: inout LazuriOutcome) {
        appOpen = true
        tab = nil
        out.events.append(.appOpened(day: Int(zone.localDate(now) - installDate)))
        out.effects.append(.gameCenterRequest)
        if parameters.screenTimeAsk == .firstLaunch && screenTime == .notDetermined { askScreenTime(&out) }
    }

    /// A tab shown. Focus: "The app checks the authorisation status when users open the Focus tab. If it is not
    /// determined, the app will automatically request for a permission" (§5.2); denied: "users will see instructions to
    /// manually approve permissions through system settings". Learn: the current card appears (`onAppear`, §5.3.3).
    mutating func tabOpened(_ t: LazuriTab, _ out: inout LazuriOutcome) {
        guard appOpen else { out.decision = .refused(.appNotOpen); return }
        tab = t
        switch t {
        case .focus:
            switch screenTime {
            case .notDetermined: askScreenTime(&out)
            case .denied: out.decision = .settingsInstructions
            case .granted: break
            }
        case .learn: showCard(&out)
        case .compete: break
        }
    }

    mutating func askScreenTime(_ out: inout LazuriOutcome) {
        pendingPrompt = .screenTime
        out.events.append(.permissionRequested(.screenTime))
        out.effects.append(.askPermission(.screenTime))
        out.decision = .permissionPrompt(.screenTime)
    }

    /// The answer to the prompt, or a change in Settings: a denial of a permission held is a revocation (every shield
    /// lifts, `liftEveryShield`).
    mutating func screenTimeAnswered(_ granted: Bool, _ out: inout LazuriOutcome) {
        screenTime = granted ? .granted : .denied
        if pendingPrompt == .screenTime { pendingPrompt = nil }
        out.events.append(.screenTimePermissionResult(granted: granted))
        if !granted { liftEveryShield(&out) }
    }

    /// Screen Time withdrawn in Settings (§4.2.2 "or revokes permission from the system settings"): every shield lifts
    /// and every window running ends with no minutes (inventory Q15); the toggles stay, and windows block again from
    /// the next start once it is granted again (§4.1.8 monitoring restored).
    mutating func revokeScreenTime(_ now: Instant, _ out: inout LazuriOutcome) {
        screenTime = .denied
        out.events.append(.screenTimeRevoked)
        liftEveryShield(&out)
    }

    /// Without Screen Time no shield stays: every window blocking now ends with no minutes.
    mutating func liftEveryShield(_ out: inout LazuriOutcome) {
        for i in schedules.indices where schedules[i].block != nil {
            schedules[i].block = nil
            out.events.append(.blockEnded(schedules[i].id, outcome: .interrupted, minutes: 0))
        }
        for s in lingering { out.events.append(.blockEnded(s.id, outcome: .interrupted, minutes: 0)) }
        lingering.removeAll()
        shield = nil
    }

    // MARK: Selection (§3.2 App & Category Selection, §5.2)

    /// "Lock the selection UI while any schedule is active" (§3.2); "Users won't be able to edit … the app selection"
    /// (§4.2.2). An empty selection is allowed and blocks nothing (inventory S10).
    mutating func setSelection(_ s: BlockSelection, _ out: inout LazuriOutcome) {
        guard screenTime == .granted else { out.decision = .refused(.noScreenTime); return }
        guard !selectionLocked else {
            out.decision = .refused(.selectionLocked)
            out.events.append(.selectionEditBlocked)
            return
        }
        selection = BlockSelection(apps: max(0, s.apps), categories: max(0, s.categories), domains: max(0, s.domains))
        out.events.append(.selectionUpdated(apps: selection.apps, categories: selection.categories, domains: selection.domains))
        out.effects.append(.databaseWrite)
        out.decision = .updated
    }

    // MARK: Schedules (§3.2 Schedule Management, §4.2.2, §5.2, §6.1.2)

    /// "Minimum duration is 15 minutes (platform constraint)" (§3.2), by the code's own duration (§5.2 Figure 17).
    mutating func tooShort(_ spec: ScheduleSpec, _ out: inout LazuriOutcome) -> Bool {
        guard spec.durationMinutes < parameters.minWindowMinutes else { return false }
        out.decision = .refused(.intervalTooShort)
        out.events.append(.scheduleRejected(reason: .intervalTooShort))
        return true
    }

    /// "+" → Create Schedule (§4.2.2): a named schedule, saved switched off; a window under the minimum is refused and
    /// nothing is stored (§5.2 `throw DeviceActivityError.intervalTooShort`; inventory Q9).
    mutating func createSchedule(_ spec: ScheduleSpec, _ now: Instant, _ out: inout LazuriOutcome) {
        guard screenTime == .granted else { out.decision = .refused(.noScreenTime); return }
        guard schedules.count < parameters.maxSavedSchedules else {
            out.decision = .refused(.tooManySchedules)
            out.events.append(.scheduleRejected(reason: .tooManySchedules))
            return
        }
        guard !tooShort(spec, &out) else { return }
        let id = nextScheduleID
        nextScheduleID &+= 1
        schedules.append(LazuriSchedule(id: id, spec: spec, enabled: false, nextWindow: nil, block: nil))
        out.events.append(.scheduleCreated(id, durationMinutes: spec.durationMinutes, crossesMidnight: spec.crossesMidnight, days: spec.days))
        out.effects.append(.databaseWrite)
        out.decision = .scheduleCreated(id)
    }

    /// "edit only when inactive" (§3.2); "Users won't be able to edit an active schedule" (§4.2.2). What "active" means
    /// is `schedules.active_means`. An edited enabled schedule (possible only with `in_window`) takes its new times from
    /// its next start.
    mutating func editSchedule(_ id: ScheduleID, _ spec: ScheduleSpec, _ now: Instant, _ out: inout LazuriOutcome) {
        guard screenTime == .granted else { out.decision = .refused(.noScreenTime); return }
        guard let i = index(of: id) else { out.decision = .refused(.notFound); return }
        guard !isActive(schedules[i]) else {
            out.decision = .refused(.editWhileActive)
            out.events.append(.scheduleRejected(reason: .editWhileActive))
            return
        }
        guard !tooShort(spec, &out) else { return }
        schedules[i].spec = spec
        if schedules[i].enabled && schedules[i].block == nil {
            schedules[i].nextWindow = window(spec).nextOccurrence(after: now, in: zone)
        }
        out.events.append(.scheduleEdited(id, durationMinutes: spec.durationMinutes))
        out.effects.append(.databaseWrite)
        out.decision = .updated
    }

    /// The toggle on (§3.2; §5.2 `startMonitoring`): "Users can only have one schedule active at a time" (§6.1.2,
    /// `schedules.max_enabled`). Switched on inside one of its windows, the shield goes up at once and the session counts
    /// from then (assumption: DeviceActivity starts an interval already under way). The schedule "will remain functional
    /// unless the toggle is deactivated by the user" (§4.2.2): it repeats. The notification permission is asked at the
    /// first switch-on (`permissions.notifications_at_first_enable`).
    mutating func enable(_ id: ScheduleID, _ now: Instant, _ out: inout LazuriOutcome) {
        guard screenTime == .granted else { out.decision = .refused(.noScreenTime); return }
        guard let i = index(of: id) else { out.decision = .refused(.notFound); return }
        if schedules[i].enabled { out.decision = .updated; return }
        guard enabledCount < parameters.maxEnabledSchedules else {
            out.decision = .refused(.anotherActive)
            out.events.append(.scheduleRejected(reason: .anotherActive))
            return
        }
        schedules[i].enabled = true
        let w = window(schedules[i].spec)
        schedules[i].nextWindow = w.nextOccurrence(after: now, in: zone)
        out.events.append(.scheduleEnabled(id))
        out.effects.append(.databaseWrite)
        if parameters.askNotificationsAtFirstEnable && notifications == .notDetermined && pendingPrompt == nil {
            pendingPrompt = .notifications
            out.events.append(.permissionRequested(.notifications))
            out.effects.append(.askPermission(.notifications))
        }
        var blocking = false
        if let r = w.occurrence(containing: now, in: zone), lingering.allSatisfy({ $0.id != id }) {
            beginBlock(i, now..<r.upperBound, &out)
            blocking = true
        }
        out.decision = .scheduleEnabled(id, blocking: blocking)
    }

    /// The toggle off or delete, "at any time" (§3.2 "delete anytime"; §4.2.4 "they can choose when to start or stop
    /// it"). Inside a window, `schedules.switch_off_mid_window` decides: the shield lifts at once (prose) or stays until
    /// the window's end (code); either way the window earns no minutes (inventory Q4).
    mutating func switchOff(_ id: ScheduleID, _ change: ScheduleChange, _ now: Instant, _ out: inout LazuriOutcome) {
        guard let i = index(of: id) else { out.decision = .refused(.notFound); return }
        if change == .disabled && !schedules[i].enabled { out.decision = .updated; return }
        let during = schedules[i].block != nil
        if let b = schedules[i].block {
            schedules[i].block = nil
            if parameters.midWindowSwitchOff == .keepUntilEnd {
                var s = schedules[i]
                s.block = b
                lingering.append(s)
            } else {
                out.events.append(.blockEnded(id, outcome: .interrupted, minutes: 0))
            }
        }
        schedules[i].enabled = false
        schedules[i].nextWindow = nil
        if change == .deleted {
            schedules.remove(at: i)
            out.events.append(.scheduleDeleted(id, duringWindow: during))
        } else {
            out.events.append(.scheduleDisabled(id, duringWindow: during))
        }
        out.effects.append(.databaseWrite)
        if !isBlocking { shield = nil }
        out.decision = .updated
    }

    // MARK: The shield (§5.4.2, §5.4.3)

    /// Opening something in the selection while a window blocks shows the shield: "Remember the promises you made to your
    /// future self:" over the promise (or "Write your promises to your future self"), one button (§5.4.2). Otherwise
    /// the app opens.
    mutating func blockedTargetOpened(_ t: BlockTarget, _ now: Instant, _ out: inout LazuriOutcome) {
        guard screenTime == .granted, isBlocking, selection.covers(t) else { out.decision = .notBlocked; return }
        shield = t
        out.events.append(.shieldShown(t, hasPromise: promiseLength > 0))
        out.effects.append(.shieldRender)
        out.decision = .shieldShown(t, promise: promiseLength > 0)
    }

    /// "I won't break my promise!" (§5.4.3): on an app or category shield the extension posts "Note to self:" with the
    /// promise (or "Stay focused on your goals!") and returns `.close`; on a web domain it returns `.close` only
    /// (Figure 27). The notification needs the notification permission (assumption).
    mutating func shieldPrimaryPressed(_ out: inout LazuriOutcome) {
        guard let t = shield else { out.decision = .refused(.noShield); return }
        shield = nil
        out.events.append(.promiseKeptPressed(t))
        out.effects.append(.monitorCallback)
        var note = false
        if t != .domain && notifications == .granted {
            note = true
            out.events.append(.noteToSelfSent(defaultText: promiseLength == 0))
            out.effects.append(.notification)
        }
        out.decision = .shieldClosed(noteToSelf: note)
    }

    /// The person leaves the shield by the home gesture (assumption: the OS allows it; the thesis has only the button).
    mutating func shieldDismissed(_ out: inout LazuriOutcome) {
        guard let t = shield else { out.decision = .refused(.noShield); return }
        shield = nil
        out.events.append(.shieldLeftWithoutAction(t))
        out.decision = .ok
    }
}

extension LazuriEngine {
    /// The hourglass's second label (§5.5.1 Figure 29 `formatHoursAndMinutes`): "2 hour(s) 30 minute(s)", "1 hour(s)",
    /// or empty under an hour.
    public static func formatHoursAndMinutes(_ totalMinutes: Int) -> String {
        let hours = totalMinutes / 60, minutes = totalMinutes % 60
        if hours > 0 && minutes > 0 { return "\(hours) hour(s) \(minutes) minute(s)" }
        if hours > 0 { return "\(hours) hour(s)" }
        return ""
    }
}
