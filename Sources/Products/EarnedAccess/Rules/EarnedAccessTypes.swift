import RulesCore

/// The two tiers. Seed 003 §0 Monetization: "Two tiers total: Free + Pro".
public enum AccessTier: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case free, pro
    public var description: String { self == .free ? "free" : "pro" }
}

/// A Pro purchase option. Seed 003 §5 Purchase options (Pro): "Monthly subscription (auto-renew)", "Annual
/// subscription (auto-renew, includes free trial)", "Lifetime (one-time non-consumable purchase)".
public enum ProPlan: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible, StorePlan {
    case monthly, annual, lifetime
    /// Billing period in calendar months; nil for lifetime (never renews).
    public var periodMonths: Int? { switch self { case .monthly: 1; case .annual: 12; case .lifetime: nil } }
    /// Store product id (SKU).
    public var sku: String { ["earnedaccess.pro.monthly", "earnedaccess.pro.annual", "earnedaccess.pro.lifetime"][Int(rawValue)] }
    /// `monthly`, `annual`, `lifetime`.
    public var name: String { ["monthly", "annual", "lifetime"][Int(rawValue)] }
    public var description: String { name }
}

/// Screen Time authorization as the OS reports it. Seed 003 §3 A) 2 "Screen Time authorization explanation →
/// request", §11 `requestScreenTimeAuthorization(): "granted"|"denied"`; revoked later from Settings (assumption).
public enum ScreenTimeAuthorization: UInt8, Hashable, Sendable, CustomStringConvertible {
    case notDetermined, granted, denied, revoked
    public var description: String { ["not_determined", "granted", "denied", "revoked"][Int(rawValue)] }
}

/// Onboarding steps. Seed 003 §3 A) First run / onboarding, steps 1–6.
public enum AccessOnboardingStep: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case goalSelected, authorizationExplained, appsPicked, firstModeCreated, unlockStyleConfirmed, home
    public var description: String {
        ["goal_selection", "screen_time_authorization", "pick_apps", "create_first_mode", "confirm_unlock_style", "home"][Int(rawValue)]
    }
}

/// A mode template. Seed 003 §3 A) 4 "Create first mode (template: Work/Study/Sleep)".
public enum ModeTemplate: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case work, study, sleep
    public var description: String { ["work", "study", "sleep"][Int(rawValue)] }
}

/// Strictness of a mode. Seed 003 §5 Pro "Strictness levels (Strict/Hard)"; the base level has no name in the seed
/// (`standard`, assumption). Semantics (inventory row 33, assumption): Standard offers every method; Strict offers
/// no quests and puts a cooldown between unlocks; Hard offers only the emergency unlock.
public enum Strictness: UInt8, Hashable, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    case standard, strict, hard
    public static func < (a: Strictness, b: Strictness) -> Bool { a.rawValue < b.rawValue }
    public var description: String { ["standard", "strict", "hard"][Int(rawValue)] }
}

/// Identifies a mode.
public typealias ModeID = UInt16
/// Identifies a habit.
public typealias HabitID = UInt16

/// What a user sets when creating or editing a mode. Seed 003 §3 A) 4, §7 Key behaviors.
public struct ModeSpec: Hashable, Sendable {
    public var template: ModeTemplate
    /// Local schedule (start, end, weekdays); may cross midnight.
    public var window: DailyWindow
    public var strictness: Strictness
    /// Higher wins (seed 003 §5 Trial downgrade behavior "highest-priority mode"; the field is an assumption).
    public var priority: Int
    /// Seed 003 §5 Pro "Advanced limits & cooldown controls per mode": at most this many unlocks per day_id while the
    /// mode shields (nil: no limit). Pro only; not enforced on Free (audit 2026-11-25 E11).
    public var dailyUnlockLimit: Int?
    /// The same section: minutes after a grant ends before the next unlock while the mode shields (nil: none), at
    /// most `modes.max_cooldown_minutes`. Pro only; not enforced on Free.
    public var cooldownMinutes: Int?
    public init(template: ModeTemplate, window: DailyWindow, strictness: Strictness = .standard, priority: Int = 0,
                dailyUnlockLimit: Int? = nil, cooldownMinutes: Int? = nil) {
        self.template = template
        self.window = window
        self.strictness = strictness
        self.priority = priority
        self.dailyUnlockLimit = dailyUnlockLimit
        self.cooldownMinutes = cooldownMinutes
    }
    /// The mode sets one of Pro's per-mode controls.
    public var usesProControls: Bool { dailyUnlockLimit != nil || cooldownMinutes != nil }
}

/// A mode as stored. Seed 003 §5 Trial downgrade behavior: other modes "stay in DB but are **locked** in UI and not
/// enforced".
public struct AccessMode: Hashable, Sendable {
    public var id: ModeID
    public var spec: ModeSpec
    /// Last change (creation, edit, priority, strictness): the downgrade's tie-breaker "most recently updated".
    public var updatedAt: Instant
    /// Locked by a downgrade: kept, not enforced.
    public var locked: Bool
    /// Whether the engine has reported the mode as running (mode_started without mode_ended yet).
    public internal(set) var running: Bool
    /// The edge timer last armed for this mode.
    var armedEdge: Instant?
}

/// A distracting app on the user's list. Seed 003 §4; §5 Free "Up to 3 distracting apps".
public struct TrackedApp: Hashable, Sendable {
    public var app: AppID
    /// Order of adding (higher = more recent): the downgrade's "auto-keep the 3 most recently added".
    public var addedSeq: Int
    /// Enforced under the current plan (false: dropped by the Free cap, kept in the list).
    public var kept: Bool
}

/// An unlock method. Seed 003 §6 Unlock methods (v1.2 minimum set): CREDITS, QUEST, EMERGENCY.
public enum UnlockMethod: UInt8, Hashable, Sendable, CustomStringConvertible {
    case credits, quest, emergency
    public var description: String { ["CREDITS", "QUEST", "EMERGENCY"][Int(rawValue)] }
}

/// A quest. Seed 003 §0 Quests decision: breathing (default) and optional copy-text (Pro, §5).
public enum QuestKind: UInt8, Hashable, Sendable, CustomStringConvertible {
    case breathing, copyText
    public var description: String { self == .breathing ? "breathing" : "copy_text" }
}

/// What a person can choose at the Unlock Gate. Seed 003 §3 C) Unlock Gate options (v1.2).
public enum GateChoice: Hashable, Sendable, CustomStringConvertible {
    /// Credits unlock of 5, 15 or 30 minutes (§3 C) "durations: 5/15/30; plan-gated").
    case credits(minutes: Int)
    /// Breathing quest → unlock.
    case breathingQuest
    /// Copy-text quest → unlock (Pro, optional).
    case copyTextQuest
    /// Emergency unlock after the wait.
    case emergency
    public var method: UnlockMethod {
        switch self { case .credits: .credits; case .breathingQuest, .copyTextQuest: .quest; case .emergency: .emergency }
    }
    public var description: String {
        switch self {
        case .credits(let m): "credits_\(m)"
        case .breathingQuest: "breathing_quest"
        case .copyTextQuest: "copy_text_quest"
        case .emergency: "emergency"
        }
    }
}

/// A time-limited unlock of one app. Seed 003 §3 D), §11 `temporarilyUnshield(appId, durationSeconds)`.
public struct AccessGrant: Hashable, Sendable {
    public var app: AppID
    public var method: UnlockMethod
    public var minutes: Int
    public var start: Instant
    public var end: Instant
    /// The tier in force when the grant was made.
    public var tierAtGrant: AccessTier
    /// Live at `t`: started and not yet ended.
    public func isLive(at t: Instant) -> Bool { start <= t && t < end }
}

/// A user-defined daily habit (the seed never defines habits: inventory row 24, assumption).
public struct AccessHabit: Hashable, Sendable {
    public var id: HabitID
    /// Seed 003 §6 Streak "2 valid habits completed (not suspended)".
    public var suspended: Bool
    /// The day_id it was last completed on.
    public var lastCompleted: LocalDate?
}

/// A running focus session. Seed 003 §6 Credits "Earned by focus sessions".
public struct FocusSession: Hashable, Sendable {
    public var start: Instant
    public var minutes: Int
    public var end: Instant { start + .minutes(Int64(minutes)) }
}

/// A quest or emergency wait in progress at the gate.
public struct PendingUnlock: Hashable, Sendable {
    public var app: AppID
    public var choice: GateChoice
    public var startedAt: Instant
    /// When it completes (quest minimum time or emergency wait).
    public var dueAt: Instant
}

/// What triggered a paywall. Seed 003 §5 Best paywall / trial trigger moments; §9 Phase 3 placement.
public enum PaywallTrigger: UInt8, Hashable, Sendable, CustomStringConvertible {
    case fourthApp, secondMode, longUnlock, strictness, copyText, placement
    /// The hard paywall (`paywall.mode` hard; not in seed 003): when onboarding lands in Home and at every opening of
    /// the app while the person has neither the trial nor Pro.
    case hardPaywall
    public var description: String {
        ["fourth_app", "second_mode", "long_unlock", "strictness", "copy_text", "placement", "hard_paywall"][Int(rawValue)]
    }
}

/// What the app does for a person who has neither the trial nor Pro (parameter `paywall.mode`; issue 26 item 5).
public enum AccessPaywallMode: String, Hashable, Sendable, CaseIterable {
    /// Seed 003 §5 Recommended tier definition: "Free (forever)" — 1 mode, up to 3 apps, 5-minute credit unlocks,
    /// breathing quest, emergency unlock, basic progress — works without paying; §0 Monetization "Free is
    /// intentionally useful (so users trust it)"; §5 Best paywall / trial trigger moments upsell it.
    case freemium
    /// Not in seed 003 — an experiment product teams run: after onboarding the app does nothing (no mode enforced, no
    /// shield, no credits earned) until the person starts the 7-day trial (§5 Pro + 7-day free trial) or buys Pro,
    /// and shows the paywall whenever the person opens it; when the trial ends unconverted or the subscription
    /// lapses (§5 Trial downgrade behavior: "User becomes Free immediately") the app locks again.
    case hard
}

/// Where the paywall placement is (seed 003 §9 Phase 3 "Paywall placement (after onboarding or after first
/// 'blocked app' moment)"; the choice is a parameter).
public enum PaywallPlacement: String, Hashable, Sendable, CaseIterable {
    case afterOnboarding = "after_onboarding"
    case afterFirstBlocked = "after_first_blocked"
    case none
}

/// Which plans carry the trial (inventory row 4: "Annual … includes free trial").
public enum TrialPlans: String, Hashable, Sendable, CaseIterable {
    case annual
    case monthlyAndAnnual = "monthly_and_annual"
    public func offers(_ p: ProPlan) -> Bool {
        switch self { case .annual: p == .annual; case .monthlyAndAnnual: p != .lifetime }
    }
}

/// The person's answer to a paywall (or a purchase from Settings).
public enum PaywallResponse: Hashable, Sendable {
    /// Start the free trial (a store intro offer) on a plan that carries it.
    case startTrial(ProPlan)
    /// Buy a plan outright.
    case buy(ProPlan)
    /// Close the paywall.
    case dismiss
}

/// How the Unlock Gate was reached (`unlock_gate_opened.source`).
public enum GateSource: UInt8, Hashable, Sendable, CustomStringConvertible {
    case lastBlocked, manual
    public var description: String { self == .lastBlocked ? "last_blocked" : "manual" }
}

/// Screens with a view event.
public enum AccessView: UInt8, Hashable, Sendable, CustomStringConvertible {
    case progress, weeklyReview
    public var description: String { self == .progress ? "progress" : "weekly_review" }
}

/// What earned credits (`credits_earned.source`).
public enum CreditSource: UInt8, Hashable, Sendable, CustomStringConvertible {
    case focus, habit, bonus
    public var description: String { ["focus", "habit", "bonus"][Int(rawValue)] }
}

/// How a day qualified for the streak (`streak_qualified.via`). Seed 003 §6 Streak.
public enum StreakVia: UInt8, Hashable, Sendable, CustomStringConvertible {
    case focus, habits
    public var description: String { self == .focus ? "focus" : "habits" }
}
