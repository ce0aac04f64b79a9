import RulesCore

/// What switching the active mode does while a mode is locked (§8 "When switching modes while locked, update Focus
/// Mode to reflect new mode's app configuration" against §6.3–§6.4, where only the locked mode's main key unlocks).
public enum SwitchWhileLocked: String, Hashable, Sendable, CaseIterable {
    /// Refused (inventory row 13: §8's switch would be a way round the key). The default.
    case refuse
    /// §8 read literally: the active mode changes and the Focus shows the new mode's apps; the lock (its cycle, its
    /// temporary keys, the key that unlocks it) stays the originally locked mode's.
    case switchFocus = "switch_focus"
}

/// Every rule parameter of the Clavis engine (seed `004_8fa1e69c755a74b3.txt`, "Clavis – Technical Specification
/// (v1)"), built from a complete set of `rules:` values. Numbers the spec states cite its section; every silent spot is
/// an `.assumption(...)` citing the section it reads.
public struct ClavisParameters: Hashable, Sendable, EngineParameters {
    // MARK: Verification (§7 Verification Process, Match Decision; §10 Risk 1 "Adjustable thresholds")
    public var threshold: Double
    public var consecutiveFrames: Int
    public var verifyMaxFPS: Int
    public var rejectedFrameBreaksRun: Bool
    // MARK: Frame quality (§7 Frame Selection Criteria, Quality Heuristics)
    public var minPoints: Int
    public var minVolumeCm3: Double
    public var maxVolumeCm3: Double
    public var rejectLimitedMotion: Bool
    // MARK: Enrolment (§7 Enrollment Completion)
    public var enrolMaxFPS: Int
    public var enrolMinFrames: Int
    public var enrolMaxFrames: Int
    public var enrolMinViewpoints: Int
    public var manualMinFrames: Int
    public var distinctivenessWarnBelow: Double
    // MARK: Modes, keys, temporary unlocks (§5.2, §5.5, §6.5, §8, §9)
    public var maxModes: Int
    public var maxTemporaryKeys: Int
    public var temporaryUnlockMinutes: Int
    public var switchWhileLocked: SwitchWhileLocked
    public var editWhileLocked: Bool
    public var replaceKeyWhileLocked: Bool
    public var deleteDataWhileLocked: Bool
    // MARK: Onboarding (§5.6, §6.1)
    public var appsBeforeKey: Bool

    /// The spec's defaults.
    public static let defaults = ClavisParameters(values: ParameterValues(defaultsOf: catalogue))

    public init(values v: ParameterValues) {
        threshold = v.double("verify.threshold")
        consecutiveFrames = v.int("verify.consecutive_frames")
        verifyMaxFPS = v.int("verify.max_fps")
        rejectedFrameBreaksRun = v.bool("verify.rejected_frame_breaks_run")
        minPoints = v.int("frames.min_points")
        minVolumeCm3 = v.double("frames.min_volume_cm3")
        maxVolumeCm3 = v.double("frames.max_volume_cm3")
        rejectLimitedMotion = v.bool("frames.reject_limited_motion")
        enrolMaxFPS = v.int("enrolment.max_fps")
        enrolMinFrames = v.int("enrolment.min_frames")
        enrolMaxFrames = max(v.int("enrolment.max_frames"), enrolMinFrames)
        enrolMinViewpoints = v.int("enrolment.min_viewpoints")
        manualMinFrames = min(v.int("enrolment.manual_min_frames"), enrolMinFrames)
        distinctivenessWarnBelow = v.double("enrolment.distinctiveness_warn_below")
        maxModes = v.int("modes.max")
        maxTemporaryKeys = v.int("keys.max_temporary_per_mode")
        temporaryUnlockMinutes = v.int("temporary.unlock_minutes")
        switchWhileLocked = SwitchWhileLocked(rawValue: v.text("modes.switch_while_locked")) ?? .refuse
        editWhileLocked = v.bool("modes.edit_while_locked")
        replaceKeyWhileLocked = v.bool("keys.replace_while_locked")
        deleteDataWhileLocked = v.bool("data.delete_while_locked")
        appsBeforeKey = v.bool("onboarding.apps_before_key")
    }

    /// Why a frame fails the quality checks (§7 Quality Heuristics), nil when it passes: tracking unavailable, tracking
    /// limited by light ("Reject frames when tracking is limited due to poor lighting"), limited by motion only when
    /// `frames.reject_limited_motion`, too few points, a bounding box too small (too far) or too large (too close).
    public func check(_ q: FrameQuality) -> FrameRejection? {
        switch q.tracking {
        case .unavailable: return .trackingUnavailable
        case .limitedLight: return .poorLighting
        case .limitedMotion where rejectLimitedMotion: return .poorTracking
        default: break
        }
        if q.points < minPoints { return .insufficientPoints }
        if q.volumeCm3 < minVolumeCm3 { return .tooFar }
        if q.volumeCm3 > maxVolumeCm3 { return .tooClose }
        return nil
    }

    /// Every parameter under its `rules:` key path, with kind, default, summary and source.
    public static let catalogue: [RuleParameter] = {
        let file = ClavisEngine.seedFile
        func seed(_ s: String) -> ParameterSource { .seed(file: file, section: s) }
        func number(_ key: String, _ range: ClosedRange<Double>, _ d: Double, _ summary: String, _ source: ParameterSource) -> RuleParameter {
            RuleParameter(key, .number(range), default: .number(d), summary, source: source)
        }
        func choice<C: RawRepresentable & CaseIterable>(_ key: String, _ d: C, _ summary: String, _ source: ParameterSource) -> RuleParameter
        where C.RawValue == String {
            RuleParameter(key, .choice(C.allCases.map(\.rawValue)), default: .text(d.rawValue), summary, source: source)
        }
        let int = RuleParameter.int, bool = RuleParameter.bool
        return [
            number("verify.threshold", 0.5...1.0, 0.90, "a frame matches a key when its best cosine similarity against the key's template is at least this",
                   seed("§7 Match Decision \"If best similarity score exceeds threshold (cosine similarity ≥ 0.90) → match\" (≥, against §6.3–§6.5 \"exceeds\"; inventory gap 4); §10 Risk 1 \"Adjustable thresholds\"")),
            int("verify.consecutive_frames", 1...10, 3, "consecutive matching frames of one key that make a match",
                seed("§7 Match Decision \"require match in 3 consecutive frames to reduce false positives (balanced policy)\"; §6.3 \"confidence exceeds threshold in 3 consecutive frames\"")),
            int("verify.max_fps", 1...60, 10, "verification frames processed per second at most; a frame sooner than 1/fps after the last processed one is skipped",
                seed("§7 Verification Process \"processed at ~5-10 FPS\"; Performance Optimization \"5-10 FPS for verification\"")),
            bool("verify.rejected_frame_breaks_run", true, "a quality-rejected frame resets every key's run of matching frames (false: it is skipped and the run goes on)",
                 .assumption("§7 \"require match in 3 consecutive frames\" does not say whether a rejected frame in between breaks the run; consecutive processed frames by default (inventory row 35)")),
            int("frames.min_points", 1...5000, 50, "fewest point-cloud points a frame needs (fewer: insufficient points, \"Move closer\")",
                .assumption("§7 Quality Heuristics \"Ensure minimum number of points detected in point cloud\" names no number (inventory gap 6)")),
            number("frames.min_volume_cm3", 1...1000, 20, "smallest point-cloud bounding-box volume, cm³ (smaller: too far)",
                   .assumption("§7 Quality Heuristics \"Ensure volume is within acceptable range (not too small = too far, not too large = too close)\" names no range (inventory gap 6)")),
            number("frames.max_volume_cm3", 1000...1_000_000, 50_000, "largest point-cloud bounding-box volume, cm³ (larger: too close)",
                   .assumption("§7 Quality Heuristics \"not too large = too close\" names no range (inventory gap 6)")),
            bool("frames.reject_limited_motion", false, "a frame whose tracking is limited by motion (not light) is rejected too",
                 .assumption("§7 Quality Heuristics rejects \"when tracking is unavailable\" and \"when tracking is limited due to poor lighting\" but only gives guidance (\"Move device slowly\") when limited otherwise (inventory gap 5)")),
            int("enrolment.max_fps", 1...30, 5, "enrolment frames processed per second at most; a frame sooner than 1/fps after the last processed one is skipped",
                seed("§7 Frame Selection Criteria \"Process frames at ~2-5 FPS (not every frame)\"")),
            int("enrolment.min_frames", 1...30, 8, "quality frames an enrolment needs to complete by itself",
                seed("§7 Enrollment Completion \"Minimum 8 quality frames collected AND Sufficient angle diversity achieved\"")),
            int("enrolment.max_frames", 1...30, 12, "quality frames an enrolment keeps at most (later ones are not stored)",
                seed("§7 Frame Selection Criteria \"Collect 8-12 high-quality 3D feature vectors from diverse angles\"")),
            int("enrolment.min_viewpoints", 1...8, 4, "viewpoint bins (of 8) the quality frames must cover for the enrolment to complete by itself",
                .assumption("§7 Enrollment Completion \"Sufficient angle diversity achieved (covers multiple viewpoints)\" names no number; 4 of 8 bins (inventory row 27)")),
            int("enrolment.manual_min_frames", 1...30, 4, "quality frames a manual \"complete early\" needs (at most enrolment.min_frames)",
                .assumption("§7 Enrollment Completion \"User can manually complete enrollment early if satisfied\" names no minimum (inventory row 28)")),
            number("enrolment.distinctiveness_warn_below", 0...1, 0.3, "an enrolment frame less distinctive than this shows the distinctiveness warning (once per enrolment; never a refusal)",
                   .assumption("§7 Distinctiveness Warnings \"Warn if object appears too uniform or lacks 3D structure\" names no measure; a warning only (inventory row 29)")),
            int("modes.max", 1...50, 10, "modes a person may keep",
                .assumption("§5.2 \"Create, edit, and delete modes\" sets no limit; 10 keeps the engine's state small")),
            int("keys.max_temporary_per_mode", 0...20, 5, "temporary keys one mode may have",
                .assumption("§5.2 \"Each mode can have zero or more temporary keys (optional array)\" sets no limit (inventory row 3)")),
            int("temporary.unlock_minutes", 1...240, 15, "how long a temporary unlock makes the mode's apps available, minutes",
                .assumption("§6.5 \"temporarily available for a limited time\" names no duration (§9 persists \"Temporary unlock time remaining\"; inventory row 16, gap 3)")),
            choice("modes.switch_while_locked", SwitchWhileLocked.refuse, "switching the active mode while a mode is locked: refused, or the Focus shows the new mode's apps while the original lock stays",
                   .assumption("§8 \"When switching modes while locked, update Focus Mode to reflect new mode's app configuration\" against §6.4 (only the locked mode's main key unlocks): refused by default (inventory row 13, gap 2)")),
            bool("modes.edit_while_locked", false, "the locked mode may be edited (apps, temporary keys) or deleted",
                 .assumption("§6.2 \"User can edit existing modes\" and §3 Edit Mode are silent about a locked mode; refused by default (inventory row 14)")),
            bool("keys.replace_while_locked", true, "the locked mode's main key may be replaced by a new enrolment or another stored key (a lost key; logged as a bypass)",
                 .assumption("§3 Replace Key \"if lost or unreliable\" is silent about a locked mode, and §2 Non-Goals \"Strong anti‑tampering enforcement\": allowed by default (inventory row 14, gap 7)")),
            bool("data.delete_while_locked", true, "\"Delete my key\" works while a mode is locked (it drops the lock, Focus off; logged as a bypass)",
                 .assumption("§9 Privacy Guarantee \"Easy reset: 'Delete my key' clears all stored data\" is silent about a locked mode (inventory row 43)")),
            bool("onboarding.apps_before_key", true, "onboarding chooses the first mode's apps before enrolling its main key (§6.1's order; false: §5.6's, the key first)",
                 .assumption("§6.1 Create First Mode \"User selects categories or apps to block for this mode\" before the key, against §5.6's steps (key, then apps); §6.1 by default (inventory row 40, gap 13)")),
        ]
    }()
}
