import RulesCore

/// Scroll Off as a product on Habitat's seam: the engine's conformance to `RuleEngine` and its descriptor.
extension ScrollOffEngine: RuleEngine {
    public typealias Parameters = ScrollOffParameters
    public typealias Input = ScrollOffInput
    public typealias Decision = ScrollOffDecision
    public typealias Event = ScrollOffEvent
    public typealias TimerKind = ScrollOffTimer.Kind
    public typealias Outcome = ScrollOffOutcome
    public typealias Funnel = ScrollOffFunnel.Tracker

    /// The seed document: Scroll Off Product Charter v2.0.
    public static let seedFile = "000_5f03618b73c6ae9a.txt"

    public static func timerInput(_ timer: ScrollOffTimer) -> ScrollOffInput { .timer(timer) }

    public static var descriptor: ProductDescriptor { scrollOffDescriptor }
}

/// Scroll Off as plain data (seed 000).
let scrollOffDescriptor: ProductDescriptor = {
    let file = ScrollOffEngine.seedFile
    func seed(_ section: String) -> ParameterSource { .seed(file: file, section: section) }
    return ProductDescriptor(
        id: "scroll-off", name: "Scroll Off", seedFile: file,
        summary: "earn/spend minutes, tier caps and rollover, cooldowns, hard curfew, bypass ladder, emergency tokens, subscriptions",
        parameters: ScrollOffParameters.catalogue,
        funnel: ScrollOffFunnel.stages,
        kpis: ScrollOffKPIs.definitions,
        // Seed 000 §7.6 Battery targets: idle ≤ 0.5 %/h, active ≤ 1.5 %/h, ≤ 12 % per 24 h.
        batteryBudgets: BatteryBudgets(idlePctPerHour: 0.5, activePctPerHour: 1.5, pctPer24h: 12, source: seed("§7.6 Battery targets")),
        // Seed 000 §5.1 tiers (Free, Premium, Pro) and §5.2: tokens "< 20 % of revenue".
        revenue: RevenueModel(planSegments: ["free", "premium", "pro"], subscriptionSource: "subscriptions", consumableSource: "tokens",
                              consumableCeiling: RevenueCeiling(maxShare: 0.20, source: seed("§5.2"))),
        reports: ["token-revenue-share.csv"],
        inputs: [
            EngineInputInfo("onboarding", driven: true, parameters: ["earn.starter_credit_seconds"]),
            EngineInputInfo("createIfThenPlan", driven: true),
            EngineInputInfo("viewIfThenPlan", driven: false),
            EngineInputInfo("blockApp", driven: true, parameters: ["tiers."]),
            EngineInputInfo("unblockApp", driven: false, parameters: ["cooldown."]),
            EngineInputInfo("appForeground", driven: true, parameters: ["bypass.", "spend.", "earn."]),
            EngineInputInfo("appBackground", driven: true, parameters: ["spend."]),
            EngineInputInfo("shield", driven: true, parameters: ["bypass.", "tokens.", "spend."]),
            EngineInputInfo("mindfulness", driven: true, parameters: ["bypass.mindfulness_seconds."]),
            EngineInputInfo("earmark", driven: false),
            EngineInputInfo("setDailySpendCap", driven: false),
            EngineInputInfo("setCurfew", driven: false, parameters: ["curfew.", "tokens.work_during_curfew"]),
            EngineInputInfo("deleteCurfew", driven: false, parameters: ["curfew."]),
            EngineInputInfo("setPreference", driven: false),
            EngineInputInfo("upgradeTapped", driven: true),
            EngineInputInfo("buyPlan(premiumMonthly, proAnnual)", driven: true, parameters: ["prices.premium_monthly", "prices.pro_annual"]),
            EngineInputInfo("buyPlan(proMonthly)", driven: false, parameters: ["prices.pro_monthly"]),
            EngineInputInfo("cancelSubscription", driven: true),
            EngineInputInfo("refundSubscription", driven: false),
            EngineInputInfo("restorePurchases", driven: false),
            EngineInputInfo("buyToken", driven: false, parameters: ["tokens.purchasable_outside_shield"]),
            EngineInputInfo("systemClockChanged", driven: false, parameters: ["anti_tamper."]),
            EngineInputInfo("reliabilityCheck", driven: false),
            EngineInputInfo("authorizationRevoked", driven: true),
            EngineInputInfo("viewInsight", driven: true),
            EngineInputInfo("viewWeeklyInsight", driven: false),
            EngineInputInfo("timer", driven: true, parameters: ["earn.", "milestones.", "insights."]),
        ])
}()
