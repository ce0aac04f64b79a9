import RulesCore

/// A plan tier. Seed 000 §5.1.
public enum Tier: UInt8, Hashable, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    case free, premium, pro
    public static func < (a: Tier, b: Tier) -> Bool { a.rawValue < b.rawValue }
    /// `free`, `premium`, `pro`.
    public var description: String { ["free", "premium", "pro"][Int(rawValue)] }
}

/// A subscription product. Seed 000 §5.1: Premium $4.99/mo, Pro $8.99/mo or $59.99/yr.
public enum Plan: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible, StorePlan {
    case premiumMonthly, proMonthly, proAnnual
    /// The tier the plan grants.
    public var tier: Tier { self == .premiumMonthly ? .premium : .pro }
    /// Billing period in calendar months.
    public var periodMonths: Int { self == .proAnnual ? 12 : 1 }
    /// True for the annual plan.
    public var isAnnual: Bool { self == .proAnnual }
    /// Store product id (SKU).
    public var sku: String { ["scrolloff.premium.monthly", "scrolloff.pro.monthly", "scrolloff.pro.annual"][Int(rawValue)] }
    public var description: String { sku }
    /// The emergency token's SKU.
    public static let tokenSKU = "scrolloff.token"
}

/// A mindfulness exercise offered at ladder step 4. Seed 000 §4 / §7.3 (`"breath"`, `"grounding"`, `"bodyScan"`).
public enum MindfulnessExercise: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case breath, grounding, bodyScan
    public var description: String { ["breath", "grounding", "bodyScan"][Int(rawValue)] }
}

/// Identifies a curfew schedule.
public typealias CurfewID = UInt8

/// A hard-curfew schedule as the user sets it. Seed 000 §3.3, §6.1 (Curfew scheduler), §7.3 `CurfewSchedule`.
public struct CurfewSpec: Hashable, Sendable {
    /// Local window and days of week; may cross midnight.
    public var window: DailyWindow
    /// Apps kept shielded during the window (they need not be on the Blocked list).
    public var apps: [AppID]
    /// "Block Safari during curfew" (optional).
    public var blockSafari: Bool
    /// Whether the schedule is switched on.
    public var isActive: Bool
    public init(window: DailyWindow, apps: [AppID], blockSafari: Bool = false, isActive: Bool = true) {
        self.window = window
        self.apps = apps
        self.blockSafari = blockSafari
        self.isActive = isActive
    }
}

/// What the user can pick on the shield. Seed 000 §6.1 (Blocked Shield buttons) and §3.4 (bypass ladder).
public enum ShieldChoice: Hashable, Sendable {
    /// Close the shield without spending: a willpower win, unless a request was refused in this encounter.
    case close
    /// "Use credits": spend wallet seconds while the app is in the foreground.
    case useCredits
    /// "60-sec peek": the next peek step of the ladder (free peek, then credit peeks).
    case peek
    /// Emergency token: use one held, or buy one ($0.99) within the monthly cap and use it.
    case emergencyToken
}

/// How the user left the mindfulness step.
public enum MindfulnessResponse: Hashable, Sendable {
    /// Skipped immediately.
    case skip
    /// Finished the exercise; `bypassAvoided` when they then chose not to bypass.
    case complete(bypassAvoided: Bool)
}

/// Onboarding steps the engine cares about. Seed 000 §6.1 (Onboarding / Permissions).
public enum OnboardingStep: Hashable, Sendable {
    /// First launch / any app open (funnel A0; daily activity).
    case appOpened
    /// The 10-second demo block finished: awards the one-time starter credit.
    case demoBlockCompleted
    /// FamilyControls authorization granted (funnel A1).
    case permissionGranted
    /// Authorization denied.
    case permissionDenied
    /// The user reached the Dashboard: onboarding finished (needs an if-then plan and a blocked app, §6.1, §9).
    case finished
}

/// A health-check component of the Reliability screen. Seed 000 §6.1, §7.7.
public enum ReliabilityComponent: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case screenTimeAuthorization, deviceActivityMonitoring, shieldConfiguration, shieldLatency
    public var description: String {
        ["screentime_authorization", "device_activity_monitoring", "shield_configuration", "shield_latency"][Int(rawValue)]
    }
}

/// Kinds of pattern insight a user can look at. Seed 000 §6.1 (Stats & Insights).
public enum InsightType: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case trend7Day, trend30Day, peakHours, strongestDay, appBreakdown, weekOverWeek
    public var description: String {
        ["trend_7_day", "trend_30_day", "peak_hours", "strongest_day", "app_breakdown", "week_over_week"][Int(rawValue)]
    }
}

/// User preferences the rules depend on. Seed 000 §6.1 (Settings → Preferences), §6.5 (notifications).
public enum Preference: Hashable, Sendable {
    /// "Mindfulness exercises at bypasses (on/off)".
    case mindfulnessAtBypasses(Bool)
    /// Opt-in earn-award notifications.
    case earnNotifications(Bool)
    /// Opt-in curfew reminders (Premium/Pro).
    case curfewReminders(Bool)
    /// Seed 000 §6.5 "Milestone achievements (on by default, can disable)".
    case milestoneNotifications(Bool)
}

/// A subscription the store reports on restore (StoreKit current entitlements).
public struct StoreEntitlement: Hashable, Sendable {
    public var plan: Plan
    public var expiresAt: Instant
    public var autoRenew: Bool
    public init(plan: Plan, expiresAt: Instant, autoRenew: Bool = true) {
        self.plan = plan
        self.expiresAt = expiresAt
        self.autoRenew = autoRenew
    }
}
