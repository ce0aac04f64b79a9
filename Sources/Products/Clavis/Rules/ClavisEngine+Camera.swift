import RulesCore

/// The camera permission and the ARKit support check (seed `004_8fa1e69c755a74b3.txt` §7 Error Handling: "Handle camera
/// permission denials gracefully"; "Provide clear error messages for hardware limitations (devices without depth
/// sensing)"; "Check ARKit support (`ARWorldTrackingConfiguration.isSupported`) before starting session").
extension ClavisEngine {
    /// Why the camera cannot open now (an enrolment or a scan), or nil: the device failed the ARKit check
    /// (`ar_unsupported`; an unchecked device is not refused), the permission was never asked (`camera_not_asked`: the
    /// app shows the system prompt), or it was denied (`camera_denied`: "enable the camera in Settings").
    var cameraRefusal: ClavisRefusal? {
        if arSupported == false { return .arUnsupported }
        switch camera {
        case .notAsked: return .cameraNotAsked
        case .denied: return .cameraDenied
        case .granted: return nil
        }
    }

    /// §7 "Handle camera permission denials gracefully": the prompt answered or the permission changed in Settings
    /// (never refused). A denial while the camera is open ends the scan as giving up does (`scan_abandoned`) and the
    /// enrolment as closing its screen does (`enrollment_cancelled`), each with its AR session.
    mutating func cameraPermission(_ granted: Bool, _ now: Instant, _ out: inout ClavisOutcome) {
        camera = granted ? .granted : .denied
        out.events.append(.cameraPermissionResult(granted: granted))
        if !granted { closeCamera(now, &out) }
    }

    /// §7 "Check ARKit support … before starting session": the launch's check (never refused). A device found
    /// unsupported closes an open camera as a denial does (only a simulator's inconsistency: a device does not lose
    /// ARKit).
    mutating func deviceChecked(_ supported: Bool, _ now: Instant, _ out: inout ClavisOutcome) {
        arSupported = supported
        out.events.append(.deviceChecked(arSupported: supported))
        if !supported { closeCamera(now, &out) }
    }

    /// Ends an open scan (abandoned) or enrolment (cancelled).
    mutating func closeCamera(_ now: Instant, _ out: inout ClavisOutcome) {
        if scan != nil { abandonScan(now, &out) }
        if enrolment != nil { cancelEnrolment(now, &out) }
    }
}
