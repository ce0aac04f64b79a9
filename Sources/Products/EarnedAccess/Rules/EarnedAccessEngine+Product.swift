import RulesCore

/// Earned Access as a product on Habitat's seam: the conformance to `RuleEngine` and its descriptor.
extension EarnedAccessEngine: RuleEngine {
    public typealias Funnel = EarnedAccessFunnel.Tracker

    /// The seed document: Earned Access — Consolidated Product + Build Spec v1.2.
    public static let seedFile = "003_39dd72775d0311b4.txt"

    public static var descriptor: ProductDescriptor { earnedAccessDescriptor }
}

extension Product {
    /// Earned Access (seed 003), as scenarios name it.
    public static let earnedAccess: Product = "earned-access"
}

/// Earned Access as plain data (seed 003).
let earnedAccessDescriptor: ProductDescriptor = {
    let file = EarnedAccessEngine.seedFile
    return ProductDescriptor(
        id: Product.earnedAccess.rawValue, name: "Earned Access", seedFile: file,
        summary: "modes shield apps; Focus Bank credits, breathing quests and a daily emergency unlock apps at the Unlock Gate; 04:00 day boundary, carry-over, streak; Free/Pro with a 7-day trial and downgrade",
        parameters: EarnedAccessParameters.catalogue,
        funnel: EarnedAccessFunnel.stages,
        kpis: EarnedAccessKPIs.definitions,
        // Seed 003 states no battery budget; Scroll Off's (seed 000 §7.6) is borrowed as an assumption (inventory §5).
        batteryBudgets: BatteryBudgets(idlePctPerHour: 0.5, activePctPerHour: 1.5, pctPer24h: 12,
                                       source: .assumption("seed 003 states no budget; Scroll Off's seed 000 §7.6 targets borrowed (inventory §5)")),
        // Seed 003 §0 "Two tiers total: Free + Pro"; §5 Purchase options: monthly, annual (trial), lifetime; no consumables.
        revenue: RevenueModel(planSegments: ["free", "pro"], subscriptionSource: "subscriptions", consumableSource: nil,
                              subscriptionPeriodMonths: [ProPlan.monthly.sku: 1, ProPlan.annual.sku: 12],
                              trialDays: EarnedAccessParameters.defaults.trialDays),
        // The adapter's unlocks by day and method (`EarnedAccessMetrics.reportFiles`).
        reports: ["unlocks.csv"],
        inputs: [
            EngineInputInfo("appOpened", driven: true, parameters: ["energy.gate_browse_seconds"]),
            EngineInputInfo("onboarding", driven: true, parameters: ["paywall.placement", "paywall.mode"]),
            EngineInputInfo("authorization", driven: true),
            EngineInputInfo("addApp", driven: true, parameters: ["tiers.free.max_apps", "tiers.max_shielded_apps"]),
            EngineInputInfo("removeApp", driven: false),
            EngineInputInfo("keepApps", driven: true),
            EngineInputInfo("createMode", driven: true, parameters: ["tiers.free.max_modes", "modes.schedule_min_minutes"]),
            EngineInputInfo("editMode", driven: false),
            EngineInputInfo("deleteMode", driven: true),
            EngineInputInfo("setPriority", driven: false),
            EngineInputInfo("setStrictness", driven: false, parameters: ["modes.strict_cooldown_minutes"]),
            EngineInputInfo("appForeground", driven: true, parameters: ["focus.shields_apps"]),
            EngineInputInfo("shieldClose", driven: true),
            EngineInputInfo("openGate", driven: false),
            EngineInputInfo("unlock", driven: true, parameters: ["unlock.", "quest.", "emergency.", "tiers.free.max_unlock_minutes"]),
            EngineInputInfo("abandonQuest", driven: true),
            EngineInputInfo("cancelEmergency", driven: true),
            EngineInputInfo("leaveGate", driven: true),
            EngineInputInfo("startFocus", driven: true, parameters: ["focus.", "streak.focus_minutes", "streak.first_session_only"]),
            EngineInputInfo("cancelFocus", driven: true),
            EngineInputInfo("createHabit", driven: true),
            EngineInputInfo("completeHabit", driven: true, parameters: ["habits.", "streak.habits", "streak.bonus_credits"]),
            EngineInputInfo("suspendHabit", driven: false),
            EngineInputInfo("paywallResponse", driven: true, parameters: ["prices.", "trial."]),
            EngineInputInfo("cancelAutoRenew", driven: true),
            EngineInputInfo("refund", driven: true),
            EngineInputInfo("restore", driven: false),
            EngineInputInfo("view", driven: false),
            EngineInputInfo("timer", driven: true, parameters: ["day.boundary", "credits.carryover_max"]),
        ],
        // Parameters no simulated life moves, and why (checked by ParameterSensitivityTests).
        notSimulable: [
            "pricing.pro_min_cost_per_minute":
                "no simulated person sets their own credit price: §5 names configurable pricing for Pro but nothing about who changes it or to what, so the engine's rule is tested (ProControlsTests) and no behaviour is invented for it (audit 2026-11-25 E11)",
            "pricing.pro_max_cost_per_minute":
                "no simulated person sets their own credit price (see pricing.pro_min_cost_per_minute)",
            "modes.max_cooldown_minutes":
                "no simulated person sets a per-mode limit or cooldown: §5 names \"Advanced limits & cooldown controls per mode\" without values or users, so the rule is tested (ProControlsTests) and no behaviour is invented for it (audit 2026-11-25 E11)",
            "modes.schedule_min_minutes":
                "the simulated people's modes are work or study blocks of 8 hours and sleep modes of 6–9 hours, so a schedule minimum (at most 4 hours) never binds",
        ])
}()
