import Testing
import HabitatTestSupport
import RulesCore
@testable import ClavisRules

/// The generic property driver (`HabitatTestSupport.EngineSweep`) on Clavis: every engine invariant (locked ⇔ Focus on,
/// one lock with a main key, used temporary keys unique and the mode's, a temporary unlock only by a used key and
/// before its end, scans consistent with the lock, modes and keys consistent) after every step of many random
/// sequences, plus properties over the whole run: at most one use per temporary key per cycle per mode, no stacking of
/// temporary unlocks, a cycle starts only by a lock match and ends only by a main-key match (or a logged bypass), a
/// match only after `verify.consecutive_frames` consecutive frames ≥ `verify.threshold`, an enrolment completes by
/// itself only with ≥ `enrolment.min_frames` frames over ≥ `enrolment.min_viewpoints` viewpoints, no ledger line.
@Suite("Clavis property sweeps")
struct PropertyTests {
    static let seeds: [UInt64] = Array(1...200)

    /// Every catalogue value drawn inside its range.
    static func randomParameters(_ r: inout SplitMix64) -> ClavisParameters {
        ClavisParameters(values: .random(from: ClavisParameters.catalogue, &r))
    }

    static func randomQuality(_ r: inout SplitMix64) -> FrameQuality {
        switch r.below(20) {
        case 0: FrameQuality(tracking: .unavailable)
        case 1: FrameQuality(tracking: .limitedLight)
        case 2: FrameQuality(tracking: .limitedMotion)
        case 3: FrameQuality(points: r.below(60))
        case 4: FrameQuality(volumeCm3: r.chance(0.5) ? 5 : 100_000)
        default: .good
        }
    }

    static func randomFrame(_ r: inout SplitMix64, _ e: ClavisEngine) -> ScanFrame {
        var best: [KeyID: Double] = [:]
        let keys = e.scan?.run.candidates ?? []
        for k in keys + [1 + r.below(6)] where r.chance(0.7) {
            best[k] = r.pick([0.3, 0.85, 0.89, 0.8999, 0.9, 0.92, 0.95, 0.99])
        }
        return ScanFrame(quality: randomQuality(&r), best: best)
    }

    static func randomInput(_ r: inout SplitMix64, _ e: ClavisEngine, _ t: Instant) -> ClavisInput {
        let mode = e.modes.isEmpty || r.chance(0.1) ? ModeID(1 + r.below(4)) : r.pick(e.modes.map(\.id))
        let key = e.keys.isEmpty || r.chance(0.1) ? KeyID(1 + r.below(6)) : r.pick(e.keys.map(\.id))
        if let s = e.scan, r.chance(0.85) {
            switch r.below(30) {
            case 0: return .cancelScan
            case 1:
                // A sampled result: a candidate, or nothing.
                let m: KeyID? = r.chance(0.6) ? r.pick(s.run.candidates) : (r.chance(0.3) ? key : nil)
                return .scanResult(ScanResult(matched: m, frames: r.below(40), bestSimilarity: 0.93, longestRun: r.below(3)))
            default: return .frame(randomFrame(&r, e))
            }
        }
        if e.enrolment != nil, r.chance(0.85) {
            switch r.below(30) {
            case 0: return .completeEnrolment
            case 1: return .restartEnrolment
            case 2: return .cancelEnrolment
            default:
                return .enrolmentFrame(EnrolmentFrame(quality: randomQuality(&r), viewpoint: r.chance(0.6) ? r.below(3) : r.below(8),
                                                      distinctiveness: r.pick([0.1, 0.5, 0.9])))
            }
        }
        switch r.below(114) {
        case 0..<5: return .appOpened
        case 5..<10: return .onboardingNext
        case 10..<14: return .createMode(apps: r.below(8), temporaryApps: r.below(4))
        case 14..<17: return .editMode(mode, apps: r.below(8), temporaryApps: r.below(4))
        case 17..<19: return .deleteMode(mode)
        case 19..<25: return .switchMode(mode)
        case 25..<33: return .startEnrolment(mode, r.chance(0.5) ? .main : .temporary)
        case 33..<38: return .assignKey(key, mode, r.chance(0.3) ? .main : .temporary)
        case 38..<41: return .focusConfigured(ok: r.chance(0.8))
        case 41: return .deleteAllData
        case 42..<80: return .startScan(r.pick(ScanKind.allCases))
        case 80..<86: return .endTemporaryUnlock
        // §7 Error Handling: the camera prompt answered or changed in Settings (allowed most of the time, so scans still
        // happen); the launch's ARKit check (supported most of the time).
        case 100..<104: return .cameraPermission(granted: r.chance(0.8))
        case 104..<106: return .deviceChecked(arSupported: r.chance(0.9))
        // §5.1 "renamed, or removed"; §5.2 "add/remove temporary keys for a mode" (mostly one of the mode's).
        case 106..<108: return .renameKey(key)
        case 108..<111: return .removeKey(key)
        case 111..<114:
            let temps = e.modes.first { $0.id == mode }?.temporaryKeys ?? []
            return .removeTemporaryKey(temps.isEmpty || r.chance(0.2) ? key : r.pick(temps), from: mode)
        default: return .timer(ClavisTimer(.temporaryUnlockEnd, at: t))
        }
    }

    /// Onboarding the spec's way, for most seeds: a first mode, its main key from 8 frames, a temporary key, the Focus.
    static func prelude(_ seed: UInt64, _ t: Instant) -> [SweepInput<ClavisInput>] {
        var list: [ClavisInput] = [.appOpened, .onboardingNext, .createMode(apps: 4, temporaryApps: 2), .onboardingNext, .onboardingNext,
                                   .startEnrolment(1, .main)]
        list += (0..<8).map { .enrolmentFrame(EnrolmentFrame(viewpoint: $0 % 4)) }
        list += [.onboardingNext, .startEnrolment(1, .temporary)]
        list += (0..<8).map { .enrolmentFrame(EnrolmentFrame(viewpoint: 4 + $0 % 4)) }
        list += [.onboardingNext, .focusConfigured(ok: true), .onboardingNext, .onboardingNext]
        // The launch's ARKit check and the camera prompt, allowed (§7 Error Handling): after the first five inputs, so
        // that the shortened preludes leave the camera unasked and the device unchecked.
        list.insert(contentsOf: [.deviceChecked(arSupported: true), .cameraPermission(granted: true)], at: 5)
        if seed % 7 == 0 { list = Array(list.prefix(5)) }
        return list.enumerated().map { SweepInput($1, at: t + .milliseconds(Int64($0) * 300)) }
    }

    static var sweep: EngineSweep<ClavisEngine> {
        EngineSweep(
            generator: { SplitMix64(seed: $0 &* 0x9E37_79B9) },
            start: { seed, r in
                let zone: ZoneCalendar = seed % 2 == 0 ? london : .utc
                let t = zone.instant(on: LocalDate(year: 2026, month: 3, day: 27)!, at: LocalTimeOfDay(hour: r.below(24), minute: 0)!)
                return SweepStart(parameters: seed % 4 == 3 ? randomParameters(&r) : .defaults, zone: zone, installedAt: t,
                                  prelude: prelude(seed, t))
            },
            steps: 400,
            nextInstant: { r, e, now in
                if e.scan != nil || e.enrolment != nil { return now + .milliseconds(Int64(r.pick([30, 100, 150, 200, 250, 400]))) }
                return now + (r.chance(0.7) ? .seconds(Int64(1 + r.below(600))) : .minutes(Int64(r.below(600))))
            },
            drain: .days(1),
            properties: properties,
            randomInput: { r, e, t in randomInput(&r, e, t) })
    }

    /// Properties over the run.
    static func properties() -> (SweepStep<ClavisEngine>) -> [String] {
        var used: Set<KeyID> = []
        var usedCycle = 0
        var frames: [ScanFrame] = []
        return { step in
            var p: [String] = []
            let b = step.before, a = step.after, par = b.parameters
            let names = step.outcome.events.map(\.name)
            if !step.outcome.ledger.isEmpty { p.append("a ledger line from a free product") }
            if a.focusOn != (a.lock != nil) { p.append("Focus on \(a.focusOn) with lock \(String(describing: a.lock))") }
            if case .frame(let f) = step.input, b.scan != nil, step.outcome.decision != .frameSkipped { frames.append(f) }
            // A cycle starts only by a lock match, ends only by a main-key match or a logged bypass.
            if let l = a.lock, l.cycle != b.lock?.cycle, !names.contains("mode_locked") { p.append("cycle \(l.cycle) started without mode_locked") }
            if let l = b.lock, a.lock?.cycle != l.cycle {
                let bypass = step.outcome.events.contains { e in
                    switch e {
                    case .dataReset(true): true
                    case .modeDeleted(let m): m == l.mode
                    default: false
                    }
                }
                if !names.contains("mode_unlocked") && !bypass { p.append("cycle \(l.cycle) ended without the main key") }
            }
            for e in step.outcome.events {
                switch e {
                case .scanStarted, .enrolmentStarted:
                    // §7 Error Handling: the camera opens only when allowed, on a device not known to lack ARKit.
                    if b.camera != .granted || b.arSupported == false { p.append("\(e.name) with camera \(b.camera), ARKit \(String(describing: b.arSupported))") }
                    if case .scanStarted = e { frames = [] }
                case let .keyUnassigned(k, m) where m == b.lock?.mode:
                    // §5.5 usage is per (mode, key) pair: a key unassigned from the locked mode (only with
                    // `modes.edit_while_locked`) leaves no pair; assigned again it is a new, unused pair.
                    used.remove(k)
                case .keyRemoved(let k): used.remove(k)
                case let .temporaryUnlockStarted(m, k, _):
                    guard let l = b.lock else { p.append("temporary unlock while unlocked"); break }
                    if l.temporaryUntil != nil { p.append("temporary unlocks stacked") }
                    if l.mode != m { p.append("temporary unlock of mode \(m) while \(l.mode) is locked") }
                    if usedCycle != l.cycle { used = []; usedCycle = l.cycle }
                    if used.contains(k) { p.append("temporary key \(k) used twice in cycle \(l.cycle)") }
                    used.insert(k)
                case let .scanMatched(_, k, n, _, _):
                    if n < par.consecutiveFrames { p.append("a match after \(n) frames") }
                    if case .frame = step.input {
                        let run = par.rejectedFrameBreaksRun ? frames : frames.filter { par.check($0.quality) == nil }
                        let last = run.suffix(par.consecutiveFrames)
                        if last.count < par.consecutiveFrames || last.contains(where: { par.check($0.quality) != nil || ($0.best[k] ?? 0) < par.threshold }) {
                            p.append("key \(k) matched without \(par.consecutiveFrames) consecutive frames ≥ \(par.threshold)")
                        }
                    }
                case let .enrolmentCompleted(_, _, n, v, manual):
                    if manual ? n < par.manualMinFrames : (n < par.enrolMinFrames || v < par.enrolMinViewpoints) {
                        p.append("enrolment completed (manual \(manual)) with \(n) frames over \(v) viewpoints")
                    }
                    if n > par.enrolMaxFrames { p.append("a template of \(n) frames") }
                default: break
                }
            }
            return p
        }
    }

    @Test("Invariants hold after every step of random sequences", arguments: seeds)
    func sweep(seed: UInt64) {
        expectNoFailure(Self.sweep.run(seed: seed))
    }

    @Test("The sweeps exercise every rule")
    func coverage() {
        var names: [String: Int] = [:]
        for seed in Self.seeds.prefix(40) { for e in Self.sweep.run(seed: seed).events { names[e.event.name, default: 0] += 1 } }
        for n in ["app_opened", "onboarding_step_completed", "mode_created", "mode_edited", "mode_deleted", "mode_switched", "enrollment_started",
                  "enrollment_frame_rejected", "distinctiveness_warning_shown", "enrollment_completed", "enrollment_restarted",
                  "enrollment_cancelled", "key_assigned", "key_replaced", "focus_setup_validated", "data_reset", "scan_started",
                  "scan_matched", "scan_abandoned", "mode_locked", "mode_unlocked", "temp_unlock_started", "temp_unlock_ended",
                  "camera_permission_result", "device_checked", "key_renamed", "key_removed", "key_unassigned"] {
            #expect(names[n, default: 0] > 0, "\(n) never happened")
        }
    }
}
