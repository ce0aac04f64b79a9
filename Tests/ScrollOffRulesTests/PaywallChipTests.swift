import Testing
import RulesCore
@testable import ScrollOffRules

/// Seed 000 §6.1 "Paywall chips (contextual): Shown when user hits tier limits: 'Unlock unlimited apps → Premium' ·
/// 'Get 1-hour cooldown → Premium' · Never intrusive; always contextual to action attempted" (audit 2026-11 D1).
/// Every chip on: the tests of the chips beyond §6.1's two (assumptions, off by default).
let allChips = params(Dictionary(uniqueKeysWithValues: PaywallContext.chips.map { ("paywall.chips.\($0)", ParameterValue.bool(true)) }))

@Suite("Paywall chips at the tier limits (§6.1)")
struct PaywallChipTests {
    let app = AppID(1)

    func paywalls(_ h: Harness) -> [ScrollOffEvent] { h.log.map(\.1).filter { $0.name == "paywall_shown" } }

    @Test("Cooldown refused on Free: 'Get 1-hour cooldown → Premium'; on Premium Pro's 30 min is offered; none on Pro",
          arguments: [(Plan?.none, Plan?.some(.premiumMonthly)), (.premiumMonthly, .proMonthly), (.proMonthly, nil)])
    func cooldownChip(plan: Plan?, chip: Plan?) {
        var h = Harness()
        if let plan { h.subscribe(plan, at: h.at(0, 6)) }
        h.onboard()
        let o = h.send(.unblockApp(app), at: h.at(0, 7, 10))
        #expect(o.decision == .cooldownActive)
        #expect(o.events.first == .cooldownUnblockAttempted(timeRemaining: h.engine.blocked[0].lockedUntil - h.at(0, 7, 10)))
        #expect(Array(o.events.dropFirst()) == (chip.map { [.paywallShown(context: .cooldown, skuShown: $0)] } ?? []))
    }

    @Test("Free daily earn cap hit (chip on, an assumption): one chip per local day, at the award the cap cuts (§3.2, §6.1); none on Premium",
          arguments: [Plan?.none, .premiumMonthly])
    func earnCapChip(plan: Plan?) {
        var h = Harness(parameters: allChips, at: 0)
        if let plan { h.subscribe(plan, at: h.at(0, 0)) }
        h.onboard(at: 0)
        h.run(until: h.at(1, 23, 59))
        let chips = paywalls(h)
        if plan == nil {
            #expect(chips == [.paywallShown(context: .dailyEarnCap, skuShown: .premiumMonthly), .paywallShown(context: .dailyEarnCap, skuShown: .premiumMonthly)])
            // Shown with the award the cap cut.
            let cut = h.log.first { if case .earnAward(_, .global, true) = $0.1 { return true }; return false }!.0
            #expect(h.log.first { $0.1.name == "paywall_shown" }!.0 == cut)
        } else {
            #expect(chips.isEmpty)
        }
    }

    @Test("Free's free peek used up (chip on, an assumption): the next shield that day shows the chip once; again the next day (§3.4, §6.1)")
    func freePeekChip() {
        var h = Harness(parameters: allChips)
        h.onboard()
        h.send(.onboarding(.demoBlockCompleted), at: h.at(0, 7))
        h.meetShield(at: h.at(0, 7, 10))
        #expect(h.send(.shield(.peek), at: h.at(0, 7, 10)).decision == .freePeek)
        h.send(.appBackground(app), at: h.at(0, 7, 10, 30))
        let second = h.meetShield(at: h.at(0, 7, 20))
        #expect(second.events.contains(.paywallShown(context: .freePeekLimit, skuShown: .premiumMonthly)))
        h.send(.shield(.close), at: h.at(0, 7, 20))
        #expect(!h.meetShield(at: h.at(0, 7, 30)).events.contains { $0.name == "paywall_shown" })
        h.send(.shield(.close), at: h.at(0, 7, 30))
        // Day 1: a fresh free peek first, so no chip until it is used.
        #expect(!h.meetShield(at: h.at(1, 7, 10)).events.contains { $0.name == "paywall_shown" })
        h.send(.shield(.peek), at: h.at(1, 7, 10))
        h.send(.appBackground(app), at: h.at(1, 7, 10, 30))
        #expect(h.meetShield(at: h.at(1, 7, 20)).events.contains(.paywallShown(context: .freePeekLimit, skuShown: .premiumMonthly)))
    }

    @Test("Premium's peeks used up show no chip (the limit is Free's, §6.1 chips are tier limits)")
    func noPeekChipOnPremium() {
        var h = Harness()
        h.subscribe(.premiumMonthly, at: h.at(0, 6))
        h.onboard()
        h.send(.onboarding(.demoBlockCompleted), at: h.at(0, 7))
        for k in 0..<2 {
            h.meetShield(at: h.at(0, 7, 10 + 2 * k))
            h.send(.shield(.peek), at: h.at(0, 7, 10 + 2 * k))
            h.send(.appBackground(app), at: h.at(0, 7, 10 + 2 * k, 30))
        }
        h.meetShield(at: h.at(0, 7, 20))
        #expect(paywalls(h).isEmpty)
    }

    @Test("No paywall at the token cap: 'Token limit reached — fresh start next month' is not an upsell (§5.2, §6.2)")
    func noChipAtTokenCap() {
        var h = Harness(parameters: params(straightToTokens))
        h.onboard()
        for k in 0..<5 {
            h.meetShield(at: h.at(0, 8 + k))
            #expect(h.send(.shield(.emergencyToken), at: h.at(0, 8 + k)).decision == .tokenUsed)
        }
        h.meetShield(at: h.at(0, 14))
        let capped = h.send(.shield(.emergencyToken), at: h.at(0, 14))
        #expect(capped.decision == .tokenCapReached)
        #expect(capped.events == [.bypassTokenCapHit])
        #expect(!paywalls(h).contains { if case .paywallShown(context: let c, _) = $0 { return c != .freePeekLimit }; return false })
    }
}

/// Seed 000 §5.1 Free "Basic stats", Premium "7-day trends + pattern insights", Pro "30-day trend analytics"; §6.1
/// "30-day line graph (Pro) or 7-day (Premium/Free)" (audit 2026-11 D10).
@Suite("Insights by tier (§5.1, §6.1)")
struct InsightGateTests {
    static let patterns: [InsightType] = [.peakHours, .strongestDay, .appBreakdown, .weekOverWeek]

    @Test("Free: the 7-day trend only; pattern insights show the Premium chip, the 30-day trend the Pro chip (chips on, an assumption)")
    func free() {
        var h = Harness(parameters: allChips)
        h.onboard()
        let trend = h.send(.viewInsight(.trend7Day), at: h.at(0, 8))
        #expect(trend.decision == .ok && trend.events == [.patternInsightShown(.trend7Day)])
        for t in Self.patterns {
            let o = h.send(.viewInsight(t), at: h.at(0, 8))
            #expect(o.decision == .insightLocked)
            #expect(o.events == [.paywallShown(context: .patternInsights, skuShown: .premiumMonthly)])
        }
        let thirty = h.send(.viewInsight(.trend30Day), at: h.at(0, 8))
        #expect(thirty.decision == .insightLocked)
        #expect(thirty.events == [.paywallShown(context: .trend30Day, skuShown: .proMonthly)])
    }

    @Test("Premium: 7-day trend and pattern insights; the 30-day trend is Pro's. Pro: everything",
          arguments: [Plan.premiumMonthly, .proAnnual])
    func paid(plan: Plan) {
        var h = Harness(parameters: allChips)
        h.subscribe(plan, at: h.at(0, 6))
        h.onboard()
        for t in [InsightType.trend7Day] + Self.patterns {
            #expect(h.send(.viewInsight(t), at: h.at(0, 8)).events == [.patternInsightShown(t)])
        }
        let thirty = h.send(.viewInsight(.trend30Day), at: h.at(0, 8))
        if plan.tier == .pro {
            #expect(thirty.events == [.patternInsightShown(.trend30Day)])
        } else {
            #expect(thirty.decision == .insightLocked)
            #expect(thirty.events == [.paywallShown(context: .trend30Day, skuShown: .proMonthly)])
        }
    }

    @Test("A6 counts the 7-day trend or peak hours (§8.2 'user saw their 7-day trend/peak hours')")
    func a6() {
        for (t, counts) in [(InsightType.trend7Day, true), (.peakHours, true), (.appBreakdown, false), (.strongestDay, false),
                            (.weekOverWeek, false), (.trend30Day, false)] {
            var tr = ScrollOffFunnel.Tracker()
            tr.observe(.patternInsightShown(t), at: .epoch)
            #expect((tr.firstAt[8] != nil) == counts, "\(t)")
        }
    }

    @Test("The pattern-insight KPI counts taps on the trend card only (§8.3 'tap on trend card')")
    func kpi() {
        let k = ScrollOffKPIs.definitions.first { $0.id == "pattern_insight_engagement" }!
        #expect(k.formula.contains("insight_type=trend_7_day"))
    }
}

/// Audit 2026-11-25 E2. Seed 000 §6.1 "Paywall chips (contextual): Shown when user hits tier limits: 'Unlock unlimited
/// apps → Premium' · 'Get 1-hour cooldown → Premium'": by default exactly these two; every other limit refuses without
/// an upsell unless its `paywall.chips.<context>` assumption is switched on.
@Suite("Only the charter's chips by default (audit 2026-11-25 E2)")
struct CharterChipTests {
    let app = AppID(1)

    @Test("the defaults: the app-limit and cooldown chips on, every other chip off (each an assumption parameter)")
    func defaults() {
        #expect(ScrollOffParameters.defaults.chipsShown == [.blockedAppLimit, .cooldown])
        for c in PaywallContext.chips {
            let p = ScrollOffParameters.catalogue.first { $0.keyPath == "paywall.chips.\(c)" }
            #expect(p != nil, "\(c)")
            if case .assumption = p?.source { #expect(!c.isChartersChip) } else { #expect(c.isChartersChip) }
        }
    }

    @Test("'Unlock unlimited apps → Premium': a Free user's 4th app shows the chip by default")
    func appLimitChip() {
        var h = Harness()
        h.onboard()
        for a in 2...3 { h.send(.blockApp(AppID(UInt16(a))), at: h.at(0, 7)) }
        let fourth = h.send(.blockApp(AppID(4)), at: h.at(0, 7))
        #expect(fourth.decision == .blockedAppLimitReached)
        #expect(fourth.events.contains(.paywallShown(context: .blockedAppLimit, skuShown: .premiumMonthly)))
    }

    @Test("by default no chip where the charter shows none: the free peek used up, the earn cap, locked insights")
    func noOtherChips() {
        var h = Harness(at: 0)
        h.onboard(at: 0)
        h.send(.onboarding(.demoBlockCompleted), at: h.at(0, 7))
        h.meetShield(at: h.at(0, 7, 10))
        #expect(h.send(.shield(.peek), at: h.at(0, 7, 10)).decision == .freePeek)
        h.send(.appBackground(app), at: h.at(0, 7, 10, 30))
        let second = h.meetShield(at: h.at(0, 7, 20))
        #expect(!second.events.contains { $0.name == "paywall_shown" })
        h.send(.shield(.close), at: h.at(0, 7, 20))
        #expect(h.send(.viewInsight(.peakHours), at: h.at(0, 8)).decision == .insightLocked)
        h.run(until: h.at(1, 23, 59))
        #expect(!h.log.contains { $0.1.name == "paywall_shown" })
        // The same life with the earn-cap chip switched on shows it.
        var on = Harness(parameters: params(["paywall.chips.daily_earn_cap": .bool(true)]), at: 0)
        on.onboard(at: 0)
        on.run(until: on.at(1, 23, 59))
        #expect(on.log.contains { $0.1 == .paywallShown(context: .dailyEarnCap, skuShown: .premiumMonthly) })
    }
}
