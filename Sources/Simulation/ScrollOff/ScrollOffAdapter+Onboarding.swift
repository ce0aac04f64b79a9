import Behavior
import RulesCore
import ScrollOffRules

extension ScrollOffAdapter {
    // MARK: - Onboarding (seed 000 §6.1)

    /// Open → permission → if-then plans (1–3 when the configuration step is completed) → block the person's apps
    /// (a Free limit is a paywall moment) → demo block → finish. Without Screen Time permission the app can do
    /// nothing for the person, who stays dormant (assumption).
    public static func onboard(_ life: inout PersonLife<Self>, at t0: Instant) {
        var t = t0
        life.send(.onboarding(.appOpened), at: t)
        life.engagement.record(.appOpened)
        t = t + .seconds(30)
        guard EngagementModel.completesStep(.permission, techComfort: life.person.techComfort, rng: life.onboarding) else {
            life.send(.onboarding(.permissionDenied), at: t)
            life.dormant = true
            return
        }
        life.send(.onboarding(.permissionGranted), at: t)
        t = t + .seconds(45)
        if EngagementModel.completesStep(.configuration, techComfort: life.person.techComfort, rng: life.onboarding) {
            let plans = 1 + life.onboarding.uniformInt(below: 3)
            for i in 0..<plans {
                life.send(.createIfThenPlan(trigger: "trigger-\(i)", response: "response-\(i)"), at: t)
                t = t + .seconds(40)
            }
        }
        for i in life.person.apps.indices {
            let app = AppID(UInt16(i + 1))
            let d = life.send(.blockApp(app), at: t)
            if d == .appBlocked { life.state.blockedApps.append(app) }
            if d == .blockedAppLimitReached {
                paywall(.tierLimit, &life, at: t)
                if life.engine.tier != .free, life.send(.blockApp(app), at: t) == .appBlocked { life.state.blockedApps.append(app) }
            }
            t = t + .seconds(10)
        }
        if EngagementModel.completesStep(.informational, techComfort: life.person.techComfort, rng: life.onboarding) {
            life.send(.onboarding(.demoBlockCompleted), at: t)
        }
        t = t + .seconds(20)
        life.send(.onboarding(.finished), at: t)
    }

    // MARK: - Opening Scroll Off itself

    /// Assumption: the engagement model's cue probabilities are per cue episode; a pickup is a fraction of one.
    /// Tuned so that the default population's day-1 activity lands near published install-cohort figures
    /// (Adjust 2023: D1 ≈ 25 % for ordinary apps) rather than set directly.
    static var appOpenPerPickupScale: Double { 0.05 }

    /// Opening Scroll Off itself on a cue (engagement habit); sometimes looking at an insight (funnel A6).
    public static func cue(_ cue: AppOpenCue, _ life: inout PersonLife<Self>, at now: Instant) {
        guard !life.dormant else { return }
        // The probability is at most the scale: most draws are decided before the probability is computed.
        let u = life.sessions.uniform()
        guard u < appOpenPerPickupScale, u < life.engagement.appOpenProbability(cue: cue) * appOpenPerPickupScale else { return }
        life.send(.onboarding(.appOpened), at: now)
        life.engagement.record(.appOpened)
        life.meter.charge(EnergyCharge(.foregroundSecond, 20), phoneInUse: true)
        if life.sessions.uniform() < 0.15 {
            life.send(.viewInsight(InsightType(rawValue: UInt8(life.sessions.uniformInt(below: InsightType.allCases.count)))!), at: now)
        }
    }
}
