import RulesCore

/// A stored key object's id (seed `004_8fa1e69c755a74b3.txt` §5.1 "each key has a unique ID"; §9 "Keys are stored
/// independently and referenced by ID in modes").
public typealias KeyID = Int

/// A mode's id (§5.2 ModeManager).
public typealias ModeID = Int

/// The role a key plays in one mode (§5.2 "exactly one main key … zero or more temporary keys").
public enum KeyRole: String, Hashable, Sendable, CaseIterable {
    case main
    case temporary
}

/// The system camera permission as the app last saw it (§7 Error Handling "Handle camera permission denials
/// gracefully"). It belongs to the OS, not to the app's data: "Delete my key" (§9) keeps it.
public enum CameraAccess: String, Hashable, Sendable {
    /// The system prompt has not been answered yet: the app shows it at the first camera use.
    case notAsked = "not_asked"
    case granted
    /// "Don't Allow", or turned off later in Settings: the app asks the person to enable the camera in Settings.
    case denied
}

/// What a verification scan is for (§6.3 Lock Flow, §6.4 Unlock Flow, §6.5 Temporary Unlock Flow).
public enum ScanKind: String, Hashable, Sendable, CaseIterable {
    /// "Lock with my key": the active mode's main key.
    case lock
    /// "Scan to Unlock": the locked mode's main key.
    case unlock
    /// "Temporary Unlock": any of the locked mode's temporary keys not used in this lock cycle.
    case temporary
}

/// ARKit's camera tracking state as one frame reports it (§7 Quality Heuristics "ARKit Tracking State").
public enum TrackingState: String, Hashable, Sendable, CaseIterable {
    case normal
    /// Limited because the device moves too fast ("Provide guidance: 'Move device slowly'").
    case limitedMotion = "limited_motion"
    /// Limited because of poor light ("Reject frames when tracking is limited due to poor lighting").
    case limitedLight = "limited_light"
    /// "Reject frames when tracking is unavailable."
    case unavailable
}

/// What one processed ARFrame measured, before any similarity (§7 "Frame Selection Criteria"; "Frame Quality Checks
/// (applied during both enrollment and verification)"). The person side samples these; the engine only applies the
/// thresholds (`frames.*` parameters).
public struct FrameQuality: Hashable, Sendable {
    public var tracking: TrackingState
    /// Points in the (ROI-filtered) point cloud ("Sufficient point cloud density (minimum points detected)").
    public var points: Int
    /// The point cloud's bounding-box volume, cm³ ("Adequate object size/distance (point cloud volume within
    /// acceptable range)").
    public var volumeCm3: Double

    public init(tracking: TrackingState = .normal, points: Int = 400, volumeCm3: Double = 1000) {
        self.tracking = tracking
        self.points = points
        self.volumeCm3 = volumeCm3
    }

    /// A frame that passes every default check.
    public static let good = FrameQuality()
}

/// Why a frame was rejected (§5.1 "error types (e.g., insufficient points, poor tracking, too far/close)").
public enum FrameRejection: String, Hashable, Sendable, CaseIterable {
    case trackingUnavailable = "tracking_unavailable"
    case poorLighting = "poor_lighting"
    case poorTracking = "poor_tracking"
    case insufficientPoints = "insufficient_points"
    case tooFar = "too_far"
    case tooClose = "too_close"
}

/// One enrolment frame (§7 Enrollment Process): its quality, the viewpoint bin it was seen from (0..<8: front,
/// back, left, right, top, and the four diagonals' coarse octants; "Track angle diversity: ensure frames cover different
/// viewpoints (front, sides, top, etc.)"), and how distinctive its point distribution is (0 uniform … 1 rich 3D
/// structure; "Warn if object appears too uniform or lacks 3D structure").
public struct EnrolmentFrame: Hashable, Sendable {
    public var quality: FrameQuality
    public var viewpoint: Int
    public var distinctiveness: Double

    public init(quality: FrameQuality = .good, viewpoint: Int, distinctiveness: Double = 0.7) {
        self.quality = quality
        self.viewpoint = viewpoint
        self.distinctiveness = distinctiveness
    }

    /// The number of viewpoint bins.
    public static let viewpointBins = 8
}

/// One verification frame (§7 Verification Process): its quality and, for each stored key, the best (highest) cosine
/// similarity of the frame's 3D feature vector against that key's template ("Calculate similarity scores (cosine
/// similarity) for all stored vectors in template"; "Use best (highest) similarity score from template"). Keys left
/// out scored nothing worth keeping (below any threshold). The engine reads only the scan's candidate keys.
public struct ScanFrame: Hashable, Sendable {
    public var quality: FrameQuality
    public var best: [KeyID: Double]

    public init(quality: FrameQuality = .good, best: [KeyID: Double]) {
        self.quality = quality
        self.best = best
    }
}

/// A whole verification scan as the simulator may sample it instead of feeding every frame (the fast path): which key
/// (if any) first reached the run of matching frames, after how many processed frames, and the best similarity seen.
/// `ScanRun.result(of:candidates:parameters:)` computes the same value from frames; feeding `.scanResult` of that value
/// gives the engine exactly the outcome feeding the frames and then (without a match) `.cancelScan` gives.
public struct ScanResult: Hashable, Sendable {
    /// The key that matched (nil: the person gave up without a match).
    public var matched: KeyID?
    /// Frames processed (rate-limited frames excluded).
    public var frames: Int
    /// Best candidate similarity seen on an accepted frame (0 when none).
    public var bestSimilarity: Double
    /// The longest run of matching frames any candidate reached (what an abandoned scan reports).
    public var longestRun: Int

    public init(matched: KeyID?, frames: Int, bestSimilarity: Double = 0, longestRun: Int = 0) {
        self.matched = matched
        self.frames = frames
        self.bestSimilarity = bestSimilarity
        self.longestRun = longestRun
    }
}

/// A stored key object (§5.1 KeyManager; §7 "Template contains: array of 3D feature vectors … enrollment metadata").
/// The engine keeps the template's shape, not its vectors.
public struct ClavisKey: Hashable, Sendable {
    public var id: KeyID
    /// Feature vectors in the template (8–12 by default).
    public var frames: Int
    /// Viewpoint bins the template covers.
    public var viewpoints: Int
    /// A distinctiveness warning was shown during its enrolment.
    public var warned: Bool
    public var enrolledAt: Instant
}

/// A mode (§5.2 "Store mode configurations (name, main key ID, temporary key IDs, apps to block)").
public struct ClavisMode: Hashable, Sendable {
    public var id: ModeID
    /// Apps or categories blocked while locked (§5.4 AppsProfileManager); 0 until chosen.
    public var apps: Int
    /// Apps a temporary unlock makes available (§6.1 "User selects which apps can be unlocked with temporary key(s)").
    public var temporaryApps: Int
    /// The main key: nil only for a mode created before its key (onboarding's draft); such a mode cannot be locked.
    public var mainKey: KeyID?
    /// The temporary keys, in the order they were added.
    public var temporaryKeys: [KeyID]
}

/// The lock of the one locked mode (§5.3 "Track which mode is currently locked"; §5.5 temporary key usage).
public struct ClavisLock: Hashable, Sendable {
    public var mode: ModeID
    public var since: Instant
    /// The lock cycle's number (1 for the person's first).
    public var cycle: Int
    /// Temporary keys used in this lock cycle (§5.5 "Track temporary key usage state per (modeId, keyId) pair"). Every
    /// other mode's usage is empty: it is reset at lock and at unlock, and only one mode is locked at a time.
    public var usedTemporaryKeys: [KeyID]
    /// The running temporary unlock's end, its key.
    public var temporaryUntil: Instant?
    public var temporaryKey: KeyID?
}

/// A scan in progress (§6.3–§6.5: "ARKit camera opens with continuous scanning active").
public struct ClavisScan: Hashable, Sendable {
    public var kind: ScanKind
    public var mode: ModeID
    public var startedAt: Instant
    /// The candidate keys, each with its current run of consecutive matching frames.
    public var run: ScanRun
    /// The last processed frame's instant (the frame-rate limit).
    public var lastFrameAt: Instant?
}

/// An enrolment in progress (§7 Enrollment Process).
public struct ClavisEnrolment: Hashable, Sendable {
    public var mode: ModeID
    public var role: KeyRole
    /// Quality frames collected.
    public var frames: Int
    /// Viewpoint bins covered, one bit each.
    public var bins: UInt8
    /// The distinctiveness warning was shown.
    public var warned: Bool
    public var startedAt: Instant
    public var lastFrameAt: Instant?

    public var viewpoints: Int { bins.nonzeroBitCount }
}

/// Onboarding's steps (§5.6 OnboardingManager; §6.1 Onboarding Flow), in raw-value order of §6.1.
public enum OnboardingStep: Int, Hashable, Sendable, CaseIterable {
    case welcome
    case createMode
    case selectApps
    case enrolMainKey
    case temporaryKeys
    case configureFocus
    case complete

    public var name: String {
        switch self {
        case .welcome: "welcome"
        case .createMode: "create_mode"
        case .selectApps: "select_apps"
        case .enrolMainKey: "enrol_main_key"
        case .temporaryKeys: "temporary_keys"
        case .configureFocus: "configure_focus"
        case .complete: "complete"
        }
    }
}
