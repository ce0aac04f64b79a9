import Testing
import RulesCore
@testable import ScrollOffRules

@Suite("Funnel A0–A7 and KPIs (§8.2, §8.3)")
struct FunnelTests {
    @Test("Stages, order and targets are the charter's (§8.2)")
    func stages() {
        #expect(ScrollOffFunnel.stages.map(\.id) == ["A0", "A1", "A1.5", "A2", "A3", "A3.5", "A4", "A5", "A6", "A7"])
        #expect(ScrollOffFunnel.stages.map(\.order) == Array(1...10))
        #expect(ScrollOffFunnel.stages[6].targetMin == 0.40 && ScrollOffFunnel.stages[6].targetMax == 0.50)
        #expect(ScrollOffFunnel.stages[7].windowText == "24h from A4")
        #expect(ScrollOffFunnel.stages[8].windowText == "7d from A5")
        #expect(ScrollOffKPIs.definitions.first { $0.id == "token_revenue_share" }?.targetMax == 0.20)
        #expect(Set(ScrollOffKPIs.definitions.map(\.id)).count == ScrollOffKPIs.definitions.count)
    }

    @Test("The funnel is computed from the engine's own event stream")
    func fromEngine() {
        var h = Harness()
        h.onboard()
        h.send(.onboarding(.demoBlockCompleted), at: h.at(0, 7))
        h.send(.appForeground(AppID(1)), at: h.at(0, 7, 10))
        h.send(.shield(.close), at: h.at(0, 7, 10))
        h.send(.appForeground(AppID(1)), at: h.at(0, 7, 20))
        h.send(.shield(.useCredits), at: h.at(0, 7, 20))
        h.send(.appBackground(AppID(1)), at: h.at(0, 7, 20, 29))
        var partial = ScrollOffFunnel.Tracker.reached(h.log)
        #expect(partial == [true, true, true, true, true, true, false, false, false, false])   // 29 s < 30 s
        h.send(.appForeground(AppID(1)), at: h.at(0, 7, 21))
        h.send(.appBackground(AppID(1)), at: h.at(0, 7, 21, 1))
        h.run(until: h.at(0, 8, 30))
        partial = ScrollOffFunnel.Tracker.reached(h.log)
        #expect(partial == [true, true, true, true, true, true, true, true, false, false])
        h.send(.viewInsight(.trend7Day), at: h.at(8, 12))          // more than 7 days after A5: outside the window
        #expect(ScrollOffFunnel.Tracker.reached(h.log)[8] == false)
    }

    @Test("The starter credit is not A5's first earn")
    func starterIsNotFirstEarn() {
        var tr = ScrollOffFunnel.Tracker()
        tr.observe(.earnAward(amount: .seconds(Int64(120)), wallet: .starterCredit, dailyCapHit: false), at: .epoch)
        #expect(tr.firstAt[7] == nil)
    }

    @Test("Every §8.1 event name is produced by the enum")
    func eventNames() {
        let app = AppID(1), m = MonthID(year: 2026, month: 1)
        let all: [ScrollOffEvent] = [
            .appBlocked(app: app, tier: .free), .shieldShown(app: app, creditsAvailable: .zero), .shieldDismissedNoSpend,
            .earnAward(amount: .zero, wallet: .global, dailyCapHit: false), .spendTick(spent: .zero, remaining: .zero, app: app), .walletEmpty(app: app),
            .bypassFreePeek(app: app, peeksRemaining: 0), .bypassCreditPeek(app: app, cost: .zero), .bypassTokenPurchased(month: m, tokensUsedThisMonth: 1),
            .bypassTokenCapHit, .mindfulnessPrompted(.breath), .mindfulnessCompleted(.breath, bypassAvoided: true), .mindfulnessSkipped(.breath),
            .cooldownStart(app: app, duration: .zero), .cooldownUnblockAttempted(timeRemaining: .zero), .curfewStart(schedule: 1, appCount: 1),
            .curfewEditBlocked(timeUntilStart: .zero), .ifThenPlanCreated(triggerHash: 1, responseHash: 2), .ifThenPlanViewed(planID: 0),
            .selfEfficacyMessageShown(context: .shield, messageType: 0), .patternInsightShown(.peakHours), .subscriptionPurchaseInitiated(.proAnnual),
            .subscriptionPurchaseCompleted(.proAnnual, price: .zero), .subscriptionRestored(.proAnnual), .paywallShown(context: .blockedAppLimit, skuShown: .premiumMonthly),
            .reliabilityCheckPass(.shieldLatency), .reliabilityCheckFail(.shieldLatency, error: .checkFailed), .authorizationRevoked,
            .milestoneUnlocked(.streak7, value: 7), .personalRecord(.timeSavedInDay, value: 1), .weeklyInsightShown(peakHour: 21, strongestDay: .wednesday, timeSaved: .zero),
        ]
        #expect(all.map(\.name) == ScrollOffEvent.charterEventNames)
        #expect(all.allSatisfy { $0.isCharterEvent })
    }
}
