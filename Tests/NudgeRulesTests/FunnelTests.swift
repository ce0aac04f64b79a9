import Testing
import HabitatTestSupport
import RulesCore
@testable import NudgeRules

@Suite("Nudge funnel and descriptor")
struct FunnelTests {
    /// A first week that reaches every stage N0–N7 (inventory §4), fed through the engine's own events.
    /// Seed 001 §11 Supporting Metrics: "Day-7 retention 35%" and "Free → Pro conversion 4%" are shares of installs,
    /// so N6 and N7 stand apart from the chain N0–N5 (issue 38, audit N4): a person who never grants notifications
    /// stops before N4 yet, opening the app on day 7 and buying Pro, counts in N6 and N7.
    @Test("A scripted first month reaches N0–N7; without notifications the chain stops before N4, but day 7 and Pro still count")
    func funnel() {
        func life(notifications: Bool) -> [Bool] {
            var h = Harness(at: 8)
            h.send(.appOpened(via: .icon), at: h.at(0, 8))                                   // N0
            h.send(.onboarding(panelsViewed: 2, skipped: true), at: h.at(0, 8))              // N1
            h.send(.permission(.microphone, granted: true), at: h.at(0, 8))
            h.send(.brainDump(thoughts: thoughts(3), seconds: 20, online: true, splitFails: false), at: h.at(0, 9))   // N2
            h.send(.done(1), at: h.at(0, 9))                                                  // N3
            h.send(.snooze(2, .laterToday), at: h.at(0, 10))
            h.send(.permission(.notifications, granted: notifications), at: h.at(0, 10))     // N4
            h.run(until: h.at(0, 13))
            h.send(.notificationReply(2, .resurfacing, .open), at: h.at(0, 13, 5))           // N5
            h.send(.appOpened(via: .icon), at: h.at(7, 12))                                   // N6
            h.send(.paywallResponse(.annual), at: h.at(20, 12))                               // N7
            return NudgeFunnel.Tracker.reached(h.log.map { ($0.0, $0.1) })
        }
        #expect(life(notifications: true) == Array(repeating: true, count: 8))
        #expect(life(notifications: false) == [true, true, true, true, false, false, true, true])
    }

    @Test("Descriptor: id, funnel targets, KPI ids (app_retention_*: Habitat has its own retention_d7), revenue, timers")
    func descriptor() {
        let d = NudgeEngine.descriptor
        #expect(d.id == Product.nudge.rawValue && d.name == "Nudge" && d.seedFile == "001_2c48cacf5aaf28c7.txt")
        #expect(d.funnel.map(\.id) == ["N0", "N1", "N2", "N3", "N4", "N5", "N6", "N7"])
        #expect(d.funnel[6].targetMin == 0.35 && d.funnel[7].targetMin == 0.04)
        // §11's D7 and Free → Pro are shares of installs (D7 over those observed past day 7, as `app_retention_d7`), not
        // step conversions, and are not chained; N0–N5 are.
        #expect(d.funnel[6].basis == .installs(observedPastDay: 7) && d.funnel[7].basis == .installs(observedPastDay: nil))
        #expect(!d.funnel[6].chained && !d.funnel[7].chained)
        #expect(d.funnel.prefix(6).allSatisfy { $0.chained && $0.basis == .previousStage })
        let ids = d.kpis.map(\.id)
        for k in ["items_done_per_dau", "brain_dumps_per_dau", "shares_per_wau", "drafts_sent_per_pro_week", "nudges_acted_share",
                  "free_to_pro_conversion", "dau_mau", "app_retention_d7", "app_retention_d30", "north_star_dau_completing",
                  "live_activity_opt_in", "cost_per_dau_day", "gross_margin"] {
            #expect(ids.contains(k), "\(k)")
        }
        #expect(!ids.contains("retention_d7"))
        #expect(d.revenue.planSegments == ["free", "pro"] && d.revenue.trialDays == nil)
        #expect(d.revenue.subscriptionPeriodMonths == ["nudge.pro.monthly": 1, "nudge.pro.annual": 12])
        #expect(d.reports == ["ai-cost.csv", "tasks.csv"])
        #expect(d.batteryBudgets.pctPer24h == 3 && d.batteryBudgets.source?.isAssumption == true)
        // Its one claim: items completed per user per day, set beside things done a day against no app (issue 29).
        #expect(d.claims.map(\.kpi) == ["items_done_per_dau"] && d.claims.map(\.neutralKPI) == ["tasks_done_per_day"])
        #expect(d.claims.first?.sense == .increases)
        #expect(!d.inputs.first { $0.name == "setLiveActivity" }!.drivenBySimulatedPeople)
        // Issue 38: people turn a smart nudge type off and open Settings → Upgrade to Pro.
        #expect(d.inputs.first { $0.name == "setNudgeType" }!.drivenBySimulatedPeople)
        #expect(d.inputs.first { $0.name == "upgradeTapped" }!.drivenBySimulatedPeople)
    }
}
