import Testing
import RulesCore
@testable import ScrollOffRules

/// Seed 000 §3.2 "At 0s, shield reappears instantly"; §6.1 "60-sec peek … 60-second timer → shield reappears";
/// §7.4 "At 0 seconds remaining, re-apply shield instantly". The shield that comes back over the app in front is a
/// shield the user can answer (audit 2026-11 D3).
@Suite("The shield returns when access runs out (§3.2, §3.4, §6.1)")
struct ReturningShieldTests {
    let app = AppID(1)

    @Test("Wallet empty in the foreground: shield_shown, a pending shield to answer; closing it is a willpower win")
    func walletEmpty() {
        var h = Harness()
        h.onboard()
        h.send(.onboarding(.demoBlockCompleted), at: h.at(0, 7))     // 120 s
        h.meetShield(at: h.at(0, 7, 10))
        h.send(.shield(.useCredits), at: h.at(0, 7, 10))
        h.run(until: h.at(0, 7, 12))
        #expect(h.out.decision == .walletEmpty)
        #expect(h.rendered().suffix(4) == ["spend_tick(seconds_spent=120,seconds_remaining=0,bundleID=app:1)", "wallet_empty(bundleID=app:1)",
                                           "shield_shown(bundleID=app:1,credits_available=0)", "self_efficacy_message_shown(context=shield,message_type=2)"])
        let offer = h.engine.shieldOffer()
        #expect(offer?.app == app)
        #expect(offer?.creditsAvailable == .zero)
        #expect(h.send(.shield(.close), at: h.at(0, 7, 13)).decision == .willpowerWin)
        #expect(h.engine.willpowerWinsToday == 1)
        #expect(h.problems.isEmpty)
    }

    @Test("Shielded time is never spend: nothing is deducted while the returned shield is up")
    func shieldedTimeIsNotSpend() {
        var h = Harness()
        h.onboard()
        h.send(.onboarding(.demoBlockCompleted), at: h.at(0, 7))
        h.meetShield(at: h.at(0, 7, 10))
        h.send(.shield(.useCredits), at: h.at(0, 7, 10))
        h.run(until: h.at(0, 8, 13))                                   // earning restarted at 07:12: +300 s at 08:12
        #expect(h.engine.foreground == nil)
        #expect(h.engine.balance() == .seconds(Int64(300)))
        let spent = h.log.compactMap { e -> TimeSpan? in if case let .spendTick(s, _, _) = e.1 { return s }; return nil }
        #expect(spent == [.seconds(Int64(120))])
        #expect(h.engine.shieldOffer()?.app == app)
    }

    @Test("A peek ending in the foreground brings back a shield to answer; one ending in the background does not")
    func peekEnds() {
        var h = Harness()
        h.onboard()
        h.send(.onboarding(.demoBlockCompleted), at: h.at(0, 7))
        h.meetShield(at: h.at(0, 7, 10))
        #expect(h.send(.shield(.peek), at: h.at(0, 7, 10)).decision == .freePeek)
        h.run(until: h.at(0, 7, 11))
        #expect(h.out.decision == .unlockEnded)
        #expect(h.out.events.first == .shieldShown(app: app, creditsAvailable: .seconds(Int64(120))))
        #expect(h.engine.shieldOffer()?.app == app)
        #expect(h.send(.shield(.close), at: h.at(0, 7, 11, 5)).decision == .willpowerWin)

        var g = Harness()
        g.onboard()
        g.send(.onboarding(.demoBlockCompleted), at: g.at(0, 7))
        g.meetShield(at: g.at(0, 7, 10))
        g.send(.shield(.peek), at: g.at(0, 7, 10))
        g.send(.appBackground(app), at: g.at(0, 7, 10, 30))
        g.run(until: g.at(0, 7, 12))
        #expect(g.engine.shieldOffer() == nil)
        #expect(g.count("shield_shown") == 1)
    }

    @Test("An emergency token's unlock ending in the foreground brings the shield back (§3.4)")
    func tokenEnds() {
        var h = Harness(parameters: params(straightToTokens))
        h.onboard()
        h.meetShield(at: h.at(0, 8))
        #expect(h.send(.shield(.emergencyToken), at: h.at(0, 8)).decision == .tokenUsed)
        h.run(until: h.at(0, 8, 15))
        #expect(h.out.decision == .unlockEnded)
        #expect(h.engine.shieldOffer()?.app == app)
    }

    @Test("The Pro daily spend cap running out brings back a shield to answer (§3.2 anti-binge guard)")
    func spendCap() {
        var h = Harness()
        h.subscribe(.proMonthly, at: h.at(0, 6))
        h.onboard()
        h.run(until: h.at(0, 8))
        h.send(.setDailySpendCap(app, .seconds(Int64(30))), at: h.at(0, 8, 1))
        h.meetShield(at: h.at(0, 8, 10))
        h.send(.shield(.useCredits), at: h.at(0, 8, 10))
        h.run(until: h.at(0, 8, 10, 30))
        #expect(h.out.decision == .dailySpendCapReached)
        let offer = h.engine.shieldOffer()
        #expect(offer?.app == app)
        #expect(offer?.offers(.useCredits) == false)
    }

    @Test("Meeting the same pending shield again is the same encounter: one shield_shown")
    func sameEncounter() {
        var h = Harness()
        h.onboard()
        h.meetShield(at: h.at(0, 7, 10))
        #expect(h.meetShield(at: h.at(0, 7, 11)).decision == .shieldShown)
        #expect(h.count("shield_shown") == 1)
    }
}
