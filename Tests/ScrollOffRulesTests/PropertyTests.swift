import Testing
import HabitatTestSupport
import RulesCore
@testable import ScrollOffRules

/// Seed sweeps over random command sequences on the shared driver (`HabitatTestSupport.EngineSweep`): a failure is
/// shrunk to a minimal input sequence and reported with its seed.
@Suite("Properties over random command sequences")
struct PropertyTests {
    static let seeds: [UInt64] = Array(1...120)

    /// A random but valid-looking input.
    static func randomInput(_ r: inout SplitMix64, _ e: ScrollOffEngine, _ now: Instant) -> ScrollOffInput {
        let app = AppID(UInt16(1 + r.below(4)))
        if let p = e.pendingShield, r.chance(0.75) {
            if p.mindfulnessOffered != nil && !p.mindfulnessAnswered && r.chance(0.7) {
                return .mindfulness(p.mindfulnessOffered!, r.chance(0.5) ? .skip : .complete(bypassAvoided: r.chance(0.3)))
            }
            return .shield([ShieldChoice.close, .useCredits, .peek, .peek, .emergencyToken, .emergencyToken][r.below(6)])
        }
        switch r.below(100) {
        case 0..<22: return .appForeground(r.chance(0.05) ? .safari : app)
        case 22..<34: return .appBackground(e.foreground ?? e.pendingShield?.app ?? app)
        case 34..<54:
            return .shield([ShieldChoice.close, .useCredits, .peek, .emergencyToken][r.below(4)])
        case 54..<58: return .mindfulness(MindfulnessExercise(rawValue: UInt8(r.below(3)))!, r.chance(0.5) ? .skip : .complete(bypassAvoided: r.chance(0.5)))
        case 58..<65: return .blockApp(app)
        case 65..<71: return .unblockApp(app)
        case 71..<74: return .buyToken
        case 74..<76: return .buyPlan(Plan(rawValue: UInt8(r.below(3)))!)
        case 76: return .cancelSubscription
        case 77: return r.chance(0.3) ? .refundSubscription : .restorePurchases(nil)
        case 78..<82:
            let start = LocalTimeOfDay(hour: r.below(24), minute: [0, 15, 30, 45][r.below(4)])!
            let len = 1 + r.below(18)   // up to 18 h: some invalid
            let end = LocalTimeOfDay(secondsSinceMidnight: Int32((Int(start.secondsSinceMidnight) + len * 3600) % 86_400))
            let apps = (1...4).filter { _ in r.chance(0.5) }.map { AppID(UInt16($0)) }
            let id: CurfewID? = e.curfews.isEmpty || r.chance(0.5) ? nil : e.curfews[r.below(e.curfews.count)].id
            return .setCurfew(id: id, CurfewSpec(window: DailyWindow(start: start, end: end, days: WeekdaySet(rawValue: UInt8(1 + r.below(127)))),
                                                 apps: apps.isEmpty ? [app] : apps, blockSafari: r.chance(0.3)))
        case 82: return .deleteCurfew(CurfewID(1 + r.below(4)))
        case 83: return .systemClockChanged(by: .minutes(Int64(r.below(61) - 40)))
        case 84..<86: return .earmark(app, .seconds(Int64(30 * (1 + r.below(10)))))
        case 86..<88: return .setDailySpendCap(app, r.chance(0.3) ? nil : .seconds(Int64(60 * r.below(20))))
        case 88: return .setPreference(.mindfulnessAtBypasses(r.chance(0.7)))
        case 89: return r.chance(0.5) ? .onboarding(.demoBlockCompleted) : .createIfThenPlan(trigger: "When I'm bored", response: "I will walk")
        case 90: return r.chance(0.2) ? .authorizationRevoked : .onboarding(.permissionGranted)
        case 91: return .timer(ScrollOffTimer([.earnAward, .localMidnight, .walletEmpty(app), .unlockEnd(app), .renewal][r.below(5)], at: .epoch))
        case 92: return r.chance(0.5) ? .onboarding(.finished) : .viewWeeklyInsight
        case 93: return .setPreference(.milestoneNotifications(r.chance(0.5)))
        default: return .viewInsight(InsightType(rawValue: UInt8(r.below(InsightType.allCases.count)))!)
        }
    }

    @Test("Invariants hold over random sequences: balances ≥ 0, earn ≤ cap, tokens ≤ cap, no spend in curfew, no unblock in cooldown, timers in the future",
          arguments: seeds)
    func sweep(seed: UInt64) {
        expectNoFailure(Self.sweep.run(seed: seed))
    }

    @Test("The sweeps exercise every rule (earn, spend, empty wallet, peeks, mindfulness, tokens, cap, curfew, cooldown)")
    func coverage() {
        var names: [String: Int] = [:]
        for seed in Self.seeds.prefix(30) { for e in Self.sweep.run(seed: seed).events { names[e.event.name, default: 0] += 1 } }
        for n in ["earn_award", "spend_tick", "wallet_empty", "bypass_free_peek", "bypass_credit_peek", "mindfulness_prompted",
                  "bypass_token_purchased", "bypass_token_cap_hit", "curfew_start", "curfew_edit_blocked", "cooldown_unblock_attempted",
                  "shield_dismissed_no_spend", "subscription_purchase_completed", "emergency_token_used", "shield_abandoned", "paywall_shown",
                  "mindfulness_completed"] {
            #expect(names[n, default: 0] > 0, "\(n) never happened")
        }
    }

    /// Per seed: UTC or UTC−5, install at a random hour of 2026-01-05 with the default rules, an onboarding that
    /// blocks apps 1 and 2 (after an if-then plan, except one seed in four), then 400 random inputs (seconds apart at a shield, else seconds or hours), then three days
    /// of timers.
    static var sweep: EngineSweep<ScrollOffEngine> { sweep(of: ScrollOffEngine.self, { $0 }, properties: seedProperties) }

    /// The same sweep for any engine that wraps Scroll Off's (e.g. `FaultyEngine<ScrollOffEngine, _>`): `scrollOff`
    /// gives the wrapped engine the random inputs are drawn from.
    static func sweep<E: RuleEngine>(of: E.Type, _ scrollOff: @escaping (E) -> ScrollOffEngine,
                                     properties: @escaping () -> (SweepStep<E>) -> [String] = { { _ in [] } }) -> EngineSweep<E>
    where E.Input == ScrollOffInput, E.Parameters == ScrollOffParameters {
        EngineSweep(
            generator: { SplitMix64(seed: $0 &* 0x9E37_79B9) },
            start: { seed, r in
                let zone: ZoneCalendar = seed % 2 == 0 ? .utc : .fixed(offset: .hours(-5))
                let t = zone.instant(on: LocalDate(year: 2026, month: 1, day: 5)!, at: LocalTimeOfDay(hour: r.below(24), minute: 0)!)
                // One seed in four skips the if-then plan: blocking is refused until a random input creates one (§9
                // "At least 1 plan required to proceed").
                let plan: [ScrollOffInput] = seed % 4 == 3 ? [] : [.createIfThenPlan(trigger: "When I'm bored during work calls", response: "I will doodle")]
                let onboarding: [ScrollOffInput] = [.onboarding(.appOpened), .onboarding(.permissionGranted)] + plan
                    + [.blockApp(AppID(1)), .blockApp(AppID(2)), .onboarding(.finished)]
                return SweepStart(parameters: .defaults, zone: zone, installedAt: t, prelude: onboarding.map { SweepInput($0, at: t) })
            },
            steps: 400,
            nextInstant: { r, e, now in
                now + (scrollOff(e).pendingShield != nil || r.chance(0.6) ? .seconds(Int64(r.below(600))) : .minutes(Int64(r.below(240))))
            },
            drain: .days(3),
            properties: properties,
            randomInput: { r, e, t in randomInput(&r, scrollOff(e), t) })
    }

    /// Seed 000's properties beyond the engine's own invariants, checked on every call (timer deliveries included):
    /// wallets never negative, earn within the day's cap, token purchases within the monthly cap, no spend while a
    /// curfew is active, no unblock during a cooldown. Keeps totals per day and month across the calls of one run.
    static func seedProperties() -> (SweepStep<ScrollOffEngine>) -> [String] {
        let p = ScrollOffParameters.defaults
        var earnedByDay: [LocalDate: TimeSpan] = [:]
        var capByDay: [LocalDate: TimeSpan] = [:]
        var tokensByMonth: [MonthID: Int] = [:]
        var lastCurfewEdit = Instant.distantPast
        return { step in
            let (before, input, t, out, after) = (step.before, step.input, step.at, step.outcome, step.after)
            var failures: [String] = []
            if after.global.total < .zero || after.global.lots.contains(where: { $0.amount <= .zero }) { failures.append("negative global wallet") }
            for b in after.blocked where b.wallet.total < .zero { failures.append("negative wallet \(b.app)") }
            let day = after.today
            capByDay[day] = max(capByDay[day] ?? .zero, p.dailyEarnCap[before.tier], p.dailyEarnCap[after.tier])
            for e in out.events {
                switch e {
                case let .earnAward(a, .global, _):
                    earnedByDay[day, default: .zero] += a
                    if earnedByDay[day]! > capByDay[day]! { failures.append("earned \(earnedByDay[day]!) on \(day) above cap") }
                case let .bypassTokenPurchased(m, n):
                    tokensByMonth[m, default: 0] += 1
                    if tokensByMonth[m]! > p.tokenMonthlyPurchaseCap || n > p.tokenMonthlyPurchaseCap { failures.append("token purchases above cap in \(m)") }
                case let .spendTick(s, _, app) where s > .zero:
                    // Sample the spent interval minute by minute against the schedules in force since their last edit.
                    var probe = max(t - s, lastCurfewEdit)
                    while probe < t {
                        if before.curfewActive(for: app, at: probe) { failures.append("spend during curfew at \(probe)"); break }
                        probe += .seconds(Int64(60))
                    }
                    if before.curfewActive(for: app, at: t - .milliseconds(1)) { failures.append("spend during curfew before \(t)") }
                default: break
                }
            }
            if out.decision == .curfewSaved || (out.decision == .ok && { if case .deleteCurfew = input { return true }; return false }()) {
                lastCurfewEdit = t
            }
            if out.decision == .appUnblocked, case .unblockApp(let a) = input,
               let b = before.blocked.first(where: { $0.app == a }), b.lockedUntil > t {
                failures.append("unblock during cooldown at \(t)")
            }
            return failures
        }
    }
}
