import RulesCore

/// How the Free share cap counts (inventory C8, assumption): shared items still open, or every share ever saved.
public enum ShareLimitMode: String, Hashable, Sendable, CaseIterable {
    case open, lifetime
}

/// Every rule parameter of the Nudge engine (seed 001), built from a complete set of `rules:` values. Explicit values
/// cite the seed's section; every silent or contradictory spot is an `.assumption(...)` (inventory §2, §6).
public struct NudgeParameters: Hashable, Sendable, EngineParameters {
    // MARK: Capture (seed 001 §4 Feature 1, Feature 2, §7)
    public var freeDumpsPerDay: Int
    public var freeSavedShares: Int
    public var shareLimitMode: ShareLimitMode
    public var recordingCapSeconds: Int
    public var singleItemMaxWords: Int
    // MARK: Nudges (seed 001 §4 Feature 5, §6 AppSettings)
    public var maxNudgesPerDay: Int
    public var quietStartHour: Int
    public var quietEndHour: Int
    public var staleHours: Int
    public var staleNudgeHour: Int
    public var endOfDayHour: Int
    // MARK: Snooze presets (seed 001 §5 Screen 5)
    public var laterTodayHours: Int
    public var tomorrowHour: Int
    public var weekendHour: Int
    public var nextWeekHour: Int
    // MARK: Money (seed 001 §7)
    public var monthlyPrice: Money
    public var annualPrice: Money
    public var trialDays: Int
    // MARK: AI cost (seed 001 §6 API Contracts)
    /// Micro-dollars per million input / output tokens.
    public var priceInPerMillion: Money
    public var priceOutPerMillion: Money
    public var splitTokensIn: Int
    public var splitTokensOut: Int
    public var draftTokensIn: Int
    public var draftTokensOut: Int
    public var promptOverheadTokens: Int
    public var draftsForCallCards: Bool
    // MARK: Paywall (seed 001 §9 Week 4, §5 Screen 4; the teaser is an assumption-option)
    public var draftTeasersPerDay: Int
    // MARK: Live Activity (seed 001 §4 Feature 4b)
    public var liveActivityRestartHours: Int
    // MARK: Energy
    public var shareIngestSeconds: Int

    /// The seed's defaults.
    public static let defaults = NudgeParameters(values: ParameterValues(defaultsOf: catalogue))

    public init(values v: ParameterValues) {
        freeDumpsPerDay = v.int("limits.free_dumps_per_day")
        freeSavedShares = v.int("limits.free_saved_shares")
        shareLimitMode = ShareLimitMode(rawValue: v.text("limits.share_limit_mode")) ?? .open
        recordingCapSeconds = v.int("recording.cap_seconds")
        singleItemMaxWords = v.int("capture.single_item_max_words")
        maxNudgesPerDay = v.int("nudges.max_per_day")
        quietStartHour = v.int("nudges.quiet_start_hour")
        quietEndHour = v.int("nudges.quiet_end_hour")
        staleHours = v.int("nudges.stale_hours")
        staleNudgeHour = v.int("nudges.stale_hour")
        endOfDayHour = v.int("nudges.end_of_day_hour")
        laterTodayHours = v.int("snooze.later_today_hours")
        tomorrowHour = v.int("snooze.tomorrow_hour")
        weekendHour = v.int("snooze.weekend_hour")
        nextWeekHour = v.int("snooze.next_week_hour")
        monthlyPrice = v.money("prices.monthly")
        annualPrice = v.money("prices.annual")
        trialDays = v.int("trial_days")
        priceInPerMillion = v.money("ai.price_in_per_million")
        priceOutPerMillion = v.money("ai.price_out_per_million")
        splitTokensIn = v.int("ai.split_tokens_in")
        splitTokensOut = v.int("ai.split_tokens_out")
        draftTokensIn = v.int("ai.draft_tokens_in")
        draftTokensOut = v.int("ai.draft_tokens_out")
        promptOverheadTokens = v.int("ai.prompt_overhead_tokens")
        draftsForCallCards = v.bool("drafts.for_call_cards")
        draftTeasersPerDay = v.int("paywall.draft_teasers_per_day")
        liveActivityRestartHours = v.int("live_activity.restart_hours")
        shareIngestSeconds = v.int("energy.share_ingest_seconds")
    }

    /// The price of a plan.
    public func price(of p: NudgePlan) -> Money { p == .monthly ? monthlyPrice : annualPrice }

    /// The stale span (`nudges.stale_hours`).
    public var staleSpan: TimeSpan { .hours(Int64(staleHours)) }

    /// Every parameter under its `rules:` key path, with kind, default, summary and source.
    public static let catalogue: [RuleParameter] = {
        let file = NudgeEngine.seedFile
        func seed(_ s: String) -> ParameterSource { .seed(file: file, section: s) }
        let int = RuleParameter.int, bool = RuleParameter.bool
        func number(_ key: String, _ range: ClosedRange<Double>, _ value: Double, _ summary: String, _ source: ParameterSource) -> RuleParameter {
            RuleParameter(key, .number(range), default: .number(value), summary, source: source)
        }
        return [
            int("limits.free_dumps_per_day", 0...50, 3, "brain dumps a Free user may make per local day (Pro: unlimited)",
                seed("§4 Feature 1: Voice Brain Dump \"Free tier limit | 3 brain dumps per day\"; §7 Pricing Model")),
            int("limits.free_saved_shares", 0...100, 5, "shared items a Free user may keep (Pro: unlimited)",
                seed("§4 Feature 2: Share-to-Nudge \"Free tier limit | 5 saved items\"; §7 Pricing Model \"5 total\"")),
            RuleParameter("limits.share_limit_mode", .choice(ShareLimitMode.allCases.map(\.rawValue)), default: .text(ShareLimitMode.open.rawValue),
                          "what the Free share cap counts: shared items still open, or every share ever saved",
                          source: .assumption("§7 \"5 total\" vs §11 targets of 2→5 shares per user per week and §7 \"Free tier is genuinely useful\": open items by default (inventory C8); `lifetime` is the literal reading")),
            int("recording.cap_seconds", 10...300, 55, "longest brain-dump recording; speech beyond it is not recorded",
                seed("§4 Feature 1: Voice Brain Dump \"Cap recording at 55 seconds with a visual countdown\"")),
            int("capture.single_item_max_words", 1...50, 8, "a dump of one thought of at most this many words makes 1 card without an AI call",
                .assumption("§4 Feature 1 \"Single item → create 1 card, no AI call needed\" needs a test before splitting; the AI's own task length \"max 8 words\" (§6 API Contract: Brain Dump Splitting) is used (inventory C20)")),
            int("nudges.max_per_day", 0...10, 3, "nudge notifications per local day, every type together",
                seed("§4 Feature 5: Gentle Nudge Notifications \"Max 3 nudges per day\"; §6 AppSettings maxDailyNudges")),
            int("nudges.quiet_start_hour", 0...23, 21, "local hour quiet hours start (no nudge from then)",
                seed("§4 Feature 5 \"Never after 9pm\"; §5 Screen 4 \"Nudge quiet hours (default: 9pm–8am)\"")),
            int("nudges.quiet_end_hour", 0...23, 8, "local hour quiet hours end; nudges deferred in quiet hours go out then",
                seed("§4 Feature 5 \"Never before 8am\"; deferral to the end is an assumption (inventory R27)")),
            int("nudges.stale_hours", 1...720, 72, "hours since an item was created, resurfaced or edited after which it is stale; also the shortest gap between two stale check-ins about one item",
                .assumption("§3 Design System / §4 Feature 4 \"stale (3+ days untouched)\" read as 72 h since max(created, resurfaced, edited) (inventory C6, R26)")),
            int("nudges.stale_hour", 0...23, 11, "local hour of the Pro stale check-in (about the oldest stale item)",
                .assumption("§4 Feature 5 names the stale check-in without a time (inventory R26)")),
            int("nudges.end_of_day_hour", 0...23, 16, "local hour of the Pro end-of-day prompt (sent when ≥ 1 item is active)",
                .assumption("§4 Feature 5 copy \"It's 4pm — you've got one big thing left\" (inventory R26)")),
            int("snooze.later_today_hours", 1...12, 3, "\"Later today\": hours from now (even past midnight or into quiet hours)",
                seed("§5 Screen 5: Snooze Time Picker \"Later today\" (3 hours)")),
            int("snooze.tomorrow_hour", 0...23, 9, "\"Tomorrow morning\": local hour on the next date",
                seed("§5 Screen 5 \"Tomorrow morning\" (9am)")),
            int("snooze.weekend_hour", 0...23, 10, "\"This weekend\": local hour on Saturday (Sunday when Saturday's has passed; next Saturday on a Sunday)",
                seed("§5 Screen 5 \"This weekend\" (Saturday 10am); the weekend cases are assumptions (inventory R15)")),
            int("snooze.next_week_hour", 0...23, 9, "\"Next week\": local hour on the coming Monday (a week on, on a Monday)",
                seed("§5 Screen 5 \"Next week\" (Monday 9am)")),
            number("prices.monthly", 0.99...99.99, 9.99, "Pro monthly price, USD", seed("§7 Pricing Model")),
            number("prices.annual", 9.99...999.99, 59.99, "Pro annual price, USD", seed("§7 Pricing Model")),
            int("trial_days", 0...30, 0, "length of a free trial before the first charge, days (0: none)",
                .assumption("§7 names no trial (inventory R39)")),
            number("ai.price_in_per_million", 0...100, 0.15, "AI price per million input tokens, USD",
                   seed("§6 API Contract: Brain Dump Splitting \"GPT-4o-mini: $0.15/1M input\"")),
            number("ai.price_out_per_million", 0...100, 0.60, "AI price per million output tokens, USD",
                   seed("§6 API Contract: Brain Dump Splitting \"$0.60/1M output\"")),
            int("ai.split_tokens_in", 0...100_000, 75, "input tokens of one brain-dump split",
                seed("§6 API Contract: Brain Dump Splitting \"~75 tokens input + ~50 tokens output\" (vs §4 Feature 1 \"~$0.001/dump\": inventory C1)")),
            int("ai.split_tokens_out", 0...100_000, 50, "output tokens of one brain-dump split", seed("§6 API Contract: Brain Dump Splitting")),
            int("ai.draft_tokens_in", 0...100_000, 30, "input tokens of one AI draft",
                seed("§6 API Contract: AI Draft Generation \"~30 tokens input + ~40 tokens output\" (vs §4 Feature 7 \"~$0.0001 per draft\": inventory C2)")),
            int("ai.draft_tokens_out", 0...100_000, 40, "output tokens of one AI draft", seed("§6 API Contract: AI Draft Generation")),
            int("ai.prompt_overhead_tokens", 0...10_000, 0, "input tokens of the prompt template added to every AI request",
                .assumption("the seed's cost analyses count only the transcript/task; its prompt templates are ~150 tokens each (inventory C3): 0 as the seed, 150 as a sensitivity arm")),
            bool("drafts.for_call_cards", false, "whether Pro also gets an AI draft for 📞 cards",
                 .assumption("§4 Feature 7 \"When a card has a 💬 or 📧 action\" vs its Example 3 drafting a text for a call (inventory C10)")),
            int("paywall.draft_teasers_per_day", 0...50, 0,
                "locked AI-draft teasers (a paywall on a Free user's 💬/📧 card, once per card) shown per local day; 0: none",
                .assumption("not in seed 001: §9 Week 4 Day 2 names the paywall with \"Free tier limits enforcement (dump count, saved items cap)\" and §5 Screen 4 \"Upgrade to Pro\"; §5 Screen 1 only says \"AI draft preview (Pro)\" and §3 Principle 3 \"Gentle, not aggressive\". Off by default (audit N3); the inventory's teaser (R40) is an option, rate-limited per day when on (scenario nudge-draft-teaser)")),
            int("live_activity.restart_hours", 1...24, 8, "the Live Activity restarts in the background after this many hours",
                seed("§4 Feature 4b \"8-hour max lifetime — auto-restart via `BGAppRefreshTask`\"")),
            int("energy.share_ingest_seconds", 0...60, 3, "foreground seconds to ingest one shared item at the next launch",
                .assumption("§4 Feature 2 gives no figure (inventory §5: ~3 s)")),
        ]
    }()
}
