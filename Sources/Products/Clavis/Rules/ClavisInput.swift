import RulesCore

/// Everything a person, the camera or a due timer can do to the Clavis engine (the seed names no inputs; the inventory's
/// §3 proposal, seed `004_8fa1e69c755a74b3.txt` headings in the doc comments).
public enum ClavisInput: Hashable, Sendable, TimerDelivering {
    /// The app came to the foreground.
    case appOpened
    /// Onboarding's "next" on the current step (§5.6, §6.1): refused until the step's work is done.
    case onboardingNext
    /// A new mode with `apps` apps or categories to block and `temporaryApps` that a temporary key unlocks (§3 Create
    /// Mode; §6.2). The first mode becomes the active one.
    case createMode(apps: Int, temporaryApps: Int)
    /// §3 Edit Mode (apps to block, temporary apps).
    case editMode(ModeID, apps: Int, temporaryApps: Int)
    /// §6.2 "User can delete modes (with confirmation)" (the confirmation given).
    case deleteMode(ModeID)
    /// §3 Select Active Mode.
    case switchMode(ModeID)
    /// Starts enrolling a new key object as `role` for `mode` (§3 Enroll Main Key, Enroll Temporary Key, Replace Key).
    case startEnrolment(ModeID, KeyRole)
    /// One processed enrolment frame (§7 Enrollment Process).
    case enrolmentFrame(EnrolmentFrame)
    /// "User can manually complete enrollment early if satisfied" (§7).
    case completeEnrolment
    /// "User can restart enrollment if quality is insufficient" (§7).
    case restartEnrolment
    /// The enrolment screen closed without a key.
    case cancelEnrolment
    /// §3 Reuse Key: an already-enrolled key assigned to a mode as main key (replacing the old) or temporary key.
    case assignKey(KeyID, ModeID, KeyRole)
    /// The Focus Mode set up and validated, or the setup failed (§6.1 Configure Focus Mode; §10 Risk 3 "Validation
    /// checks during onboarding").
    case focusConfigured(ok: Bool)
    /// §9 "Delete my key" clears all stored data.
    case deleteAllData
    /// §7 Error Handling "Handle camera permission denials gracefully": the system camera prompt answered, or the
    /// permission changed later in Settings (may come any time, again and again). A denial while the camera is open ends
    /// the scan or the enrolment as closing its screen does.
    case cameraPermission(granted: Bool)
    /// §7 Error Handling "Check ARKit support (`ARWorldTrackingConfiguration.isSupported`) before starting session": the
    /// app's check at launch. Unsupported: no enrolment and no scan ("clear error messages for hardware limitations").
    case deviceChecked(arSupported: Bool)
    /// §5.1 "Allow keys to be updated, renamed, or removed": a stored key renamed (the engine stores no names).
    case renameKey(KeyID)
    /// §5.1 "… or removed": a stored key deleted, and dropped from every mode's temporary keys. Never a mode's main key
    /// (§5.2 "Each mode must have exactly one main key": replace it first; inventory gap 12).
    case removeKey(KeyID)
    /// §5.2 "Manage key assignments: … add/remove temporary keys for a mode": the key leaves the mode and stays stored.
    case removeTemporaryKey(KeyID, from: ModeID)
    /// "Lock with my key", "Scan to Unlock" or "Temporary Unlock" tapped: the camera opens (§6.3–§6.5).
    case startScan(ScanKind)
    /// One processed verification frame (§7 Verification Process).
    case frame(ScanFrame)
    /// The fast path: the whole scan as the simulator sampled it (`ScanResult`); ends the scan. Equivalent to feeding the
    /// frames (and `.cancelScan` without a match).
    case scanResult(ScanResult)
    /// The scan screen closed without a match (the person gave up).
    case cancelScan
    /// The person ends the temporary unlock early (§6.5 "user manually ends temporary unlock").
    case endTemporaryUnlock
    /// A due timer.
    case timer(ClavisTimer)
}

/// A timer the engine arms: the running temporary unlock's end (§6.5 "After time expires … apps are blocked again").
public typealias ClavisTimer = ArmedTimer<ClavisTimerKind>

public enum ClavisTimerKind: Int, Hashable, Sendable, CaseIterable {
    case temporaryUnlockEnd
    public var slotIndex: Int { rawValue }
}

/// Why an input was refused.
public enum ClavisRefusal: String, Hashable, Sendable, Error {
    case notFound = "not_found"
    case tooManyModes = "too_many_modes"
    case tooManyTemporaryKeys = "too_many_temporary_keys"
    /// §5.2 "Each mode must have exactly one main key (required)": a mode without one cannot be locked.
    case noMainKey = "no_main_key"
    /// A mode is locked already (one lock at a time, inventory row 12).
    case alreadyLocked = "already_locked"
    case notLocked = "not_locked"
    /// The locked mode cannot be edited, deleted or left (the `*_while_locked` parameters).
    case modeLocked = "mode_locked"
    /// Every temporary key of the locked mode was used in this lock cycle, or it has none (§6.5).
    case noTemporaryKeyLeft = "no_temporary_key_left"
    /// A temporary unlock is running (no stacking, inventory row 22); or the key to remove runs it (§5.1, §5.2).
    case temporaryUnlockRunning = "temporary_unlock_running"
    case noTemporaryUnlock = "no_temporary_unlock"
    case scanInProgress = "scan_in_progress"
    case noScan = "no_scan"
    case enrolmentInProgress = "enrolment_in_progress"
    case noEnrolment = "no_enrolment"
    /// A manual completion with fewer than `enrolment.manual_min_frames` quality frames.
    case tooFewFrames = "too_few_frames"
    /// The same key as main and temporary key of one mode (inventory row 5).
    case sameKeyTwice = "same_key_twice"
    /// §5.1, §5.2: the key is a mode's main key ("Each mode must have exactly one main key"): replace it first.
    case keyInUse = "key_in_use"
    /// §7 Error Handling: the device failed the ARKit support check ("hardware limitations (devices without depth
    /// sensing)").
    case arUnsupported = "ar_unsupported"
    /// §7 Error Handling: the camera permission was never asked; the app shows the system prompt (answered with
    /// `.cameraPermission`).
    case cameraNotAsked = "camera_not_asked"
    /// §7 Error Handling "camera permission denials": the app asks the person to enable the camera in Settings.
    case cameraDenied = "camera_denied"
    /// Onboarding's current step is not done, or onboarding is over.
    case stepIncomplete = "step_incomplete"
    /// Locking waits for onboarding's end (§6.1 Complete → main screen).
    case onboardingNotDone = "onboarding_not_done"
    case invalid
}

/// The engine's answer to one input.
public enum ClavisDecision: Hashable, Sendable, OutcomeDecision {
    case ok
    case refused(ClavisRefusal)
    case modeCreated(ModeID)
    case onboardingStep(OnboardingStep)
    /// A frame came sooner than the frame rate allows: not processed.
    case frameSkipped
    /// An enrolment frame kept: quality frames and viewpoints so far (§7 "Progress indicator").
    case frameAccepted(frames: Int, viewpoints: Int)
    case frameRejected(FrameRejection)
    case keyEnrolled(KeyID)
    /// A verification frame processed: the longest current run (§7 "Show live confidence score").
    case scanning(run: Int)
    case locked(cycle: Int)
    case unlocked(cycle: Int)
    case temporaryUnlocked(KeyID, until: Instant)
    /// The scan ended without a match.
    case scanAbandoned
    case timerHandled
    case staleTimer

    public var isRefusal: Bool { if case .refused = self { true } else { false } }
}

/// Device side effects, each priced by the simulator's energy model (inventory §5).
public enum ClavisEffect: Hashable, Sendable, EnergyPriced {
    /// The AR session ran this many seconds (a scan or an enrolment, charged when it ends).
    case arSession(seconds: Double)
    /// Focus Mode switched on (with the mode's apps) or off through Shortcuts (§8): about 2 s of the app in the
    /// foreground each (inventory §5).
    case focusOn(apps: Int)
    case focusOff
    /// A template or mode configuration written to the Keychain / protected storage (§9).
    case secureWrite
    /// The app woken in the background to re-block at a temporary unlock's end.
    case backgroundWake

    public var energyCharge: EnergyCharge {
        switch self {
        case .arSession(let s): EnergyCharge(.cameraSecond, s)
        case .focusOn, .focusOff: EnergyCharge(.foregroundSecond, 2)
        case .secureWrite: EnergyCharge(.databaseWrite)
        case .backgroundWake: EnergyCharge(.backgroundWake)
        }
    }
}

/// Everything one input produced (the seam's standard buffer).
public typealias ClavisOutcome = StandardOutcome<ClavisDecision, ClavisEvent, ClavisEffect, ClavisTimer>
