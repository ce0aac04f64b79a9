import RulesCore

/// Clavis's analytics events. The seed names none (§11 Milestone 1 only asks "Verify similarity scores logged to
/// console"); the names are the inventory's §3 proposal, snake_case.
public enum ClavisEvent: Hashable, Sendable, AnalyticsEvent {
    /// `day` = local days since the install's date.
    case appOpened(day: Int)
    case onboardingStepCompleted(OnboardingStep)
    case modeCreated(ModeID, apps: Int)
    case modeEdited(ModeID)
    case modeDeleted(ModeID)
    case modeSwitched(to: ModeID, whileLocked: Bool)
    case enrolmentStarted(ModeID, KeyRole)
    case enrolmentFrameRejected(FrameRejection)
    case distinctivenessWarningShown
    case enrolmentCompleted(KeyID, KeyRole, frames: Int, viewpoints: Int, manual: Bool)
    case enrolmentRestarted
    case enrolmentCancelled(frames: Int)
    case keyAssigned(KeyID, ModeID, KeyRole)
    /// A mode's main key replaced (a new enrolment or a stored key); `whileLocked` is a bypass.
    case keyReplaced(ModeID, whileLocked: Bool)
    case focusConfigured(ok: Bool)
    /// "Delete my key"; `whileLocked` is a bypass.
    case dataReset(whileLocked: Bool)
    case scanStarted(ScanKind)
    /// `seconds` from the scan's start.
    case scanMatched(ScanKind, KeyID, frames: Int, seconds: Int, bestSimilarity: Double)
    case scanAbandoned(ScanKind, frames: Int, seconds: Int, longestRun: Int)
    /// `day` = local days since install.
    case modeLocked(ModeID, cycle: Int, day: Int)
    case modeUnlocked(ModeID, cycle: Int, minutes: Int)
    case temporaryUnlockStarted(ModeID, KeyID, minutes: Int)
    case temporaryUnlockEnded(TemporaryEnd)
    /// §7 Error Handling: the camera prompt answered or the permission changed in Settings.
    case cameraPermissionResult(granted: Bool)
    /// §7 Error Handling: the launch's ARKit support check.
    case deviceChecked(arSupported: Bool)
    /// §5.1 "renamed".
    case keyRenamed(KeyID)
    /// §5.1 "removed".
    case keyRemoved(KeyID)
    /// §5.2 "remove temporary keys for a mode".
    case keyUnassigned(KeyID, ModeID)

    public var name: String {
        switch self {
        case .appOpened: "app_opened"
        case .onboardingStepCompleted: "onboarding_step_completed"
        case .modeCreated: "mode_created"
        case .modeEdited: "mode_edited"
        case .modeDeleted: "mode_deleted"
        case .modeSwitched: "mode_switched"
        case .enrolmentStarted: "enrollment_started"
        case .enrolmentFrameRejected: "enrollment_frame_rejected"
        case .distinctivenessWarningShown: "distinctiveness_warning_shown"
        case .enrolmentCompleted: "enrollment_completed"
        case .enrolmentRestarted: "enrollment_restarted"
        case .enrolmentCancelled: "enrollment_cancelled"
        case .keyAssigned: "key_assigned"
        case .keyReplaced: "key_replaced"
        case .focusConfigured: "focus_setup_validated"
        case .dataReset: "data_reset"
        case .scanStarted: "scan_started"
        case .scanMatched: "scan_matched"
        case .scanAbandoned: "scan_abandoned"
        case .modeLocked: "mode_locked"
        case .modeUnlocked: "mode_unlocked"
        case .temporaryUnlockStarted: "temp_unlock_started"
        case .temporaryUnlockEnded: "temp_unlock_ended"
        case .cameraPermissionResult: "camera_permission_result"
        case .deviceChecked: "device_checked"
        case .keyRenamed: "key_renamed"
        case .keyRemoved: "key_removed"
        case .keyUnassigned: "key_unassigned"
        }
    }

    public var fields: [(String, String)] {
        switch self {
        case .appOpened(let d): [("day", "\(d)")]
        case .onboardingStepCompleted(let s): [("step", s.name)]
        case let .modeCreated(m, a): [("mode", "\(m)"), ("n_apps", "\(a)")]
        case .modeEdited(let m), .modeDeleted(let m): [("mode", "\(m)")]
        case let .modeSwitched(m, l): [("mode", "\(m)"), ("while_locked", "\(l)")]
        case let .enrolmentStarted(m, r): [("mode", "\(m)"), ("role", r.rawValue)]
        case .enrolmentFrameRejected(let r): [("reason", r.rawValue)]
        case let .enrolmentCompleted(k, r, f, v, m):
            [("key", "\(k)"), ("role", r.rawValue), ("frames", "\(f)"), ("viewpoints", "\(v)"), ("manual", "\(m)")]
        case .enrolmentCancelled(let f): [("frames", "\(f)")]
        case let .keyAssigned(k, m, r): [("key", "\(k)"), ("mode", "\(m)"), ("role", r.rawValue)]
        case let .keyReplaced(m, l): [("mode", "\(m)"), ("while_locked", "\(l)")]
        case .focusConfigured(let ok): [("ok", "\(ok)")]
        case .dataReset(let l): [("while_locked", "\(l)")]
        case .scanStarted(let k): [("kind", k.rawValue)]
        case let .scanMatched(k, key, f, s, b):
            [("kind", k.rawValue), ("key", "\(key)"), ("frames", "\(f)"), ("seconds", "\(s)"), ("best_similarity", "\((b * 1000).rounded() / 1000)")]
        case let .scanAbandoned(k, f, s, r): [("kind", k.rawValue), ("frames", "\(f)"), ("seconds", "\(s)"), ("longest_run", "\(r)")]
        case let .modeLocked(m, c, d): [("mode", "\(m)"), ("cycle", "\(c)"), ("day", "\(d)")]
        case let .modeUnlocked(m, c, n): [("mode", "\(m)"), ("cycle", "\(c)"), ("locked_minutes", "\(n)")]
        case let .temporaryUnlockStarted(m, k, n): [("mode", "\(m)"), ("key", "\(k)"), ("minutes", "\(n)")]
        case .temporaryUnlockEnded(let r): [("reason", r.rawValue)]
        case .cameraPermissionResult(let g): [("granted", "\(g)")]
        case .deviceChecked(let a): [("ar_supported", "\(a)")]
        case .keyRenamed(let k), .keyRemoved(let k): [("key", "\(k)")]
        case let .keyUnassigned(k, m): [("key", "\(k)"), ("mode", "\(m)")]
        case .distinctivenessWarningShown, .enrolmentRestarted: []
        }
    }
}

/// Why a temporary unlock ended (§6.5 "After time expires or user manually ends temporary unlock").
public enum TemporaryEnd: String, Hashable, Sendable {
    case expired
    case manual
    /// The mode was unlocked with its main key meanwhile (inventory row 22).
    case unlocked
    /// "Delete my key" dropped the lock.
    case reset
}
