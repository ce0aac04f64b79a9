import Testing
import HabitatTestSupport
import RulesCore
@testable import EarnedAccessRules

/// The generic property driver (`HabitatTestSupport.EngineSweep`) on Earned Access: every engine invariant (balance ≥
/// 0, carry-over ≤ cap after a boundary, ≤ 1 emergency per day_id, no grant longer than the plan allows, no 15/30
/// grant obtained on Free after a downgrade, no shield over a live grant, one streak bonus per day_id, day_id never
/// backwards) after every step of many random sequences, plus the gate's offer → choose → apply agreement.
@Suite("Earned Access property sweeps")
struct PropertyTests {
    static let seeds: [UInt64] = Array(1...200)

    /// Every catalogue value drawn inside its range (one seed in five), including day boundaries in a DST gap or overlap.
    static func randomParameters(_ r: inout SplitMix64) -> EarnedAccessParameters {
        EarnedAccessParameters(values: .random(from: EarnedAccessParameters.catalogue, &r, timesOfDay: ["04:00", "00:00", "02:30", "01:30", "23:00"]))
    }

    static func randomInput(_ r: inout SplitMix64, _ e: EarnedAccessEngine, _ t: Instant) -> EarnedAccessInput {
        let app = AppID(UInt16(1 + r.below(6)))
        let mode = ModeID(1 + r.below(4))
        if e.pending != nil && r.chance(0.15) { return [.abandonQuest, .cancelEmergency, .leaveGate][r.below(3)] }
        switch r.below(100) {
        case 0..<18: return .appForeground(app)
        case 18..<24: return .shieldClose(app)
        case 24..<30: return .appOpened
        case 30..<42:
            if let offer = e.gateOffer(at: t), r.chance(0.8) {
                let o = r.pick(offer.options)
                return .unlock(offer.app, o.choice)
            }
            let c: GateChoice = [.credits(minutes: [5, 15, 30, 10][r.below(4)]), .breathingQuest, .copyTextQuest, .emergency][r.below(4)]
            return .unlock(app, c)
        case 42..<45: return [.abandonQuest, .cancelEmergency, .leaveGate][r.below(3)]
        case 45..<52: return .startFocus(minutes: [5, 10, 20, 25, 45, 90, 150][r.below(7)])
        case 52..<54: return .cancelFocus
        case 54..<56: return .createHabit
        case 56..<62: return .completeHabit(HabitID(1 + r.below(4)))
        case 62..<63: return .suspendHabit(HabitID(1 + r.below(4)), r.chance(0.5))
        case 63..<67: return .addApp(app)
        case 67..<68: return .removeApp(app)
        case 68..<69: return .keepApps((0..<(1 + r.below(4))).map { _ in AppID(UInt16(1 + r.below(6))) })
        case 69..<72:
            let start = LocalTimeOfDay(hour: r.below(24), minute: [0, 15, 30, 45][r.below(4)])!
            let len = [10, 15, 60, 120, 480, 900][r.below(6)]
            let end = LocalTimeOfDay(secondsSinceMidnight: Int32((Int(start.secondsSinceMidnight) + len * 60) % 86_400))
            let spec = ModeSpec(template: [.work, .study, .sleep][r.below(3)],
                                window: DailyWindow(start: start, end: end, days: WeekdaySet(rawValue: UInt8(1 + r.below(127)))),
                                strictness: [.standard, .standard, .strict, .hard][r.below(4)], priority: r.below(3),
                                dailyUnlockLimit: r.chance(0.2) ? r.below(4) : nil, cooldownMinutes: r.chance(0.2) ? [0, 30, 300][r.below(3)] : nil)
            return r.chance(0.6) ? .createMode(spec) : .editMode(mode, spec)
        case 72..<73: return .deleteMode(mode)
        case 73..<74: return .setPriority(mode, r.below(4))
        case 74..<76: return .setStrictness(mode, [.standard, .strict, .hard][r.below(3)])
        case 76..<80:
            let plan = [ProPlan.monthly, .annual, .lifetime][r.below(3)]
            return .paywallResponse([.startTrial(.annual), .startTrial(.monthly), .buy(plan), .dismiss][r.below(4)])
        case 80..<83: return .cancelAutoRenew
        case 83: return r.chance(0.5) ? .refund : .restore
        case 84: return .authorization([.granted, .granted, .denied, .revoked][r.below(4)])
        case 85: return r.chance(0.5) ? .view(r.chance(0.5) ? .progress : .weeklyReview) : .setCreditPrice(perMinute: [nil, 0.4, 0.5, 2, 3.5][r.below(5)])
        case 86..<88: return .openGate(app)
        case 88..<90:
            let kinds: [EarnedAccessTimer.Kind] = [.dayBoundary, .periodEnd, .unlockEnd(app), .emergencyWaitEnd, .questEnd, .focusEnd, .modeStart(mode), .modeEnd(mode)]
            return .timer(EarnedAccessTimer(kinds[r.below(kinds.count)], at: .epoch))
        default: return .onboarding(AccessOnboardingStep.allCases[r.below(AccessOnboardingStep.allCases.count)])
        }
    }

    /// Per seed: UTC, New York (DST) or UTC+14, install at a random hour of 2026-03-06 (spring-forward within reach),
    /// an onboarding with two apps and an all-day or working-hours mode, then 400 random inputs and 3 days of timers.
    static var sweep: EngineSweep<EarnedAccessEngine> { sweep(of: EarnedAccessEngine.self, { $0 }, properties: properties) }

    /// The same sweep for any engine that wraps Earned Access's (e.g. `FaultyEngine<EarnedAccessEngine, _>`):
    /// `earnedAccess` gives the wrapped engine the random inputs are drawn from.
    static func sweep<E: RuleEngine>(of: E.Type, _ earnedAccess: @escaping (E) -> EarnedAccessEngine, parameters fixed: EarnedAccessParameters? = nil,
                                     steps: Int = 400,
                                     properties: @escaping () -> (SweepStep<E>) -> [String] = { { _ in [] } }) -> EngineSweep<E>
    where E.Input == EarnedAccessInput, E.Parameters == EarnedAccessParameters {
        EngineSweep(
            generator: { SplitMix64(seed: $0 &* 0x9E37_79B9) },
            start: { seed, r in
                let zone: ZoneCalendar
                switch seed % 3 {
                case 0: zone = .utc
                case 1: zone = (try? ZoneCalendar(identifier: "America/New_York", startingOn: LocalDate(year: 2026, month: 3, day: 1)!, days: 300)) ?? .utc
                default: zone = .fixed(offset: .hours(14))
                }
                // Spring-forward (2026-03-08) or fall-back (2026-11-01) within reach in New York.
                let day = seed % 4 < 2 ? LocalDate(year: 2026, month: 3, day: 6)! : LocalDate(year: 2026, month: 10, day: 29)!
                let t = zone.instant(on: day, at: LocalTimeOfDay(hour: r.below(24), minute: 0)!)
                let mode = seed % 2 == 0 ? allDayMode : workMode(time(9), time(17))
                let prelude: [EarnedAccessInput] = [.appOpened, .onboarding(.goalSelected), .authorization(.granted), .addApp(AppID(1)),
                                                    .addApp(AppID(2)), .createMode(mode), .onboarding(.home)]
                return SweepStart(parameters: fixed ?? (seed % 5 == 4 ? randomParameters(&r) : .defaults), zone: zone, installedAt: t,
                                  prelude: prelude.map { SweepInput($0, at: t) })
            },
            steps: steps,
            nextInstant: { r, e, now in
                now + (earnedAccess(e).pending != nil || r.chance(0.6) ? .seconds(Int64(r.below(120))) : .minutes(Int64(r.below(300))))
            },
            drain: .days(3),
            properties: properties,
            randomInput: { r, e, t in randomInput(&r, earnedAccess(e), t) })
    }

    /// Properties beyond the engine's invariants: a gate choice is applied exactly when the offer enables it (or
    /// shows the paywall when the offer says so); no shield is shown over a live grant; at most one emergency grant and
    /// one streak bonus per day_id over the whole run.
    static func properties() -> (SweepStep<EarnedAccessEngine>) -> [String] {
        var emergencies: [LocalDate: Int] = [:]
        var bonuses: [LocalDate: Int] = [:]
        return { step in
            var p: [String] = []
            if case let .unlock(app, c) = step.input {
                let offered = step.before.refusal(app, c, step.at)
                var b = step.before
                var o = EarnedAccessOutcome()
                _ = b.advance(to: step.at, &o)
                _ = b.expireGrants(step.at, &o)
                let expected = b.refusal(app, c, step.at)
                if expected == nil && step.outcome.decision.isRefusal { p.append("offered \(c) refused with \(step.outcome.decision)") }
                if let x = expected, step.outcome.decision != x { p.append("\(c) expected \(x), got \(step.outcome.decision)") }
                _ = offered
            }
            for e in step.outcome.events {
                switch e {
                case let .shieldShown(a, _, _) where step.after.grant(for: a, at: step.at) != nil: p.append("shield over a live grant of \(a)")
                case .unlockGranted(_, .emergency, _, _):
                    emergencies[step.after.dayID, default: 0] += 1
                    if emergencies[step.after.dayID]! > step.after.parameters.emergencyPerDay {
                        p.append("\(emergencies[step.after.dayID]!) emergencies on \(step.after.dayID)")
                    }
                case .streakBonusAwarded:
                    bonuses[step.after.dayID, default: 0] += 1
                    if bonuses[step.after.dayID]! > 1 { p.append("two streak bonuses on \(step.after.dayID)") }
                default: break
                }
            }
            if step.after.dayID < step.before.dayID { p.append("day_id went backwards") }
            return p
        }
    }

    @Test("Invariants hold after every step of random sequences", arguments: seeds)
    func sweep(seed: UInt64) {
        expectNoFailure(Self.sweep.run(seed: seed))
    }

    @Test("Each seed sends its whole random sequence (prelude + 400 inputs) and the engine answers with events")
    func size() {
        let run = Self.sweep.run(seed: 7)
        #expect(run.failure == nil && run.inputs.count == 407)
        #expect(run.events.count > 400)
    }

    @Test("The sweeps exercise every rule")
    func coverage() {
        var names: [String: Int] = [:]
        for seed in Self.seeds.prefix(30) { for e in Self.sweep.run(seed: seed).events { names[e.event.name, default: 0] += 1 } }
        for n in ["shield_shown", "unlock_gate_opened", "unlock_granted", "unlock_denied", "unlock_expired", "quest_completed", "quest_abandoned",
                  "emergency_wait_started", "emergency_wait_abandoned", "focus_session_completed", "credits_earned", "credits_spent",
                  "day_rolled_over", "streak_qualified", "streak_bonus_awarded", "streak_broken", "paywall_shown", "trial_started",
                  "subscription_purchase_completed", "downgraded_to_free", "mode_started", "mode_ended", "habit_completed"] {
            #expect(names[n, default: 0] > 0, "\(n) never happened")
        }
    }
}
