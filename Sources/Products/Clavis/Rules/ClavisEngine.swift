import RulesCore

/// Clavis's rule engine for one person (seed `004_8fa1e69c755a74b3.txt`, "Clavis – Technical Specification (v1)"): a
/// pure, clock-injected state machine of modes, key objects, the lock and its cycles, temporary unlocks, enrolment and
/// verification scans, and onboarding. The spec wins over the rule inventory (`clavis.md`); every silent spot is a
/// parameter marked as an assumption (`ClavisParameters`).
///
/// The engine never sees a camera image and knows no ground truth: a verification frame carries its quality and, per
/// stored key, its best cosine similarity (`ScanFrame`); an enrolment frame its quality, viewpoint bin and
/// distinctiveness (`EnrolmentFrame`). Whether the object in front of the camera was the real key (false accepts and
/// rejects) is the simulator's to know. A whole scan may also come as one sampled `ScanResult` (`.scanResult`), with
/// the same outcome as its frames (`ScanRun.result(of:candidates:parameters:)`).
///
/// Time: the one timer, a temporary unlock's end, is applied lazily at the start of every call (`expireTemporary`); the
/// timer only makes sure a call comes. Money: none (the spec has no pricing): no ledger line is ever written and the
/// person's standing is always the unpaid segment.
public struct ClavisEngine: Sendable {
    public let parameters: ClavisParameters
    public let zone: ZoneCalendar
    public let installedAt: Instant
    /// The install's local date (day 0).
    public let installDate: LocalDate

    // MARK: Keys and modes (§5.1, §5.2)
    /// Every stored key, in id order (§9 "Keys are stored independently and referenced by ID in modes").
    public internal(set) var keys: [ClavisKey] = []
    var nextKeyID: KeyID = 1
    /// Every mode, in id order.
    public internal(set) var modes: [ClavisMode] = []
    var nextModeID: ModeID = 1
    /// The selected mode (§5.2 "Track which mode is currently active/selected").
    public internal(set) var activeMode: ModeID?

    // MARK: Lock (§5.3, §5.5, §6.3–§6.5, §8)
    /// The locked mode's lock, if any (one at a time).
    public internal(set) var lock: ClavisLock?
    /// Focus Mode is on (§8 "Lock → Focus ON", "Unlock → Focus OFF").
    public internal(set) var focusOn = false
    /// The mode whose apps the Focus blocks (the locked mode, or the mode switched to with `switch_focus`).
    public internal(set) var focusMode: ModeID?
    /// Lock cycles started (the last cycle's number).
    public internal(set) var cycles = 0
    /// Temporary unlocks started.
    public internal(set) var temporaryUnlocks = 0

    // MARK: Camera (§7)
    public internal(set) var scan: ClavisScan?
    public internal(set) var enrolment: ClavisEnrolment?
    /// The system camera permission (§7 Error Handling "Handle camera permission denials gracefully"). The OS's, not
    /// the app's data: "Delete my key" keeps it.
    public internal(set) var camera: CameraAccess = .notAsked
    /// The launch's ARKit support check (§7 Error Handling "Check ARKit support (`ARWorldTrackingConfiguration
    /// .isSupported`) before starting session"); nil until checked. The device's, not the app's data: "Delete my key"
    /// keeps it.
    public internal(set) var arSupported: Bool?

    // MARK: Onboarding (§5.6, §6.1)
    /// The Focus Mode is set up and validated (§6.1 Configure Focus Mode).
    public internal(set) var focusReady = false
    /// Steps completed, in `onboardingOrder`.
    public internal(set) var onboardingIndex = 0

    /// Every due edge at or before this instant has been applied.
    public internal(set) var cursor: Instant

    /// A new install at `installedAt`: no mode, no key, unlocked, onboarding at its welcome screen.
    public init(parameters: ClavisParameters = .defaults, zone: ZoneCalendar, installedAt: Instant) {
        self.parameters = parameters
        self.zone = zone
        self.installedAt = installedAt
        installDate = zone.localDate(installedAt)
        cursor = installedAt
    }

    // MARK: - Entry point

    /// Handles one input at `now`, writing everything it produced into `out` (reset first).
    public mutating func handle(_ input: ClavisInput, at now: Instant, into out: inout ClavisOutcome) {
        out.reset()
        let expired = expireTemporary(now, &out)
        switch input {
        case .appOpened: out.events.append(.appOpened(day: day(now)))
        case .onboardingNext: onboardingNext(&out)
        case let .createMode(apps, temp): createMode(apps, temp, &out)
        case let .editMode(id, apps, temp): editMode(id, apps, temp, &out)
        case .deleteMode(let id): deleteMode(id, now, &out)
        case .switchMode(let id): switchMode(id, &out)
        case let .startEnrolment(mode, role): startEnrolment(mode, role, now, &out)
        case .enrolmentFrame(let f): enrolmentFrame(f, now, &out)
        case .completeEnrolment:
            guard let e = enrolment else { out.decision = .refused(.noEnrolment); break }
            if e.frames < parameters.manualMinFrames { out.decision = .refused(.tooFewFrames) } else { completeEnrolment(manual: true, now, &out) }
        case .restartEnrolment:
            guard enrolment != nil else { out.decision = .refused(.noEnrolment); break }
            enrolment!.frames = 0
            enrolment!.bins = 0
            enrolment!.warned = false
            enrolment!.lastFrameAt = nil
            out.events.append(.enrolmentRestarted)
        case .cancelEnrolment:
            if enrolment == nil { out.decision = .refused(.noEnrolment) } else { cancelEnrolment(now, &out) }
        case let .assignKey(key, mode, role): assignKey(key, mode, role, &out)
        case .focusConfigured(let ok):
            if ok { focusReady = true }
            out.events.append(.focusConfigured(ok: ok))
        case .deleteAllData: deleteAllData(now, &out)
        case .cameraPermission(let granted): cameraPermission(granted, now, &out)
        case .deviceChecked(let supported): deviceChecked(supported, now, &out)
        case .renameKey(let key): renameKey(key, &out)
        case .removeKey(let key): removeKey(key, &out)
        case let .removeTemporaryKey(key, mode): removeTemporaryKey(key, from: mode, &out)
        case .startScan(let kind): startScan(kind, now, &out)
        case .frame(let f): scanFrame(f, now, &out)
        case .scanResult(let r): scanResult(r, now, &out)
        case .cancelScan:
            if scan == nil { out.decision = .refused(.noScan) } else { abandonScan(now, &out) }
        case .endTemporaryUnlock:
            if lock?.temporaryUntil == nil { out.decision = .refused(.noTemporaryUnlock) } else { endTemporary(.manual, &out) }
        case .timer: out.decision = expired ? .timerHandled : .staleTimer
        }
        cursor = max(cursor, now)
        if let until = lock?.temporaryUntil { out.timers.append(ClavisTimer(.temporaryUnlockEnd, at: until)) }
    }

    /// Local days since the install's date.
    func day(_ t: Instant) -> Int { Int(zone.localDate(t) - installDate) }

    func seconds(_ a: Instant, _ b: Instant) -> Double { Double((b - a).milliseconds) / 1000 }

    func modeIndex(_ id: ModeID) -> Int? { modes.firstIndex { $0.id == id } }

    /// The mode is the locked one.
    func isLocked(_ id: ModeID) -> Bool { lock?.mode == id }

    // MARK: - Temporary unlocks (§6.5)

    /// Ends a temporary unlock whose time is up (§6.5 "After time expires … apps are blocked again"); true when one did.
    mutating func expireTemporary(_ now: Instant, _ out: inout ClavisOutcome) -> Bool {
        guard let until = lock?.temporaryUntil, until <= now else { return false }
        out.effects.append(.backgroundWake)
        endTemporary(.expired, &out)
        return true
    }

    /// Ends the running temporary unlock: the apps are blocked again (the Focus back to the full set) unless the lock
    /// itself ends. The key stays used for the cycle.
    mutating func endTemporary(_ reason: TemporaryEnd, _ out: inout ClavisOutcome) {
        lock!.temporaryUntil = nil
        lock!.temporaryKey = nil
        out.events.append(.temporaryUnlockEnded(reason))
        if reason == .expired || reason == .manual, let m = focusMode, let i = modeIndex(m) {
            out.effects.append(.focusOn(apps: modes[i].apps))
        }
    }

    // MARK: - Invariants

    /// The engine's invariants at `now` (checked after every call).
    public mutating func invariantViolations(at now: Instant) -> [String] {
        var v: [String] = []
        let p = parameters
        if (lock != nil) != focusOn { v.append("locked \(lock != nil) but Focus on \(focusOn)") }
        if (focusMode != nil) != focusOn { v.append("Focus shows mode \(String(describing: focusMode)) with Focus on \(focusOn)") }
        if modes.count > p.maxModes { v.append("\(modes.count) modes, max \(p.maxModes)") }
        if let a = activeMode, modeIndex(a) == nil { v.append("active mode \(a) does not exist") }
        if !modes.isEmpty && activeMode == nil { v.append("modes but no active mode") }
        let keyIDs = Set(keys.map(\.id))
        var lastMode = 0
        for m in modes {
            if m.id <= lastMode { v.append("mode ids out of order at \(m.id)") }
            lastMode = m.id
            if let k = m.mainKey {
                if !keyIDs.contains(k) { v.append("mode \(m.id)'s main key \(k) not stored") }
                if m.temporaryKeys.contains(k) { v.append("mode \(m.id)'s main key \(k) is also its temporary key") }
            }
            if Set(m.temporaryKeys).count != m.temporaryKeys.count { v.append("mode \(m.id) lists a temporary key twice") }
            if m.temporaryKeys.count > p.maxTemporaryKeys { v.append("mode \(m.id) has \(m.temporaryKeys.count) temporary keys") }
            for k in m.temporaryKeys where !keyIDs.contains(k) { v.append("mode \(m.id)'s temporary key \(k) not stored") }
        }
        for k in keys where k.frames < 1 || k.frames > p.enrolMaxFrames { v.append("key \(k.id) has \(k.frames) frames") }
        if let l = lock {
            if let i = modeIndex(l.mode) {
                if modes[i].mainKey == nil { v.append("locked mode \(l.mode) has no main key") }
                for k in l.usedTemporaryKeys where !modes[i].temporaryKeys.contains(k) { v.append("used key \(k) not a temporary key of mode \(l.mode)") }
            } else { v.append("locked mode \(l.mode) does not exist") }
            if Set(l.usedTemporaryKeys).count != l.usedTemporaryKeys.count { v.append("a temporary key used twice in cycle \(l.cycle)") }
            if (l.temporaryUntil == nil) != (l.temporaryKey == nil) { v.append("temporary unlock half set") }
            if let k = l.temporaryKey, !l.usedTemporaryKeys.contains(k) { v.append("temporary unlock by unused key \(k)") }
            if let u = l.temporaryUntil, u <= cursor { v.append("temporary unlock ran past \(u) at \(cursor)") }
            if l.cycle != cycles { v.append("lock cycle \(l.cycle) of \(cycles)") }
        }
        if scan != nil && enrolment != nil { v.append("a scan and an enrolment at once") }
        // §7 Error Handling: the camera is open only when allowed, on a device not known to lack ARKit.
        if (scan != nil || enrolment != nil) && (camera != .granted || arSupported == false) {
            v.append("the camera open with permission \(camera.rawValue), ARKit supported \(String(describing: arSupported))")
        }
        if let s = scan {
            switch s.kind {
            case .lock:
                if lock != nil { v.append("a lock scan while locked") }
            case .unlock:
                if lock == nil { v.append("an unlock scan while unlocked") }
            case .temporary:
                if let l = lock {
                    if l.temporaryUntil != nil { v.append("a temporary scan during a temporary unlock") }
                    for k in s.run.candidates where l.usedTemporaryKeys.contains(k) { v.append("used key \(k) a candidate") }
                } else { v.append("a temporary scan while unlocked") }
            }
        }
        if let e = enrolment {
            if e.frames > p.enrolMaxFrames { v.append("enrolment of \(e.frames) frames") }
            if modeIndex(e.mode) == nil { v.append("enrolment for missing mode \(e.mode)") }
        }
        if onboardingIndex > OnboardingStep.allCases.count { v.append("onboarding index \(onboardingIndex)") }
        return v
    }
}
