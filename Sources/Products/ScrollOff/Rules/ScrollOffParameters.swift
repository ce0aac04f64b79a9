import RulesCore

/// Three values of a rule parameter, one per plan tier (Free / Premium / Pro).
public struct TierValues<Value: Hashable & Sendable>: Hashable, Sendable {
    public var free: Value
    public var premium: Value
    public var pro: Value
    public init(free: Value, premium: Value, pro: Value) { self.free = free; self.premium = premium; self.pro = pro }
    /// The value for a tier.
    @inlinable public subscript(_ tier: Tier) -> Value {
        switch tier {
        case .free: return free
        case .premium: return premium
        case .pro: return pro
        }
    }
}

/// Order in which credit lots are spent.
public enum LotOrder: String, Hashable, Sendable, CaseIterable {
    /// Lots that expire first are spent first (the starter credit, which never expires, last).
    case earliestExpiryFirst = "earliest_expiry_first"
    /// Lots that expire last are spent first.
    case latestExpiryFirst = "latest_expiry_first"
}

/// How the app estimates "time saved" (parameter `insights.time_saved_method`; audit 2026-11-25 E5). Seed 000 shows
/// time saved everywhere ("2h 15m saved today", "This week: 12h 48m total • 6 urges resisted", "Instagram: 22h saved")
/// but gives no formula; its figures are usage figures (hours a day against a handful of urges resisted), not a
/// count of wins, and §4 reads usage through DeviceActivity.
public enum TimeSavedMethod: String, Hashable, Sendable, CaseIterable {
    /// A local day's time saved = the person's usage baseline of their blocked apps (the last week before install,
    /// as Screen Time reports it: `ScrollOffInput.usageBaseline`) − the time the app let them spend there that day
    /// (credits spent, peeks, token unlocks), at least 0; credited when the day closes.
    case usageBaseline = "usage_baseline"
    /// The earlier reading: `insights.minutes_saved_per_resisted_urge` per willpower win.
    case perResistedUrge = "per_resisted_urge"
}

/// What makes a local day count toward a streak (parameter `milestones.streak_day_rule`; audit 2026-11 D5).
///
/// Seed 000 never defines a streak day. Its milestones celebrate behaviour — §6.2 "7 days strong — you're proving
/// you can do this", "30-day warrior — that's serious commitment" — so the default reads a streak day as a day of
/// resisting (§8.1 willpower win) without buying a way out (§5.2 tokens are "last resort").
public enum StreakDayRule: String, Hashable, Sendable, CaseIterable {
    /// At least one willpower win (`shield_dismissed_no_spend`) that local day and no emergency token used.
    case willpowerWinNoToken = "willpower_win_no_token"
    /// §5.3's "keep average daily spend ≤ earned" read per day: the earn loop paid at least once, credits spent
    /// (spend and credit peeks) ≤ credits earned that day, and no emergency token used.
    case spendWithinEarnedNoToken = "spend_within_earned_no_token"
    /// The earlier reading, kept for comparison: at least `milestones.streak_min_awards_per_day` earn awards (met
    /// while asleep by anyone who keeps the app installed).
    case earnAward = "earn_award"
}

/// What the app does for a person who has not paid (parameter `paywall.mode`; issue 26 item 5).
public enum PaywallMode: String, Hashable, Sendable, CaseIterable {
    /// Seed 000 §5.1 Tiers: the Free plan ($0, "Try-it") works without paying; §6.1 "Paywall chips (contextual):
    /// Shown when user hits tier limits" are the only paywalls.
    case freemium
    /// Not in seed 000 — an experiment product teams run: after onboarding the app does nothing (no shields, no
    /// earning, no curfews) until the person buys a plan (seed 000 has no trial), and shows the paywall whenever the
    /// person opens it; when the plan lapses or is refunded the app locks again.
    case hard
}

/// Every rule parameter of the Scroll Off engine, with the charter's defaults (seed 000).
///
/// Durations are stored as `TimeSpan`, credit amounts in milliseconds of app time, money as `Money`.
/// `catalogue` lists each one under its scenario key path (`rules:` section), with range, default and source.
public struct ScrollOffParameters: Hashable, Sendable, EngineParameters {
    // MARK: Tiers and prices
    /// Seed 000 §5.1: Free "Block 3 apps".
    public var freeMaxBlockedApps: Int
    /// Seed 000 §7.5: "50-app limit on individual app shields" — Premium/Pro "unlimited apps" stop here.
    public var maxShieldedApps: Int
    /// Seed 000 §5.1: Premium $4.99/mo.
    public var premiumMonthlyPrice: Money
    /// Seed 000 §5.1: Pro $8.99/mo.
    public var proMonthlyPrice: Money
    /// Seed 000 §5.1: Pro $59.99/yr.
    public var proAnnualPrice: Money

    // MARK: Earn
    /// Seed 000 §3.2: "+5:00 credit for each 60 min without opening any blocked app".
    public var earnAward: TimeSpan
    /// Seed 000 §3.2 / §7.4: 60 consecutive minutes of abstinence per award.
    public var earnAbstinence: TimeSpan
    /// Seed 000 §3.2: daily earn caps 45 / 90 / 120 min.
    public var dailyEarnCap: TierValues<TimeSpan>
    /// Seed 000 §3.2: rollover — Free same-day (1 = the earning day only), Premium 3 days, Pro 7 days.
    public var rolloverDays: TierValues<Int>
    /// Assumption: "3-day rollover" counts the earning day (credits earned Monday on Premium expire Thursday 00:00).
    /// When false the earning day is not counted (they expire Friday 00:00). One day always means same-day.
    public var rolloverCountsEarningDay: Bool
    /// Seed 000 §4 / §6.1 / §9: one-time starter credit +2:00 (120 s), excluded from caps and rollover.
    public var starterCredit: TimeSpan
    /// Assumption (§4 vs §6.1): the demo block and its starter credit need ScreenTime authorization — §4 "After
    /// permissions, run a 10-second demo block", while §6.1's flow lists the demo (step 2) before permission (step 5).
    public var starterCreditRequiresAuthorization: Bool
    /// Assumption: merely meeting the shield (and closing it) does not reset the earn counter; only opening the
    /// app itself (credits, peek, token) does. The charter's "any blocked app opened (including peek)" (§7.4).
    public var shieldEncounterResetsEarnCounter: Bool

    // MARK: Spend
    /// Assumption: which credit lots are spent first (default: earliest expiry first, so rollover is not wasted).
    public var lotOrder: LotOrder
    /// Assumption: a credit session paused in the background ends (shield re-applied) after this long.
    public var pausedSessionTimeout: TimeSpan

    // MARK: Cooldown and curfew
    /// Seed 000 §3.3: toggle-on lock 2 h / 1 h / 30 min.
    public var cooldown: TierValues<TimeSpan>
    /// Seed 000 §3.3: curfew window up to 16 hours.
    public var curfewMaxLength: TimeSpan
    /// Seed 000 §3.3 / §7.4: edits locked 30 min before start and during the window.
    public var curfewEditLockLead: TimeSpan
    /// Seed 000 §6.5 / §9: "Curfew starts in 10 minutes" reminder (opt-in, Premium/Pro).
    public var curfewReminderLead: TimeSpan
    /// Assumption: at most this many curfew schedules per user.
    public var curfewMaxSchedules: Int

    // MARK: Bypass ladder
    /// Seed 000 §3.4: a peek lasts 60 s.
    public var peekLength: TimeSpan
    /// Seed 000 §3.4: free peeks per day, Free 1, Premium 2; Pro is an assumption (2, as Premium).
    public var freePeeksPerDay: TierValues<Int>
    /// Seed 000 §3.4: Steps 2–3, two credit-paid peeks per day.
    public var creditPeeksPerDay: Int
    /// Seed 000 §3.4: each credit peek costs 60 s of credit.
    public var creditPeekCost: TimeSpan
    /// Assumption (§3.4 vs §6.1, audit 2026-11 D13): whether the free peek is offered at 0 credits. §6.1's 0-credit
    /// shield says "Only bypass option: Emergency Token ($0.99) if under monthly cap"; §3.4 Step 1 lists the free
    /// peek first. Default false: the specific 0-credit screen governs the general ladder.
    public var freePeekAtZeroCredits: Bool
    /// Assumption: the optional mindfulness step (§3.4 Step 4) is on until the user turns it off — §9 "Mindfulness
    /// prompt appears at Step 4 (when enabled)", "Can be disabled entirely in Settings" (a setting one disables is on);
    /// §3.5 says "Off by default" of "What else?" only. The audit (2026-11 D6) measured off: revenue +7.8 %, token
    /// share 0.631 → 0.655 — a scenario choice worth reporting both ways.
    public var mindfulnessEnabledByDefault: Bool
    /// Seed 000 §4: breath awareness 2 min, 5-4-3-2-1 grounding 2 min, body scan 3 min.
    public var mindfulnessLength: [MindfulnessExercise: TimeSpan]

    // MARK: Tokens
    /// Seed 000 §5.2: Emergency Unblock Token $0.99.
    public var tokenPrice: Money
    /// Seed 000 §5.2: "Maximum 5 tokens purchasable per month (all tiers)".
    public var tokenMonthlyPurchaseCap: Int
    /// Seed 000 §5.2: "Pro includes 3 tokens/month in subscription".
    public var proIncludedTokensPerMonth: Int
    /// Assumption (audit 2026-11 D9): Pro's included tokens count toward the monthly cap of 5 — §5.1 Pro "Emergency
    /// tokens (3/mo included; then $0.99 up to 5/mo)", §9 "Monthly token cap enforced (5 max, Pro includes 3)", §3.4
    /// "hard-capped at 5/month (all plans). Pro includes 3" read as 5 in total; §5.2 "Maximum 5 tokens purchasable
    /// per month" supports the other reading (false: Pro may use 3 + 5).
    public var includedTokensCountTowardCap: Bool
    /// Assumption (§5.2 "Never encourage token purchases (show as last resort only)"): whether a token can be bought
    /// outside the shield (Settings/store). Default false: tokens are bought at the shield's last step only.
    public var tokensPurchasableOutsideShield: Bool
    /// Assumption: an emergency token unlocks the shielded app for this long.
    public var tokenUnlockLength: TimeSpan
    /// Assumption: tokens are a bypass, and §7.4 disables bypasses during curfew, so tokens do not work in curfew.
    public var tokensWorkDuringCurfew: Bool

    // MARK: Anti-tamper
    /// Seed 000 §7.7: a clock rollback of more than 10 min freezes earning for the current day.
    public var clockRollbackThreshold: TimeSpan

    // MARK: Milestones and insights
    /// Seed 000 §6.1 / §8.2: the "7-day streak" milestone.
    public var streakMilestoneDays: Int
    /// Seed 000 §6.1 / §8.2: the "30-day warrior" milestone.
    public var warriorMilestoneDays: Int
    /// Seed 000 §6.1: "Next milestone: 10 more days → 60-day legend".
    public var legendMilestoneDays: Int
    /// Seed 000 §6.1 / §8.2: the "100-hour champion" milestone.
    public var hoursSavedMilestone: Int
    /// Assumption (seed silent, audit 2026-11 D5): what makes a local day a streak day.
    public var streakDayRule: StreakDayRule
    /// Assumption: under `StreakDayRule.earnAward`, a streak day has at least this many (non-starter) earn awards.
    public var streakMinAwardsPerDay: Int
    /// Assumption: the app estimates time saved as this many minutes per resisted urge (shield closed without
    /// spending, or mindfulness that avoided the bypass) — a typical social-app session it prevented.
    public var minutesSavedPerResistedUrge: Int
    /// Assumption (audit 2026-11-25 E5): how time saved is estimated.
    public var timeSavedMethod: TimeSavedMethod

    // MARK: Paywall chips (audit 2026-11-25 E2)
    /// Which tier limits show an upsell chip (`paywall.chips.<context>`). Seed 000 §6.1 "Paywall chips (contextual):
    /// Shown when user hits tier limits" names two: "Unlock unlimited apps → Premium" (the Free app limit) and "Get
    /// 1-hour cooldown → Premium" (the cooldown); they are on by default. Every other chip (the earn cap, the used-up
    /// peek, curfew reminders, per-app wallets, spend caps, locked insights) is an assumption, off by default: there
    /// the limit refuses without an upsell.
    public var chipsShown: Set<PaywallContext>

    // MARK: Paywall mode (issue 26 item 5)
    /// Assumption-option (`paywall.mode`): `freemium` is the seed — §5.1 Tiers' Free plan ($0, "Try-it": Block 3 apps,
    /// 2h cooldown, Cap 45m/day …) works without paying and §6.1's contextual chips upsell it; `hard` is an experiment
    /// product teams run, not in the seed: once onboarding has finished, the app enforces nothing for a person
    /// without a plan and shows the paywall at every opening.
    public var paywallMode: PaywallMode

    /// The charter's defaults.
    public static let defaults = ScrollOffParameters(values: ParameterValues(defaultsOf: catalogue))

    /// Builds the parameters from a complete set of values (every catalogue key present).
    public init(values v: ParameterValues) {
        func mins(_ k: String) -> TimeSpan { .minutes(Int64(v.int(k))) }
        func secs(_ k: String) -> TimeSpan { .seconds(Int64(v.int(k))) }
        freeMaxBlockedApps = v.int("tiers.free.max_blocked_apps")
        maxShieldedApps = v.int("tiers.max_shielded_apps")
        premiumMonthlyPrice = v.money("prices.premium_monthly")
        proMonthlyPrice = v.money("prices.pro_monthly")
        proAnnualPrice = v.money("prices.pro_annual")
        earnAward = mins("earn.award_minutes")
        earnAbstinence = mins("earn.abstinence_minutes")
        dailyEarnCap = TierValues(free: mins("earn.daily_cap_minutes.free"), premium: mins("earn.daily_cap_minutes.premium"), pro: mins("earn.daily_cap_minutes.pro"))
        rolloverDays = TierValues(free: v.int("earn.rollover_days.free"), premium: v.int("earn.rollover_days.premium"), pro: v.int("earn.rollover_days.pro"))
        rolloverCountsEarningDay = v.bool("earn.rollover_counts_earning_day")
        starterCredit = secs("earn.starter_credit_seconds")
        starterCreditRequiresAuthorization = v.bool("earn.starter_credit_requires_authorization")
        shieldEncounterResetsEarnCounter = v.bool("earn.shield_encounter_resets_counter")
        lotOrder = LotOrder(rawValue: v.text("spend.lot_order")) ?? .earliestExpiryFirst
        pausedSessionTimeout = mins("spend.paused_session_timeout_minutes")
        cooldown = TierValues(free: mins("cooldown.minutes.free"), premium: mins("cooldown.minutes.premium"), pro: mins("cooldown.minutes.pro"))
        curfewMaxLength = .hours(Int64(v.int("curfew.max_length_hours")))
        curfewEditLockLead = mins("curfew.edit_lock_lead_minutes")
        curfewReminderLead = mins("curfew.reminder_lead_minutes")
        curfewMaxSchedules = v.int("curfew.max_schedules")
        peekLength = secs("bypass.peek_seconds")
        freePeeksPerDay = TierValues(free: v.int("bypass.free_peeks_per_day.free"), premium: v.int("bypass.free_peeks_per_day.premium"), pro: v.int("bypass.free_peeks_per_day.pro"))
        creditPeeksPerDay = v.int("bypass.credit_peeks_per_day")
        creditPeekCost = secs("bypass.credit_peek_cost_seconds")
        freePeekAtZeroCredits = v.bool("bypass.free_peek_at_zero_credits")
        mindfulnessEnabledByDefault = v.bool("bypass.mindfulness_enabled_by_default")
        mindfulnessLength = [
            .breath: secs("bypass.mindfulness_seconds.breath"),
            .grounding: secs("bypass.mindfulness_seconds.grounding"),
            .bodyScan: secs("bypass.mindfulness_seconds.body_scan"),
        ]
        tokenPrice = v.money("tokens.price_usd")
        tokenMonthlyPurchaseCap = v.int("tokens.monthly_purchase_cap")
        proIncludedTokensPerMonth = v.int("tokens.pro_included_per_month")
        includedTokensCountTowardCap = v.bool("tokens.included_count_toward_cap")
        tokensPurchasableOutsideShield = v.bool("tokens.purchasable_outside_shield")
        tokenUnlockLength = mins("tokens.unlock_minutes")
        tokensWorkDuringCurfew = v.bool("tokens.work_during_curfew")
        clockRollbackThreshold = mins("anti_tamper.rollback_threshold_minutes")
        streakMilestoneDays = v.int("milestones.streak_days")
        warriorMilestoneDays = v.int("milestones.warrior_days")
        legendMilestoneDays = v.int("milestones.legend_days")
        hoursSavedMilestone = v.int("milestones.hours_saved")
        streakDayRule = StreakDayRule(rawValue: v.text("milestones.streak_day_rule")) ?? .willpowerWinNoToken
        streakMinAwardsPerDay = v.int("milestones.streak_min_awards_per_day")
        minutesSavedPerResistedUrge = v.int("insights.minutes_saved_per_resisted_urge")
        timeSavedMethod = TimeSavedMethod(rawValue: v.text("insights.time_saved_method")) ?? .usageBaseline
        chipsShown = Set(PaywallContext.chips.filter { v.bool("paywall.chips.\($0)") })
        paywallMode = PaywallMode(rawValue: v.text("paywall.mode")) ?? .freemium
    }

    /// The price of a plan.
    public func price(of plan: Plan) -> Money {
        switch plan {
        case .premiumMonthly: return premiumMonthlyPrice
        case .proMonthly: return proMonthlyPrice
        case .proAnnual: return proAnnualPrice
        }
    }

    /// Every parameter under its `rules:` key path, with kind, default, summary and source.
    public static let catalogue: [RuleParameter] = {
        let file = ScrollOffEngine.seedFile
        func seed(_ s: String) -> ParameterSource { .seed(file: file, section: s) }
        func usd(_ k: String, _ d: Double, _ s: String, _ src: ParameterSource) -> RuleParameter {
            RuleParameter(k, .number(0...1000), default: .number(d), s, source: src)
        }
        let int = RuleParameter.int, bool = RuleParameter.bool
        return [
            int("tiers.free.max_blocked_apps", 1...50, 3, "apps a Free user may block", seed("§5.1")),
            int("tiers.max_shielded_apps", 1...500, 50, "apps any plan may shield individually (iOS limit)", seed("§7.5")),
            usd("prices.premium_monthly", 4.99, "Premium monthly price, USD", seed("§5.1")),
            usd("prices.pro_monthly", 8.99, "Pro monthly price, USD", seed("§5.1")),
            usd("prices.pro_annual", 59.99, "Pro annual price, USD", seed("§5.1")),
            int("earn.award_minutes", 1...60, 5, "credit minutes awarded per abstinence period", seed("§3.2")),
            int("earn.abstinence_minutes", 1...600, 60, "consecutive minutes without opening a blocked app per award", seed("§3.2")),
            int("earn.daily_cap_minutes.free", 0...1440, 45, "daily earn cap on Free, minutes", seed("§3.2")),
            int("earn.daily_cap_minutes.premium", 0...1440, 90, "daily earn cap on Premium, minutes", seed("§3.2")),
            int("earn.daily_cap_minutes.pro", 0...1440, 120, "daily earn cap on Pro, minutes", seed("§3.2")),
            int("earn.rollover_days.free", 1...60, 1, "days earned credit lives on Free (1 = same day, expires at local midnight)", seed("§3.2")),
            int("earn.rollover_days.premium", 1...60, 3, "rollover days on Premium", seed("§3.2")),
            int("earn.rollover_days.pro", 1...60, 7, "rollover days on Pro", seed("§3.2")),
            bool("earn.rollover_counts_earning_day", true, "whether the earning day counts as the first rollover day",
                 .assumption("the charter's \"3-day rollover\" is read as the earning day plus two more")),
            int("earn.starter_credit_seconds", 0...3600, 120, "one-time starter credit after the onboarding demo, seconds", seed("§4")),
            bool("earn.starter_credit_requires_authorization", true, "whether the demo block and its starter credit need ScreenTime authorization",
                 .assumption("§4 \"After permissions, run a 10-second demo block\" vs §6.1's flow (demo before permission); iOS cannot shield without authorization")),
            bool("earn.shield_encounter_resets_counter", false, "whether meeting the shield (without opening the app) resets the earn counter",
                 .assumption("§7.4 resets on a blocked app *opened*; a shield closed unopened is a willpower win, not an open")),
            RuleParameter("spend.lot_order", .choice(LotOrder.allCases.map(\.rawValue)), default: .text(LotOrder.earliestExpiryFirst.rawValue),
                          "which credit lots are spent first", source: .assumption("charter silent; spending soonest-expiring credit first is what a user-friendly wallet does")),
            int("spend.paused_session_timeout_minutes", 1...1440, 10, "a credit session paused in the background ends after this many minutes",
                .assumption("charter pauses and resumes spend (§7.4) but never says when a paused session ends")),
            int("cooldown.minutes.free", 0...1440, 120, "unblock lock after blocking an app on Free, minutes", seed("§3.3")),
            int("cooldown.minutes.premium", 0...1440, 60, "unblock lock on Premium, minutes", seed("§3.3")),
            int("cooldown.minutes.pro", 0...1440, 30, "unblock lock on Pro, minutes", seed("§3.3")),
            int("curfew.max_length_hours", 1...24, 16, "longest curfew window, hours", seed("§3.3")),
            int("curfew.edit_lock_lead_minutes", 0...1440, 30, "curfew edits lock this many minutes before start", seed("§3.3")),
            int("curfew.reminder_lead_minutes", 0...1440, 10, "opt-in curfew reminder lead, minutes", seed("§6.5")),
            int("curfew.max_schedules", 1...20, 3, "curfew schedules per user", .assumption("charter shows one schedule UI; a few are allowed")),
            int("bypass.peek_seconds", 1...3600, 60, "length of a peek, seconds", seed("§3.4")),
            int("bypass.free_peeks_per_day.free", 0...20, 1, "free peeks per local day on Free", seed("§3.4")),
            int("bypass.free_peeks_per_day.premium", 0...20, 2, "free peeks per local day on Premium", seed("§3.4")),
            int("bypass.free_peeks_per_day.pro", 0...20, 2, "free peeks per local day on Pro",
                .assumption("charter names Free 1 and Premium 2 only; Pro gets Premium's 2")),
            int("bypass.credit_peeks_per_day", 0...20, 2, "credit-paid peeks per local day (ladder steps 2–3)", seed("§3.4")),
            int("bypass.credit_peek_cost_seconds", 0...3600, 60, "credit cost of a credit-paid peek, seconds", seed("§3.4")),
            bool("bypass.free_peek_at_zero_credits", false, "whether the free peek is offered when the user has 0 credits",
                 .assumption("§6.1 at 0 credits \"Only bypass option: Emergency Token\" governs §3.4 Step 1's general ladder (audit D13)")),
            bool("bypass.mindfulness_enabled_by_default", true, "whether the mindfulness step (ladder step 4) is on before the user changes it",
                 .assumption("charter calls the step optional; §9 \"Can be disabled entirely in Settings\" reads as on until disabled (\"Off by default\" is said of \"What else?\" only); off moved revenue +7.8 % in the audit (D6)")),
            int("bypass.mindfulness_seconds.breath", 1...3600, 120, "breath awareness exercise length, seconds", seed("§4")),
            int("bypass.mindfulness_seconds.grounding", 1...3600, 120, "5-4-3-2-1 grounding length, seconds", seed("§4")),
            int("bypass.mindfulness_seconds.body_scan", 1...3600, 180, "body scan length, seconds", seed("§4")),
            usd("tokens.price_usd", 0.99, "emergency token price, USD", seed("§5.2")),
            int("tokens.monthly_purchase_cap", 0...100, 5, "emergency tokens purchasable per calendar month, all plans", seed("§5.2")),
            int("tokens.pro_included_per_month", 0...100, 3, "tokens included with Pro each month", seed("§5.2")),
            bool("tokens.included_count_toward_cap", true, "whether Pro's included tokens count toward the monthly cap of 5",
                 .assumption("§5.1 Pro \"3/mo included; then $0.99 up to 5/mo\", §9 \"5 max, Pro includes 3\", §3.4 read as 5 in total; §5.2 \"5 tokens purchasable\" supports the other reading (audit D9)")),
            bool("tokens.purchasable_outside_shield", false, "whether an emergency token can be bought outside the shield",
                 .assumption("§5.2 \"Never encourage token purchases (show as last resort only)\": bought at the shield's last step")),
            int("tokens.unlock_minutes", 1...1440, 15, "how long an emergency token unlocks the shielded app, minutes",
                .assumption("charter never says what a token grants; a 15-minute unlock of the app at the shield")),
            bool("tokens.work_during_curfew", false, "whether emergency tokens bypass an active curfew",
                 .assumption("§7.4: during curfew \"bypasses disabled\"; tokens are the ladder's last bypass")),
            int("anti_tamper.rollback_threshold_minutes", 1...1440, 10, "a clock rollback longer than this freezes earning for the day", seed("§7.7")),
            int("milestones.streak_days", 1...365, 7, "the streak milestone, days", seed("§8.2")),
            int("milestones.warrior_days", 1...365, 30, "the warrior milestone, days", seed("§8.2")),
            int("milestones.legend_days", 1...3650, 60, "the legend milestone, days", seed("§6.1")),
            int("milestones.hours_saved", 1...10000, 100, "the hours-saved milestone", seed("§8.2")),
            RuleParameter("milestones.streak_day_rule", .choice(StreakDayRule.allCases.map(\.rawValue)),
                          default: .text(StreakDayRule.willpowerWinNoToken.rawValue), "what makes a local day count toward a streak",
                          source: .assumption("charter never defines a streak day; its milestones celebrate behaviour (§6.2 \"you're proving you can do this\"): ≥ 1 willpower win and no token (audit D5)")),
            int("milestones.streak_min_awards_per_day", 1...24, 1, "earn awards a local day needs under streak_day_rule earn_award",
                .assumption("the earlier streak reading (a day on which the earn loop paid), kept for comparison")),
            int("insights.minutes_saved_per_resisted_urge", 0...240, 10, "minutes of time saved the app credits per resisted urge (insights.time_saved_method per_resisted_urge)",
                .assumption("charter shows \"time saved\" but not its formula; one avoided social-app session ≈ 10 min")),
            RuleParameter("insights.time_saved_method", .choice(TimeSavedMethod.allCases.map(\.rawValue)), default: .text(TimeSavedMethod.usageBaseline.rawValue),
                          "how the app estimates time saved",
                          source: .assumption("charter shows \"time saved\" as usage (\"12h 48m total • 6 urges resisted\", per-app hours) with no formula; usage_baseline = last week's usage of the blocked apps − today's allowed use (DeviceActivity, §4); per_resisted_urge = the earlier 10 min a win (audit 2026-11-25 E5)")),
        ] + PaywallContext.chips.map { c in
            c.isChartersChip
                ? bool("paywall.chips.\(c)", true, "whether the \(c) limit shows its upsell chip", seed("§6.1 Paywall chips"))
                : bool("paywall.chips.\(c)", false, "whether the \(c) limit shows an upsell chip",
                       .assumption("§6.1 names only the app-limit and cooldown chips; elsewhere the limit refuses without an upsell (audit 2026-11-25 E2)"))
        } + [
            RuleParameter("paywall.mode", .choice(PaywallMode.allCases.map(\.rawValue)), default: .text(PaywallMode.freemium.rawValue),
                          "freemium: the seed's Free tier works without paying; hard: after onboarding the app does nothing until the person pays",
                          source: .assumption("freemium is seed 000 §5.1 Tiers (Free $0 \"Try-it\": Block 3 apps …) with §6.1 Paywall chips; hard is an experiment product teams run, not in the seed (issue 26 item 5)"),
                          listedWhenDefault: false),
        ]
    }()
}
