import Testing
import HabitatTestSupport
import RulesCore
@testable import ClavisRules

/// One test per rule, each written from the spec's own words (seed `004_8fa1e69c755a74b3.txt`) before its code.
@Suite("Clavis rules")
struct RuleTests {
    // MARK: Verification (§7)

    /// §7 "processed at ~5-10 FPS": a frame sooner than 1/10 s after the last is not processed.
    @Test("verification frames faster than verify.max_fps are skipped")
    func verifyFrameRate() {
        var h = Harness()
        let o = h.onboard()
        h.send(.startScan(.lock), at: h.now)
        let t = h.now + .seconds(1)
        #expect(h.send(.frame(frame(o.main, 0.95)), at: t).decision == .scanning(run: 1))
        #expect(h.send(.frame(frame(o.main, 0.95)), at: t + .milliseconds(50)).decision == .frameSkipped)
        #expect(h.send(.frame(frame(o.main, 0.95)), at: t + .milliseconds(100)).decision == .scanning(run: 2))
    }

    /// §7 Match Decision: the run is per key; in a temporary scan 3 frames alternating between two keys never match.
    @Test("the consecutive frames of a match are one key's")
    func runPerKey() {
        var h = Harness()
        let o = h.onboard(temporary: 2)
        h.scanKey(.lock, o.main)
        let (a, b) = (o.temps[0], o.temps[1])
        let d = h.scan(.temporary, [ScanFrame(best: [a: 0.95, b: 0.5]), ScanFrame(best: [a: 0.5, b: 0.95]), ScanFrame(best: [a: 0.95, b: 0.5]),
                                    ScanFrame(best: [a: 0.5, b: 0.95])])
        #expect(d == .scanning(run: 1) && h.engine.lock?.temporaryUntil == nil)
    }

    /// §7 "Adjustable thresholds" (§10 Risk 1): verify.threshold and verify.consecutive_frames move the decision.
    @Test("threshold and consecutive frames are parameters")
    func adjustable() {
        var h = Harness(parameters: params(["verify.threshold": .number(0.95), "verify.consecutive_frames": .int(5)]))
        let o = h.onboard()
        #expect(h.scan(.lock, Array(repeating: frame(o.main, 0.94), count: 8)) == .scanning(run: 0))
        h.send(.cancelScan, at: h.tick())
        #expect(h.scan(.lock, Array(repeating: frame(o.main, 0.95), count: 4)) == .scanning(run: 4))
        #expect(h.send(.frame(frame(o.main, 0.95)), at: h.tick()).decision == .locked(cycle: 1))
    }

    /// Assumption `verify.rejected_frame_breaks_run` false: a rejected frame is skipped.
    @Test("verify.rejected_frame_breaks_run false: a rejected frame does not reset the run")
    func rejectedFrameSkipped() {
        var h = Harness(parameters: params(["verify.rejected_frame_breaks_run": .bool(false)]))
        let o = h.onboard()
        #expect(h.scan(.lock, [frame(o.main, 0.95), frame(o.main, 0.95), frame(o.main, 0.1, unavailable), frame(o.main, 0.95)]) == .locked(cycle: 1))
    }

    /// §7 Quality Heuristics: each check and its reason; limited tracking by motion only with the parameter.
    @Test("frame quality: unavailable, poor light, few points, too far, too close are rejected; limited by motion only when told")
    func quality() {
        let p = ClavisParameters.defaults
        #expect(p.check(.good) == nil)
        #expect(p.check(FrameQuality(tracking: .unavailable)) == .trackingUnavailable)
        #expect(p.check(FrameQuality(tracking: .limitedLight)) == .poorLighting)
        #expect(p.check(FrameQuality(tracking: .limitedMotion)) == nil)
        #expect(params(["frames.reject_limited_motion": .bool(true)]).check(FrameQuality(tracking: .limitedMotion)) == .poorTracking)
        #expect(p.check(FrameQuality(points: 49)) == .insufficientPoints && p.check(FrameQuality(points: 50)) == nil)
        #expect(p.check(FrameQuality(volumeCm3: 19)) == .tooFar && p.check(FrameQuality(volumeCm3: 50_001)) == .tooClose)
    }

    // MARK: Fast path (frames vs a sampled scan result)

    @Test("a sampled ScanResult gives the same outcome as the frames it summarises (match and abandon)")
    func fastPathEquivalence() {
        let frames: [[Double]] = [[0.91, 0.89, 0.95, 0.96, 0.97], [0.5, 0.95, 0.95, 0.2], [0.9, 0.9, 0.9]]
        for sims in frames {
            var a = Harness(), b = Harness()
            let o = a.onboard()
            b.onboard()
            let fs = sims.map { frame(o.main, $0) }
            a.scan(.lock, fs)
            if a.engine.scan != nil { a.send(.cancelScan, at: a.tick()) }
            let end = a.now
            b.send(.startScan(.lock), at: b.now)
            let r = ScanRun.result(of: fs, candidates: [o.main], parameters: .defaults)
            b.send(.scanResult(r), at: end)
            #expect(a.engine.lock == b.engine.lock && a.engine.focusOn == b.engine.focusOn && a.engine.scan == nil && b.engine.scan == nil)
            #expect(a.rendered() == b.rendered(), "\(sims)")
        }
    }

    @Test("frames and their ScanResult agree on random frame sequences (unlock scans, rejected frames included)", arguments: Array(UInt64(1)...50))
    func fastPathRandom(seed: UInt64) {
        var r = SplitMix64(seed: seed &* 0x9E37_79B9)
        var a = Harness(), b = Harness()
        let o = a.onboard()
        b.onboard()
        a.scanKey(.lock, o.main)
        b.scanKey(.lock, o.main)
        let fs = (0..<(1 + r.below(12))).map { _ in
            frame(o.main, r.pick([0.5, 0.89, 0.9, 0.93, 0.97]), r.chance(0.15) ? unavailable : .good)
        }
        a.scan(.unlock, fs)
        if a.engine.scan != nil { a.send(.cancelScan, at: a.tick()) }
        let end = a.now
        b.send(.startScan(.unlock), at: a.decisions.last { if case .startScan = $0.1 { true } else { false } }!.0)
        b.send(.scanResult(ScanRun.result(of: fs, candidates: [o.main], parameters: .defaults)), at: end)
        #expect(a.engine.lock == b.engine.lock && a.engine.cycles == b.engine.cycles)
        #expect(a.rendered() == b.rendered())
        #expect(a.problems.isEmpty && b.problems.isEmpty)
    }

    @Test("a sampled match by a key that is not a candidate is refused")
    func fastPathCandidates() {
        var h = Harness()
        let o = h.onboard(temporary: 1)
        h.send(.startScan(.lock), at: h.now)
        #expect(h.send(.scanResult(ScanResult(matched: o.temps[0], frames: 3)), at: h.tick()).decision == .refused(.invalid))
        #expect(h.send(.scanResult(ScanResult(matched: o.main, frames: 3, bestSimilarity: 0.93)), at: h.tick()).decision == .locked(cycle: 1))
    }

    // MARK: Enrolment (§7)

    /// §7 "Process frames at ~2-5 FPS (not every frame)".
    @Test("enrolment frames faster than enrolment.max_fps are skipped")
    func enrolFrameRate() {
        var h = Harness()
        h.send(.createMode(apps: 1, temporaryApps: 0), at: h.now)
        h.cameraReady()
        h.send(.startEnrolment(1, .main), at: h.now)
        #expect(h.send(.enrolmentFrame(EnrolmentFrame(viewpoint: 0)), at: h.tick(100)).decision == .frameAccepted(frames: 1, viewpoints: 1))
        #expect(h.send(.enrolmentFrame(EnrolmentFrame(viewpoint: 1)), at: h.tick(150)).decision == .frameSkipped)
        #expect(h.send(.enrolmentFrame(EnrolmentFrame(viewpoint: 1)), at: h.tick(200)).decision == .frameAccepted(frames: 2, viewpoints: 2))
    }

    /// §7 "User can manually complete enrollment early if satisfied"; "User can restart enrollment".
    @Test("manual completion needs enrolment.manual_min_frames; restart clears the frames")
    func manualAndRestart() {
        var h = Harness()
        h.send(.createMode(apps: 1, temporaryApps: 0), at: h.now)
        h.cameraReady()
        h.send(.startEnrolment(1, .main), at: h.now)
        for i in 0..<3 { h.send(.enrolmentFrame(EnrolmentFrame(viewpoint: i)), at: h.tick(300)) }
        #expect(h.send(.completeEnrolment, at: h.now).decision == .refused(.tooFewFrames))
        h.send(.restartEnrolment, at: h.now)
        #expect(h.engine.enrolment?.frames == 0)
        for _ in 0..<4 { h.send(.enrolmentFrame(EnrolmentFrame(viewpoint: 0)), at: h.tick(300)) }
        #expect(h.send(.completeEnrolment, at: h.now).decision == .keyEnrolled(1))
        #expect(h.rendered("enrollment_completed") == ["enrollment_completed(key=1,role=main,frames=4,viewpoints=1,manual=true)"])
        #expect(h.engine.modes[0].mainKey == 1)
    }

    /// §7 "Collect 8-12 high-quality 3D feature vectors": no more than 12 are kept.
    @Test("an enrolment keeps at most 12 frames")
    func maxFrames() {
        var h = Harness()
        h.send(.createMode(apps: 1, temporaryApps: 0), at: h.now)
        h.cameraReady()
        h.send(.startEnrolment(1, .main), at: h.now)
        for _ in 0..<14 { h.send(.enrolmentFrame(EnrolmentFrame(viewpoint: 3)), at: h.tick(300)) }
        #expect(h.engine.enrolment?.frames == 12 && h.lastDecision == .frameSkipped)
    }

    /// §7 Distinctiveness Warnings "Warn if object appears too uniform": a warning once, never a refusal.
    @Test("a uniform object warns once and still enrols")
    func distinctiveness() {
        var h = Harness()
        h.send(.createMode(apps: 1, temporaryApps: 0), at: h.now)
        h.cameraReady()
        h.send(.startEnrolment(1, .main), at: h.now)
        for i in 0..<8 { h.send(.enrolmentFrame(EnrolmentFrame(viewpoint: i % 4, distinctiveness: 0.1)), at: h.tick(300)) }
        #expect(h.count("distinctiveness_warning_shown") == 1 && h.engine.keys.first?.warned == true)
    }

    // MARK: Lock state machine (§5.3, §6.3–§6.5)

    /// No stacking (assumption, inventory row 22): a temporary scan is refused during a temporary unlock; an unlock with
    /// the main key ends it.
    @Test("no stacking of temporary unlocks; the main-key unlock ends a running one")
    func noStacking() {
        var h = Harness()
        let o = h.onboard(temporary: 2)
        h.scanKey(.lock, o.main)
        h.scanKey(.temporary, o.temps[0])
        #expect(h.send(.startScan(.temporary), at: h.tick()).decision == .refused(.temporaryUnlockRunning))
        #expect(h.scanKey(.unlock, o.main) == .unlocked(cycle: 1))
        #expect(h.rendered("temp_unlock_ended") == ["temp_unlock_ended(reason=unlocked)"])
        #expect(h.pending.isEmpty || h.send(.timer(h.pending[0]), at: h.pending[0].at).decision == .staleTimer)
    }

    /// §5.3 one locked mode (assumption, inventory row 12); a lock scan while locked is refused.
    @Test("one mode locked at a time; unlock and temporary scans need a lock")
    func oneLock() {
        var h = Harness()
        let o = h.onboard()
        #expect(h.send(.startScan(.unlock), at: h.now).decision == .refused(.notLocked))
        #expect(h.send(.startScan(.temporary), at: h.now).decision == .refused(.notLocked))
        h.scanKey(.lock, o.main)
        #expect(h.send(.startScan(.lock), at: h.tick()).decision == .refused(.alreadyLocked))
    }

    /// §6.1 Complete: locking waits for onboarding.
    @Test("locking is refused before onboarding is done")
    func lockAfterOnboarding() {
        var h = Harness()
        h.send(.createMode(apps: 1, temporaryApps: 0), at: h.now)
        h.enrol(1, .main)
        #expect(h.send(.startScan(.lock), at: h.now).decision == .refused(.onboardingNotDone))
    }

    // MARK: Open questions (assumptions)

    @Test("modes.switch_while_locked: refused by default; switch_focus shows the new mode's apps and keeps the lock")
    func switchWhileLocked() {
        for value in SwitchWhileLocked.allCases {
            var h = Harness(parameters: params(["modes.switch_while_locked": .text(value.rawValue)]))
            let o = h.onboard(apps: 5)
            h.send(.createMode(apps: 9, temporaryApps: 0), at: h.now)
            h.scanKey(.lock, o.main)
            let d = h.send(.switchMode(2), at: h.tick()).decision
            if value == .refuse {
                #expect(d == .refused(.modeLocked) && h.engine.activeMode == o.mode)
            } else {
                #expect(d == .ok && h.engine.activeMode == 2 && h.engine.focusMode == 2 && h.engine.lock?.mode == o.mode)
                #expect(h.effectsLog.last!.1 == .focusOn(apps: 9))
                #expect(h.scanKey(.unlock, o.main) == .unlocked(cycle: 1), "the original key still unlocks")
            }
        }
    }

    @Test("modes.edit_while_locked: the locked mode cannot be edited or deleted by default")
    func editWhileLocked() {
        var h = Harness()
        let o = h.onboard()
        h.scanKey(.lock, o.main)
        #expect(h.send(.editMode(o.mode, apps: 1, temporaryApps: 0), at: h.tick()).decision == .refused(.modeLocked))
        #expect(h.send(.deleteMode(o.mode), at: h.tick()).decision == .refused(.modeLocked))
        #expect(h.send(.startEnrolment(o.mode, .temporary), at: h.tick()).decision == .refused(.modeLocked))
        var e = Harness(parameters: params(["modes.edit_while_locked": .bool(true)]))
        let p = e.onboard()
        e.scanKey(.lock, p.main)
        #expect(e.send(.deleteMode(p.mode), at: e.tick()).decision == .ok)
        #expect(e.engine.lock == nil && !e.engine.focusOn)
    }

    @Test("keys.replace_while_locked: a lost main key can be replaced while locked (a bypass); refused when false")
    func replaceWhileLocked() {
        var h = Harness()
        let o = h.onboard()
        h.scanKey(.lock, o.main)
        let k = h.enrol(o.mode, .main)
        #expect(h.rendered("key_replaced") == ["key_replaced(mode=\(o.mode),while_locked=true)"])
        #expect(h.scanKey(.unlock, k) == .unlocked(cycle: 1))
        var r = Harness(parameters: params(["keys.replace_while_locked": .bool(false)]))
        let p = r.onboard()
        r.scanKey(.lock, p.main)
        #expect(r.send(.startEnrolment(p.mode, .main), at: r.tick()).decision == .refused(.modeLocked))
    }

    @Test("data.delete_while_locked: \"Delete my key\" clears everything and drops the lock; refused while locked when false")
    func deleteMyKey() {
        var h = Harness()
        let o = h.onboard(temporary: 1)
        h.scanKey(.lock, o.main)
        h.scanKey(.temporary, o.temps[0])
        h.send(.deleteAllData, at: h.tick())
        #expect(h.engine.keys.isEmpty && h.engine.modes.isEmpty && h.engine.lock == nil && !h.engine.focusOn && h.engine.onboardingIndex == 0)
        #expect(h.rendered("data_reset") == ["data_reset(while_locked=true)"])
        var r = Harness(parameters: params(["data.delete_while_locked": .bool(false)]))
        let p = r.onboard()
        r.scanKey(.lock, p.main)
        #expect(r.send(.deleteAllData, at: r.tick()).decision == .refused(.modeLocked))
    }

    @Test("a key is never both the main key and a temporary key of one mode; keys are reusable across modes")
    func sameKeyTwice() {
        var h = Harness()
        let o = h.onboard()
        #expect(h.send(.assignKey(o.main, o.mode, .temporary), at: h.now).decision == .refused(.sameKeyTwice))
        h.send(.createMode(apps: 2, temporaryApps: 1), at: h.now)
        #expect(h.send(.assignKey(o.main, 2, .main), at: h.now).decision == .ok)
        #expect(h.engine.modes.map(\.mainKey) == [o.main, o.main] && h.engine.keys.count == 1)
    }

    // MARK: Onboarding (§5.6, §6.1)

    @Test("onboarding follows §6.1's order (apps before the key); §5.6's with onboarding.apps_before_key false; a step is refused until done")
    func onboardingOrder() {
        var h = Harness()
        #expect(h.engine.onboardingOrder.map(\.name) == ["welcome", "create_mode", "select_apps", "enrol_main_key", "temporary_keys", "configure_focus", "complete"])
        h.send(.onboardingNext, at: h.now)
        #expect(h.send(.onboardingNext, at: h.now).decision == .refused(.stepIncomplete))
        h.send(.createMode(apps: 0, temporaryApps: 0), at: h.now)
        h.send(.onboardingNext, at: h.now)
        #expect(h.send(.onboardingNext, at: h.now).decision == .refused(.stepIncomplete), "no apps chosen yet")
        let k = Harness(parameters: params(["onboarding.apps_before_key": .bool(false)]))
        #expect(k.engine.onboardingOrder.map(\.name) == ["welcome", "create_mode", "enrol_main_key", "select_apps", "temporary_keys", "configure_focus", "complete"])
        var full = Harness()
        full.onboard()
        #expect(full.engine.onboardingDone && full.engine.activeMode == 1)
        #expect(full.rendered("onboarding_step_completed").count == 7)
        #expect(full.send(.onboardingNext, at: full.now).decision == .refused(.stepIncomplete))
    }

    // MARK: Camera permission and ARKit support (§7 Error Handling)

    /// §7 "Handle camera permission denials gracefully": before the system prompt is answered the camera cannot open
    /// (`camera_not_asked`: the app shows the prompt); after "Don't Allow" it is refused with `camera_denied` ("enable
    /// the camera in Settings") until the person allows it, which may come any time later.
    @Test("the camera opens only once allowed: camera_not_asked before the prompt, camera_denied after a denial, then allowed from Settings")
    func cameraPermission() {
        var h = Harness()
        h.send(.createMode(apps: 3, temporaryApps: 0), at: h.now)
        h.send(.deviceChecked(arSupported: true), at: h.now)
        #expect(h.engine.camera == .notAsked)
        #expect(h.send(.startEnrolment(1, .main), at: h.now).decision == .refused(.cameraNotAsked))
        #expect(h.send(.cameraPermission(granted: false), at: h.now).decision == .ok)
        #expect(h.engine.camera == .denied)
        #expect(h.send(.startEnrolment(1, .main), at: h.now).decision == .refused(.cameraDenied))
        #expect(h.engine.enrolment == nil && h.count("enrollment_started") == 0)
        h.send(.cameraPermission(granted: true), at: h.tick())
        #expect(h.send(.startEnrolment(1, .main), at: h.now).decision == .ok && h.engine.enrolment != nil)
        #expect(h.rendered("camera_permission_result") == ["camera_permission_result(granted=false)", "camera_permission_result(granted=true)"])

        var s = Harness()
        let o = s.onboard()
        s.send(.cameraPermission(granted: false), at: s.tick())
        #expect(s.send(.startScan(.lock), at: s.now).decision == .refused(.cameraDenied))
        s.send(.cameraPermission(granted: true), at: s.tick())
        #expect(s.scanKey(.lock, o.main) == .locked(cycle: 1))
        #expect(h.problems.isEmpty && s.problems.isEmpty, "\(h.problems) \(s.problems)")
    }

    /// §7 "Check ARKit support (`ARWorldTrackingConfiguration.isSupported`) before starting session"; "Provide clear error
    /// messages for hardware limitations (devices without depth sensing)".
    @Test("a device without ARKit support: every enrolment and scan refused ar_unsupported, before any camera question")
    func arUnsupported() {
        var h = Harness()
        h.send(.createMode(apps: 3, temporaryApps: 0), at: h.now)
        #expect(h.engine.arSupported == nil)
        h.send(.deviceChecked(arSupported: false), at: h.now)
        #expect(h.engine.arSupported == false)
        #expect(h.rendered("device_checked") == ["device_checked(ar_supported=false)"])
        #expect(h.send(.startEnrolment(1, .main), at: h.now).decision == .refused(.arUnsupported), "not the camera prompt")
        h.send(.cameraPermission(granted: true), at: h.now)
        #expect(h.send(.startEnrolment(1, .main), at: h.now).decision == .refused(.arUnsupported))

        var s = Harness()
        s.onboard()
        s.send(.deviceChecked(arSupported: false), at: s.tick())
        #expect(s.send(.startScan(.lock), at: s.now).decision == .refused(.arUnsupported))
        #expect(s.send(.startEnrolment(1, .temporary), at: s.now).decision == .refused(.arUnsupported))
        #expect(s.engine.scan == nil && s.engine.enrolment == nil)
    }

    /// §7 "Handle camera permission denials gracefully": the camera denied in Settings while it is open ends the scan as
    /// giving up does, and the enrolment as closing its screen does (their AR session charged).
    @Test("the camera denied mid-scan abandons the scan; mid-enrolment cancels the enrolment")
    func cameraDeniedMidway() {
        var h = Harness()
        let o = h.onboard()
        h.send(.startScan(.lock), at: h.tick())
        h.send(.frame(frame(o.main, 0.95)), at: h.tick())
        let from = h.log.count
        let d = h.send(.cameraPermission(granted: false), at: h.tick(1000)).decision
        #expect(d == .scanAbandoned && h.engine.scan == nil && h.engine.lock == nil)
        #expect(h.rendered(from: from) == ["camera_permission_result(granted=false)", "scan_abandoned(kind=lock,frames=1,seconds=1,longest_run=1)"])
        #expect(h.effectsLog.last!.1 == .arSession(seconds: 1.2))

        h.send(.cameraPermission(granted: true), at: h.tick())
        h.send(.startEnrolment(o.mode, .temporary), at: h.now)
        for i in 0..<3 { h.send(.enrolmentFrame(EnrolmentFrame(viewpoint: i)), at: h.tick(300)) }
        h.send(.cameraPermission(granted: false), at: h.tick(300))
        #expect(h.engine.enrolment == nil && h.engine.keys.count == 1)
        #expect(h.rendered("enrollment_cancelled") == ["enrollment_cancelled(frames=3)"])
        #expect(h.effectsLog.last!.1 == .arSession(seconds: 1.2))
        #expect(h.problems.isEmpty, "\(h.problems)")
    }

    /// §9 "'Delete my key' clears all stored data": the app's data, not the system's camera permission or the device.
    @Test("\"Delete my key\" keeps the camera permission and the ARKit check")
    func deleteKeepsCamera() {
        var h = Harness()
        h.onboard()
        h.send(.deleteAllData, at: h.tick())
        #expect(h.engine.camera == .granted && h.engine.arSupported == true)
        h.send(.createMode(apps: 2, temporaryApps: 0), at: h.now)
        #expect(h.send(.startEnrolment(h.engine.modes[0].id, .main), at: h.now).decision == .ok)
    }

    // MARK: Keys (§5.1 KeyManager, §5.2 ModeManager)

    /// §5.1 "Allow keys to be updated, renamed, or removed." The engine stores no names: a rename is its event.
    @Test("a key can be renamed; an unknown key is not_found")
    func renameKey() {
        var h = Harness()
        let o = h.onboard()
        #expect(h.send(.renameKey(o.main), at: h.now).decision == .ok)
        #expect(h.rendered("key_renamed") == ["key_renamed(key=\(o.main))"])
        #expect(h.send(.renameKey(99), at: h.now).decision == .refused(.notFound))
        #expect(h.engine.keys.count == 1 && h.engine.modes[0].mainKey == o.main)
    }

    /// §5.1 "Allow keys to be … removed"; §5.2 "Each mode must have exactly one main key (required)": a mode's main key
    /// cannot be removed until it is replaced (inventory gap 12); a temporary key leaves every mode it served.
    @Test("removing a key: a main key is key_in_use until replaced; a temporary key leaves every mode; unknown not_found")
    func removeKey() {
        var h = Harness()
        let o = h.onboard(temporary: 1)
        let t = o.temps[0]
        #expect(h.send(.removeKey(99), at: h.now).decision == .refused(.notFound))
        #expect(h.send(.removeKey(o.main), at: h.now).decision == .refused(.keyInUse))
        h.send(.createMode(apps: 2, temporaryApps: 1), at: h.now)
        h.send(.assignKey(t, 2, .temporary), at: h.now)
        h.send(.assignKey(o.main, 2, .main), at: h.now)
        #expect(h.send(.removeKey(t), at: h.now).decision == .ok)
        #expect(h.engine.keys.map(\.id) == [o.main] && h.engine.modes.allSatisfy { $0.temporaryKeys.isEmpty })
        #expect(h.rendered("key_removed") == ["key_removed(key=\(t))"] && h.effectsLog.last!.1 == .secureWrite)
        // Replaced as main key of mode 1, the old key still serves mode 2: still in use; replaced there too, removable.
        let k = h.enrol(o.mode, .main)
        #expect(h.send(.removeKey(o.main), at: h.now).decision == .refused(.keyInUse))
        h.send(.assignKey(k, 2, .main), at: h.now)
        #expect(h.send(.removeKey(o.main), at: h.now).decision == .ok)
        #expect(h.engine.keys.map(\.id) == [k] && h.engine.modes.allSatisfy { $0.mainKey == k })
        #expect(h.problems.isEmpty, "\(h.problems)")
    }

    /// The locked mode's temporary keys change only with `modes.edit_while_locked` (as assigning does); never during a
    /// scan; the key running the temporary unlock stays until the unlock ends.
    @Test("removing a key while locked: mode_locked by default, scan_in_progress during a scan; with edit_while_locked its use this cycle goes too")
    func removeKeyWhileLocked() {
        var h = Harness()
        let o = h.onboard(temporary: 2)
        h.scanKey(.lock, o.main)
        #expect(h.send(.removeKey(o.temps[0]), at: h.tick()).decision == .refused(.modeLocked))
        h.send(.startScan(.temporary), at: h.tick())
        #expect(h.send(.removeKey(o.temps[1]), at: h.tick()).decision == .refused(.scanInProgress))
        #expect(h.engine.keys.count == 3)

        var e = Harness(parameters: params(["modes.edit_while_locked": .bool(true)]))
        let p = e.onboard(temporary: 2)
        e.scanKey(.lock, p.main)
        e.scanKey(.temporary, p.temps[0])
        #expect(e.send(.removeKey(p.temps[0]), at: e.tick()).decision == .refused(.temporaryUnlockRunning))
        e.send(.endTemporaryUnlock, at: e.tick())
        #expect(e.send(.removeKey(p.temps[0]), at: e.tick()).decision == .ok)
        #expect(e.engine.lock?.usedTemporaryKeys == [] && e.engine.modes[0].temporaryKeys == [p.temps[1]])
        #expect(e.problems.isEmpty, "\(e.problems)")
    }

    /// §5.2 "Manage key assignments: … add/remove temporary keys for a mode." The key stays stored (§9 "Keys are stored
    /// independently and referenced by ID in modes").
    @Test("removing a temporary key from a mode: key_unassigned, the key stays stored; not_found, mode_locked, scan_in_progress")
    func removeTemporaryKey() {
        var h = Harness()
        let o = h.onboard(temporary: 2)
        let (a, b) = (o.temps[0], o.temps[1])
        #expect(h.send(.removeTemporaryKey(a, from: 9), at: h.now).decision == .refused(.notFound))
        #expect(h.send(.removeTemporaryKey(o.main, from: o.mode), at: h.now).decision == .refused(.notFound), "the main key is not a temporary key")
        #expect(h.send(.removeTemporaryKey(a, from: o.mode), at: h.now).decision == .ok)
        #expect(h.engine.modes[0].temporaryKeys == [b] && h.engine.keys.count == 3)
        #expect(h.rendered("key_unassigned") == ["key_unassigned(key=\(a),mode=\(o.mode))"] && h.effectsLog.last!.1 == .secureWrite)
        #expect(h.send(.removeTemporaryKey(a, from: o.mode), at: h.now).decision == .refused(.notFound))
        h.scanKey(.lock, o.main)
        #expect(h.send(.removeTemporaryKey(b, from: o.mode), at: h.tick()).decision == .refused(.modeLocked))
        h.send(.startScan(.temporary), at: h.tick())
        #expect(h.send(.removeTemporaryKey(b, from: o.mode), at: h.tick()).decision == .refused(.scanInProgress))

        var e = Harness(parameters: params(["modes.edit_while_locked": .bool(true)]))
        let p = e.onboard(temporary: 1)
        e.scanKey(.lock, p.main)
        e.scanKey(.temporary, p.temps[0])
        #expect(e.send(.removeTemporaryKey(p.temps[0], from: p.mode), at: e.tick()).decision == .refused(.temporaryUnlockRunning))
        e.send(.endTemporaryUnlock, at: e.tick())
        #expect(e.send(.removeTemporaryKey(p.temps[0], from: p.mode), at: e.tick()).decision == .ok)
        #expect(e.engine.lock?.usedTemporaryKeys == [] && e.engine.keys.count == 2)
        #expect(e.send(.startScan(.temporary), at: e.tick()).decision == .refused(.noTemporaryKeyLeft))
        #expect(e.problems.isEmpty, "\(e.problems)")
    }

    @Test("Focus is on exactly while a mode is locked; no money moves")
    func focusAndMoney() {
        var h = Harness()
        let o = h.onboard(temporary: 1)
        for _ in 0..<3 {
            h.scanKey(.lock, o.main)
            #expect(h.engine.focusOn)
            h.scanKey(.temporary, o.temps[0])
            #expect(h.engine.focusOn, "a temporary unlock keeps the lock")
            h.scanKey(.unlock, o.main)
            #expect(!h.engine.focusOn)
            h.run(until: h.now + .days(1))
        }
        #expect(h.ledger.isEmpty && h.engine.cycles == 3 && h.engine.temporaryUnlocks == 3)
        #expect(h.problems.isEmpty, "\(h.problems)")
    }
}
