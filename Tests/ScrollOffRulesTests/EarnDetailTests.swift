import Testing
import RulesCore
@testable import ScrollOffRules

/// Earn-loop details (audit 2026-11 D14): §7.4 "Daily earn cap checked before award; excess discarded with user
/// notification"; §7.6 "Only track during intervals when earn/spend active (not 24/7)", "No long-running timers";
/// §3.5 / §6.2 self-efficacy framing "+5:00 earned — 1 hour strong!"; §4 "After permissions, run a 10-second demo
/// block and award a one-time starter credit".
@Suite("Earn details: the cap cut, efficacy framing, the starter credit after permission")
struct EarnDetailTests {
    @Test("After the cap cuts an award the engine stops waking hourly that day: one earn_award with daily_cap_hit, then the next day",
          arguments: [(Plan?.none, 9), (Plan.premiumMonthly, 18)])
    func oneCutPerDay(plan: Plan?, fullAwards: Int) {
        var h = Harness(at: 0)
        if let plan { h.subscribe(plan, at: h.at(0, 0)) }
        h.onboard(at: 0)
        h.run(until: h.at(0, 23, 59))
        let day0 = h.log.compactMap { e -> Bool? in if case let .earnAward(_, .global, hit) = e.1 { return hit }; return nil }
        #expect(day0 == Array(repeating: false, count: fullAwards) + [true])
        #expect(!h.pending.contains { $0.kind == .earnAward && $0.at < h.at(1, 0) })
        h.run(until: h.at(1, 1, 30))
        // The counter keeps its phase (awards on the hour since 00:00): the next day's first awards at 00:00 and 01:00.
        let day1 = h.log.filter { if case .earnAward(.seconds(Int64(300)), .global, false) = $0.1 { return $0.0 >= h.at(1, 0) }; return false }.map(\.0)
        #expect(day1 == [h.at(1, 0), h.at(1, 1)])
        #expect(h.problems.isEmpty)
    }

    @Test("An upgrade after the Free cap raises the cap: earning resumes the same day (§3.2 caps per tier)")
    func upgradeResumesEarning() {
        var h = Harness(at: 0)
        h.onboard(at: 0)
        h.run(until: h.at(0, 12))
        #expect(h.engine.earnedToday == .minutes(Int64(45)))
        h.send(.buyPlan(.premiumMonthly), at: h.at(0, 12, 30))
        h.run(until: h.at(0, 23, 59))
        #expect(h.engine.earnedToday == .minutes(Int64(90)))
        #expect(h.problems.isEmpty)
    }

    @Test("Earn awards come with an empowering message (§3.5, §6.2 '+5:00 earned — 1 hour strong!')")
    func efficacyOnAward() {
        var h = Harness()
        h.onboard()
        h.run(until: h.at(0, 8))
        #expect(h.out.events.contains { if case .selfEfficacyMessageShown(.earnAward, _) = $0 { return true }; return false })
    }

    @Test("The demo block and its starter credit come after permission (§4); the parameter allows the §6.1 order")
    func starterAfterPermission() {
        var h = Harness()
        h.send(.onboarding(.appOpened), at: h.at(0, 7))
        let early = h.send(.onboarding(.demoBlockCompleted), at: h.at(0, 7))
        #expect(early.decision == .authorizationRequired)
        #expect(h.engine.balance() == .zero)
        h.send(.onboarding(.permissionGranted), at: h.at(0, 7, 1))
        #expect(h.send(.onboarding(.demoBlockCompleted), at: h.at(0, 7, 2)).decision == .starterCreditAwarded)
        var g = Harness(parameters: params(["earn.starter_credit_requires_authorization": .bool(false)]))
        #expect(g.send(.onboarding(.demoBlockCompleted), at: g.at(0, 7)).decision == .starterCreditAwarded)
    }
}

/// Seed 000 §8.3 retention: "D1 retention (all users) (return day after install)", "D7 retention (actives) (still
/// using after 1 week)", "D30 retention (Premium/Pro)" — for a blocker the shield is the main surface (audit D2).
@Suite("Retention readings (§8.3)")
struct RetentionDefinitionTests {
    @Test("The charter ids read 'product in use'; the app-opened readings follow them, without targets")
    func ids() {
        let ids = ScrollOffKPIs.definitions.map(\.id)
        #expect(Array(ids.prefix(6)) == ["d1_retention", "d7_retention_actives", "d30_retention_paid",
                                         "d1_retention_app_opened", "d7_retention_actives_app_opened", "d30_retention_paid_app_opened"])
        for d in ScrollOffKPIs.definitions.prefix(3) { #expect(d.formula.contains("shield_shown") && d.formula.contains("app_opened")) }
        for d in ScrollOffKPIs.definitions[3..<6] {
            #expect(d.targetMin == nil && d.targetMax == nil)
            #expect(!d.formula.contains("shield_shown"))
        }
    }

    @Test("Events that mark the product in use on a day (§8.3 'still using')")
    func productInUse() {
        let app = AppID(1)
        #expect(ScrollOffEvent.shieldShown(app: app, creditsAvailable: .zero).marksProductInUse)
        #expect(ScrollOffEvent.spendTick(spent: .seconds(Int64(1)), remaining: .zero, app: app).marksProductInUse)
        #expect(!ScrollOffEvent.spendTick(spent: .zero, remaining: .zero, app: app).marksProductInUse)
        #expect(ScrollOffEvent.earnAward(amount: .seconds(Int64(300)), wallet: .global, dailyCapHit: false).marksProductInUse)
        #expect(!ScrollOffEvent.earnAward(amount: .seconds(Int64(120)), wallet: .starterCredit, dailyCapHit: false).marksProductInUse)
        #expect(ScrollOffEvent.appOpened.marksProductInUse)
        #expect(!ScrollOffEvent.paywallShown(context: .cooldown, skuShown: .premiumMonthly).marksProductInUse)
    }
}
