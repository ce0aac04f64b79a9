import Testing
import HabitatTestSupport
import RulesCore
@testable import LazuriRules

/// The generic property driver (`HabitatTestSupport.EngineSweep`) on Lazuri: every engine invariant (enabled schedules
/// ≤ `schedules.max_enabled`, saved ≤ `max_saved`, every window ≥ the minimum, a block only on an enabled schedule with
/// Screen Time and containing the clock, next windows in the future, no lingering shield unless `keep_until_end`, a
/// shield only while a window blocks, unique views = cards seen ≤ the deck, achievements ⇔ thresholds, score = their
/// points, promise ≤ its maximum) after every step of many random sequences, plus properties over the whole run: focus
/// minutes never decrease and equal the sessions recorded, no ledger line ever (free), a completed window earns at most
/// its real length, editing and the selection never change while locked, unique views never decrease.
@Suite("Lazuri property sweeps")
struct PropertyTests {
    static let seeds: [UInt64] = Array(1...200)

    /// Every catalogue value drawn inside its range (one seed in five).
    static func randomParameters(_ r: inout SplitMix64) -> LazuriParameters {
        LazuriParameters(values: .random(from: LazuriParameters.catalogue, &r))
    }

    static func randomSpec(_ r: inout SplitMix64) -> ScheduleSpec {
        let start = LocalTimeOfDay(hour: r.below(24), minute: r.pick([0, 0, 15, 30, 45, 50]))!
        let length = r.pick([5, 14, 15, 16, 30, 60, 90, 240, 480, 1440, 1439])
        let endMinutes = (start.hour * 60 + start.minute + length) % 1440
        let end = LocalTimeOfDay(hour: endMinutes / 60, minute: endMinutes % 60)!
        let days: WeekdaySet = r.chance(0.7) ? r.pick(DayTemplate.allCases).days : WeekdaySet(rawValue: UInt8(r.below(128)))
        return ScheduleSpec(name: "s", start: start, end: end, days: days)
    }

    static func randomInput(_ r: inout SplitMix64, _ e: LazuriEngine, _ t: Instant) -> LazuriInput {
        let known = e.schedules.isEmpty ? ScheduleID(1 + r.below(4)) : r.pick(e.schedules.map(\.id))
        let id = r.chance(0.85) ? known : ScheduleID(1 + r.below(12))
        if e.shield != nil && r.chance(0.6) { return r.chance(0.7) ? .shieldPrimaryPressed : .shieldDismissed }
        switch r.below(100) {
        case 0..<8: return .appOpened
        case 8..<11: return .appClosed
        case 11..<17: return .tabOpened(r.pick(LazuriTab.allCases))
        case 17..<20: return .screenTimeAuthorization(granted: r.chance(0.8))
        case 20: return .screenTimeRevoked
        case 21..<23: return .notificationPermission(granted: r.chance(0.7))
        case 23..<25: return .gameCenterAuth(signedIn: r.chance(0.6))
        case 25..<29: return .setSelection(BlockSelection(apps: r.below(4), categories: r.below(3), domains: r.below(2)))
        case 29..<36: return .createSchedule(randomSpec(&r))
        case 36..<40: return .editSchedule(id, randomSpec(&r))
        case 40..<48: return .setScheduleEnabled(id, r.chance(0.7))
        case 48..<51: return .deleteSchedule(id)
        case 51..<66: return .blockedTargetOpened(r.pick(BlockTarget.allCases))
        case 66..<68: return .shieldPrimaryPressed
        case 68..<80: return .swipe(r.chance(0.1) ? .share : (r.chance(0.8) ? .next : .previous))
        case 80..<82: return .cardLinkTapped
        case 82..<84: return .setCategoryFilter(r.chance(0.3) ? nil : r.pick(CardCategory.allCases))
        case 84..<87: return .savePromise(characters: r.pick([0, 1, 40, 899, 900, 901, 5000]))
        case 87..<89: return .gameCenterViewOpened(r.pick(GameCenterView.allCases))
        // A window end reported again (§4.1.8), or any timer early or late.
        case 89..<92: return .timer(LazuriTimer(.windowEnd, at: e.lastSessionEnd ?? t))
        default: return .timer(LazuriTimer(r.pick(LazuriTimer.Kind.allCases), at: t))
        }
    }

    static var sweep: EngineSweep<LazuriEngine> {
        EngineSweep(
            generator: { SplitMix64(seed: $0 &* 0x9E37_79B9) },
            start: { seed, r in
                let zone: ZoneCalendar = switch seed % 3 {
                case 0: .utc
                case 1: london
                default: .fixed(offset: .hours(-10))
                }
                // The spring-forward (2026-03-29) or fall-back (2026-10-25) night within reach in London.
                let day = seed % 4 < 2 ? LocalDate(year: 2026, month: 3, day: 27)! : LocalDate(year: 2026, month: 10, day: 23)!
                let t = zone.instant(on: day, at: LocalTimeOfDay(hour: r.below(24), minute: 0)!)
                var prelude: [LazuriInput] = [.appOpened, .tabOpened(.focus)]
                if seed % 5 != 3 { prelude += [.screenTimeAuthorization(granted: true), .setSelection(BlockSelection(apps: 2, categories: 1, domains: 1))] }
                if seed % 2 == 0 { prelude += [.notificationPermission(granted: true), .gameCenterAuth(signedIn: true)] }
                return SweepStart(parameters: seed % 5 == 4 ? randomParameters(&r) : .defaults, zone: zone, installedAt: t,
                                  prelude: prelude.map { SweepInput($0, at: t) })
            },
            steps: 400,
            nextInstant: { r, _, now in now + (r.chance(0.6) ? .seconds(Int64(r.below(900))) : .minutes(Int64(r.below(300)))) },
            drain: .days(3),
            properties: properties,
            randomInput: { r, e, t in randomInput(&r, e, t) })
    }

    /// Properties over the run.
    static func properties() -> (SweepStep<LazuriEngine>) -> [String] {
        var recorded = 0
        return { step in
            var p: [String] = []
            let b = step.before, a = step.after
            if !step.outcome.ledger.isEmpty { p.append("a ledger line from a free product") }
            if a.totalFocusMinutes < b.totalFocusMinutes { p.append("focus minutes fell from \(b.totalFocusMinutes) to \(a.totalFocusMinutes)") }
            if a.uniqueViews < b.uniqueViews { p.append("unique views fell") }
            if a.score < b.score { p.append("score fell") }
            for e in step.outcome.events {
                switch e {
                case let .focusSessionRecorded(m, total):
                    recorded += m
                    if total != recorded { p.append("total \(total) ≠ Σ sessions \(recorded)") }
                case let .blockEnded(id, .completed, m):
                    // At most the window's real length: a day and an hour (a 24-hour window over the fall-back night).
                    if m > 25 * 60 { p.append("schedule \(id) earned \(m) minutes") }
                case .scheduleEdited(let id, _):
                    if let s = b.schedules.first(where: { $0.id == id }), b.parameters.activeMeaning == .enabled ? s.enabled : s.block != nil {
                        p.append("schedule \(id) edited while active")
                    }
                case .selectionUpdated:
                    if b.selectionLocked { p.append("selection changed while locked") }
                case .shieldShown(let k, _):
                    if !b.selection.covers(k) { p.append("a shield over an unselected \(k)") }
                default: break
                }
            }
            if a.totalFocusMinutes != recorded { p.append("total \(a.totalFocusMinutes) ≠ Σ sessions \(recorded)") }
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
        for n in ["app_opened", "permission_requested", "screentime_permission_result", "screentime_revoked", "notification_permission_result",
                  "gamecenter_auth_result", "selection_updated", "selection_edit_blocked", "schedule_created", "schedule_rejected",
                  "schedule_enabled", "schedule_edited", "schedule_disabled", "schedule_deleted", "block_started", "block_ended",
                  "focus_session_recorded", "focus_session_duplicate_dropped", "shield_shown", "promise_kept_pressed",
                  "shield_left_without_action", "note_to_self_sent", "window_start_notified", "window_end_notified", "card_viewed",
                  "card_shared", "card_link_opened", "category_filter_changed", "achievement_unlocked", "leaderboard_score_submitted",
                  "gamecenter_view_opened", "promise_saved"] {
            #expect(names[n, default: 0] > 0, "\(n) never happened")
        }
    }
}
