import RulesCore

/// Nudge as a product on Habitat's seam: the conformance to `RuleEngine` and its descriptor.
extension NudgeEngine: RuleEngine {
    public typealias Funnel = NudgeFunnel.Tracker

    /// The seed document: Nudge — Product Requirements Document v2.1.
    public static let seedFile = "001_2c48cacf5aaf28c7.txt"

    public static var descriptor: ProductDescriptor { nudgeDescriptor }
}

extension Product {
    /// Nudge (seed 001), as scenarios name it.
    public static let nudge: Product = "nudge"
}

/// Nudge as plain data (seed 001).
let nudgeDescriptor: ProductDescriptor = {
    let file = NudgeEngine.seedFile
    let trial = NudgeParameters.defaults.trialDays
    return ProductDescriptor(
        id: Product.nudge.rawValue, name: "Nudge", seedFile: file,
        summary: "voice brain dumps split by AI into cards, shares with snooze presets, a One-Thing queue (done/skip/snooze), ≤3 gentle nudges a day outside 21:00–08:00, opt-in Live Activity; Free limits, Pro drafts and smart nudges; AI cost booked per request",
        parameters: NudgeParameters.catalogue,
        funnel: NudgeFunnel.stages,
        kpis: NudgeKPIs.definitions,
        // Seed 001 §10 "No background drain … Any drain = audit background tasks" gives no figure (inventory §5, C15).
        batteryBudgets: BatteryBudgets(idlePctPerHour: 0.05, activePctPerHour: 1.5, pctPer24h: 3,
                                       source: .assumption("§10 Performance Budgets \"No background drain\" gives no figure; idle 0.05 %/h, active 1.5 %/h (Scroll Off's), 3 %/24 h (inventory §5)")),
        // Seed 001 §7 Pricing Model: Free and Pro, monthly or annual; AI requests are a service cost (§6 API Contracts).
        revenue: RevenueModel(planSegments: ["free", "pro"], costSource: "ai",
                              subscriptionPeriodMonths: [NudgePlan.monthly.sku: 1, NudgePlan.annual.sku: 12],
                              trialDays: trial > 0 ? trial : nil),
        reports: ["ai-cost.csv", "tasks.csv"],
        inputs: [
            EngineInputInfo("appOpened", driven: true, parameters: ["energy.share_ingest_seconds", "paywall.draft_teasers_per_day"]),
            EngineInputInfo("appClosed", driven: true),
            EngineInputInfo("onboarding", driven: true),
            EngineInputInfo("brainDump", driven: true, parameters: ["limits.free_dumps_per_day", "recording.cap_seconds",
                                                                    "capture.single_item_max_words", "ai.split_tokens_in", "ai.split_tokens_out"]),
            EngineInputInfo("connectivity", driven: true),
            EngineInputInfo("addManual", driven: true),
            EngineInputInfo("share", driven: true, parameters: ["limits.free_saved_shares", "limits.share_limit_mode"]),
            EngineInputInfo("done", driven: true),
            EngineInputInfo("skip", driven: true),
            EngineInputInfo("snooze", driven: true, parameters: ["snooze."]),
            EngineInputInfo("letGo", driven: true),
            EngineInputInfo("actionTapped", driven: true, parameters: ["drafts.for_call_cards", "ai.draft_tokens_in", "ai.draft_tokens_out",
                                                                       "ai.price_in_per_million", "ai.price_out_per_million", "ai.prompt_overhead_tokens"]),
            EngineInputInfo("contactPicked", driven: true),
            EngineInputInfo("addContact", driven: false),
            EngineInputInfo("draftSent", driven: true),
            EngineInputInfo("draftAbandoned", driven: true),
            EngineInputInfo("notificationReply", driven: true),
            EngineInputInfo("permission", driven: true),
            EngineInputInfo("liveActivityPrompt", driven: true, parameters: ["live_activity.restart_hours"]),
            EngineInputInfo("setLiveActivity", driven: false),
            EngineInputInfo("muteNudgesToday", driven: true),
            EngineInputInfo("setNudgeType", driven: true),
            EngineInputInfo("setNotificationsAllowed", driven: true),
            EngineInputInfo("upgradeTapped", driven: true),
            EngineInputInfo("paywallResponse", driven: true, parameters: ["prices.", "trial_days"]),
            EngineInputInfo("cancelAutoRenew", driven: true),
            EngineInputInfo("refund", driven: true),
            EngineInputInfo("timer", driven: true, parameters: ["nudges."]),
        ],
        // What Nudge says it does (seed 001 §1 "then helps you *do* them"; §11 "Items completed per user per day"),
        // beside the true effect on the same people: things done a day with Nudge minus with no app (issue 29), per
        // DAU-day as the claim is (a day the app was opened; issue 39 item 5) and per person-day to the horizon.
        claims: [ProductClaim(kpi: "items_done_per_dau", neutralKPI: "tasks_done_per_day", sense: .increases, basis: .dayAppOpened,
                              statement: "items completed per user per day, as the PRD counts them (seed 001 §11)")])
}()
