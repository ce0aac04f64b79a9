import RulesCore

/// Modes, keys (assign, rename, remove), enrolment, onboarding and "Delete my key" (seed `004_8fa1e69c755a74b3.txt`
/// §5.1, §5.2, §5.6, §6.1, §6.2, §7 Enrollment Process, §9).
extension ClavisEngine {
    // MARK: Onboarding (§5.6, §6.1)

    /// Onboarding's steps in order: §6.1's (apps chosen in "Create First Mode", before the key) or, with
    /// `onboarding.apps_before_key` false, §5.6's (key, then apps).
    public var onboardingOrder: [OnboardingStep] {
        parameters.appsBeforeKey
            ? [.welcome, .createMode, .selectApps, .enrolMainKey, .temporaryKeys, .configureFocus, .complete]
            : [.welcome, .createMode, .enrolMainKey, .selectApps, .temporaryKeys, .configureFocus, .complete]
    }

    /// Onboarding is over: the main screen shows (§6.1 Complete).
    public var onboardingDone: Bool { onboardingIndex >= onboardingOrder.count }

    /// The step showing now (nil once onboarding is over).
    public var onboardingStep: OnboardingStep? { onboardingDone ? nil : onboardingOrder[onboardingIndex] }

    /// Whether the step's work is done: a first mode, its apps, its main key, a validated Focus; the welcome, the
    /// optional temporary keys ("Optionally choose & enroll temporary key(s)") and the last screen need nothing.
    func stepDone(_ s: OnboardingStep) -> Bool {
        switch s {
        case .welcome, .temporaryKeys, .complete: true
        case .createMode: !modes.isEmpty
        case .selectApps: (modes.first?.apps ?? 0) > 0
        case .enrolMainKey: modes.first?.mainKey != nil
        case .configureFocus: focusReady
        }
    }

    mutating func onboardingNext(_ out: inout ClavisOutcome) {
        guard let s = onboardingStep, stepDone(s) else { out.decision = .refused(.stepIncomplete); return }
        onboardingIndex += 1
        out.events.append(.onboardingStepCompleted(s))
        if s == .complete {
            // "User is taken to the main screen (Unlocked state, first mode active)."
            activeMode = modes.first?.id
            out.decision = .ok
        } else {
            out.decision = .onboardingStep(onboardingOrder[onboardingIndex])
        }
    }

    // MARK: Modes (§5.2, §6.2)

    mutating func createMode(_ apps: Int, _ temporaryApps: Int, _ out: inout ClavisOutcome) {
        guard apps >= 0, temporaryApps >= 0 else { out.decision = .refused(.invalid); return }
        guard modes.count < parameters.maxModes else { out.decision = .refused(.tooManyModes); return }
        let id = nextModeID
        nextModeID += 1
        modes.append(ClavisMode(id: id, apps: apps, temporaryApps: min(temporaryApps, apps), mainKey: nil, temporaryKeys: []))
        if activeMode == nil { activeMode = id }
        out.events.append(.modeCreated(id, apps: apps))
        out.effects.append(.secureWrite)
        out.decision = .modeCreated(id)
    }

    mutating func editMode(_ id: ModeID, _ apps: Int, _ temporaryApps: Int, _ out: inout ClavisOutcome) {
        guard let i = modeIndex(id) else { out.decision = .refused(.notFound); return }
        guard apps >= 0, temporaryApps >= 0 else { out.decision = .refused(.invalid); return }
        guard !isLocked(id) || parameters.editWhileLocked else { out.decision = .refused(.modeLocked); return }
        modes[i].apps = apps
        modes[i].temporaryApps = min(temporaryApps, apps)
        out.events.append(.modeEdited(id))
        out.effects.append(.secureWrite)
        // The Focus showing this mode follows the new configuration.
        if focusMode == id { out.effects.append(.focusOn(apps: lock?.temporaryUntil != nil && isLocked(id) ? apps - modes[i].temporaryApps : apps)) }
    }

    /// Deletes a mode (§6.2). The locked mode only with `modes.edit_while_locked`: its lock then ends without its key
    /// (a bypass, like "Delete my key").
    mutating func deleteMode(_ id: ModeID, _ now: Instant, _ out: inout ClavisOutcome) {
        guard let i = modeIndex(id) else { out.decision = .refused(.notFound); return }
        guard !isLocked(id) || parameters.editWhileLocked else { out.decision = .refused(.modeLocked); return }
        if scan?.mode == id { abandonScan(now, &out) }
        if enrolment?.mode == id { cancelEnrolment(now, &out) }
        if isLocked(id) { dropLock(.reset, &out) }
        modes.remove(at: i)
        if activeMode == id { activeMode = modes.first?.id }
        if focusMode == id, let l = lock, let j = modeIndex(l.mode) {
            // The Focus had switched to this mode (`switch_focus`): back to the locked mode's apps.
            focusMode = l.mode
            out.effects.append(.focusOn(apps: modes[j].apps))
        }
        out.events.append(.modeDeleted(id))
        out.effects.append(.secureWrite)
    }

    /// §3 Select Active Mode. While a mode is locked: refused, or (`switch_focus`, §8) the Focus shows the new mode's
    /// apps while the lock stays the locked mode's.
    mutating func switchMode(_ id: ModeID, _ out: inout ClavisOutcome) {
        guard let i = modeIndex(id) else { out.decision = .refused(.notFound); return }
        guard activeMode != id else { return }
        guard scan == nil else { out.decision = .refused(.scanInProgress); return }
        if lock != nil {
            guard parameters.switchWhileLocked == .switchFocus else { out.decision = .refused(.modeLocked); return }
            activeMode = id
            focusMode = id
            out.effects.append(.focusOn(apps: modes[i].apps))
            out.events.append(.modeSwitched(to: id, whileLocked: true))
        } else {
            activeMode = id
            out.events.append(.modeSwitched(to: id, whileLocked: false))
        }
    }

    // MARK: Keys (§5.1, §5.2; §3 Reuse Key, Replace Key)

    /// Whether `role` may change on mode `id` now: a temporary key only on an unlocked mode (or with
    /// `modes.edit_while_locked`), the main key only on an unlocked mode (or with `keys.replace_while_locked`).
    func mayChangeKey(_ id: ModeID, _ role: KeyRole) -> Bool {
        guard isLocked(id) else { return true }
        return role == .main ? parameters.replaceKeyWhileLocked : parameters.editWhileLocked
    }

    /// Assigns a stored key to a mode: as main key (replacing the old one, which stays stored), or as one more temporary
    /// key. A key is never both the main key and a temporary key of one mode.
    mutating func assign(_ key: KeyID, to i: Int, _ role: KeyRole, _ out: inout ClavisOutcome) {
        let id = modes[i].id
        switch role {
        case .main:
            if let old = modes[i].mainKey, old != key { out.events.append(.keyReplaced(id, whileLocked: isLocked(id))) }
            modes[i].mainKey = key
        case .temporary:
            modes[i].temporaryKeys.append(key)
        }
        out.events.append(.keyAssigned(key, id, role))
        out.effects.append(.secureWrite)
    }

    mutating func assignKey(_ key: KeyID, _ mode: ModeID, _ role: KeyRole, _ out: inout ClavisOutcome) {
        guard let i = modeIndex(mode), keys.contains(where: { $0.id == key }) else { out.decision = .refused(.notFound); return }
        guard scan == nil else { out.decision = .refused(.scanInProgress); return }
        guard mayChangeKey(mode, role) else { out.decision = .refused(.modeLocked); return }
        let m = modes[i]
        switch role {
        case .main:
            guard !m.temporaryKeys.contains(key) else { out.decision = .refused(.sameKeyTwice); return }
            guard m.mainKey != key else { return }
        case .temporary:
            guard m.mainKey != key else { out.decision = .refused(.sameKeyTwice); return }
            guard !m.temporaryKeys.contains(key) else { return }
            guard m.temporaryKeys.count < parameters.maxTemporaryKeys else { out.decision = .refused(.tooManyTemporaryKeys); return }
        }
        assign(key, to: i, role, &out)
    }

    /// §5.1 "Allow keys to be updated, renamed, or removed": the name is the app's (the engine stores none), so a
    /// rename is its event and the write.
    mutating func renameKey(_ key: KeyID, _ out: inout ClavisOutcome) {
        guard keys.contains(where: { $0.id == key }) else { out.decision = .refused(.notFound); return }
        out.events.append(.keyRenamed(key))
        out.effects.append(.secureWrite)
    }

    /// Why the temporary key `key` may not leave mode `i` now: the locked mode's temporary keys change only with
    /// `modes.edit_while_locked` (as `mayChangeKey`), and never the key running the temporary unlock (its unlock must end
    /// first: the invariant "temporary unlock by a used key").
    func temporaryKeyRemovalRefusal(_ key: KeyID, from i: Int) -> ClavisRefusal? {
        let id = modes[i].id
        guard isLocked(id) else { return nil }
        guard mayChangeKey(id, .temporary) else { return .modeLocked }
        return lock?.temporaryKey == key ? .temporaryUnlockRunning : nil
    }

    /// Drops the temporary key `key` from mode `i`, and its use in the current lock cycle if `i` is the locked mode
    /// (§5.5 "usage state per (modeId, keyId) pair": the pair is gone).
    mutating func dropTemporaryKey(_ key: KeyID, from i: Int) {
        modes[i].temporaryKeys.removeAll { $0 == key }
        if isLocked(modes[i].id) { lock!.usedTemporaryKeys.removeAll { $0 == key } }
    }

    /// §5.1 "… or removed". Refused for a mode's main key (§5.2 "Each mode must have exactly one main key (required)":
    /// replace it first, inventory gap 12) and during a scan (its candidates); a temporary key of the locked mode only as
    /// `temporaryKeyRemovalRefusal` allows. The key leaves every mode's temporary keys.
    mutating func removeKey(_ key: KeyID, _ out: inout ClavisOutcome) {
        guard let k = keys.firstIndex(where: { $0.id == key }) else { out.decision = .refused(.notFound); return }
        guard !modes.contains(where: { $0.mainKey == key }) else { out.decision = .refused(.keyInUse); return }
        guard scan == nil else { out.decision = .refused(.scanInProgress); return }
        for i in modes.indices where modes[i].temporaryKeys.contains(key) {
            if let r = temporaryKeyRemovalRefusal(key, from: i) { out.decision = .refused(r); return }
        }
        for i in modes.indices { dropTemporaryKey(key, from: i) }
        keys.remove(at: k)
        out.events.append(.keyRemoved(key))
        out.effects.append(.secureWrite)
    }

    /// §5.2 "Manage key assignments: … add/remove temporary keys for a mode": the key leaves the mode and stays stored
    /// (§9 "Keys are stored independently and referenced by ID in modes"). Refused during a scan, and on the locked
    /// mode as `temporaryKeyRemovalRefusal` says.
    mutating func removeTemporaryKey(_ key: KeyID, from mode: ModeID, _ out: inout ClavisOutcome) {
        guard let i = modeIndex(mode), modes[i].temporaryKeys.contains(key) else { out.decision = .refused(.notFound); return }
        guard scan == nil else { out.decision = .refused(.scanInProgress); return }
        if let r = temporaryKeyRemovalRefusal(key, from: i) { out.decision = .refused(r); return }
        dropTemporaryKey(key, from: i)
        out.events.append(.keyUnassigned(key, mode))
        out.effects.append(.secureWrite)
    }

    // MARK: Enrolment (§7 Enrollment Process)

    /// Starts an enrolment. §7 Error Handling first, after the mode exists: the camera opens only on a device with
    /// ARKit, with the permission granted (`cameraRefusal`).
    mutating func startEnrolment(_ mode: ModeID, _ role: KeyRole, _ now: Instant, _ out: inout ClavisOutcome) {
        guard let i = modeIndex(mode) else { out.decision = .refused(.notFound); return }
        if let r = cameraRefusal { out.decision = .refused(r); return }
        guard scan == nil else { out.decision = .refused(.scanInProgress); return }
        guard enrolment == nil else { out.decision = .refused(.enrolmentInProgress); return }
        guard mayChangeKey(mode, role) else { out.decision = .refused(.modeLocked); return }
        if role == .temporary && modes[i].temporaryKeys.count >= parameters.maxTemporaryKeys {
            out.decision = .refused(.tooManyTemporaryKeys)
            return
        }
        enrolment = ClavisEnrolment(mode: mode, role: role, frames: 0, bins: 0, warned: false, startedAt: now, lastFrameAt: nil)
        out.events.append(.enrolmentStarted(mode, role))
    }

    /// One enrolment frame: skipped faster than `enrolment.max_fps` ("Process frames at ~2-5 FPS (not every frame)") or
    /// past `enrolment.max_frames` ("Collect 8-12"); rejected on the quality checks; otherwise kept, with its viewpoint
    /// bin. "Enrollment completes automatically when: Minimum 8 quality frames collected AND Sufficient angle diversity
    /// achieved."
    mutating func enrolmentFrame(_ f: EnrolmentFrame, _ now: Instant, _ out: inout ClavisOutcome) {
        guard var e = enrolment else { out.decision = .refused(.noEnrolment); return }
        guard (0..<EnrolmentFrame.viewpointBins).contains(f.viewpoint), f.quality.points >= 0 else { out.decision = .refused(.invalid); return }
        if let last = e.lastFrameAt, (now - last).milliseconds < 1000 / Int64(parameters.enrolMaxFPS) {
            out.decision = .frameSkipped
            return
        }
        e.lastFrameAt = now
        defer { if enrolment != nil { enrolment = e } }
        guard e.frames < parameters.enrolMaxFrames else { out.decision = .frameSkipped; return }
        if let r = parameters.check(f.quality) {
            out.events.append(.enrolmentFrameRejected(r))
            out.decision = .frameRejected(r)
            return
        }
        e.frames += 1
        e.bins |= 1 << UInt8(f.viewpoint)
        if f.distinctiveness < parameters.distinctivenessWarnBelow && !e.warned {
            e.warned = true
            out.events.append(.distinctivenessWarningShown)
        }
        out.decision = .frameAccepted(frames: e.frames, viewpoints: e.viewpoints)
        if e.frames >= parameters.enrolMinFrames && e.viewpoints >= parameters.enrolMinViewpoints {
            enrolment = e
            completeEnrolment(manual: false, now, &out)
        }
    }

    /// The enrolment screen closed without a key (`.cancelEnrolment`, its mode deleted, "Delete my key", the camera
    /// denied): its AR session charged.
    mutating func cancelEnrolment(_ now: Instant, _ out: inout ClavisOutcome) {
        let e = enrolment!
        enrolment = nil
        out.effects.append(.arSession(seconds: seconds(e.startedAt, now)))
        out.events.append(.enrolmentCancelled(frames: e.frames))
    }

    /// Stores the template as a new key and assigns it to the enrolment's mode in its role (§6.1 "Key is enrolled and
    /// assigned as the main key for the first mode").
    mutating func completeEnrolment(manual: Bool, _ now: Instant, _ out: inout ClavisOutcome) {
        let e = enrolment!
        enrolment = nil
        let id = nextKeyID
        nextKeyID += 1
        keys.append(ClavisKey(id: id, frames: e.frames, viewpoints: e.viewpoints, warned: e.warned, enrolledAt: now))
        out.effects.append(.arSession(seconds: seconds(e.startedAt, now)))
        out.events.append(.enrolmentCompleted(id, e.role, frames: e.frames, viewpoints: e.viewpoints, manual: manual))
        assign(id, to: modeIndex(e.mode)!, e.role, &out)
        out.decision = .keyEnrolled(id)
    }

    // MARK: "Delete my key" (§9 Privacy Guarantee)

    /// "Easy reset: 'Delete my key' clears all stored data": keys, modes, the Focus setup, onboarding. While locked only
    /// with `data.delete_while_locked`; the lock then ends without its key (a bypass). The camera permission and the
    /// ARKit check (`camera`, `arSupported`, §7 Error Handling) are kept: they are the OS's and the device's, not the
    /// app's stored data.
    mutating func deleteAllData(_ now: Instant, _ out: inout ClavisOutcome) {
        let wasLocked = lock != nil
        guard !wasLocked || parameters.deleteDataWhileLocked else { out.decision = .refused(.modeLocked); return }
        if scan != nil { abandonScan(now, &out) }
        if enrolment != nil { cancelEnrolment(now, &out) }
        if wasLocked { dropLock(.reset, &out) }
        keys = []
        modes = []
        activeMode = nil
        focusReady = false
        onboardingIndex = 0
        out.events.append(.dataReset(whileLocked: wasLocked))
        out.effects.append(.secureWrite)
    }

    /// Ends the lock without a main-key match (a bypass: the locked mode deleted, or "Delete my key").
    mutating func dropLock(_ reason: TemporaryEnd, _ out: inout ClavisOutcome) {
        if lock?.temporaryUntil != nil { endTemporary(reason, &out) }
        lock = nil
        focusOn = false
        focusMode = nil
        out.effects.append(.focusOff)
    }
}
