import Testing
import RulesCore
@testable import ScrollOffRules

/// Seed 000 §6.1 step 4 "User must create at least 1 plan (encourage 3-5)"; §4 "Require 1 minimum, encourage 3-5
/// plans"; §9 "At least 1 plan required to proceed"; §6.1 acceptance "At least 1 blocked app selected" (audit D4, D14).
@Suite("Onboarding gates: a plan before blocking, a blocked app before the Dashboard (§4, §6.1, §9)")
struct OnboardingGateTests {
    let app = AppID(1)

    @Test("Blocking waits for the first if-then plan")
    func blockNeedsAPlan() {
        var h = Harness()
        h.send(.onboarding(.appOpened), at: h.at(0, 7))
        h.send(.onboarding(.permissionGranted), at: h.at(0, 7))
        let refused = h.send(.blockApp(app), at: h.at(0, 7, 1))
        #expect(refused.decision == .ifThenPlanRequired)
        #expect(refused.decision.isRefusal)
        #expect(refused.events.isEmpty)
        #expect(h.engine.blocked.isEmpty)
        h.send(.createIfThenPlan(trigger: "When I'm bored", response: "I will stretch"), at: h.at(0, 7, 2))
        #expect(h.send(.blockApp(app), at: h.at(0, 7, 3)).decision == .appBlocked)
    }

    @Test("Onboarding cannot finish without a plan, then without a blocked app")
    func finishNeedsPlanAndApp() {
        var h = Harness()
        h.send(.onboarding(.appOpened), at: h.at(0, 7))
        h.send(.onboarding(.permissionGranted), at: h.at(0, 7))
        #expect(h.send(.onboarding(.finished), at: h.at(0, 7, 1)).decision == .ifThenPlanRequired)
        h.send(.createIfThenPlan(trigger: "When I can't sleep", response: "I will read"), at: h.at(0, 7, 2))
        let noApp = h.send(.onboarding(.finished), at: h.at(0, 7, 3))
        #expect(noApp.decision == .blockedAppRequired)
        #expect(noApp.decision.isRefusal)
        #expect(!h.engine.onboardingFinished)
        h.send(.blockApp(app), at: h.at(0, 7, 4))
        #expect(h.send(.onboarding(.finished), at: h.at(0, 7, 5)).decision == .ok)
        #expect(h.engine.onboardingFinished)
        #expect(h.engine.plansCreatedAtOnboarding == 1)
    }
}
