import Testing
import RulesCore
@testable import ScrollOffRules

/// One test per §9 acceptance criterion the engine can express (seed 000_5f03618b73c6ae9a.txt).
@Suite("Seed 000 §9 acceptance")
struct AcceptanceTests {
    let app = AppID(1)

    // MARK: Earn engine (§9 "Earn engine", §3.2, §7.4)

    @Test("Earn: +300 s posted at minute 60 of abstinence (§9, §3.2)")
    func earnAwardAtMinute60() {
        var h = Harness()
        h.onboard()
        h.run(until: h.at(0, 7, 59, 59))
        #expect(h.engine.balance() == .zero)
        h.run(until: h.at(0, 8))
        #expect(h.engine.balance() == .seconds(Int64(300)))
        #expect(h.rendered().contains("earn_award(seconds=300,wallet_id=global,daily_cap_hit=false)"))
    }

    @Test("Earn: a mid-cycle blocked-app open (peek) resets the counter to 0 (§9, §7.4)")
    func midCycleOpenResetsCounter() {
        var h = Harness()
        h.onboard()
        h.send(.onboarding(.demoBlockCompleted), at: h.at(0, 7))     // 120 s: the free peek is offered (§6.1 at 0 credits: token only)
        h.send(.appForeground(app), at: h.at(0, 7, 30))
        #expect(h.send(.shield(.peek), at: h.at(0, 7, 30)).decision == .freePeek)
        h.run(until: h.at(0, 8, 30))          // peek ended 07:31; award due 08:31, not 08:00
        #expect(h.engine.balance() == .seconds(Int64(120)))
        h.run(until: h.at(0, 8, 31))
        #expect(h.engine.balance() == .seconds(Int64(420)))
    }

    @Test("Earn: daily cap enforced, excess discarded with daily_cap_hit (Free 45 m, Premium 90 m) (§9, §3.2)",
          arguments: [(Plan?.none, 9), (Plan.premiumMonthly, 18)])
    func dailyEarnCap(plan: Plan?, fullAwards: Int) {
        var h = Harness(at: 0)
        if let plan { h.subscribe(plan, at: h.at(0, 0)) }
        h.onboard(at: 0)
        h.run(until: h.at(0, 23, 59))
        let awards = h.log.compactMap { e -> (TimeSpan, Bool)? in
            if case let .earnAward(a, .global, hit) = e.1 { return (a, hit) }
            return nil
        }
        // The award the cap cuts is reported once; later ones that day are not armed (EarnDetailTests).
        #expect(awards.count == fullAwards + 1)
        #expect(awards.prefix(fullAwards).allSatisfy { $0.0 == .seconds(Int64(300)) && !$0.1 })
        #expect(awards.dropFirst(fullAwards).allSatisfy { $0.0 == .zero && $0.1 })
        #expect(h.engine.earnedToday == .minutes(Int64(fullAwards * 5)))
    }

    @Test("Earn: Pro cap 120 m (reached with 10-minute awards) (§9, §3.2)")
    func proDailyEarnCap() {
        var v = ParameterValues(defaultsOf: ScrollOffParameters.catalogue)
        v["earn.award_minutes"] = .int(10)
        var h = Harness(parameters: ScrollOffParameters(values: v), at: 0)
        h.subscribe(.proMonthly, at: h.at(0, 0))
        h.onboard(at: 0)
        h.run(until: h.at(0, 23, 59))
        #expect(h.engine.earnedToday == .minutes(Int64(120)))
        #expect(h.rendered().contains("earn_award(seconds=0,wallet_id=global,daily_cap_hit=true)"))
    }

    @Test("Earn: Free rollover expires at local midnight (§9, §3.2)")
    func freeRolloverExpiresAtLocalMidnight() {
        var h = Harness()       // UTC−5: local midnight is 05:00 UTC
        h.onboard()
        h.send(.unblockApp(app), at: h.at(0, 9, 30))      // awards at 08:00 and 09:00, then nothing blocked
        #expect(h.engine.balance() == .seconds(Int64(600)))
        h.run(until: h.at(0, 23, 59, 59))
        #expect(h.engine.balance() == .seconds(Int64(600)))
        h.run(until: h.at(1, 0))
        #expect(h.engine.balance() == .zero)
    }

    @Test("Earn: Premium 3-day and Pro 7-day rollover expire at local midnight (§9, §3.2; assumption: earning day counts)",
          arguments: [(Plan.premiumMonthly, Int64(3)), (Plan.proMonthly, Int64(7))])
    func paidRollover(plan: Plan, days: Int64) {
        var h = Harness()
        h.subscribe(plan, at: h.at(0, 6))
        h.onboard()
        h.send(.unblockApp(app), at: h.at(0, 8, 30))     // one award at 08:00, then nothing to earn from
        #expect(h.engine.balance() == .seconds(Int64(300)))
        h.run(until: h.at(days - 1, 23, 59))
        #expect(h.engine.balance() == .seconds(Int64(300)))
        h.run(until: h.at(days, 0))
        #expect(h.engine.balance() == .zero)
    }

    @Test("Earn: starter credit +120 s awarded once, labelled, outside caps and rollover (§9, §4)")
    func starterCreditOnce() {
        var h = Harness()
        h.onboard()
        h.send(.onboarding(.demoBlockCompleted), at: h.at(0, 7, 1))
        h.send(.onboarding(.demoBlockCompleted), at: h.at(0, 7, 2))
        let starters = h.rendered().filter { $0.contains("wallet_id=starter_credit") }
        #expect(starters == ["earn_award(seconds=120,wallet_id=starter_credit,daily_cap_hit=false)"])
        #expect(h.engine.earnedToday == .zero)
        h.send(.unblockApp(app), at: h.at(0, 9))      // stop earning; day-0 awards expire at midnight
        h.run(until: h.at(3, 12))
        #expect(h.engine.balance() == .seconds(Int64(120)))
    }

    // MARK: Spend engine (§9 "Spend engine", §3.2, §7.4)

    @Test("Spend: exactly 1 s per second in the foreground; background pauses; foreground resumes (§9, §7.4)")
    func perSecondSpendPausesAndResumes() {
        var h = Harness()
        h.onboard()
        h.run(until: h.at(0, 8))                          // 300 s
        h.send(.appForeground(app), at: h.at(0, 8, 10))
        h.send(.shield(.useCredits), at: h.at(0, 8, 10))
        h.send(.appBackground(app), at: h.at(0, 8, 11, 40))   // 100 s
        #expect(h.engine.balance() == .seconds(Int64(200)))
        h.run(until: h.at(0, 8, 15))
        #expect(h.engine.balance() == .seconds(Int64(200)))   // paused
        let o = h.send(.appForeground(app), at: h.at(0, 8, 15))
        #expect(o.decision == .accessResumed)
        h.send(.appBackground(app), at: h.at(0, 8, 15, 50))
        #expect(h.engine.balance() == .seconds(Int64(150)))
        #expect(h.rendered().contains("spend_tick(seconds_spent=100,seconds_remaining=200,bundleID=app:1)"))
    }

    @Test("Spend: at 0 s the shield reappears instantly with wallet_empty (§9, §3.2)")
    func shieldBackAtZero() {
        var h = Harness()
        h.onboard()
        h.send(.onboarding(.demoBlockCompleted), at: h.at(0, 7))   // 120 s
        h.send(.appForeground(app), at: h.at(0, 7, 10))
        h.send(.shield(.useCredits), at: h.at(0, 7, 10))
        h.run(until: h.at(0, 7, 11, 59))
        #expect(h.engine.foreground == app)
        h.run(until: h.at(0, 7, 12))
        #expect(h.engine.balance() == .zero)
        #expect(h.engine.foreground == nil)
        #expect(h.out.effects.contains(.shieldShown(app)))
        #expect(Array(h.rendered().suffix(4).prefix(2)) == ["spend_tick(seconds_spent=120,seconds_remaining=0,bundleID=app:1)", "wallet_empty(bundleID=app:1)"])
    }

    @Test("Spend: Pro per-app wallets are deducted first, then global (§9, §7.4)")
    func perAppWalletFirst() {
        var h = Harness()
        h.subscribe(.proMonthly, at: h.at(0, 6))
        h.onboard()
        h.run(until: h.at(0, 8))                          // 300 s global
        h.send(.earmark(app, .seconds(Int64(60))), at: h.at(0, 8, 0, 1))
        h.send(.appForeground(app), at: h.at(0, 8, 10))
        h.send(.shield(.useCredits), at: h.at(0, 8, 10))
        h.send(.appBackground(app), at: h.at(0, 8, 11, 30))  // 90 s
        #expect(h.engine.blocked[0].wallet.total == .zero)
        #expect(h.engine.global.total == .seconds(Int64(210)))
    }

    @Test("Spend: Pro daily spend cap re-applies the shield (§3.2 anti-binge guard)")
    func dailySpendCap() {
        var h = Harness()
        h.subscribe(.proMonthly, at: h.at(0, 6))
        h.onboard()
        h.run(until: h.at(0, 8))
        h.send(.setDailySpendCap(app, .seconds(Int64(30))), at: h.at(0, 8, 1))
        h.send(.appForeground(app), at: h.at(0, 8, 10))
        h.send(.shield(.useCredits), at: h.at(0, 8, 10))
        h.run(until: h.at(0, 8, 10, 30))
        #expect(h.out.decision == .dailySpendCapReached)
        #expect(h.engine.balance() == .seconds(Int64(270)))
    }

    // MARK: Cooldown (§9 "Cooldown", §3.3, §7.4)

    @Test("Cooldown: unblock refused until lockedUntil (Free 2 h, Premium 1 h, Pro 30 m) (§9, §3.3)",
          arguments: [(Plan?.none, Int64(120)), (Plan.premiumMonthly, Int64(60)), (Plan.proMonthly, Int64(30))])
    func cooldownEnforced(plan: Plan?, minutes: Int64) {
        var h = Harness()
        if let plan { h.subscribe(plan, at: h.at(0, 6)) }
        h.onboard()
        let start = h.at(0, 7)
        #expect(h.rendered().contains("cooldown_start(bundleID=app:1,duration_seconds=\(minutes * 60))"))
        let refused = h.send(.unblockApp(app), at: start + .minutes(minutes) - .seconds(Int64(1)))
        #expect(refused.decision == .cooldownActive)
        #expect(refused.events.first == .cooldownUnblockAttempted(timeRemaining: .seconds(Int64(1))))   // then the §6.1 chip (PaywallChipTests)
        #expect(h.send(.unblockApp(app), at: start + .minutes(minutes)).decision == .appUnblocked)
    }

    @Test("Cooldown: a clock rollback does not shorten the cooldown (§9, §7.4 absolute timestamp)")
    func rollbackDoesNotShortenCooldown() {
        var h = Harness()
        h.onboard()
        h.send(.systemClockChanged(by: .hours(-3)), at: h.at(0, 8))
        #expect(h.send(.unblockApp(app), at: h.at(0, 8, 59)).decision == .cooldownActive)
    }

    // MARK: Curfew (§9 "Curfew", §3.3, §7.4)

    func curfewHarness(start: Int = 23, end: Int = 7, safari: Bool = false) -> Harness {
        var h = Harness()
        h.onboard()
        let spec = CurfewSpec(window: DailyWindow(start: LocalTimeOfDay(hour: start, minute: 0)!, end: LocalTimeOfDay(hour: end, minute: 0)!),
                              apps: [app, AppID(2)], blockSafari: safari)
        #expect(h.send(.setCurfew(id: nil, spec), at: h.at(0, 12)).decision == .curfewSaved)
        return h
    }

    @Test("Curfew: midnight-spanning 23:00→07:00 keeps affected apps shielded; no spend, no bypass (§9, §7.4)")
    func curfewAcrossMidnight() {
        var h = curfewHarness()
        h.run(until: h.at(0, 22, 50))
        h.send(.appForeground(app), at: h.at(0, 22, 50))
        h.send(.shield(.useCredits), at: h.at(0, 22, 50))       // credit session runs into the curfew
        h.run(until: h.at(0, 23))
        #expect(h.engine.foreground == nil)
        #expect(h.log.contains { if case .curfewStart(1, 2) = $0.1 { return true }; return false })
        let balanceAtStart = h.engine.balance()
        for t in [h.at(0, 23, 30), h.at(1, 0, 30), h.at(1, 6, 59)] {
            #expect(h.send(.appForeground(app), at: t).decision == .curfewShieldShown)
            #expect(h.send(.shield(.useCredits), at: t).decision == .curfewActive)
            #expect(h.send(.shield(.peek), at: t).decision == .curfewActive)
            #expect(h.send(.shield(.emergencyToken), at: t).decision == .curfewActive)
            h.send(.appBackground(app), at: t)
        }
        #expect(h.engine.balance() >= balanceAtStart)
        // A non-blocked app named by the curfew is shielded too, then free again at 07:00.
        #expect(h.send(.appForeground(AppID(2)), at: h.at(1, 3)).decision == .curfewShieldShown)
        h.send(.appBackground(AppID(2)), at: h.at(1, 3))
        #expect(h.send(.appForeground(AppID(2)), at: h.at(1, 7)).decision == .notShielded)
        #expect(h.send(.appForeground(app), at: h.at(1, 7)).decision == .shieldShown)
    }

    @Test("Curfew: edits locked 30 min before start and during the window (§9, §3.3)")
    func curfewEditLock() {
        var h = curfewHarness()
        let spec = h.engine.curfews[0].spec
        #expect(h.send(.setCurfew(id: 1, spec), at: h.at(0, 22, 29)).decision == .curfewSaved)
        let locked = h.send(.setCurfew(id: 1, spec), at: h.at(0, 22, 31))
        #expect(locked.decision == .curfewEditLocked)
        #expect(locked.events == [.curfewEditBlocked(timeUntilStart: .minutes(Int64(29)))])
        let during = h.send(.deleteCurfew(1), at: h.at(1, 2))
        #expect(during.events == [.curfewEditBlocked(timeUntilStart: .zero)])
        #expect(h.send(.deleteCurfew(1), at: h.at(1, 7)).decision == .ok)
    }

    @Test("Curfew: windows up to 16 hours; longer refused (§3.3)")
    func curfewMaxLength() {
        var h = Harness()
        h.onboard()
        func spec(_ e: Int) -> CurfewSpec { CurfewSpec(window: DailyWindow(start: .midnight, end: LocalTimeOfDay(hour: e, minute: 0)!), apps: [app]) }
        #expect(h.send(.setCurfew(id: nil, spec(17)), at: h.at(0, 17)).decision == .curfewInvalid)
        #expect(h.send(.setCurfew(id: nil, spec(16)), at: h.at(0, 17)).decision == .curfewSaved)
    }

    @Test("Curfew: optional Safari blocking during the window (§9, §3.3)")
    func curfewSafari() {
        var h = curfewHarness(safari: true)
        #expect(!h.engine.isRestricted(.safari, at: h.at(0, 22)))
        #expect(h.engine.isRestricted(.safari, at: h.at(0, 23, 30)))
        let g = curfewHarness(safari: false)
        #expect(!g.engine.isRestricted(.safari, at: g.at(0, 23, 30)))
        h.run(until: h.at(1, 1))
    }

    @Test("Curfew: reminder 10 min before start (opt-in, Premium/Pro) (§9, §6.5)")
    func curfewReminder() {
        var h = Harness()
        h.subscribe(.premiumMonthly, at: h.at(0, 6))
        h.onboard()
        h.send(.setPreference(.curfewReminders(true)), at: h.at(0, 8))
        h.send(.setCurfew(id: nil, CurfewSpec(window: DailyWindow(start: LocalTimeOfDay(hour: 23, minute: 0)!, end: LocalTimeOfDay(hour: 7, minute: 0)!), apps: [app])), at: h.at(0, 12))
        h.run(until: h.at(0, 22, 50))
        #expect(h.out.effects.contains(.notification(.curfewReminder)))
    }

    // MARK: Bypass ladder (§9 "Bypass ladder", §3.4, §7.4)

    @Test("Ladder: free peeks reset at local midnight (Free 1/day, Premium 2/day) (§9, §3.4)",
          arguments: [(Plan?.none, 1), (Plan.premiumMonthly, 2)])
    func freePeeksResetAtMidnight(plan: Plan?, peeks: Int) {
        var h = Harness()
        if let plan { h.subscribe(plan, at: h.at(0, 6)) }
        h.onboard()
        h.send(.onboarding(.demoBlockCompleted), at: h.at(0, 7))     // credits: the free peek is offered (§6.1 at 0 credits: token only)
        for day in Int64(0)...1 {
            for k in 0..<peeks {
                h.send(.appForeground(app), at: h.at(day, 7, 1 + k * 2))
                #expect(h.send(.shield(.peek), at: h.at(day, 7, 1 + k * 2)).decision == .freePeek)
            }
            h.send(.appForeground(app), at: h.at(day, 7, 20))
            #expect(h.send(.shield(.peek), at: h.at(day, 7, 20)).decision != .freePeek)
            h.send(.appBackground(app), at: h.at(day, 7, 20))
        }
    }

    @Test("Ladder: credit peeks cost 60 s each, then the mindfulness step, then tokens (§9, §3.4)")
    func creditPeeksThenMindfulnessThenToken() {
        var h = Harness()
        h.onboard()
        h.run(until: h.at(0, 8))                                   // 300 s
        h.send(.appForeground(app), at: h.at(0, 8, 1))
        #expect(h.send(.shield(.emergencyToken), at: h.at(0, 8, 1)).decision == .ladderNotExhausted)
        #expect(h.send(.shield(.peek), at: h.at(0, 8, 1)).decision == .freePeek)
        for m in [3, 5] {
            h.send(.appForeground(app), at: h.at(0, 8, m))
            let o = h.send(.shield(.peek), at: h.at(0, 8, m))
            #expect(o.decision == .creditPeek)
            #expect(o.events.first == .bypassCreditPeek(app: app, cost: .seconds(Int64(60))))
        }
        #expect(h.engine.balance() == .seconds(Int64(180)))
        h.send(.appForeground(app), at: h.at(0, 8, 7))
        let prompt = h.send(.shield(.emergencyToken), at: h.at(0, 8, 7))
        #expect(prompt.decision == .mindfulnessPrompted)
        #expect(prompt.events == [.mindfulnessPrompted(.breath)])
        h.send(.mindfulness(.breath, .skip), at: h.at(0, 8, 7))
        let token = h.send(.shield(.emergencyToken), at: h.at(0, 8, 7))
        #expect(token.decision == .tokenUsed)
        #expect(token.ledger.map(\.amount) == [Money(usd: 0.99)])
        #expect(h.engine.tokensPurchasedThisMonth == 1)
    }

    @Test("Ladder: mindfulness completed with bypass avoided is a willpower win (§9, §3.4)")
    func mindfulnessBypassAvoided() {
        var h = Harness()
        h.onboard()
        h.send(.appForeground(app), at: h.at(0, 7, 35))          // 0 credits: no peek (§6.1), step 4 next
        #expect(h.send(.shield(.peek), at: h.at(0, 7, 35)).decision == .mindfulnessPrompted)
        let o = h.send(.mindfulness(.bodyScan, .complete(bypassAvoided: true)), at: h.at(0, 7, 38))
        #expect(o.decision == .bypassAvoided)
        #expect(Array(o.events.prefix(2)) == [.mindfulnessCompleted(.bodyScan, bypassAvoided: true), .shieldDismissedNoSpend])
    }

    @Test("Ladder: with the mindfulness step disabled, tokens come straight after the peeks (§9 'when enabled')")
    func mindfulnessDisabled() {
        var h = Harness()
        h.onboard()
        h.send(.setPreference(.mindfulnessAtBypasses(false)), at: h.at(0, 7))
        h.send(.appForeground(app), at: h.at(0, 7, 30))
        h.send(.shield(.peek), at: h.at(0, 7, 30))
        h.send(.appForeground(app), at: h.at(0, 7, 35))
        #expect(h.send(.shield(.emergencyToken), at: h.at(0, 7, 35)).decision == .tokenUsed)
    }

    @Test("Tokens: purchases capped at 5 per calendar month on every plan; fresh start next month (§9, §5.2)",
          arguments: [Plan?.none, .premiumMonthly, .proMonthly])
    func tokenCapPerMonth(plan: Plan?) {
        // Bought in the store to count purchases alone; Pro's included tokens stay outside the cap here.
        var h = Harness(parameters: params(["tokens.purchasable_outside_shield": .bool(true), "tokens.included_count_toward_cap": .bool(false)]))
        if let plan { h.subscribe(plan, at: h.at(0, 6)) }
        h.onboard()
        for k in 0..<5 { #expect(h.send(.buyToken, at: h.at(0, 9, k)).decision == .tokenPurchased) }
        let capped = h.send(.buyToken, at: h.at(0, 9, 10))
        #expect(capped.decision == .tokenCapReached)
        #expect(capped.events == [.bypassTokenCapHit])
        #expect(capped.ledger.isEmpty)
        #expect(h.send(.buyToken, at: h.at(27, 9)).decision == .tokenPurchased)   // 2026-02-01
    }

    @Test("Tokens: Pro starts each month with 3 included tokens; with tokens.included_count_toward_cap false they sit outside the cap (§9, §5.2)")
    func proIncludedTokens() {
        var v = ParameterValues(defaultsOf: ScrollOffParameters.catalogue)
        v["bypass.free_peeks_per_day.pro"] = .int(0)     // go straight to the token step
        v["bypass.credit_peeks_per_day"] = .int(0)
        v["tokens.included_count_toward_cap"] = .bool(false)
        var h = Harness(parameters: ScrollOffParameters(values: v))
        h.subscribe(.proMonthly, at: h.at(0, 6))
        h.onboard()
        h.send(.setPreference(.mindfulnessAtBypasses(false)), at: h.at(0, 7))
        #expect(h.engine.includedTokensRemaining == 3)
        var paid: [Money] = []
        for k in 0..<8 {
            h.send(.appForeground(app), at: h.at(1, 9 + k, 2))
            let o = h.send(.shield(.emergencyToken), at: h.at(1, 9 + k, 2))
            #expect(o.decision == .tokenUsed)
            paid += o.ledger.map(\.amount)
        }
        #expect(paid.count == 5)
        #expect(h.engine.tokensPurchasedThisMonth == 5)
        h.run(until: h.at(27, 0))
        #expect(h.engine.includedTokensRemaining == 3)
        #expect(h.engine.tokensPurchasedThisMonth == 0)
    }

    // MARK: Billing (§9 "Billing & subscriptions", §5.1)

    @Test("Billing: Free → Premium and Free → Pro apply instantly (§9)")
    func upgradeInstant() {
        var h = Harness()
        h.onboard(blocking: [1, 2, 3])
        let refused = h.send(.blockApp(AppID(4)), at: h.at(0, 8))
        #expect(refused.decision == .blockedAppLimitReached)
        #expect(refused.events == [.paywallShown(context: .blockedAppLimit, skuShown: .premiumMonthly)])
        h.send(.buyPlan(.premiumMonthly), at: h.at(0, 8, 1))
        #expect(h.send(.blockApp(AppID(4)), at: h.at(0, 8, 1)).decision == .appBlocked)
        #expect(h.rendered().contains("cooldown_start(bundleID=app:4,duration_seconds=3600)"))
        var g = Harness()
        g.send(.buyPlan(.proAnnual), at: g.at(0, 6))
        #expect(g.engine.tier == .pro)
    }

    @Test("Billing: at most 50 individually shielded apps (§7.5)")
    func fiftyAppLimit() {
        var h = Harness()
        h.subscribe(.premiumMonthly, at: h.at(0, 6))
        h.onboard(blocking: Array(1...50))
        #expect(h.send(.blockApp(AppID(51)), at: h.at(0, 9)).decision == .shieldLimitReached)
    }

    @Test("Billing: Premium → Pro prorates the unused Premium period (§9)")
    func premiumToProProrates() {
        var h = Harness(at: 0)
        h.send(.buyPlan(.premiumMonthly), at: h.at(0, 0))       // 2026-01-05 → 2026-02-05: 31 days
        let o = h.send(.buyPlan(.proMonthly), at: h.at(15, 12))  // exactly half way
        #expect(o.decision == .upgraded)
        #expect(o.ledger.map(\.kind) == [.upgradeProration, .subscriptionPurchase])
        #expect(o.ledger.map(\.amount) == [Money(micros: -2_495_000), Money(usd: 8.99)])
        #expect(h.engine.tier == .pro)
    }

    @Test("Billing: renewal charges again; cancel returns to Free at period end (§5.1)")
    func renewalAndCancel() {
        var h = Harness()
        h.send(.buyPlan(.premiumMonthly), at: h.at(0, 6))
        h.run(until: h.at(31, 6))
        #expect(h.log.contains { $0.1 == .subscriptionRenewed(.premiumMonthly, price: Money(usd: 4.99)) })
        h.send(.cancelSubscription, at: h.at(40, 6))
        #expect(h.engine.tier == .premium)
        h.run(until: h.at(59, 6))
        #expect(h.engine.tier == .free)
        #expect(h.log.contains { $0.1 == .subscriptionExpired(.premiumMonthly) })
    }

    @Test("Billing: restore purchases after reinstall restores the entitlement (§9)")
    func restore() {
        var h = Harness()
        let o = h.send(.restorePurchases(StoreEntitlement(plan: .proAnnual, expiresAt: h.at(200, 0))), at: h.at(0, 7))
        #expect(o.decision == .restored)
        #expect(o.events == [.subscriptionRestored(.proAnnual)])
        #expect(h.engine.tier == .pro)
        #expect(h.send(.restorePurchases(nil), at: h.at(0, 8)).decision == .restored)
    }

    // MARK: Anti-tamper (§7.7)

    @Test("Clock: a rollback of more than 10 min freezes earning for the rest of the local day (§7.7)")
    func clockRollbackFreezesEarning() {
        var h = Harness()
        h.onboard()
        h.send(.systemClockChanged(by: .minutes(Int64(-11))), at: h.at(0, 7, 30))
        h.run(until: h.at(0, 23, 59))
        #expect(h.engine.balance() == .zero)
        h.run(until: h.at(1, 1))
        #expect(h.engine.balance() == .seconds(Int64(300)))
        var g = Harness()
        g.onboard()
        g.send(.systemClockChanged(by: .minutes(Int64(-10))), at: g.at(0, 7, 30))
        g.run(until: g.at(0, 8))
        #expect(g.engine.balance() == .seconds(Int64(300)))
    }

    // MARK: Behavioural science, milestones (§3.6, §6.1, §8.1)

    @Test("Intentions: count created at onboarding, times_referenced (§3.6, §9)")
    func implementationIntentions() {
        var h = Harness()
        h.send(.onboarding(.permissionGranted), at: h.at(0, 7))
        h.send(.createIfThenPlan(trigger: "a", response: "b"), at: h.at(0, 7))
        h.send(.createIfThenPlan(trigger: "c", response: "d"), at: h.at(0, 7))
        h.send(.blockApp(AppID(1)), at: h.at(0, 7))
        h.send(.onboarding(.finished), at: h.at(0, 7))
        h.send(.createIfThenPlan(trigger: "e", response: "f"), at: h.at(0, 8))
        h.send(.viewIfThenPlan(index: 1), at: h.at(0, 9))
        #expect(h.engine.plansCreatedAtOnboarding == 2)
        #expect(h.engine.ifThenPlans[1].timesReferenced == 1)
        #expect(h.out.events == [.ifThenPlanViewed(planID: 1)])
    }

    @Test("Milestones: 7-day streak unlocked after 7 streak days (§6.1, §8.2 A7; rule earn_award here, StreakTests for the default)")
    func sevenDayStreak() {
        var h = Harness(parameters: params(["milestones.streak_day_rule": .text("earn_award")]))
        h.onboard()
        h.run(until: h.at(6, 23, 59))
        #expect(!h.engine.hasUnlocked(.streak7))
        h.run(until: h.at(7, 0))
        #expect(h.engine.hasUnlocked(.streak7))
        #expect(h.log.filter { if case .milestoneUnlocked = $0.1 { return true }; return false }.count == 1)
    }

    @Test("Timers: stale or duplicate timers are ignored (timer contract)")
    func staleTimers() {
        var h = Harness()
        h.onboard()
        #expect(h.send(.timer(ScrollOffTimer(.walletEmpty(app), at: h.at(0, 7, 5))), at: h.at(0, 7, 5)).decision == .staleTimer)
        #expect(h.send(.timer(ScrollOffTimer(.earnAward, at: h.at(0, 7, 6))), at: h.at(0, 7, 6)).decision == .staleTimer)
        #expect(h.send(.timer(ScrollOffTimer(.localMidnight, at: h.at(0, 7, 7))), at: h.at(0, 7, 7)).decision == .staleTimer)
        #expect(h.engine.balance() == .zero)
        #expect(h.problems.isEmpty)
    }
}

@Suite("Shield offer (§6.1, §3.4)")
struct ShieldOfferTests {
    @Test("The shield offers close, credits and peek; the token only once the peeks are used up (§3.4)")
    func offerFollowsTheLadder() {
        let zone = ZoneCalendar.utc
        let t0 = Instant(millisecondsSinceEpoch: 1_767_600_000_000)   // 2026-01-05T08:00:00Z
        var e = ScrollOffEngine(zone: zone, installedAt: t0)
        let app = AppID(1)
        _ = e.handle(.onboarding(.appOpened), at: t0)
        _ = e.handle(.onboarding(.permissionGranted), at: t0)
        _ = e.handle(.createIfThenPlan(trigger: "When I'm bored", response: "I will stretch"), at: t0)
        _ = e.handle(.blockApp(app), at: t0)
        _ = e.handle(.onboarding(.demoBlockCompleted), at: t0)
        var t = t0 + .hours(3)
        _ = e.handle(.appForeground(app), at: t)
        let first = e.shieldOffer()!
        #expect(first.choices == [.close, .useCredits, .peek])
        #expect(first.peekCost == .zero)
        _ = e.handle(.shield(.peek), at: t)                        // the free peek
        t = t + .minutes(5)
        _ = e.handle(.appBackground(app), at: t)
        _ = e.handle(.appForeground(app), at: t)
        let second = e.shieldOffer()!
        #expect(second.peekCost == ScrollOffParameters.defaults.creditPeekCost)
        // Spend the starter credit down below a credit peek: the ladder is exhausted, the token appears.
        _ = e.handle(.shield(.useCredits), at: t)
        t = t + .minutes(10)
        _ = e.handle(.timer(ScrollOffTimer(.walletEmpty(app), at: t)), at: t)
        _ = e.handle(.appBackground(app), at: t)
        _ = e.handle(.appForeground(app), at: t)
        let third = e.shieldOffer()!
        #expect(third.choices == [.close, .emergencyToken])
        #expect(third.tokenNeedsPurchase && !third.tokenCapReached)
        #expect(e.shieldOffer() != nil)
        _ = e.handle(.shield(.close), at: t)
        #expect(e.shieldOffer() == nil)
    }
}
