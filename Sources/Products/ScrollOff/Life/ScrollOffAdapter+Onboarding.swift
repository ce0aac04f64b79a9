import Simulation
import Behavior
import RulesCore
import ScrollOffRules
import Stochastics

extension ScrollOffAdapter {
    // MARK: - Onboarding (seed 000 §6.1)

    /// Open → permission → if-then plans → block the person's apps (a Free limit shows the engine's chip) → the
    /// optional set-ups the person is inclined to → demo block → finish.
    ///
    /// - Without Screen Time permission the app can do nothing for the person, who stays dormant (assumption).
    /// - §6.1 "User must create at least 1 plan (encourage 3-5)", §9 "At least 1 plan required to proceed": a
    ///   person who does not complete the planning step abandons onboarding and stays dormant (audit D4); one who
    ///   does writes their 1–5 plans (`Person.planning`).
    public static func onboard(_ life: inout PersonLife<Self>, at t0: Instant) {
        var t = t0
        life.send(.onboarding(.appOpened), at: t)
        life.engagement.record(.appOpened)
        t = t + .seconds(30)
        guard life.grantsPermission(at: t, denied: { $0.send(.onboarding(.permissionDenied), at: t) }) else { return }
        life.send(.onboarding(.permissionGranted), at: t)
        t = t + .seconds(45)
        guard life.onboardingStep(1, completes: life.person.planning.completesStep(techComfort: life.person.techComfort, rng: life.onboarding),
                                  at: t) else {
            life.trace(kind: "onboarding", detail: "abandoned at the if-then plan step", at: t)
            life.dormant = true
            return
        }
        for i in 0..<life.person.planning.ifThenPlans {
            life.send(.createIfThenPlan(trigger: "trigger-\(i)", response: "response-\(i)"), at: t)
            life.state.plansWritten += 1
            t = t + .seconds(40)
        }
        for i in life.person.apps.indices {
            let app = AppID(UInt16(i + 1))
            let d = life.send(.blockApp(app), at: t)
            if d == .appBlocked { life.state.blockedApps.append(app) }
            if d == .blockedAppLimitReached {
                settlePaywall(&life, at: t)
                if life.engine.tier != .free, life.send(.blockApp(app), at: t) == .appBlocked { life.state.blockedApps.append(app) }
            }
            t = t + .seconds(10)
        }
        life.send(.usageBaseline(perDay: usageBaseline(&life)), at: t)
        t = setUpOptionalFeatures(&life, at: t)
        if life.onboardingStep(2, completes: life.world.onboarding.completesStep(.informational, techComfort: life.person.techComfort,
                                                                                 rng: life.onboarding), at: t) {
            life.send(.onboarding(.demoBlockCompleted), at: t)
        }
        t = t + .seconds(20)
        life.send(.onboarding(.finished), at: t)
        settlePaywall(&life, at: t)
    }

    /// What Screen Time reports to the app of the week before install (DeviceActivity, seed 000 §4; the baseline of
    /// `insights.time_saved_method` usage_baseline, audit 2026-11-25 E5): the person's own phone use over those 7 days —
    /// the same process, drawn from a stream of its own so that no other draw moves — summed over the apps they block,
    /// per day.
    static func usageBaseline(_ life: inout PersonLife<Self>) -> TimeSpan {
        var phone = life.phone
        let rng = RandomStream(key: life.world.key(life.id, "usage-baseline"))
        var t = life.installedAt - .days(7), ms: Int64 = 0
        while true {
            let p = phone.nextPickup(after: t, zone: life.zone, rng: rng)
            guard p.at < life.installedAt else { break }
            if case .urge(let i) = p.source, life.state.blockedApps.contains(AppID(UInt16(i + 1))) { ms += p.sessionLength.milliseconds }
            t = p.sessionEnd
        }
        return TimeSpan(milliseconds: ms / 7)
    }

    /// The optional mechanics a person is inclined to (audit D11; `Person.featureUse`, each a probability drawn
    /// from the person's own `features` stream): a bedtime curfew over their blocked apps, with its reminder
    /// (§3.3, §6.5 — the reminder is Premium/Pro, so on Free it shows the engine's chip), and Pro's per-app
    /// budgets (§3.2 — on Free or Premium the engine shows the Pro chip). Returns the time after the set-up.
    static func setUpOptionalFeatures(_ life: inout PersonLife<Self>, at start: Instant) -> Instant {
        var t = start
        let traits = life.person.featureUse
        if !life.state.blockedApps.isEmpty, life.features.uniform() < traits.bedtimeSchedulePropensity {
            func time(_ hours: Double) -> LocalTimeOfDay {
                let minutes = Int((hours * 60).rounded()) % (24 * 60)
                return LocalTimeOfDay(secondsSinceMidnight: Int32(minutes * 60))
            }
            let window = DailyWindow(start: time(traits.bedtimeScheduleStartHour), end: time(traits.bedtimeScheduleEndHour))
            life.send(.setCurfew(id: nil, CurfewSpec(window: window, apps: life.state.blockedApps)), at: t)
            // Assumption: a person who sets a bedtime schedule wants its reminder (the point of a schedule).
            life.send(.setPreference(.curfewReminders(true)), at: t)
            t = t + .seconds(60)
        }
        if life.features.uniform() < traits.perAppBudgetPropensity {
            life.state.wantsBudgets = true
            if life.engine.tier == .pro { setUpBudgets(&life, at: t) } else { life.send(.setDailySpendCap(life.state.blockedApps.first ?? AppID(1), .minutes(20)), at: t) }
            t = t + .seconds(30)
        }
        return t
    }

    /// Pro's per-app budgets (§3.2 "Per-app wallets", "anti-binge guard"): a daily spend cap on the person's first
    /// blocked app and part of the wallet earmarked for it. Assumption: 20 minutes a day, 10 minutes earmarked.
    static func setUpBudgets(_ life: inout PersonLife<Self>, at now: Instant) {
        life.state.wantsBudgets = false
        guard let app = life.state.blockedApps.first else { return }
        life.send(.setDailySpendCap(app, .minutes(20)), at: now)
        let credit = min(life.engine.balance(for: nil), .minutes(10))
        if credit > .zero { life.send(.earmark(app, credit), at: now) }
    }

    // MARK: - Opening Scroll Off itself

    /// Opening Scroll Off itself on a cue (engagement habit); sometimes looking at an insight (funnel A6) — a
    /// locked one shows the engine's chip. A chip the engine raised today while the person was not looking (the
    /// Free earn cap, met by a timer) is seen now, on the dashboard, and weighed. Under the hard paywall the locked
    /// app shows the paywall at the opening, weighed there (`settlePaywall`).
    public static func cue(_ cue: AppOpenCue, _ life: inout PersonLife<Self>, at now: Instant) {
        guard life.opensAppOnCue(cue) else { return }
        life.send(.onboarding(.appOpened), at: now)
        life.engagement.record(.appOpened)
        life.meter.charge(EnergyCharge(.foregroundSecond, 20), phoneInUse: true)
        if let chip = life.state.dashboardChip {
            life.state.dashboardChip = nil
            if chip.day == life.dayIndex {
                life.state.pendingPaywall = (chip.context, chip.sku, now)
                life.offerDecision(.paywallPurchase, moment: now.millisecondsSinceEpoch)
            }
        }
        // Under the hard paywall (`paywall.mode` hard) the opening lands on the paywall, not the Dashboard: no insight.
        let walled = life.state.pendingPaywall.map { $0.context == .hardPaywall && $0.at == now } ?? false
        if !walled, life.sessions.uniform() < life.world.insightViewProbability {
            life.send(.viewInsight(InsightType(rawValue: UInt8(life.sessions.uniformInt(below: InsightType.allCases.count)))!), at: now)
        }
        settlePaywall(&life, at: now)
        maybeViewPlans(&life, at: now)
    }
}
