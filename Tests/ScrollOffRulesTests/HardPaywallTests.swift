import Testing
import RulesCore
@testable import ScrollOffRules

/// Issue 26 item 5: a hard paywall option (`paywall.mode` hard), an assumption-option — an experiment product teams run,
/// not in seed 000, whose §5.1 Tiers (Free $0 "Try-it") and §6.1 Paywall chips are the freemium default. "After
/// onboarding, the product does nothing until the person starts a trial or pays": seed 000 has no trial, so only
/// buying unlocks; a lapse or refund locks it again.
@Suite("Hard paywall (paywall.mode, issue 26 item 5)")
struct HardPaywallTests {
    let app = AppID(1)
    let hard = params(["paywall.mode": .text("hard")])
    static let wall = ScrollOffEvent.paywallShown(context: .hardPaywall, skuShown: .premiumMonthly)

    func walls(_ h: Harness, from: Int = 0) -> Int { h.log[from...].filter { $0.1 == Self.wall }.count }

    @Test("the parameter: a choice of freemium and hard, freemium by default, an assumption, listed only when changed")
    func parameter() throws {
        let p = try #require(ScrollOffParameters.catalogue.first { $0.keyPath == "paywall.mode" })
        #expect(p.kind == .choice(["freemium", "hard"]))
        #expect(p.defaultValue == .text("freemium"))
        #expect(p.source.isAssumption)
        #expect(!p.listedWhenDefault)
        #expect(ScrollOffParameters.defaults.paywallMode == .freemium)
        #expect(hard.paywallMode == .hard)
        // The hard paywall is no chip: it has no `paywall.chips.<context>` key.
        #expect(!PaywallContext.chips.contains(.hardPaywall))
        #expect(!ScrollOffParameters.catalogue.contains { $0.keyPath == "paywall.chips.hard_paywall" })
    }

    @Test("locked after onboarding with no purchase: the paywall when onboarding finishes and at every opening; no shield, no earning")
    func lockedAfterOnboarding() {
        var h = Harness(parameters: hard)
        h.onboard()
        #expect(h.engine.hardPaywallLocks)
        #expect(walls(h) == 1)
        #expect(h.log.last.map { $0.1 } == Self.wall)
        let opened = h.send(.appForeground(app), at: h.at(0, 8))
        #expect(opened.decision == .notShielded)
        #expect(!opened.events.contains { $0.name == "shield_shown" })
        #expect(!opened.effects.contains(.shieldShown(app)))
        h.send(.appBackground(app), at: h.at(0, 8, 10))
        h.run(until: h.at(1, 12))
        #expect(h.count("earn_award") == 0)
        #expect(h.engine.abstinenceStart == nil)
        for (d, hour) in [(Int64(0), 9), (0, 20), (1, 9)] {
            let o = h.send(.onboarding(.appOpened), at: h.at(d, hour))
            #expect(o.events.contains(Self.wall))
        }
        #expect(walls(h) == 4)
        #expect(h.count("shield_shown") == 0)
        #expect(h.problems.isEmpty)
    }

    @Test("before onboarding finishes the app works as freemium (the demo block): the wall comes at the Dashboard")
    func onboardingItselfWorks() {
        var h = Harness(parameters: hard)
        h.send(.onboarding(.appOpened), at: h.at(0, 7))
        h.send(.onboarding(.permissionGranted), at: h.at(0, 7))
        h.send(.createIfThenPlan(trigger: "t", response: "r"), at: h.at(0, 7))
        h.send(.blockApp(app), at: h.at(0, 7))
        #expect(!h.engine.hardPaywallLocks)
        #expect(h.send(.onboarding(.demoBlockCompleted), at: h.at(0, 7)).decision == .starterCreditAwarded)
        #expect(h.meetShield(at: h.at(0, 7, 1)).decision == .shieldShown)
        h.send(.shield(.close), at: h.at(0, 7, 1))
        #expect(walls(h) == 0)
        h.send(.onboarding(.finished), at: h.at(0, 7, 2))
        #expect(walls(h) == 1)
        #expect(h.meetShield(at: h.at(0, 7, 3)).decision == .notShielded)
        #expect(h.problems.isEmpty)
    }

    @Test("unlocked by buying: every plan gives what its tier gives; no wall at openings", arguments: Plan.allCases)
    func unlockedByBuying(_ plan: Plan) {
        var h = Harness(parameters: hard)
        h.onboard()
        h.subscribe(plan, at: h.at(0, 7, 1))
        #expect(!h.engine.hardPaywallLocks)
        #expect(h.engine.abstinenceStart != nil)
        let seen = h.log.count
        #expect(!h.send(.onboarding(.appOpened), at: h.at(0, 7, 2)).events.contains(Self.wall))
        h.run(until: h.at(0, 8, 30))
        #expect(h.count("earn_award") >= 1)
        #expect(h.meetShield(at: h.at(0, 9)).decision == .shieldShown)
        #expect(walls(h, from: seen) == 0)
        #expect(h.problems.isEmpty)
    }

    @Test("a plan bought during onboarding (the app-limit chip): no wall when onboarding finishes")
    func boughtDuringOnboarding() {
        var h = Harness(parameters: hard)
        h.send(.onboarding(.appOpened), at: h.at(0, 7))
        h.send(.onboarding(.permissionGranted), at: h.at(0, 7))
        h.send(.createIfThenPlan(trigger: "t", response: "r"), at: h.at(0, 7))
        for a in 1...4 { h.send(.blockApp(AppID(UInt16(a))), at: h.at(0, 7)) }
        h.subscribe(.premiumMonthly, at: h.at(0, 7))
        h.send(.onboarding(.finished), at: h.at(0, 7))
        #expect(!h.engine.hardPaywallLocks)
        #expect(walls(h) == 0)
        #expect(h.meetShield(at: h.at(0, 8)).decision == .shieldShown)
    }

    @Test("locked again after the plan lapses at period end, and at once after a refund")
    func lockedAgainAfterLapse() {
        var h = Harness(parameters: hard)
        h.onboard()
        h.subscribe(.premiumMonthly, at: h.at(0, 7, 1))
        h.send(.cancelSubscription, at: h.at(1, 9))
        #expect(h.meetShield(at: h.at(10, 9)).decision == .shieldShown)
        h.send(.shield(.close), at: h.at(10, 9))
        let end = h.engine.periodEnd
        h.run(until: end + .minutes(1))
        #expect(h.engine.plan == nil)
        #expect(h.engine.hardPaywallLocks)
        #expect(h.engine.abstinenceStart == nil)
        #expect(h.meetShield(at: end + .minutes(2)).decision == .notShielded)
        #expect(h.send(.onboarding(.appOpened), at: end + .minutes(3)).events.contains(Self.wall))
        // Buying again unlocks; a refund locks at once.
        h.subscribe(.proMonthly, at: end + .minutes(4))
        #expect(h.meetShield(at: end + .minutes(5)).decision == .shieldShown)
        h.send(.shield(.useCredits), at: end + .minutes(5))
        h.send(.refundSubscription, at: end + .minutes(6))
        #expect(h.engine.hardPaywallLocks)
        #expect(h.engine.pendingShield == nil && h.engine.accesses.isEmpty && h.engine.foreground == nil)
        #expect(h.meetShield(at: end + .minutes(7)).decision == .notShielded)
        #expect(h.problems.isEmpty)
    }

    @Test("freemium (the default) is unchanged: the Free tier shields and earns without paying, and no wall is ever shown")
    func freemiumUnchanged() {
        var free = Harness()
        var explicit = Harness(parameters: params(["paywall.mode": .text("freemium")]))
        for i in 0..<2 {
            var h = i == 0 ? free : explicit
            h.onboard()
            #expect(!h.engine.hardPaywallLocks)
            #expect(h.meetShield(at: h.at(0, 8)).decision == .shieldShown)
            h.send(.shield(.close), at: h.at(0, 8))
            h.send(.onboarding(.appOpened), at: h.at(0, 9))
            h.run(until: h.at(1, 12))
            #expect(h.count("earn_award") >= 1)
            #expect(walls(h) == 0)
            if i == 0 { free = h } else { explicit = h }
        }
        #expect(free.log.map { render($0.1) } == explicit.log.map { render($0.1) })
        #expect(ScrollOffParameters.defaults == params(["paywall.mode": .text("freemium")]))
    }
}
