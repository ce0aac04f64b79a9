import RulesCore

/// Lazuri as a product on Habitat's seam: the conformance to `RuleEngine` and its descriptor. Registered
/// (`Sources/Products/Registry`) with its person side, `LazuriLife` (issue 43).
extension LazuriEngine: RuleEngine {
    public typealias Funnel = LazuriFunnel.Tracker

    /// The seed document: the MSc thesis "Mobile App: Educate & Manage Screen Time" (University of Sussex, 2025).
    public static let seedFile = "002_80c8c6af1a4e5690.txt"

    public static var descriptor: ProductDescriptor { lazuriDescriptor }
}

extension Product {
    /// Lazuri (seed 002), as scenarios name it.
    public static let lazuri: Product = "lazuri"
}

/// Lazuri as plain data (seed 002).
let lazuriDescriptor: ProductDescriptor = {
    ProductDescriptor(
        id: Product.lazuri.rawValue, name: "Lazuri", seedFile: LazuriEngine.seedFile,
        summary: "named repeating blocking schedules (≥ 15 min, across midnight, one enabled at a time) over one locked selection; a promise shield whose one button closes the app with a \"Note to self\"; focus minutes from completed windows; flashcards with unique views, six achievements and a leaderboard score; free",
        parameters: LazuriParameters.catalogue,
        funnel: LazuriFunnel.stages,
        kpis: LazuriKPIs.definitions,
        // §3.3 "update usage tracking data at reasonable intervals to stay efficient and save battery life" and §4.1.5
        // name no figure: no budget (inventory §6).
        batteryBudgets: .none,
        // §4.3 "Money: App is free with no in-app purchases": one unpaid segment, no money KPI, no ledger line.
        revenue: .free,
        // Written by the person side (focus minutes by day, cards and score), not by the engine.
        reports: ["focus.csv", "cards.csv", "study.csv"],
        inputs: [
            EngineInputInfo("appOpened", driven: true, parameters: ["permissions.screen_time_ask"]),
            EngineInputInfo("appClosed", driven: true),
            EngineInputInfo("tabOpened", driven: true, parameters: ["permissions.screen_time_ask"]),
            EngineInputInfo("screenTimeAuthorization", driven: true),
            EngineInputInfo("screenTimeRevoked", driven: true),
            EngineInputInfo("notificationPermission", driven: true, parameters: ["permissions.notifications_at_first_enable"]),
            EngineInputInfo("gameCenterAuth", driven: true),
            EngineInputInfo("setSelection", driven: true, parameters: ["schedules.active_means"]),
            EngineInputInfo("createSchedule", driven: true, parameters: ["schedules.min_window_minutes", "schedules.max_saved"]),
            EngineInputInfo("editSchedule", driven: false, parameters: ["schedules.active_means"]),
            EngineInputInfo("setScheduleEnabled", driven: true, parameters: ["schedules.max_enabled", "schedules.switch_off_mid_window",
                                                                            "schedules.honour_weekdays"]),
            EngineInputInfo("deleteSchedule", driven: true),
            EngineInputInfo("blockedTargetOpened", driven: true),
            EngineInputInfo("shieldPrimaryPressed", driven: true, parameters: ["promise.max_characters"]),
            EngineInputInfo("shieldDismissed", driven: true),
            EngineInputInfo("swipe", driven: true, parameters: ["cards.", "achievements."]),
            EngineInputInfo("cardLinkTapped", driven: true),
            EngineInputInfo("setCategoryFilter", driven: false),
            EngineInputInfo("savePromise", driven: true, parameters: ["promise.max_characters"]),
            EngineInputInfo("gameCenterViewOpened", driven: true),
            EngineInputInfo("timer", driven: true, parameters: ["focus.duplicate_window_seconds"]),
        ])
}()
