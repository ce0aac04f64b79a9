import Testing
import RulesCore
@testable import EarnedAccessRules

/// Issue 26 item 5: a hard paywall option (`paywall.mode` hard), an assumption-option — an experiment product teams run,
/// not in seed 003, whose §5 "Free (forever)" tier and §5 Best paywall / trial trigger moments are the freemium default.
/// "After onboarding, the product does nothing until the person starts a trial or pays": seed 003 has the 7-day trial
/// (§0 Monetization, §5 Pro + 7-day free trial), so the trial unlocks too; a trial ending unconverted or a lapse (§5
/// Trial downgrade behavior "User becomes Free immediately") locks it again.
@Suite("Hard paywall (paywall.mode, issue 26 item 5)")
struct HardPaywallTests {
    let app = AppID(1)
    let hard = params(["paywall.mode": .text("hard")])

    func walls(_ h: Harness, from: Int = 0) -> Int { h.log[from...].filter { $0.1 == .paywallShown(.hardPaywall) }.count }

    /// Is the app enforcing anything for the person at `t` (a mode running, a shield, a shield on opening)?
    func enforces(_ h: inout Harness, at t: Instant) -> Bool {
        let d = h.send(.appForeground(app), at: t).decision
        return d == .shieldShown || h.engine.modes.contains(where: \.running) || !h.engine.shieldedApps.isEmpty
    }

    @Test("the parameter: a choice of freemium and hard, freemium by default, an assumption, listed only when changed")
    func parameter() throws {
        let p = try #require(EarnedAccessParameters.catalogue.first { $0.keyPath == "paywall.mode" })
        #expect(p.kind == .choice(["freemium", "hard"]))
        #expect(p.defaultValue == .text("freemium"))
        #expect(p.source.isAssumption)
        #expect(!p.listedWhenDefault)
        #expect(EarnedAccessParameters.defaults.paywallMode == .freemium)
        #expect(hard.paywallMode == .hard)
    }

    @Test("locked after onboarding with no trial or purchase: the paywall in Home and at every opening; no mode, no shield, no credits")
    func lockedAfterOnboarding() {
        var h = Harness(parameters: hard)
        h.onboard()
        #expect(h.engine.hardPaywallLocks)
        #expect(walls(h) == 1)
        #expect(!h.log.contains { $0.1 == .paywallShown(.placement) })
        // The mode created during onboarding ran until Home, where the app locked.
        #expect(h.rendered().suffix(4).contains { $0.hasPrefix("mode_ended") })
        let home = h.log.count
        func after(_ name: String) -> Int { h.log[home...].filter { $0.1.name == name }.count }
        #expect(h.send(.appForeground(app), at: h.at(0, 9)).decision == .notShielded)
        #expect(h.engine.shieldedApps.isEmpty && !h.engine.modes.contains(where: \.running))
        #expect(after("mode_started") == 0 && after("shield_shown") == 0)
        #expect(h.send(.startFocus(minutes: 30), at: h.at(0, 10)).decision == .hardPaywall)
        #expect(h.send(.createHabit, at: h.at(0, 10)).decision == .habitCreated)
        #expect(h.send(.completeHabit(1), at: h.at(0, 20)).decision == .hardPaywall)
        #expect(h.engine.balance == 0 && h.count("credits_earned") == 0)
        for (d, hour) in [(Int64(0), 12), (0, 21), (1, 9)] {
            #expect(h.send(.appOpened, at: h.at(d, hour)).events.contains(.paywallShown(.hardPaywall)))
            #expect(h.engine.paywallShowing == .hardPaywall)
            h.send(.paywallResponse(.dismiss), at: h.at(d, hour))
        }
        #expect(walls(h) == 4)
        h.run(until: h.at(2, 12))
        #expect(after("shield_shown") == 0 && after("mode_started") == 0)
        #expect(h.problems.isEmpty)
    }

    @Test("unlocked by the trial or a purchase: the mode runs, shields show, focus earns; no wall at openings",
          arguments: [PaywallResponse.startTrial(.annual), .buy(.monthly), .buy(.annual)])
    func unlocked(_ response: PaywallResponse) {
        var h = Harness(parameters: hard)
        h.onboard()
        let d = h.send(.paywallResponse(response), at: h.at(0, 8, 5)).decision
        #expect(d == .trialStarted || d == .subscribed)
        #expect(!h.engine.hardPaywallLocks)
        let seen = h.log.count
        let running = h.engine.modes.allSatisfy { $0.running }
        #expect(running)
        #expect(h.send(.appForeground(app), at: h.at(0, 9)).decision == .shieldShown)
        h.focus(30, from: h.at(0, 10))
        #expect(h.engine.balance > 0)
        #expect(!h.send(.appOpened, at: h.at(0, 12)).events.contains(.paywallShown(.hardPaywall)))
        #expect(walls(h, from: seen) == 0)
        #expect(h.problems.isEmpty)
    }

    @Test("locked again when the trial ends unconverted; a trial that converts stays unlocked")
    func lockedAfterTrial() {
        for converts in [false, true] {
            var h = Harness(parameters: hard)
            h.onboard()
            h.send(.paywallResponse(.startTrial(.annual)), at: h.at(0, 8, 5))
            if !converts { h.send(.cancelAutoRenew, at: h.at(5, 9)) }
            #expect(enforces(&h, at: h.at(6, 9)))
            h.send(.shieldClose(app), at: h.at(6, 9))
            let end = h.engine.periodEnd
            h.run(until: end + .minutes(1))
            #expect(h.engine.hardPaywallLocks == !converts)
            #expect(enforces(&h, at: end + .minutes(2)) == converts)
            #expect(h.send(.appOpened, at: end + .minutes(3)).events.contains(.paywallShown(.hardPaywall)) == !converts)
            #expect(h.problems.isEmpty)
        }
    }

    @Test("locked again when a paid subscription lapses, and at once after a refund (a focus session in progress ends unearned)")
    func lockedAfterLapseAndRefund() {
        var h = Harness(parameters: hard)
        h.onboard()
        h.send(.paywallResponse(.buy(.monthly)), at: h.at(0, 8, 5))
        h.send(.cancelAutoRenew, at: h.at(2, 9))
        #expect(enforces(&h, at: h.at(20, 9)))
        h.send(.shieldClose(app), at: h.at(20, 9))
        let end = h.engine.periodEnd
        h.run(until: end + .minutes(1))
        #expect(h.engine.hardPaywallLocks)
        #expect(!enforces(&h, at: end + .minutes(2)))
        // Buying again unlocks; a refund locks at once.
        h.send(.paywallResponse(.buy(.monthly)), at: end + .minutes(3))
        #expect(enforces(&h, at: end + .minutes(4)))
        h.send(.shieldClose(app), at: end + .minutes(4))
        h.send(.startFocus(minutes: 30), at: end + .minutes(5))
        let before = h.engine.balance
        h.send(.refund, at: end + .minutes(10))
        #expect(h.engine.hardPaywallLocks && h.engine.focus == nil)
        h.run(until: end + .minutes(40))
        #expect(h.engine.balance == before)
        #expect(!enforces(&h, at: end + .minutes(41)))
        #expect(h.problems.isEmpty)
    }

    @Test("freemium (the default) is unchanged: the placed paywall once, then Free enforces and earns without paying")
    func freemiumUnchanged() {
        var free = Harness()
        var explicit = Harness(parameters: params(["paywall.mode": .text("freemium")]))
        for i in 0..<2 {
            var h = i == 0 ? free : explicit
            h.onboard()
            #expect(!h.engine.hardPaywallLocks)
            #expect(h.log.contains { $0.1 == .paywallShown(.placement) })
            #expect(h.send(.appForeground(app), at: h.at(0, 9)).decision == .shieldShown)
            h.send(.shieldClose(app), at: h.at(0, 9))
            h.focus(30, from: h.at(0, 10))
            #expect(h.engine.balance > 0)
            #expect(walls(h) == 0)
            if i == 0 { free = h } else { explicit = h }
        }
        #expect(free.log.map { render($0.1) } == explicit.log.map { render($0.1) })
        #expect(EarnedAccessParameters.defaults == params(["paywall.mode": .text("freemium")]))
    }
}

extension HardPaywallTests {
    @Test("earning is withheld without the trial or Pro even before Home (the Focus tab sits behind the wall): no focus shield, no credit")
    func earningWithheldBeforeHome() {
        var h = Harness(parameters: hard)
        h.send(.appOpened, at: h.at(0, 8))
        h.send(.authorization(.granted), at: h.at(0, 8))
        h.send(.addApp(app), at: h.at(0, 8))
        // Onboarding left at the first mode: no Home, so no wall and no lock, but nothing to earn or shield either.
        #expect(!h.engine.hardPaywallLocks && h.engine.hardPaywallWithholdsEarning)
        #expect(h.send(.startFocus(minutes: 30), at: h.at(0, 9)).decision == .hardPaywall)
        #expect(h.send(.appForeground(app), at: h.at(0, 9, 5)).decision == .notShielded)
        #expect(h.send(.createHabit, at: h.at(0, 9)).decision == .habitCreated)
        #expect(h.send(.completeHabit(1), at: h.at(0, 20)).decision == .hardPaywall)
        #expect(h.engine.balance == 0)
        // Freemium: the same person earns from a focus session.
        var f = Harness()
        f.send(.appOpened, at: f.at(0, 8))
        f.send(.authorization(.granted), at: f.at(0, 8))
        f.send(.addApp(app), at: f.at(0, 8))
        #expect(f.send(.startFocus(minutes: 30), at: f.at(0, 9)).decision == .focusStarted)
        #expect(f.send(.appForeground(app), at: f.at(0, 9, 5)).decision == .shieldShown)
    }
}
