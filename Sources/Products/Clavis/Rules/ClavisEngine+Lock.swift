import RulesCore

/// Verification scans and the lock state machine (seed `004_8fa1e69c755a74b3.txt` §5.3 LockStateManager, §5.5
/// TemporaryKeyManager, §6.3 Lock Flow, §6.4 Unlock Flow, §6.5 Temporary Unlock Flow, §7 Verification Process, §8).
extension ClavisEngine {
    /// The keys a scan of `kind` compares frames against, or why it cannot start: the active mode's main key to lock;
    /// the locked mode's main key to unlock ("To unlock, user must physically return to that mode's main key object",
    /// §1); the locked mode's temporary keys "skipping already-used keys" (§6.5), never during a running temporary
    /// unlock (no stacking).
    func candidates(_ kind: ScanKind) -> Result<(ModeID, [KeyID]), ClavisRefusal> {
        switch kind {
        case .lock:
            guard lock == nil else { return .failure(.alreadyLocked) }
            guard let a = activeMode, let i = modeIndex(a) else { return .failure(.notFound) }
            guard let k = modes[i].mainKey else { return .failure(.noMainKey) }
            return .success((a, [k]))
        case .unlock:
            guard let l = lock, let i = modeIndex(l.mode), let k = modes[i].mainKey else { return .failure(.notLocked) }
            return .success((l.mode, [k]))
        case .temporary:
            guard let l = lock, let i = modeIndex(l.mode) else { return .failure(.notLocked) }
            guard l.temporaryUntil == nil else { return .failure(.temporaryUnlockRunning) }
            let unused = modes[i].temporaryKeys.filter { !l.usedTemporaryKeys.contains($0) }
            guard !unused.isEmpty else { return .failure(.noTemporaryKeyLeft) }
            return .success((l.mode, unused))
        }
    }

    /// Starts a scan. §7 Error Handling first: the camera opens only on a device with ARKit, with the permission granted
    /// (`cameraRefusal`).
    mutating func startScan(_ kind: ScanKind, _ now: Instant, _ out: inout ClavisOutcome) {
        if let r = cameraRefusal { out.decision = .refused(r); return }
        guard scan == nil else { out.decision = .refused(.scanInProgress); return }
        guard enrolment == nil else { out.decision = .refused(.enrolmentInProgress); return }
        guard onboardingDone else { out.decision = .refused(.onboardingNotDone); return }
        switch candidates(kind) {
        case .failure(let r): out.decision = .refused(r)
        case .success(let (mode, keys)):
            scan = ClavisScan(kind: kind, mode: mode, startedAt: now, run: ScanRun(candidates: keys), lastFrameAt: nil)
            out.events.append(.scanStarted(kind))
        }
    }

    /// One verification frame: skipped faster than `verify.max_fps` (§7 "processed at ~5-10 FPS"); otherwise checked
    /// (§7 "Frame Quality Checks (applied during both enrollment and verification)") and scored against the
    /// candidates; "On match (confidence exceeds threshold in 3 consecutive frames)" the scan's action happens.
    mutating func scanFrame(_ f: ScanFrame, _ now: Instant, _ out: inout ClavisOutcome) {
        guard var s = scan else { out.decision = .refused(.noScan); return }
        if let last = s.lastFrameAt, (now - last).milliseconds < 1000 / Int64(parameters.verifyMaxFPS) {
            out.decision = .frameSkipped
            return
        }
        s.lastFrameAt = now
        let matched = s.run.process(f, accepted: parameters.check(f.quality) == nil, parameters: parameters)
        scan = s
        if let k = matched {
            finishScan(k, frames: s.run.frames, best: s.run.bestSimilarity, now, &out)
        } else {
            out.decision = .scanning(run: s.run.currentRun)
        }
    }

    /// The fast path: a sampled whole scan. A match by a key that is not a candidate is refused (the sampler's error);
    /// no match ends the scan as `.cancelScan` does.
    mutating func scanResult(_ r: ScanResult, _ now: Instant, _ out: inout ClavisOutcome) {
        guard let s = scan else { out.decision = .refused(.noScan); return }
        guard r.frames >= 0 else { out.decision = .refused(.invalid); return }
        if let k = r.matched {
            guard s.run.candidates.contains(k), r.frames >= parameters.consecutiveFrames else { out.decision = .refused(.invalid); return }
            finishScan(k, frames: r.frames, best: r.bestSimilarity, now, &out)
        } else {
            endScanWithoutMatch(s.kind, frames: r.frames, longestRun: r.longestRun, s.startedAt, now, &out)
        }
    }

    /// The person gives up (the scan screen closed without a match).
    mutating func abandonScan(_ now: Instant, _ out: inout ClavisOutcome) {
        let s = scan!
        endScanWithoutMatch(s.kind, frames: s.run.frames, longestRun: s.run.longestRun, s.startedAt, now, &out)
    }

    mutating func endScanWithoutMatch(_ kind: ScanKind, frames: Int, longestRun: Int, _ start: Instant, _ now: Instant, _ out: inout ClavisOutcome) {
        scan = nil
        out.effects.append(.arSession(seconds: seconds(start, now)))
        out.events.append(.scanAbandoned(kind, frames: frames, seconds: Int(seconds(start, now)), longestRun: longestRun))
        out.decision = .scanAbandoned
    }

    /// A match: lock, unlock or temporary unlock.
    mutating func finishScan(_ key: KeyID, frames: Int, best: Double, _ now: Instant, _ out: inout ClavisOutcome) {
        let s = scan!
        scan = nil
        out.effects.append(.arSession(seconds: seconds(s.startedAt, now)))
        out.events.append(.scanMatched(s.kind, key, frames: frames, seconds: Int(seconds(s.startedAt, now)), bestSimilarity: best))
        let i = modeIndex(s.mode)!
        switch s.kind {
        case .lock:
            // §6.3 "Focus Mode turns ON → apps for that mode become blocked"; "All temporary keys for that mode are reset
            // to unused state."
            cycles += 1
            lock = ClavisLock(mode: s.mode, since: now, cycle: cycles, usedTemporaryKeys: [], temporaryUntil: nil, temporaryKey: nil)
            focusOn = true
            focusMode = s.mode
            out.effects.append(.focusOn(apps: modes[i].apps))
            out.events.append(.modeLocked(s.mode, cycle: cycles, day: day(now)))
            out.decision = .locked(cycle: cycles)
        case .unlock:
            // §6.4 "Focus Mode turns OFF → apps become available"; "All temporary key usage resets for the unlocked mode".
            let l = lock!
            if l.temporaryUntil != nil { endTemporary(.unlocked, &out) }
            lock = nil
            focusOn = false
            focusMode = nil
            out.effects.append(.focusOff)
            out.events.append(.modeUnlocked(s.mode, cycle: l.cycle, minutes: Int((now - l.since).milliseconds / 60_000)))
            out.decision = .unlocked(cycle: l.cycle)
        case .temporary:
            // §6.5 "Selected apps for that mode become temporarily available for a limited time"; "The matched temporary
            // key is marked as used for the current lock cycle of that mode."
            let until = now + .minutes(Int64(parameters.temporaryUnlockMinutes))
            lock!.usedTemporaryKeys.append(key)
            lock!.temporaryUntil = until
            lock!.temporaryKey = key
            temporaryUnlocks += 1
            if let m = focusMode, let j = modeIndex(m) {
                out.effects.append(.focusOn(apps: modes[j].apps - (m == s.mode ? modes[j].temporaryApps : 0)))
            }
            out.events.append(.temporaryUnlockStarted(s.mode, key, minutes: parameters.temporaryUnlockMinutes))
            out.decision = .temporaryUnlocked(key, until: until)
        }
    }
}
