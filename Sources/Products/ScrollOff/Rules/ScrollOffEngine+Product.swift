import RulesCore

/// Scroll Off as a product on Habitat's seam: the engine's conformance to `RuleEngine` and its descriptor.
extension ScrollOffEngine: RuleEngine {
    public typealias Funnel = ScrollOffFunnel.Tracker

    /// The seed document: Scroll Off Product Charter v2.0.
    public static let seedFile = "000_5f03618b73c6ae9a.txt"

    public static var descriptor: ProductDescriptor { scrollOffDescriptor }
}

extension Product {
    /// Scroll Off (seed 000), as scenarios name it.
    public static let scrollOff: Product = "scroll-off"
}

/// Scroll Off as plain data (seed 000).
let scrollOffDescriptor: ProductDescriptor = {
    let file = ScrollOffEngine.seedFile
    func seed(_ section: String) -> ParameterSource { .seed(file: file, section: section) }
    return ProductDescriptor(
        id: Product.scrollOff.rawValue, name: "Scroll Off", seedFile: file,
        summary: "earn/spend minutes, tier caps and rollover, cooldowns, hard curfew, bypass ladder, emergency tokens, subscriptions",
        parameters: ScrollOffParameters.catalogue,
        funnel: ScrollOffFunnel.stages,
        kpis: ScrollOffKPIs.definitions,
        // Seed 000 §7.6 Battery targets: idle ≤ 0.5 %/h, active ≤ 1.5 %/h, ≤ 12 % per 24 h.
        batteryBudgets: BatteryBudgets(idlePctPerHour: 0.5, activePctPerHour: 1.5, pctPer24h: 12, source: seed("§7.6 Battery targets")),
        // Seed 000 §5.1 tiers (Free, Premium, Pro) and §5.2 / §8.3: tokens "< 20 % of revenue", the target of the
        // KPI token_revenue_share.
        revenue: RevenueModel(planSegments: ["free", "premium", "pro"], subscriptionSource: "subscriptions", consumableSource: "tokens",
                              consumableShareKPI: "token_revenue_share",
                              subscriptionPeriodMonths: Dictionary(uniqueKeysWithValues: Plan.allCases.map { ($0.sku, $0.periodMonths) })),
        reports: ["token-revenue-share.csv"],
        // Which inputs the simulated people send (issue 13, audit D11: the optional mechanics are driven by person
        // traits — Sources/Simulation/README.md).
        inputs: [
            EngineInputInfo("onboarding", driven: true, parameters: ["earn.starter_credit_seconds", "earn.starter_credit_requires_authorization", "paywall.mode"]),
            EngineInputInfo("createIfThenPlan", driven: true),
            EngineInputInfo("viewIfThenPlan", driven: false),
            EngineInputInfo("blockApp", driven: true, parameters: ["tiers."]),
            EngineInputInfo("unblockApp", driven: true, parameters: ["cooldown."]),
            EngineInputInfo("appForeground", driven: true, parameters: ["bypass.", "spend.", "earn."]),
            EngineInputInfo("appBackground", driven: true, parameters: ["spend."]),
            EngineInputInfo("shield", driven: true, parameters: ["bypass.", "tokens.", "spend."]),
            EngineInputInfo("mindfulness", driven: true, parameters: ["bypass.mindfulness_seconds."]),
            EngineInputInfo("earmark", driven: true),
            EngineInputInfo("setDailySpendCap", driven: true),
            EngineInputInfo("setCurfew", driven: true, parameters: ["curfew.", "tokens.work_during_curfew"]),
            EngineInputInfo("deleteCurfew", driven: true, parameters: ["curfew."]),
            EngineInputInfo("setPreference", driven: true),
            EngineInputInfo("upgradeTapped", driven: true),
            EngineInputInfo("buyPlan", driven: true, parameters: ["prices."]),
            EngineInputInfo("cancelSubscription", driven: true),
            EngineInputInfo("refundSubscription", driven: true),
            EngineInputInfo("restorePurchases", driven: false),
            EngineInputInfo("buyToken", driven: false, parameters: ["tokens.purchasable_outside_shield"]),
            EngineInputInfo("systemClockChanged", driven: true, parameters: ["anti_tamper."]),
            EngineInputInfo("reliabilityCheck", driven: false),
            EngineInputInfo("authorizationRevoked", driven: true),
            EngineInputInfo("viewInsight", driven: true),
            EngineInputInfo("viewWeeklyInsight", driven: false),
            EngineInputInfo("timer", driven: true, parameters: ["earn.", "milestones.", "insights."]),
        ],
        // Parameters no simulated life moves, and why (checked by ParameterSensitivityTests).
        notSimulable: [
            "paywall.chips.per_app_wallets":
                "the simulated people set up per-app wallets only once they are Pro (on Free they try a spend cap, whose chip is paywall.chips.daily_spend_cap), so the per-app-wallet chip is never raised",
            "paywall.chips.cooldown":
                "the cooldown chip shows when an unblock is refused in its cooldown; the simulated people unblock only when leaving, rarely inside a cooldown (audit 2026-11-25 E7), so the chip almost never decides anything",
            "tokens.purchasable_outside_shield":
                "the simulated people buy emergency tokens only at the shield, where §5.2 puts them (\"Show as last resort only\"); buying one from a store screen is not a behaviour they have",
            "earn.starter_credit_requires_authorization":
                "every simulated person who reaches the demo block has granted Screen Time permission (one who denies it stops onboarding there), so the requirement never decides anything",
            "curfew.max_schedules":
                "the simulated people set at most one bedtime schedule (Person.featureUse), so a limit of one or more schedules never binds",
            "curfew.edit_lock_lead_minutes":
                "the simulated people never edit a schedule; one deletes it only when leaving, at an urge or a local midnight, and a lock only defers that by hours, which moves no report",
            "cooldown.minutes.free":
                "the simulated people block their apps once, at onboarding, and unblock them only to leave, at a local midnight or an urge hours or days later; impulsive unblocking at a shield is not modelled, so a cooldown (at most a day) almost never binds",
            "cooldown.minutes.premium":
                "as cooldown.minutes.free, and a Premium subscriber leaving within an hour of blocking is rarer still",
            "cooldown.minutes.pro":
                "as cooldown.minutes.free, and a Pro subscriber leaving within half an hour of blocking is rarer still",
        ],
        // Seed 000 §4 "Stats & Insights" ("68h 42m total time saved", daily time saved) and §9 KPIs ("Median time
        // saved per day (actives): ≥ 45 minutes"): what the app tells its people; the true effect is the same people's
        // minutes in their target apps against no app (issue 28).
        claims: [ProductClaim(kpi: "median_time_saved_per_day", neutralKPI: "target_app_minutes_per_day", sense: .reduces, basis: .dayInUse,
                              statement: "time saved per day, as the app's Insights show it (seed 000 §4, §9)")])
}()
