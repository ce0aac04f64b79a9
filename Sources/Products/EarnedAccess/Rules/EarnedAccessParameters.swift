import RulesCore

/// Every rule parameter of the Earned Access engine (seed 003), built from a complete set of `rules:` values.
/// Explicit values cite the seed's section; every silent spot is an `.assumption(...)` (inventory §2, §6).
public struct EarnedAccessParameters: Hashable, Sendable, EngineParameters {
    // MARK: Trial and prices (seed 003 §0 Monetization, §5)
    /// Seed 003 §0 Monetization: trial "recommended: 7 days; adjustable".
    public var trialDays: Int
    /// Assumption (inventory row 4): §5 "Annual subscription (auto-renew, includes free trial)".
    public var trialPlans: TrialPlans
    /// Seed 003 §5 Pricing suggestion (starter): "Monthly: $6.99–$9.99".
    public var monthlyPrice: Money
    /// Seed 003 §5 Pricing suggestion (starter): "Yearly: $39.99–$59.99".
    public var annualPrice: Money
    /// Assumption (inventory row 7): lifetime is off by default ("Keep it simple: one monthly + one yearly").
    public var lifetimeEnabled: Bool
    /// Assumption: the seed names no lifetime price.
    public var lifetimePrice: Money

    // MARK: Tier limits (seed 003 §5 Free (forever))
    public var freeMaxApps: Int
    public var freeMaxModes: Int
    /// Seed 003 §5 Free "Credits unlock (limited): 5 min only".
    public var freeMaxUnlockMinutes: Int
    /// Assumption (inventory row 10): the OS caps shielded tokens at 50.
    public var maxShieldedApps: Int

    // MARK: Paywall (seed 003 §9 Phase 3)
    public var paywallPlacement: PaywallPlacement
    /// Assumption-option (`paywall.mode`, issue 26 item 5): `freemium` is the seed (§5 "Free (forever)", §0 "Free is
    /// intentionally useful"); `hard` is an experiment product teams run, not in the seed: after onboarding the app
    /// does nothing for a person without the trial or Pro and shows the paywall at every opening.
    public var paywallMode: AccessPaywallMode

    // MARK: Day and Focus Bank (seed 003 §6)
    /// Seed 003 §6 Day boundary: "Day starts at 04:00 local time".
    public var dayBoundary: LocalTimeOfDay
    /// Seed 003 §6 Credits (Focus Bank): "Balance carryover at day rollover: min(10, balance)".
    public var carryoverMax: Int
    public var focusMinutesPerCredit: Int
    public var focusMinMinutes: Int
    public var focusShieldsApps: Bool
    public var habitCredits: Int
    public var habitCreditedPerDay: Int

    // MARK: Streak (seed 003 §6 Streak)
    public var streakFocusMinutes: Int
    public var streakHabits: Int
    public var streakFirstSessionOnly: Bool
    public var streakBonusCredits: Int

    // MARK: Modes
    public var scheduleMinMinutes: Int
    public var strictCooldown: TimeSpan

    // MARK: Unlocks (seed 003 §6 Unlock methods)
    /// Credits per unlocked minute (assumption: the seed gives durations, not prices).
    public var creditCostPerMinute: Double
    public var breathingLength: TimeSpan
    public var copyTextLength: TimeSpan
    public var copyTextEnabled: Bool
    /// Assumption (audit 2026-11-25 E14): choosing the copy-text quest on Free shows the paywall. §5's trigger
    /// moments do not name it, so by default it is locked as Pro-only without an upsell.
    public var copyTextPaywall: Bool
    /// Safe caps of Pro's own credit price per minute (seed 003 §5 "configurable pricing (within safe caps)").
    public var proCostPerMinuteRange: ClosedRange<Double>
    /// The longest cooldown a Pro mode may set (the same "safe caps" read for cooldowns).
    public var maxModeCooldownMinutes: Int
    public var questUnlockMinutes: Int
    public var questMaxPerDay: Int
    public var emergencyPerDay: Int
    public var emergencyWait: TimeSpan
    public var emergencyUnlockMinutes: Int
    /// Assumption (inventory §5): seconds of gate UI browsing per gate visit.
    public var gateBrowseSeconds: Int

    /// The credit durations the gate knows. Seed 003 §3 C) "durations: 5/15/30".
    public static let creditDurations = [5, 15, 30]

    /// The seed's defaults.
    public static let defaults = EarnedAccessParameters(values: ParameterValues(defaultsOf: catalogue))

    public init(values v: ParameterValues) {
        trialDays = v.int("trial.days")
        trialPlans = TrialPlans(rawValue: v.text("trial.plans")) ?? .annual
        monthlyPrice = v.money("prices.monthly")
        annualPrice = v.money("prices.annual")
        lifetimeEnabled = v.bool("prices.lifetime_enabled")
        lifetimePrice = v.money("prices.lifetime")
        freeMaxApps = v.int("tiers.free.max_apps")
        freeMaxModes = v.int("tiers.free.max_modes")
        freeMaxUnlockMinutes = v.int("tiers.free.max_unlock_minutes")
        maxShieldedApps = v.int("tiers.max_shielded_apps")
        paywallPlacement = PaywallPlacement(rawValue: v.text("paywall.placement")) ?? .afterOnboarding
        paywallMode = AccessPaywallMode(rawValue: v.text("paywall.mode")) ?? .freemium
        dayBoundary = v.timeOfDay("day.boundary")
        carryoverMax = v.int("credits.carryover_max")
        focusMinutesPerCredit = v.int("focus.minutes_per_credit")
        focusMinMinutes = v.int("focus.min_minutes")
        focusShieldsApps = v.bool("focus.shields_apps")
        habitCredits = v.int("habits.credits")
        habitCreditedPerDay = v.int("habits.credited_per_day")
        streakFocusMinutes = v.int("streak.focus_minutes")
        streakHabits = v.int("streak.habits")
        streakFirstSessionOnly = v.bool("streak.first_session_only")
        streakBonusCredits = v.int("streak.bonus_credits")
        scheduleMinMinutes = v.int("modes.schedule_min_minutes")
        strictCooldown = .minutes(Int64(v.int("modes.strict_cooldown_minutes")))
        creditCostPerMinute = v.double("unlock.credit_cost_per_minute")
        breathingLength = .seconds(Int64(v.int("quest.breathing_seconds")))
        copyTextLength = .seconds(Int64(v.int("quest.copy_text_seconds")))
        copyTextEnabled = v.bool("quest.copy_text_enabled")
        copyTextPaywall = v.bool("paywall.copy_text_trigger")
        let low = v.double("pricing.pro_min_cost_per_minute"), high = v.double("pricing.pro_max_cost_per_minute")
        proCostPerMinuteRange = min(low, high)...max(low, high)
        maxModeCooldownMinutes = v.int("modes.max_cooldown_minutes")
        questUnlockMinutes = v.int("quest.unlock_minutes")
        questMaxPerDay = v.int("quest.max_per_day")
        emergencyPerDay = v.int("emergency.per_day")
        emergencyWait = .seconds(Int64(v.int("emergency.wait_seconds")))
        emergencyUnlockMinutes = v.int("emergency.unlock_minutes")
        gateBrowseSeconds = v.int("energy.gate_browse_seconds")
    }

    /// The price of a plan.
    public func price(of p: ProPlan) -> Money {
        switch p { case .monthly: monthlyPrice; case .annual: annualPrice; case .lifetime: lifetimePrice }
    }

    /// Credits a credits unlock of `minutes` costs (whole credits, rounded up).
    public func creditCost(minutes: Int) -> Int {
        Int((Double(minutes) * creditCostPerMinute).rounded(.up))
    }

    /// Every parameter under its `rules:` key path, with kind, default, summary and source.
    public static let catalogue: [RuleParameter] = {
        let file = EarnedAccessEngine.seedFile
        func seed(_ s: String) -> ParameterSource { .seed(file: file, section: s) }
        let int = RuleParameter.int, bool = RuleParameter.bool
        return [
            int("trial.days", 0...90, 7, "length of the Pro free trial, days", seed("§0 Monetization")),
            RuleParameter("trial.plans", .choice(TrialPlans.allCases.map(\.rawValue)), default: .text(TrialPlans.annual.rawValue),
                          "which subscription plans carry the trial (a store intro offer, one per person, renews into paid unless cancelled)",
                          source: .assumption("§5 Purchase options \"Annual subscription (auto-renew, includes free trial)\" vs §0 \"Pro includes a free trial\" (inventory row 4)")),
            RuleParameter("prices.monthly", .number(6.99...9.99), default: .number(7.99), "Pro monthly price, USD (the seed's range)",
                          source: seed("§5 Pricing suggestion (starter)")),
            RuleParameter("prices.annual", .number(39.99...59.99), default: .number(49.99), "Pro annual price, USD (the seed's range)",
                          source: seed("§5 Pricing suggestion (starter)")),
            bool("prices.lifetime_enabled", false, "whether the lifetime purchase is sold",
                 .assumption("§5 lists Lifetime but says \"Keep it simple: one monthly + one yearly\" and gives no price (inventory row 7)")),
            RuleParameter("prices.lifetime", .number(0...1000), default: .number(99.99), "lifetime price, USD, when sold",
                          source: .assumption("the seed gives no lifetime price (inventory row 7)")),
            int("tiers.free.max_apps", 1...50, 3, "distracting apps Free enforces", seed("§5 Free (forever)")),
            int("tiers.free.max_modes", 1...20, 1, "modes Free allows", seed("§5 Free (forever)")),
            int("tiers.free.max_unlock_minutes", 5...30, 5, "longest credits unlock on Free, minutes", seed("§5 Free (forever)")),
            int("tiers.max_shielded_apps", 1...500, 50, "apps any plan may shield (iOS token cap)",
                .assumption("Pro's \"Unlimited distracting apps\" stops at the OS limit of 50 shielded tokens (inventory row 10)")),
            RuleParameter("paywall.placement", .choice(PaywallPlacement.allCases.map(\.rawValue)), default: .text(PaywallPlacement.afterOnboarding.rawValue),
                          "where the one placed paywall appears (besides the feature gates)",
                          source: .assumption("§9 Phase 3 \"after onboarding or after first 'blocked app' moment\": the choice is open (inventory row 12)")),
            RuleParameter("day.boundary", .timeOfDay, default: .text("04:00"), "local time at which day_id changes", source: seed("§6 Day boundary")),
            int("credits.carryover_max", 0...1000, 10, "credits carried over at the day rollover (the rest expires)", seed("§6 Credits (Focus Bank)")),
            int("focus.minutes_per_credit", 1...60, 5, "completed focus minutes per credit",
                .assumption("§6 Credits \"Earned by focus sessions\" gives no rate (inventory row 22)")),
            int("focus.min_minutes", 1...120, 10, "shortest completed focus session that earns",
                .assumption("the seed is silent (inventory row 23)")),
            bool("focus.shields_apps", true, "whether a running focus session shields the enforced apps",
                 .assumption("the seed is silent (inventory row 23)")),
            int("habits.credits", 0...20, 2, "credits per valid habit completed",
                .assumption("habits are undefined in the seed (inventory row 24)")),
            int("habits.credited_per_day", 0...20, 3, "habits per day_id that earn credits",
                .assumption("habits are undefined in the seed (inventory row 24)")),
            int("streak.focus_minutes", 1...240, 20, "a completed focus session of at least this many minutes qualifies the day", seed("§6 Streak")),
            int("streak.habits", 1...20, 2, "valid (not suspended) habits that qualify the day", seed("§6 Streak")),
            bool("streak.first_session_only", false, "only the day's first completed session can qualify (the literal reading)",
                 .assumption("§6 \"First completed focus session ≥ 20 minutes\" read as any completed session (inventory row 27)")),
            int("streak.bonus_credits", 0...100, 5, "credits of the once-per-day streak bonus",
                .assumption("§6 \"Bonus awarded once per day on first qualification\" gives no amount (inventory row 28)")),
            int("modes.schedule_min_minutes", 1...240, 15, "shortest mode schedule, minutes",
                .assumption("DeviceActivity's minimum interval (intervalTooShort; inventory row 32)")),
            int("modes.strict_cooldown_minutes", 0...240, 15, "Strict: minutes after a grant ends before the next unlock",
                .assumption("§5 names Strict/Hard without semantics; Strict = no quests + cooldown (inventory row 33)")),
            RuleParameter("unlock.credit_cost_per_minute", .number(0.5...3), default: .number(1), "credits per unlocked minute (5/15/30 cost 5/15/30)",
                          source: .assumption("§3 C) gives durations 5/15/30, no prices; §5 \"configurable pricing (within safe caps)\" 0.5–3/min (inventory row 38)")),
            int("quest.breathing_seconds", 10...600, 60, "length of the breathing quest, seconds",
                .assumption("§0 Quests decision: breathing is the default; no length given (inventory row 39)")),
            int("quest.copy_text_seconds", 10...600, 45, "time to copy the text (~150 characters), seconds",
                .assumption("copy-text is optional, no values given (inventory row 40)")),
            bool("quest.copy_text_enabled", true, "whether Pro offers the copy-text quest",
                 .assumption("§0 Quests decision \"Copy-text quest = optional\", \"behind a flag\" in a lean v1.2 (inventory row 40)")),
            RuleParameter("pricing.pro_min_cost_per_minute", .number(0.1...10), default: .number(0.5), "the lowest credit price per minute Pro may set",
                          source: .assumption("§5 \"configurable pricing (within safe caps)\" gives no caps; the inventory's 0.5–3/min (row 38)")),
            RuleParameter("pricing.pro_max_cost_per_minute", .number(0.1...10), default: .number(3), "the highest credit price per minute Pro may set",
                          source: .assumption("§5 \"within safe caps\"; the inventory's 0.5–3/min (row 38)")),
            int("modes.max_cooldown_minutes", 0...1440, 240, "the longest per-mode cooldown Pro may set, minutes",
                .assumption("§5 Pro \"Advanced limits & cooldown controls per mode\" gives no values; a safe cap of 4 h")),
            bool("paywall.copy_text_trigger", false, "whether choosing the copy-text quest on Free shows the paywall (else it is locked without an upsell)",
                 .assumption("§5's paywall moments are the 4th app, the 2nd mode, 15/30-minute unlocks and Strict/Hard; copy-text is not among them (audit 2026-11-25 E14)")),
            int("quest.unlock_minutes", 1...60, 5, "minutes a completed quest unlocks",
                .assumption("no value given (inventory row 39)")),
            int("quest.max_per_day", 0...20, 3, "quest unlocks per day_id (breathing and copy-text together)",
                .assumption("an unlimited free quest would make credits pointless (inventory §6 gap 5)")),
            int("emergency.per_day", 0...5, 1, "emergency unlocks per day_id, across apps and modes", seed("§6 Unlock methods")),
            int("emergency.wait_seconds", 0...600, 60, "foreground wait before an emergency unlock, seconds", seed("§6 Unlock methods")),
            int("emergency.unlock_minutes", 1...60, 5, "minutes an emergency unlock lasts", seed("§6 Unlock methods")),
            int("energy.gate_browse_seconds", 0...120, 10, "seconds of gate UI per visit (energy)",
                .assumption("inventory §5: browsing the gate ~10 s")),
            RuleParameter("paywall.mode", .choice(AccessPaywallMode.allCases.map(\.rawValue)), default: .text(AccessPaywallMode.freemium.rawValue),
                          "freemium: the seed's Free tier works without paying; hard: after onboarding the app does nothing until the person starts the trial or pays",
                          source: .assumption("freemium is seed 003 §5 Recommended tier definition \"Free (forever)\" with §5 Best paywall / trial trigger moments (§0 \"Free is intentionally useful\"); hard is an experiment product teams run, not in the seed (issue 26 item 5)"),
                          listedWhenDefault: false),
        ]
    }()
}
