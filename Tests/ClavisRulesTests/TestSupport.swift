import HabitatTestSupport
import RulesCore
@testable import ClavisRules

/// The example tests' host (`HabitatTestSupport.EngineHarness`) for Clavis: London, day 0 Monday 2026-03-02, install
/// at 08:00.
typealias Harness = EngineHarness<ClavisEngine>

let london = try! ZoneCalendar(identifier: "Europe/London", startingOn: LocalDate(year: 2026, month: 1, day: 1)!, days: 400)

/// The default parameters with some catalogue values changed.
func params(_ changes: [String: ParameterValue]) -> ClavisParameters {
    var v = ParameterValues(defaultsOf: ClavisParameters.catalogue)
    for (k, x) in changes { v[k] = x }
    return ClavisParameters(values: v)
}

/// A verification frame of good quality whose best similarity to `key` is `s` (nothing else scored).
func frame(_ key: KeyID, _ s: Double, _ quality: FrameQuality = .good) -> ScanFrame { ScanFrame(quality: quality, best: [key: s]) }

/// A frame whose tracking is unavailable.
let unavailable = FrameQuality(tracking: .unavailable)

extension EngineHarness where Engine == ClavisEngine {
    init(parameters: ClavisParameters = .defaults, at hour: Int = 8) {
        self.init(parameters: parameters, zone: london, day0: LocalDate(year: 2026, month: 3, day: 2)!, hour: hour)
    }

    /// Moves the clock on by `ms` milliseconds (frames come at most `max_fps` per second).
    func tick(_ ms: Int64 = 200) -> Instant { now + .milliseconds(ms) }

    /// The app's launch check on a device with ARKit, and the system camera prompt answered "Allow" (§7 Error Handling
    /// "Check ARKit support … before starting session"; "Handle camera permission denials gracefully").
    mutating func cameraReady() {
        send(.deviceChecked(arSupported: true), at: now)
        send(.cameraPermission(granted: true), at: now)
    }

    /// Enrols a key for `mode` in `role` from 8 good frames over 4 viewpoints; returns its id. The device is checked
    /// first if it was not, and the first camera use shows the system prompt, answered "Allow" (§7 Error Handling).
    @discardableResult
    mutating func enrol(_ mode: ModeID, _ role: KeyRole) -> KeyID {
        if engine.arSupported == nil { send(.deviceChecked(arSupported: true), at: now) }
        if send(.startEnrolment(mode, role), at: now).decision == .refused(.cameraNotAsked) {
            send(.cameraPermission(granted: true), at: now)
            send(.startEnrolment(mode, role), at: now)
        }
        for i in 0..<8 {
            if case .keyEnrolled(let k) = send(.enrolmentFrame(EnrolmentFrame(viewpoint: i % 4)), at: tick(250)).decision { return k }
        }
        fatalError("enrolment did not complete: \(decisions.last!.2)")
    }

    /// Onboarding the spec's way: the launch's ARKit check, a first mode of `apps` apps, its main key (the camera
    /// prompt answered "Allow" at the first enrolment), temporary keys, a validated Focus; returns the mode, its main key
    /// and its temporary keys.
    @discardableResult
    mutating func onboard(apps: Int = 5, temporary: Int = 0) -> (mode: ModeID, main: KeyID, temps: [KeyID]) {
        send(.appOpened, at: now)
        send(.deviceChecked(arSupported: true), at: now)                 // the launch check (§7)
        send(.onboardingNext, at: now)                                    // welcome
        guard case .modeCreated(let m) = send(.createMode(apps: apps, temporaryApps: 2), at: now).decision else { fatalError() }
        send(.onboardingNext, at: now)                                    // create mode
        send(.onboardingNext, at: now)                                    // apps
        let main = enrol(m, .main)
        send(.onboardingNext, at: now)                                    // main key
        let temps = (0..<temporary).map { _ in enrol(m, .temporary) }
        send(.onboardingNext, at: now)                                    // temporary keys
        send(.focusConfigured(ok: true), at: now)
        send(.onboardingNext, at: now)                                    // focus
        send(.onboardingNext, at: now)                                    // complete
        return (m, main, temps)
    }

    /// A scan of `kind` fed `frames` (5 per second); returns the last decision.
    @discardableResult
    mutating func scan(_ kind: ScanKind, _ frames: [ScanFrame]) -> ClavisDecision {
        send(.startScan(kind), at: now)
        var d = lastDecision
        for f in frames {
            d = send(.frame(f), at: tick()).decision
            if engine.scan == nil { break }
        }
        return d
    }

    /// A scan of `kind` showing `key` at 0.95 until it matches.
    @discardableResult
    mutating func scanKey(_ kind: ScanKind, _ key: KeyID) -> ClavisDecision {
        scan(kind, Array(repeating: frame(key, 0.95), count: 3))
    }

    var lastDecision: ClavisDecision { decisions.last!.2 }
}

func render(_ e: ClavisEvent) -> String { Harness.render(e) }
