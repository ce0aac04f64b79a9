import Behavior
import Foundation
@testable import ClavisLife
import ClavisRules
import LifeHarness
import ProductRegistry
import RulesCore
import Simulation
import Testing

/// Clavis's people followed through its adapter (the life harness): scripted moves of the day (leaving for work,
/// arriving home) give the moments to lock and unlock; scripted urges while locked meet the lock and are answered there,
/// each decision kind at its moment and every outcome of `clavis_locked` driven by its constant.
struct ClavisLifeTests {
    /// Everyone onboards (every step completes, every Focus set-up validates), nobody churns, scans of the real key in
    /// any light match at once (a similarity of 0.99 on every frame, no frame rejected), look-alikes never do, and no
    /// way through is chosen unless a test raises its constant.
    static let sure: [(String, String)] = [
        ("onboarding.completion.permission", "1"),
        ("onboarding.completion.configuration", "1"),
        ("clavis.onboarding.enrol_completion", "1"),
        ("clavis.onboarding.focus_setup_success", "1"),
        ("clavis.temporary_key_share", "0"),
        ("clavis.lock.leaving_probability", "1"),
        ("clavis.lock.bedtime_probability", "0"),
        ("clavis.unlock.arrival_probability", "1"),
        ("clavis.focus_leak_probability", "0"),
        ("clavis.frames.reject_bright", "0"),
        ("clavis.frames.reject_indoor", "0"),
        ("clavis.frames.reject_dim", "0"),
        ("clavis.frames.reject_dark", "0"),
        ("clavis.frames.genuine_mean", "0.99"),
        ("clavis.frames.genuine_sd", "0.001"),
        ("clavis.frames.poor_light_sd", "0.001"),
        ("clavis.frames.dim_penalty", "0"),
        ("clavis.frames.dark_penalty", "0"),
        ("clavis.frames.low_distinctiveness_penalty", "0"),
        ("clavis.frames.impostor_base", "0.5"),
        ("clavis.frames.impostor_span", "0"),
        ("churn.base_hazard", "0"),
        ("retention.trying_share", "0"),
        ("shield.notice_seconds", "0"),
        ("clavis.unlock_at_home_constant", "-20"),
        ("clavis.go_home_constant", "-20"),
        ("clavis.temporary_constant", "-20"),
        ("clavis.focus_off_constant", "-20"),
        ("clavis.reset_constant", "-20"),
        ("clavis.replace_constant", "-20"),
        ("clavis.look_alike_constant", "-20"),
    ]

    /// The harness with `sure`'s values, each key of `extra` (lines `  key: value`) replacing `sure`'s.
    static func harness(_ extra: String = "", people: Int = 5, days: Int = 2) throws -> LifeHarness<ClavisAdapter> {
        var values = sure
        for line in extra.split(separator: "\n") {
            let parts = line.trimmingCharacters(in: .whitespaces).components(separatedBy: ": ")
            guard parts.count == 2 else { continue }
            if let i = values.firstIndex(where: { $0.0 == parts[0] }) { values[i].1 = parts[1] } else { values.append((parts[0], parts[1])) }
        }
        let yaml = "behavior:\n" + values.map { "  \($0.0): \($0.1)\n" }.joined()
        return try LifeHarness(ClavisAdapter.self, people: people, days: days, personas: "[{name: worker, share: 1}]", yaml: yaml)
    }

    /// Leaves home for work after 1 h (a moment to lock), urges for app 1 at work, and (unless `home` is nil) home again.
    static func workday(urges: [Double] = [2], home: Double? = 6, extra: (inout LifeScript) -> Void = { _ in }) -> LifeScript {
        var script = LifeScript()
        script.occurrence(Move(to: .work), of: WhereaboutsProcess.stream, after: .minutes(60))
        for h in urges { script.urge(app: 1, after: .minutes(Int64(h * 60)), intensity: 0.9, minutes: 10, kind: .intended) }
        if let home { script.occurrence(Move(to: .home), of: WhereaboutsProcess.stream, after: .minutes(Int64(home * 60))) }
        extra(&script)
        return script
    }

    /// The outcomes of `clavis_locked` over the harness's people with `script`.
    static func lockedOutcomes(_ h: LifeHarness<ClavisAdapter>, _ script: LifeScript) -> [String] {
        h.people.flatMap { h.live(person: $0, script: script).journal.decisions("clavis_locked").map(\.outcome) }
    }

    @Test("onboarding in the spec's order: a mode with the person's apps, the main key enrolled at home (8 frames, 4 viewpoints), the Focus validated, done")
    func onboarding() throws {
        let h = try Self.harness()
        for person in h.people {
            let life = h.live(person: person, script: LifeScript())
            #expect(life.journal.decisions("onboarding_step").map(\.outcome) == ["complete", "complete", "complete", "complete"], "person \(person)")
            #expect(life.journal.events(named: "camera_permission_result").count == 1 && life.journal.events(named: "device_checked").count == 1)
            #expect(life.journal.events(named: "enrollment_completed").count == 1)
            #expect(life.journal.events(named: "onboarding_step_completed").count == 7)
            #expect(life.state.mainKey != nil && life.state.mode != nil && !life.state.apps.isEmpty)
        }
        // The Focus set-up failing stalls the person at step 2 with a key but no way to lock.
        let stalled = try Self.harness("  clavis.onboarding.focus_setup_success: 0\n")
        for person in stalled.people {
            let life = stalled.live(person: person, script: Self.workday())
            #expect(life.journal.decisions("onboarding_step").map(\.outcome) == ["complete", "complete", "complete", "drop_out"])
            #expect(life.summary.tally.counts[.onboardingStalled] == 1 && life.journal.events(named: "mode_locked").isEmpty)
        }
    }

    @Test("the camera refused at the permission step: the person drops out at step 0, is left dormant, sets nothing up and meets no lock")
    func cameraRefused() throws {
        let problems = try LifeHarness<ClavisAdapter>.permissionRefusedProblems(shieldEvent: "mode_locked") { $0.apps.isEmpty && $0.mainKey == nil }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("Clavis is opened on cues by the shared engagement habit (never at scale 0, never by a dormant person)")
    func opensOnCue() throws {
        #expect(try LifeHarness<ClavisAdapter>.opensAppOnCueProblems(.none).isEmpty)
    }

    @Test("clavis_lock on leaving home, a lock scan of the key at home; clavis_unlock on arriving home, and the cycle closes")
    func lockAndUnlock() throws {
        let h = try Self.harness()
        for person in h.people {
            let life = h.live(person: person, script: Self.workday(urges: []))
            // The leaving moment locks; bedtimes (probability 0) are skipped.
            #expect(life.journal.decisions("clavis_lock").map(\.outcome).first == "lock", "person \(person)")
            #expect(life.journal.count("clavis_lock", "lock") == 1)
            #expect(life.journal.decisions("clavis_unlock").map(\.outcome) == ["unlock"])
            #expect(life.journal.events(named: "mode_locked").count == 1 && life.journal.events(named: "mode_unlocked").count == 1)
            #expect(life.summary.tally.weeks[0].cyclesClosed == 1 && life.summary.tally.weeks[0].lockedMinutes >= 290)
        }
        let skip = try Self.harness("  clavis.lock.leaving_probability: 0\n")
        for person in skip.people {
            let life = skip.live(person: person, script: Self.workday(urges: []))
            #expect(life.journal.count("clavis_lock", "lock") == 0 && life.journal.decisions("clavis_unlock").isEmpty)
        }
    }

    @Test("clavis_lock on opening Clavis at home on a cue (the shared engagement habit): the main screen's \"Lock with my key\"")
    func lockOnOpen() throws {
        let h = try Self.harness("  engagement.app_open_per_pickup_scale: 1\n  engagement.cue.none: 1\n  clavis.lock.on_open_probability: 1\n"
                                 + "  clavis.lock.leaving_probability: 0\n")
        var script = LifeScript()
        script.check(after: .minutes(30))
        var locked = 0
        for person in h.people {
            let life = h.live(person: person, script: script)
            let opened = life.journal.events(named: "app_opened").count
            #expect(opened >= 1, "person \(person): onboarding opens the app")
            if life.journal.decisions("clavis_lock").first?.outcome == "lock" { locked += 1 }
            #expect(life.journal.count("clavis_lock", "lock") == life.journal.events(named: "mode_locked").count)
        }
        #expect(locked > 0, "nobody opened Clavis on the check")
        // Off: the same check opens the app and locks nothing.
        let off = try Self.harness("  engagement.app_open_per_pickup_scale: 1\n  engagement.cue.none: 1\n  clavis.lock.on_open_probability: 0\n"
                                   + "  clavis.lock.leaving_probability: 0\n")
        for person in off.people { #expect(off.live(person: person, script: script).journal.events(named: "mode_locked").isEmpty) }
    }

    @Test("clavis_locked: an urge for a locked app away from the key, endured; an urge for an app the mode does not hold is used unseen")
    func endure() throws {
        let h = try Self.harness()
        for person in h.people {
            let life = h.live(person: person, script: Self.workday(urges: [2, 3]))
            #expect(life.journal.decisions("clavis_locked").map(\.outcome) == ["endure", "endure"], "person \(person)")
            #expect(life.summary.tally.weeks[0].urgesLocked == 2 && life.summary.tally.weeks[0].endured == 2)
        }
    }

    @Test("clavis_locked: leak — the app reached through Search, the Focus notwithstanding")
    func leak() throws {
        #expect(Set(Self.lockedOutcomes(try Self.harness("  clavis.focus_leak_probability: 1\n"), Self.workday())) == ["leak"])
    }

    @Test("clavis_locked: the Focus switched off in Control Center — the engine stays locked, the next urge is not met")
    func focusOff() throws {
        let h = try Self.harness("  clavis.focus_off_constant: 20\n  clavis.focus_off_friction_seconds: 0\n")
        for person in h.people {
            let life = h.live(person: person, script: Self.workday(urges: [2, 3], home: nil))
            #expect(life.journal.decisions("clavis_locked").map(\.outcome) == ["focus_off"], "person \(person)")
            #expect(life.journal.events(named: "mode_unlocked").isEmpty && life.state.focusBypassed)
        }
    }

    @Test("clavis_locked: a temporary unlock with a carried temporary key, once per lock cycle (§6.5)")
    func temporaryKey() throws {
        let h = try Self.harness("  clavis.temporary_key_share: 1\n  clavis.temporary_key_carried_share: 1\n  clavis.temporary_constant: 20\n"
                                 + "  clavis.temporary_friction_seconds: 0\n  clavis.temporary_end_early_probability: 0\n")
        for person in h.people {
            // Two urges an hour apart: the second comes after the 15-minute unlock ran out, and the key is used.
            let life = h.live(person: person, script: Self.workday(urges: [2, 3], home: nil))
            #expect(life.journal.decisions("clavis_locked").map(\.outcome) == ["temporary_key", "endure"], "person \(person)")
            #expect(life.journal.events(named: "temp_unlock_started").count == 1 && life.journal.events(named: "temp_unlock_ended").count == 1)
        }
    }

    @Test("clavis_locked: go home for the key — the trip steered, the unlock scan on arrival")
    func goHome() throws {
        let h = try Self.harness("  clavis.go_home_constant: 20\n  clavis.travel_minutes: 1\n")
        for person in h.people {
            let life = h.live(person: person, script: Self.workday(urges: [2], home: nil) {
                $0.occurrence(Move(to: .home, steered: true), of: WhereaboutsProcess.stream, after: .minutes(150))
            })
            #expect(life.journal.decisions("clavis_locked").map(\.outcome) == ["go_home"], "person \(person)")
            #expect(life.journal.decisions("clavis_unlock").isEmpty, "the trip's own unlock is no new decision")
            #expect(life.journal.events(named: "mode_unlocked").count == 1 && life.summary.tally.weeks[0].wentHomeUnlocked == 1)
        }
    }

    @Test("clavis_locked: unlock with the key at home, on an urge after staying locked on arrival")
    func unlockAtHome() throws {
        let h = try Self.harness("  clavis.unlock.arrival_probability: 0\n  clavis.unlock_at_home_constant: 20\n  clavis.unlock_friction_seconds: 0\n")
        for person in h.people {
            let life = h.live(person: person, script: Self.workday(urges: [7], home: 6))
            #expect(life.journal.decisions("clavis_unlock").map(\.outcome) == ["stay_locked"], "person \(person)")
            #expect(life.journal.decisions("clavis_locked").map(\.outcome) == ["unlock_with_key"])
            #expect(life.journal.events(named: "mode_unlocked").count == 1)
        }
    }

    @Test("clavis_locked: \"Delete my key\" while locked drops the lock; the person sets up again on arriving home")
    func reset() throws {
        let h = try Self.harness("  clavis.reset_constant: 20\n  clavis.reset_friction_seconds: 0\n")
        for person in h.people {
            let life = h.live(person: person, script: Self.workday(urges: [2], home: 6))
            #expect(life.journal.decisions("clavis_locked").map(\.outcome) == ["reset"], "person \(person)")
            #expect(life.journal.events(named: "data_reset").count == 1 && life.summary.tally.weeks[0].resets == 1)
            #expect(life.journal.events(named: "enrollment_completed").count == 2, "set up again at home")
            #expect(life.state.mainKey != nil)
        }
    }

    @Test("clavis_locked: the key replaced while locked by an object at hand, which then unlocks")
    func replaceKey() throws {
        let h = try Self.harness("  clavis.replace_constant: 20\n  clavis.replace_friction_seconds: 0\n")
        for person in h.people {
            let life = h.live(person: person, script: Self.workday(urges: [2], home: nil))
            #expect(life.journal.decisions("clavis_locked").map(\.outcome) == ["replace_key"], "person \(person)")
            #expect(life.journal.events(named: "key_replaced").count == 1 && life.summary.tally.weeks[0].replaced == 1)
            #expect(life.journal.events(named: "mode_unlocked").count == 1)
        }
    }

    @Test("clavis_locked: a look-alike object — a false accept when it scores like the key, refused when it scores like chance")
    func lookAlike() throws {
        let refused = try Self.harness("  clavis.look_alike_constant: 20\n  clavis.look_alike_friction_seconds: 0\n  clavis.scan.max_retries: 0\n")
        for person in refused.people {
            let life = refused.live(person: person, script: Self.workday(urges: [2], home: nil))
            #expect(life.journal.decisions("clavis_locked").map(\.outcome) == ["look_alike"], "person \(person)")
            #expect(life.journal.events(named: "mode_unlocked").isEmpty)
            let cell = life.summary.tally.scans[ScanCell.index(.unlock, .indoor, lookAlike: true)]
            #expect(cell.attempts == 1 && cell.falseAccepts == 0)
        }
        let accepted = try Self.harness("  clavis.look_alike_constant: 20\n  clavis.look_alike_friction_seconds: 0\n  clavis.frames.impostor_base: 0.99\n")
        for person in accepted.people {
            let life = accepted.live(person: person, script: Self.workday(urges: [2], home: nil))
            #expect(life.journal.events(named: "mode_unlocked").count == 1, "person \(person)")
            #expect(life.summary.tally.scans[ScanCell.index(.unlock, .indoor, lookAlike: true)].falseAccepts == 1)
        }
    }

    @Test("clavis_scan_retry: a scan of the real key that never matches is tried again at most max_retries times, then given up (a false reject each)")
    func retry() throws {
        let h = try Self.harness("  clavis.frames.genuine_mean: 0.5\n  clavis.scan.retry_probability: 1\n  clavis.scan.max_retries: 2\n")
        for person in h.people {
            let life = h.live(person: person, script: Self.workday(urges: []))
            #expect(life.journal.decisions("clavis_scan_retry").map(\.outcome) == ["retry", "retry", "give_up"], "person \(person)")
            #expect(life.journal.events(named: "mode_locked").isEmpty)
            let rejects = life.summary.tally.scans.reduce(0) { $0 + $1.falseRejects }
            #expect(rejects == 3)
        }
    }

    @Test("a lock held over midnight makes the new day a locked day; day-7 lock retention counts it")
    func lockedDays() throws {
        let h = try Self.harness("  clavis.unlock.arrival_probability: 0\n", people: 3, days: 10)
        for person in h.people {
            let life = h.live(person: person, script: Self.workday(urges: [], home: 6))
            let c = life.summary.tally.counts
            #expect(c[.d7Eligible] == 1 && c[.d7Locked] == 1, "person \(person): never unlocked, locked every day")
        }
    }

    @Test("the scan stream is the scans' own: a threshold that changes every scan's outcome shifts no other draw (arms stay paired)")
    func scansArePaired() throws {
        let a = try Self.harness("  clavis.scan.max_retries: 0\n", days: 3)
        let b = try Self.harness("  clavis.scan.max_retries: 0\n  clavis.frames.genuine_mean: 0.95\n", days: 3)
        for person in a.people {
            let x = a.live(person: person, script: Self.workday(urges: [])), y = b.live(person: person, script: Self.workday(urges: []))
            #expect(x.state.distinctiveness == y.state.distinctiveness && x.state.lockLeaving == y.state.lockLeaving, "person \(person)")
        }
    }
}
