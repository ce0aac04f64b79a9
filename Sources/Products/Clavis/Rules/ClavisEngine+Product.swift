import RulesCore

/// Clavis as a product on Habitat's seam: the conformance to `RuleEngine` and its descriptor (its person side is
/// `Sources/Products/Clavis/Life`).
extension ClavisEngine: RuleEngine {
    public typealias Funnel = ClavisFunnel.Tracker

    /// The seed document: "Clavis – Technical Specification (v1)".
    public static let seedFile = "004_8fa1e69c755a74b3.txt"

    public static var descriptor: ProductDescriptor { clavisDescriptor }
}

extension Product {
    /// Clavis (seed 004), as scenarios name it.
    public static let clavis: Product = "clavis"
}

/// Clavis as plain data (seed 004).
let clavisDescriptor: ProductDescriptor = {
    ProductDescriptor(
        id: Product.clavis.rawValue, name: "Clavis", seedFile: ClavisEngine.seedFile,
        summary: "modes locked and unlocked by scanning a physical key object (≥ 0.90 cosine similarity in 3 consecutive frames); one main key per mode, temporary keys with one limited unlock each per lock cycle; multi-angle enrolment (≥ 8 frames, diverse viewpoints); Focus Mode on while locked; free",
        parameters: ClavisParameters.catalogue,
        funnel: ClavisFunnel.stages,
        kpis: ClavisKPIs.definitions,
        // §7 "Throttle frame processing to avoid excessive CPU/battery usage" names no figure: no budget (inventory §5).
        batteryBudgets: .none,
        // The spec has no pricing, tiers, trial or purchases: one unpaid segment, no money KPI, no ledger line.
        revenue: .free,
        // The person side writes them (`ClavisMetrics.reports`): scans with their ground truth, the match policy's
        // trade-off, lock cycles by week.
        reports: ["scans.csv", "scan-policy.csv", "lock-cycles.csv"],
        inputs: [
            EngineInputInfo("appOpened", driven: true),
            EngineInputInfo("onboardingNext", driven: true, parameters: ["onboarding.apps_before_key"]),
            EngineInputInfo("createMode", driven: true, parameters: ["modes.max"]),
            EngineInputInfo("editMode", driven: true, parameters: ["modes.edit_while_locked"]),
            EngineInputInfo("deleteMode", driven: true, parameters: ["modes.edit_while_locked"]),
            EngineInputInfo("switchMode", driven: true, parameters: ["modes.switch_while_locked"]),
            EngineInputInfo("startEnrolment", driven: true, parameters: ["keys.max_temporary_per_mode", "keys.replace_while_locked"]),
            EngineInputInfo("enrolmentFrame", driven: true, parameters: ["enrolment.", "frames."]),
            EngineInputInfo("completeEnrolment", driven: true, parameters: ["enrolment.manual_min_frames"]),
            EngineInputInfo("restartEnrolment", driven: true),
            EngineInputInfo("cancelEnrolment", driven: true),
            EngineInputInfo("assignKey", driven: true, parameters: ["keys.replace_while_locked", "keys.max_temporary_per_mode"]),
            EngineInputInfo("focusConfigured", driven: true),
            EngineInputInfo("deleteAllData", driven: true, parameters: ["data.delete_while_locked"]),
            // §7 Error Handling: the camera prompt's answer (or a Settings change) and the launch's ARKit check.
            EngineInputInfo("cameraPermission", driven: true),
            EngineInputInfo("deviceChecked", driven: true),
            // §5.1 "renamed, or removed"; §5.2 "add/remove temporary keys for a mode".
            EngineInputInfo("renameKey", driven: true),
            EngineInputInfo("removeKey", driven: true, parameters: ["modes.edit_while_locked"]),
            EngineInputInfo("removeTemporaryKey", driven: true, parameters: ["modes.edit_while_locked"]),
            EngineInputInfo("startScan", driven: true),
            EngineInputInfo("frame", driven: true, parameters: ["verify.", "frames."]),
            EngineInputInfo("scanResult", driven: true, parameters: ["verify.consecutive_frames"]),
            EngineInputInfo("cancelScan", driven: true),
            EngineInputInfo("endTemporaryUnlock", driven: true),
            EngineInputInfo("timer", driven: true, parameters: ["temporary.unlock_minutes"]),
        ])
}()
