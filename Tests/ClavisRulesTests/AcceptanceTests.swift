import Testing
import RulesCore
@testable import ClavisRules

/// The inventory's acceptance examples §8 (1–10), each from the spec's words (seed 004).
@Suite("Clavis acceptance examples (inventory §8)")
struct AcceptanceTests {
    /// 1. §7 "cosine similarity ≥ 0.90" + "require match in 3 consecutive frames".
    @Test("1. \"≥ 0.90 … in 3 consecutive frames\": 0.91, 0.93, 0.89, 0.95, 0.92, 0.90 match on frame 6; three frames of exactly 0.90 match")
    func threshold() {
        var h = Harness()
        let o = h.onboard()
        let d = h.scan(.lock, [0.91, 0.93, 0.89, 0.95, 0.92, 0.90].map { frame(o.main, $0) })
        #expect(d == .locked(cycle: 1))
        #expect(h.rendered("scan_matched") == ["scan_matched(kind=lock,key=\(o.main),frames=6,seconds=1,best_similarity=0.95)"])
        #expect(h.decisions.suffix(6).map(\.2) == [.scanning(run: 1), .scanning(run: 2), .scanning(run: 0), .scanning(run: 1), .scanning(run: 2), .locked(cycle: 1)])
        #expect(h.scan(.unlock, Array(repeating: frame(o.main, 0.90), count: 3)) == .unlocked(cycle: 1))
        #expect(h.problems.isEmpty, "\(h.problems)")
    }

    /// 2. §7 "Reject frames when tracking is unavailable".
    @Test("2. \"Reject frames when tracking is unavailable\": 0.95, 0.95, [unavailable], 0.95 is no match; two more at 0.95 match")
    func rejectedFrameBreaksRun() {
        var h = Harness()
        let o = h.onboard()
        let d = h.scan(.lock, [frame(o.main, 0.95), frame(o.main, 0.95), frame(o.main, 0.99, unavailable), frame(o.main, 0.95)])
        #expect(d == .scanning(run: 1) && h.engine.lock == nil)
        #expect(h.send(.frame(frame(o.main, 0.95)), at: h.tick()).decision == .scanning(run: 2))
        #expect(h.send(.frame(frame(o.main, 0.95)), at: h.tick()).decision == .locked(cycle: 1))
    }

    /// 3. §7 "Minimum 8 quality frames collected AND Sufficient angle diversity achieved".
    @Test("3. \"Minimum 8 quality frames … AND Sufficient angle diversity\": 7 in 5 bins, 8 in 1 bin incomplete; 8 in 4 bins complete; a rejected frame does not count")
    func enrolmentCompletion() {
        var h = Harness()
        guard case .modeCreated(let m) = h.send(.createMode(apps: 3, temporaryApps: 1), at: h.now).decision else { Issue.record("no mode"); return }
        h.cameraReady()
        h.send(.startEnrolment(m, .main), at: h.now)
        for i in 0..<7 { h.send(.enrolmentFrame(EnrolmentFrame(viewpoint: i % 5)), at: h.tick(300)) }
        #expect(h.lastDecision == .frameAccepted(frames: 7, viewpoints: 5) && h.engine.keys.isEmpty)
        #expect(h.send(.enrolmentFrame(EnrolmentFrame(quality: unavailable, viewpoint: 5)), at: h.tick(300)).decision == .frameRejected(.trackingUnavailable))
        #expect(h.engine.enrolment?.frames == 7, "a rejected frame does not count")
        #expect(h.send(.enrolmentFrame(EnrolmentFrame(viewpoint: 0)), at: h.tick(300)).decision == .keyEnrolled(1))

        h.send(.startEnrolment(m, .temporary), at: h.now)
        for _ in 0..<8 { h.send(.enrolmentFrame(EnrolmentFrame(viewpoint: 2)), at: h.tick(300)) }
        #expect(h.lastDecision == .frameAccepted(frames: 8, viewpoints: 1), "8 frames in one bin: incomplete")
        h.send(.restartEnrolment, at: h.now)
        for i in 0..<8 { h.send(.enrolmentFrame(EnrolmentFrame(viewpoint: i % 4)), at: h.tick(300)) }
        #expect(h.lastDecision == .keyEnrolled(2))
        #expect(h.rendered("enrollment_completed").last == "enrollment_completed(key=2,role=temporary,frames=8,viewpoints=4,manual=false)")
    }

    /// 4. §6.3 "All temporary keys for that mode are reset to unused state."
    @Test("4. \"All temporary keys for that mode are reset to unused state\": T1 used in cycle 1, accepted again in cycle 2")
    func resetAtLock() {
        var h = Harness()
        let o = h.onboard(temporary: 1)
        let t1 = o.temps[0]
        h.scanKey(.lock, o.main)
        #expect(h.scanKey(.temporary, t1) == .temporaryUnlocked(t1, until: h.now + .minutes(15)))
        h.scanKey(.unlock, o.main)
        h.scanKey(.lock, o.main)
        #expect(h.engine.lock?.usedTemporaryKeys == [])
        #expect(h.scanKey(.temporary, t1) == .temporaryUnlocked(t1, until: h.now + .minutes(15)))
        #expect(h.problems.isEmpty, "\(h.problems)")
    }

    /// 5. §6.5 "That specific temporary key cannot be used again until the next lock cycle … Other temporary keys for the
    /// same mode can still be used".
    @Test("5. \"cannot be used again until the next lock cycle … Other temporary keys … can still be used\": T1 twice never matches, T2 does")
    func oneUsePerCycle() {
        var h = Harness()
        let o = h.onboard(temporary: 2)
        let (t1, t2) = (o.temps[0], o.temps[1])
        h.scanKey(.lock, o.main)
        h.scanKey(.temporary, t1)
        h.send(.endTemporaryUnlock, at: h.tick())
        let d = h.scan(.temporary, Array(repeating: frame(t1, 0.99), count: 10))
        #expect(d == .scanning(run: 0), "T1 is skipped")
        #expect(h.engine.scan?.run.candidates == [t2])
        h.send(.cancelScan, at: h.tick())
        #expect(h.scanKey(.temporary, t2) == .temporaryUnlocked(t2, until: h.now + .minutes(15)))
        h.send(.endTemporaryUnlock, at: h.tick())
        #expect(h.send(.startScan(.temporary), at: h.tick()).decision == .refused(.noTemporaryKeyLeft))
    }

    /// 6. §1 "a key can be the main key for Work Mode and a temporary key for Sleep Mode".
    @Test("6. \"main key for Work Mode and a temporary key for Sleep Mode\": K unlocks Sleep temporarily, never fully")
    func reuseAcrossModes() {
        var h = Harness()
        let work = h.onboard()
        guard case .modeCreated(let sleep) = h.send(.createMode(apps: 4, temporaryApps: 1), at: h.now).decision else { Issue.record("no mode"); return }
        let s = h.enrol(sleep, .main)
        #expect(h.send(.assignKey(work.main, sleep, .temporary), at: h.now).decision == .ok)
        h.send(.switchMode(sleep), at: h.now)
        h.scanKey(.lock, s)
        #expect(h.engine.lock?.mode == sleep)
        #expect(h.scanKey(.temporary, work.main) == .temporaryUnlocked(work.main, until: h.now + .minutes(15)))
        h.send(.endTemporaryUnlock, at: h.tick())
        let d = h.scan(.unlock, Array(repeating: frame(work.main, 0.99), count: 6))
        #expect(d == .scanning(run: 0) && h.engine.lock?.mode == sleep, "K is not Sleep's main key")
    }

    /// 7. §1 "To unlock, user must physically return to that mode's main key object and scan it again."
    @Test("7. \"must physically return to that mode's main key object\": Sleep's key S does not unlock Work")
    func onlyTheMainKeyUnlocks() {
        var h = Harness()
        let work = h.onboard()
        guard case .modeCreated(let sleep) = h.send(.createMode(apps: 4, temporaryApps: 1), at: h.now).decision else { Issue.record("no mode"); return }
        let s = h.enrol(sleep, .main)
        h.scanKey(.lock, work.main)
        let d = h.scan(.unlock, Array(repeating: ScanFrame(best: [s: 0.99, work.main: 0.5]), count: 6))
        #expect(d == .scanning(run: 0) && h.engine.lock != nil)
        h.send(.cancelScan, at: h.tick())
        #expect(h.rendered("scan_abandoned") == ["scan_abandoned(kind=unlock,frames=6,seconds=1,longest_run=0)"])
    }

    /// 8. §6.5 "After time expires or user manually ends temporary unlock, apps are blocked again."
    @Test("8. \"After time expires or user manually ends temporary unlock\": re-blocked at 14:15, or at 14:05 by hand; the key stays used")
    func temporaryUnlockEnds() {
        var h = Harness()
        let o = h.onboard(temporary: 2)
        h.scanKey(.lock, o.main)
        h.run(until: h.at(0, 13, 59, 59))
        h.scanKey(.temporary, o.temps[0])
        let started = h.now
        h.run(until: started + .minutes(15))
        #expect(h.engine.lock?.temporaryUntil == nil)
        #expect(h.rendered("temp_unlock_ended") == ["temp_unlock_ended(reason=expired)"])
        #expect(h.log.last { $0.1.name == "temp_unlock_ended" }!.0 == started + .minutes(15))
        #expect(h.engine.lock?.usedTemporaryKeys == [o.temps[0]])
        h.scanKey(.temporary, o.temps[1])
        h.send(.endTemporaryUnlock, at: h.now + .minutes(5))
        #expect(h.rendered("temp_unlock_ended").last == "temp_unlock_ended(reason=manual)")
        #expect(h.engine.lock?.usedTemporaryKeys == o.temps && h.engine.focusOn)
        #expect(h.problems.isEmpty, "\(h.problems)")
    }

    /// 9. §5.2 "Each mode must have exactly one main key (required)."
    @Test("9. \"Each mode must have exactly one main key (required)\": locking a mode with no main key is refused")
    func noMainKeyNoLock() {
        var h = Harness()
        let o = h.onboard()
        guard case .modeCreated(let m) = h.send(.createMode(apps: 2, temporaryApps: 0), at: h.now).decision else { Issue.record("no mode"); return }
        h.send(.switchMode(m), at: h.now)
        #expect(h.send(.startScan(.lock), at: h.now).decision == .refused(.noMainKey))
        h.send(.switchMode(o.mode), at: h.now)
        #expect(h.send(.startScan(.lock), at: h.now).decision == .ok)
    }

    /// 10. §6.3 "On match … Focus Mode turns ON → apps for that mode become blocked."
    @Test("10. \"Focus Mode turns ON → apps for that mode become blocked\": focusOn(apps), mode_locked(cycle=1), no temporary key used")
    func lockTurnsFocusOn() {
        var h = Harness()
        let o = h.onboard(apps: 6, temporary: 1)
        let before = h.effectsLog.count
        h.scanKey(.lock, o.main)
        #expect(h.effectsLog[before...].map(\.1).contains(.focusOn(apps: 6)))
        #expect(h.rendered("mode_locked") == ["mode_locked(mode=\(o.mode),cycle=1,day=0)"])
        #expect(h.engine.focusOn && h.engine.lock?.usedTemporaryKeys == [])
        h.scanKey(.unlock, o.main)
        #expect(!h.engine.focusOn && h.effectsLog.last!.1 == .focusOff)
        #expect(h.ledger.isEmpty)
    }
}
