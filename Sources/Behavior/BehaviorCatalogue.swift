import Foundation
import RulesCore

/// Every model constant that decides business figures (churn, engagement, onboarding, purchases, refunds, the shield
/// choice), published as scenario parameters (issue 14): a scenario's `behavior:` block, an arm's `behavior:`,
/// `sweep: behavior.<key>`, `habitat run --set behavior.<key>=<number>` and a calibration move them.
///
/// The defaults are exactly the literals the models used before they became parameters, so a run at the defaults
/// is byte-identical to one before. Ranges are wide on purpose: a fit moves them. `BehaviorValues` carries one set
/// of values into the models (`ShieldChoiceModel(values:)`, `PurchaseModel(values:)`, `EngagementModel(values:)`,
/// `OnboardingModel(values:)`), read once into stored properties.
///
/// The types are `RuleParameter` (every kind is `.number`) so that scenario validation, sweeps and
/// `validate --explain` treat them like rule parameters.
public enum BehaviorCatalogue {
    /// The source of a parameter no publication gives: an assumption a calibration moves.
    public static let defaultSource = ParameterSource.assumption("no published figure; a calibration target")

    private static func p(_ key: String, _ componentValue: Double, _ range: ClosedRange<Double>, _ summary: String,
                          _ source: ParameterSource = defaultSource) -> RuleParameter {
        parameter(key, componentValue, range, summary, source)
    }

    /// A behaviour parameter with its component value, range, summary and source — or, for a key a fit set
    /// (`fittedDefaults`), the fitted default with the fit as its source (the component value kept in the summary).
    /// Every catalogue entry is made here, the generic ones and those a product declares in its own folder
    /// (`ProductAdapter.behaviorParameterGroups`, issue 42), so a fitted key keeps its default and source wherever
    /// it is declared.
    public static func parameter(_ key: String, _ componentValue: Double, _ range: ClosedRange<Double>, _ summary: String,
                                 _ source: ParameterSource = defaultSource) -> RuleParameter {
        guard let fitted = fittedDefaults[key] else {
            return RuleParameter(key, .number(range), default: .number(componentValue), summary, source: source)
        }
        return RuleParameter(key, .number(range), default: .number(fitted), summary + " (component value \(componentValue))",
                             source: .publication(fittedSource(key)))
    }

    /// The fits that set today's defaults, newest first (Calibration/README.md). Issue 26's joint fit of Scroll Off and
    /// Earned Access (`Calibration/joint/`) set none since issue 39: its keys were re-fitted or, where no target pins
    /// them, returned to their literature values.
    enum Fit: CaseIterable {
        /// Issue 39: Scroll Off, Earned Access and Nudge jointly at 90 days (`Calibration/why-people-stay/`).
        case whyPeopleStay
        /// Issue 14: Scroll Off alone (`Calibration/stages/`, `Calibration/default-fit/`), for keys no later fit moved.
        case scrollOffAlone

        var source: String {
            switch self {
            case .whyPeopleStay:
                "fitted (issue 39) to Adjust 2023 retention (app opened) and RevenueCat SOSA 2025–26 conversion, renewal, refund and "
                    + "revenue figures, jointly for Scroll Off, Earned Access and Nudge at 90 days, pinned by its targets "
                    + "(Calibration/why-people-stay/, identifiability.csv)"
            case .scrollOffAlone:
                "fitted (issue 14) to Adjust 2023 retention and RevenueCat SOSA figures for Scroll Off alone (Calibration/stages/, "
                    + "Calibration/default-fit/); not re-fitted since"
            }
        }
    }

    /// Which fit set each fitted default.
    static let fitOf: [String: Fit] = {
        var m: [String: Fit] = [:]
        for k in ["churn.engagement_weight", "churn.frustration_weight", "engagement.app_open_habit_daily_retention",
                  "engagement.app_open_habit_gain", "engagement.value_daily_retention", "purchase.surplus_weight",
                  "shield.constant.buy_token"] { m[k] = .scrollOffAlone }
        for k in whyPeopleStayKeys { m[k] = .whyPeopleStay }
        return m
    }()

    /// Where a fitted default comes from (`validate --explain`).
    static func fittedSource(_ key: String) -> String { fitOf[key]!.source }   // every fitted key has its fit (tested)

    /// The keys issue 39's fit set: those its targets pin (`Calibration/why-people-stay/*/identifiability.csv`).
    static let whyPeopleStayKeys: Set<String> = [
        "churn.base_hazard", "churn.value_weight", "retention.trying_share", "retention.trying_daily_drop",
        "engagement.novelty_start", "dormant.come_back_constant", "engagement.app_open_per_pickup_scale",
        "engagement.frustration.detour", "engagement.cue.notification",
        // block B (money)
        "purchase.buy_constant", "purchase.trial_intercept", "purchase.trial_start_boost", "purchase.renew_intercept",
        "engagement.plans_view_probability",
    ]

    /// The behaviour parameters today's fits leave unpinned (`habitat sensitivity --unpinned`): issue 39's fit found no
    /// target moving `purchase.inertia`, `purchase.cancel_at_trial_start`, `dormant.leave_constant` and
    /// `refund.value_weight` (they keep their literature values), and `purchase.renew_intercept` is pinned only by
    /// first renewals, which a fit of 1,000 people counts in tens (`Calibration/why-people-stay/money/`).
    public static let unpinnedKeys = ["purchase.renew_intercept", "purchase.inertia", "purchase.cancel_at_trial_start",
                                      "dormant.leave_constant", "refund.value_weight"]

    /// The defaults the end-to-end fits set, value for value (a test holds them equal to the committed fits): issue 14's
    /// (`Calibration/stages/stage-4/`, `Calibration/default-fit/`) and issue 39's (`Calibration/why-people-stay/`). A key no target pins keeps its component value
    /// and its literature source (issue 39: `purchase.inertia`, `purchase.cancel_at_trial_start`,
    /// `dormant.leave_constant` and `refund.value_weight` — no target of the fit pins them). Every other key keeps its component
    /// value — the literal the model had before it became a parameter, which the model's own `init()` still uses for
    /// component tests.
    public static let fittedDefaults: [String: Double] = [
        // Issue 14's fit (Scroll Off alone), kept where no later fit moved the key.
        "churn.engagement_weight": 1.506,
        "churn.frustration_weight": 2.721,
        "engagement.app_open_habit_daily_retention": 0.9996,
        "engagement.app_open_habit_gain": 0.0268,
        "engagement.value_daily_retention": 0.9373,
        "purchase.surplus_weight": 2.171,
        "shield.constant.buy_token": -9.418,
        // Issue 39's fit, block A (why people stay): Calibration/why-people-stay/retention-2/fitted-behavior.yaml over
        // retention/ (novelty from the first stage).
        "churn.base_hazard": 0.3621,
        "churn.value_weight": 1.36,
        "retention.trying_share": 0.8445,
        "retention.trying_daily_drop": 0.6686,
        "engagement.novelty_start": 0.1604,
        "dormant.come_back_constant": 1.23,
        "engagement.app_open_per_pickup_scale": 0.07543,
        "engagement.frustration.detour": 0.003273,
        "engagement.cue.notification": 2.345,
        // Issue 39's fit, block B (money): Calibration/why-people-stay/money/fitted-behavior.yaml.
        "engagement.plans_view_probability": 0.10383704834359853,
        "purchase.buy_constant": -4.75763266744698,
        "purchase.renew_intercept": -0.10123724778467036,
        "purchase.trial_intercept": -0.520910000665932,
        "purchase.trial_start_boost": 1.2906658558557709,
    ]

    /// Churn hazard and its weights (`EngagementModel.churnHazardPerDay`).
    static let churn: [RuleParameter] = [
        p("churn.base_hazard", 0.08, 0...1,
          "churn hazard per day at zero frustration, value felt and app-open habit",
          .assumption("≈ Adjust 2023 D30 for ordinary apps when nothing engages the person")),
        p("churn.frustration_weight", 2.5, 0...20, "log-hazard per unit of frustration (0…1)"),
        p("churn.value_weight", 3.0, 0...20, "log-hazard lowered per unit of perceived value (0…1)"),
        p("churn.engagement_weight", 1.5, 0...20, "log-hazard lowered per unit of app-open habit (0…1)"),
        p("churn.paying_hazard_ratio", 0.5, 0...1,
          "churn hazard of a person paying for the product now (a paid period running, not a trial), as a share of the hazard of one who is not",
          .assumption("having paid is a reason to stay (sunk cost, commitment; issue 38, audit N9: subscribers used to leave as if they had not paid); half, until issue 39's joint fit")),
        p("churn.split.uninstall", 0.35, 0.001...1, "relative weight of uninstalling among ways of leaving"),
        p("churn.split.revoke_access", 0.15, 0.001...1, "relative weight of revoking Screen Time access among ways of leaving"),
        p("churn.split.dormant", 0.5, 0.001...1, "relative weight of going dormant (app kept, never opened) among ways of leaving"),
    ]

    /// Why people stay (issue 39): some installs only try the app and drop it in a day or two whatever it gives; the
    /// rest weigh what it gives against what it costs (`churn.*`, `engagement.*`).
    static let retention: [RuleParameter] = [
        p("retention.trying_share", 0.0, 0...1,
          "share of installs who only try the app (curiosity): they drop it at retention.trying_daily_drop a day whatever it gives",
          .assumption("the shape of every published install-cohort curve (Adjust 2023: D1 ≈ 26 %, D7 ≈ 13 %, D30 ≈ 5 % for all apps) is steep first days and a slow tail, which a population mixing people who only try with people who adopt produces (Fader & Hardie 2007, heterogeneity makes a cohort's hazard fall); the share is fitted jointly")),
        p("retention.trying_daily_drop", 0.6, 0...1,
          "daily chance that a person who only tries the app drops it (leaves by one of the churn kinds)",
          .assumption("\"never comes back after the first day or two\": about 0.6 a day drops 84 % within two days; fitted jointly")),
    ]

    /// Frustration, perceived value and the app-open habit (`EngagementModel`), and opening the app in the adapter.
    static let engagement: [RuleParameter] = [
        p("engagement.novelty_start", 0.3, 0...1,
          "value felt at install from the app being new (novelty), fading by engagement.novelty_daily_retention a day; what the product gives adds to it",
          .assumption("the former literal start of value felt (0.3); novelty effects in new technology fade within weeks (e.g. Shin et al. 2019 on wearables); fitted jointly")),
        p("engagement.novelty_daily_retention", 0.93, 0...1, "share of novelty left after a day",
          .assumption("as engagement.value_daily_retention's component value: novelty fades like value felt")),
        p("engagement.frustration_daily_retention", 0.8, 0...1, "share of frustration left after a day"),
        p("engagement.value_daily_retention", 0.93, 0...1, "share of perceived value left after a day"),
        p("engagement.app_open_habit_gain", 0.05, 0...1, "share of the app-open habit's headroom an app open adds"),
        p("engagement.app_open_habit_daily_retention", 0.97, 0...1, "share of the app-open habit left per day without an open (after the first)"),
        p("engagement.frustration.shield_refused", 0.04, 0...1, "frustration step of a refused shield (share of headroom, × (0.5 + sensitivity))"),
        p("engagement.frustration.paywall_hit", 0.10, 0...1, "frustration step of hitting a paywall"),
        p("engagement.value.earned_credit", 0.01, 0...1, "perceived-value step of earning credit (share of headroom)"),
        p("engagement.value.resisted_urge", 0.03, 0...1, "perceived-value step of a resisted urge"),
        p("engagement.value.per_minute_saved", 0.002, 0...1, "perceived-value step per minute saved"),
        p("engagement.value.minutes_saved_cap", 0.2, 0...1, "largest perceived-value step of one minutes-saved event"),
        p("engagement.cue.none", 0.05, 0...10, "strength of opening the app with no cue (P = 1 − exp(−cue·(0.2 + 2·habit + value)))"),
        p("engagement.cue.notification", 0.6, 0...10, "cue strength of a notification"),
        p("engagement.cue.after_shield", 0.3, 0...10, "cue strength right after a shield"),
        p("engagement.app_open_per_pickup_scale", 0.05, 0...1,
          "share of a cue episode a pickup is: app-open probability per pickup = cue probability × this (Scroll Off adapter)",
          .assumption("tuned so that day-1 activity lands near Adjust 2023 D1 ≈ 25 %")),
        p("engagement.insight_view_probability", 0.15, 0...1, "probability of looking at an insight when opening the app (funnel A6; Scroll Off adapter)"),
    ]

    /// Onboarding step completion at tech comfort 0.5: p = base^(1.5 − comfort) (`OnboardingModel`).
    static let onboarding: [RuleParameter] = [
        p("onboarding.completion.informational", 0.97, 0...1, "completion of an informational step (the demo block) at tech comfort 0.5"),
        p("onboarding.completion.permission", 0.80, 0...1, "completion of the Screen Time permission step at tech comfort 0.5 (else dormant)"),
        p("onboarding.completion.configuration", 0.90, 0...1,
          "completion of a configuration step at tech comfort 0.5 (the planning step uses the persona's planning_step_completion)"),
        p("onboarding.completion.payment", 0.25, 0...1, "completion of a payment step at tech comfort 0.5 (not an onboarding step of Scroll Off)"),
        p("onboarding.strict_block_share", 0.15, 0...1,
          "share of people who, setting up a block that offers a strictness, ask for a strict one (fewer ways through, a cooldown)",
          .assumption("no published figure; audit 2026-11-25 E13: no one ever chose Strict or Hard")),
        p("onboarding.hard_block_share", 0.05, 0...1,
          "share of people who ask for the hardest block offered (an emergency exit only); drawn before the strict share",
          .assumption("no published figure; audit 2026-11-25 E13")),
    ]

    /// Paywall buy, upgrade, renewal, trial and token utilities (`PurchaseModel`).
    static let purchase: [RuleParameter] = [
        p("purchase.buy_constant", -2.8, -20...20, "utility constant of buying any offer at a paywall (not buying is 0)"),
        p("purchase.trial_start_boost", 8.0, -20...40,
          "utility added to a paywall offer that starts with a free trial (nothing paid now; no trial in Scroll Off)",
          .assumption("not yet fitted; Earned Access's trial → paid and download → paid figures are its targets")),
        p("purchase.surplus_weight", 2.0, 0...20, "weight of ln(WTP·(0.5 + value) / monthly-equivalent price) in a buy"),
        p("purchase.discount_weight", 1.2, 0...20, "weight of ln(period·same-tier monthly / price) for a longer period",
          .assumption("transaction utility, Thaler 1985; weight not calibrated")),
        p("purchase.annual_constant", -0.8, -20...20, "utility constant of committing to a period longer than a month"),
        p("purchase.annual_value_weight", 1.0, -20...20, "weight of (value − 0.5) when committing to a longer period"),
        p("purchase.tier_weight", 1.0, 0...20, "tier value: rank·weight·ln(1 + WTP·(0.5 + value)/tier_scale_usd)",
          .assumption("vertical differentiation, Mussa & Rosen 1978; weight not calibrated")),
        p("purchase.tier_scale_usd", 5.0, 0.01...1000, "WTP (USD/month) at which the tier term is ln 2 per rank"),
        p("purchase.upgrade_constant", -2.0, -20...20, "status-quo bias: added to every higher-tier offer a subscriber weighs",
          .assumption("Samuelson & Zeckhauser 1988 report a strong status-quo preference; the size is a guess")),
        p("purchase.reason_boost.usage_cap_reached", 0.5, -20...20, "buy utility added at a paywall raised by a usage cap met in an urge (no such paywall in Scroll Off)"),
        p("purchase.reason_boost.tier_limit", 0.3, -20...20, "buy utility added at a paywall raised by a tier's count limit"),
        p("purchase.renew_intercept", log(0.56 / 0.44), -20...20,
          "log-odds of a first monthly renewal at value 0.5 and WTP = price (default logit 0.56)", .assumption("docs/DESIGN.md: 56 %")),
        p("purchase.trial_intercept", log(0.36 / 0.64), -20...20,
          "log-odds of trial → paid at value 0.5 and WTP = price (default logit 0.36; no trial in Scroll Off)",
          .publication("RevenueCat 2025–26: 34–38 %")),
        p("purchase.loyalty_boost", 0.8, -20...20, "log-odds added to later and annual renewals"),
        p("purchase.inertia", 0.3, 0...1,
          "probability that a person who decides to cancel a trial or a renewal does not get round to it before the charge (auto-renewal inertia)",
          .assumption("Miller, Sahni & Strulov-Shlain 2023 (newspapers): 53–75 % fail to take a wanted action within a month; DellaVigna & Malmendier 2006: 2.3 months from the last gym visit to cancelling. Set lower because an app store puts cancelling one tap away; the joint fit moves it")),
        p("purchase.cancel_at_trial_start", 0.3, 0...1,
          "share of people who, knowing they may forget, cancel a trial's auto-renewal as it starts unless they mean to keep it then (the trial runs on unpaid)",
          .publication("Miller, Sahni & Strulov-Shlain 2023: 24–36 % of consumers avoid auto-renewal when offered (sophisticated inertia)")),
        p("purchase.integration_weight", 1.0, 0...20,
          "value felt added, at a keep-or-cancel decision, per unit of the product's integration into the day (a habit of use built on days in use)",
          .assumption("usage during a trial predicts conversion (Datta, Foubert & Van Heerde 2015; Foubert & Gijsbrechts 2016); the weight is a guess")),
        p("purchase.renew_value_weight", 3.0, 0...20, "log-odds of renewal and trial conversion per unit of (value − 0.5)"),
        p("purchase.renew_price_weight", 1.0, 0...20, "log-odds of renewal and trial conversion per unit of ln(WTP / monthly price)"),
        p("purchase.token_constant", -2.0, -20...20, "log-odds constant of buying a one-off token outside a shield (not read by Scroll Off)"),
        p("purchase.token_urge_weight", 3.0, 0...20, "log-odds of buying a one-off token per unit of urge (not read by Scroll Off)"),
    ]

    /// Refund requests (`PurchaseModel.refundProbability`); the per-person propensity is a persona parameter.
    static let refund: [RuleParameter] = [
        p("refund.value_weight", 3.0, 0...20, "log-odds of asking for a refund lowered per unit of (value − 0.5)"),
    ]

    /// The multinomial logit at a shield (`ShieldChoiceModel`).
    static let shield: [RuleParameter] = [
        p("shield.notice_seconds", 5, 0...120, "seconds a shield holds a person before they can answer it: the interruption every shield is (lets a habitual urge go, `urges.reflection_seconds`)",
          .assumption("reading a one-screen shield; no published figure")),
        p("shield.urge_weight", 3.0, 0...20, "acting utility per unit of urge × fulfilment"),
        p("shield.habit_weight", 1.0, 0...20, "acting utility per unit of scrolling habit × fulfilment"),
        p("shield.efficacy_weight", 2.0, 0...20, "acting utility lowered per unit of self-efficacy (× deliberation); half of it raises mindfulness"),
        p("shield.resist_weight", 1.5, 0...20, "acting utility lowered per unit of the resist habit (× deliberation)"),
        p("shield.price_weight", 1.5, 0...20, "acting utility lowered per unit of price / WTP (× deliberation)"),
        p("shield.scarcity_weight", 1.0, 0...20, "acting utility lowered per unit of credit scarcity × cost (× deliberation)"),
        p("shield.friction_weight", 0.6, 0...20, "utility lowered per minute of friction (cooldowns, exercises)"),
        p("shield.frustration_weight", 3.0, 0...20, "give-up utility per unit of frustration"),
        p("shield.habit_deliberation_cut", 0.5, 0...1, "share of deliberation a full habit removes (D = 1 − cut·habit)"),
        p("shield.mindfulness_effect", 1.0, 0...20, "acting utility lowered by a completed exercise"),
        p("shield.mindfulness_constant", -0.8, -20...20, "utility constant of choosing a mindfulness exercise"),
        p("shield.give_up_constant", -4.0, -20...20, "utility constant of giving up on the blocker at a shield"),
        p("shield.temperature", 1.0, 0.01...100, "logit temperature (higher: choices closer to uniform)"),
        p("shield.plan_effect_max", 0.65 * Double.pi / 3.0.squareRoot(), 0...20,
          "largest lowering of acting from if-then plans (0.65·π/√3)",
          .publication("Gollwitzer & Sheeran 2006: d = 0.65, as ln OR = d·π/√3 (Chinn 2000)")),
        p("shield.plan_effect_decay", 0.5, 0...1, "share of the remaining plan effect each further plan leaves unrealised"),
        p("shield.walk_away_share", 0.2, 0...1,
          "share of the shields a person does not act on that they leave without tapping Close (home, another app, phone locked): the app sees an abandoned shield, no win",
          .assumption("no published figure; iOS shields can be left without a button (audit 2026-11-25 E6)")),
    ]

    /// Urges: their kinds, the habit they feed, and letting go at an interruption (`UrgeModel`, `AppHabits`; issue 26).
    static let urges: [RuleParameter] = [
        p("urges.intended_floor", 0.5, 0...5,
          "intended urges for an app per unit of urge share whatever its habit (its habitual urges are the habit's strength): the habitual share of urges is h / (floor + h)",
          .assumption("0.5 keeps the former urge rate (0.5 + habit); at the mean starting habit 0.67, 57 % of urges are habitual — Cho et al. 2021 report at least partial regret in about 60 % of sessions, Lukoff et al. 2018 tie habitual use to meaningless use")),
        p("urges.habit_residual_share", 0.3, 0...1, "share of an app habit's plateau that its decay levels off at when every urge passes",
          .assumption("Edgren et al. 2024: decay levels off above zero; 0.3 as the habit model's residual")),
        p("urges.reflection_seconds", 20, 0.1...600,
          "τ: seconds of interruption over which reflection engages (P(let go) = (1 − e^(−s/τ))·k·(1 − urge))",
          .assumption("Kim et al. 2019 (LocknType): a bare lock-out pause stopped 13.1 % of launches, 30 typed digits 47.5 % — the direction, not fitted")),
        p("urges.intended_let_go_factor", 0.25, 0...1, "k of an intended urge (a habitual one is 1): how much less an interruption lets a wanted urge go",
          .assumption("friction acts mainly on habitual use (Lyngs et al. 2019 review); no published ratio")),
        p("urges.pickup_follows_actual_session", 1, 0...1,
          "1: a session ends when the person actually puts the phone down — a shield that holds ends it after its notice, exercise, quest or wait; a session got into ends at its intended end or when access is taken away — and the next pickup (base rate and Hawkes excitation), the under-30-s count and the world check's gaps follow that end; 0: the former model, every session its intended length whatever the product did",
          .assumption("the pickup process is one of gaps between sessions (the phone cannot be picked up while in use, and most returns after a session are new sessions: van Berkel et al. 2016, CHI, 'A systematic assessment of smartphone usage gaps'); a shield that holds leaves a brief check of a few seconds — the checking habit's brief inspection, a typical check under 30 s (Oulasvirta et al. 2012) — so the person's free time, and the chance of the next check, start there. No published figure for how much sooner a blocked person re-checks: the channel's size is the model's")),
    ]

    /// Dormant people (the app kept, never opened, its blocking on) still meet its shields, and at the end of every
    /// local day they decide: stay dormant, lift the blocking, uninstall, or come back (`DormantModel`; issue 39: every
    /// day, not only on a day with a shield, so a dormant person with no shields is not frozen for life).
    static let dormant: [RuleParameter] = [
        p("dormant.leave_constant", -2.5, -20...20, "log-odds (against staying) of leaving on a day as a dormant person, before frustration and the day's shields",
          .assumption("no published figure: an app kept but unused is cleaned out in time (storage, a new phone); fitted jointly with the retention curves it shapes")),
        p("dormant.frustration_weight", 3.0, 0...20, "log-odds of leaving per unit of frustration"),
        p("dormant.shields_weight", 0.5, 0...20, "log-odds of leaving per unit of ln(1 + shields met that day)"),
        p("dormant.value_weight", 3.0, 0...20, "log-odds of leaving lowered, and of coming back raised, per unit of value felt"),
        p("dormant.come_back_constant", -6.0, -20...20, "log-odds (against staying) of opening the app again and using it",
          .assumption("no published figure; reactivation of lapsed app users is a few % a week (assumption)")),
        p("dormant.uninstall_share", 0.5, 0...1, "share of dormant people leaving who uninstall (the rest lift the blocking and keep the app)"),
    ]

    /// Things to do by the person's own means (`TaskModel`, issue 29).
    static let tasks: [RuleParameter] = [
        p("tasks.delay_mean_hours", 10, 0.1...500,
          "mean hours a remembered thing of 10 minutes' effort is put off (average person, empty list)",
          .assumption("no published time-to-start for everyday to-dos; Marsh, Hicks & Landau 1998 find most of a week's intentions done within the week")),
        p("tasks.effort_exponent", 0.5, 0...3, "elasticity of the delay in effort (effort ÷ 10 min to this power)",
          .assumption("present bias: effort now weighs more than effort later (O'Donoghue & Rabin 1999); the size is a guess")),
        p("tasks.procrastination_weight", 2.0, 0...20, "log-delay per unit of the person's procrastination above 0.35",
          .assumption("Steel 2007: procrastination is trait-like; the size is a guess")),
        p("tasks.efficacy_weight", 1.0, 0...20, "log-delay lowered per unit of task efficacy above 0.5",
          .publication("Steel 2007 meta-analysis: self-efficacy correlates with procrastination r ≈ −0.38; the weight is a guess")),
        p("tasks.queue_weight", 0.05, 0...2, "delay added per thing already pending, as a share of the delay",
          .assumption("seed 001 §2 \"Seeing 30 items = doing 0 items\"; the size is a guess")),
        p("tasks.efficacy_gain", 0.02, 0...1, "share of task efficacy's headroom one thing done on time adds",
          .assumption("Bandura 1977: mastery experiences raise self-efficacy; the size is a guess")),
        p("tasks.efficacy_loss", 0.02, 0...1, "share of task efficacy one thing done late or never removes",
          .assumption("Bandura 1977; the size is a guess")),
    ]

    /// The generic behaviour parameters, in groups: churn, retention, engagement, onboarding, purchase, refund, shield,
    /// urges, dormant, tasks. A product's own parameters (its person-side models, its value and frustration weights,
    /// its shield buttons) are declared in its folder (`ProductAdapter.behaviorParameterGroups`, issue 42); the full
    /// set a scenario may use is `assembled(_:)` of both (the registry's `Products.behaviorParameters`).
    public static let parameters: [RuleParameter] = churn + retention + engagement + onboarding + purchase + refund + shield + urges + dormant + tasks

    /// The catalogue by key.
    public static let byKey: [String: RuleParameter] = Dictionary(uniqueKeysWithValues: parameters.map { ($0.keyPath, $0) })

    /// The default value of `key` (precondition: a catalogue key).
    public static func defaultValue(_ key: String) -> Double {
        guard let d = byKey[key]?.defaultValue.doubleValue else { preconditionFailure("'\(key)' is not a behaviour parameter") }
        return d
    }
}

/// One complete set of behaviour-parameter values (every key of a catalogue — the generic one, or the generic one and a
/// product's own, `World`'s; missing ones take the default).
public struct BehaviorValues: Hashable, Sendable {
    /// Key → value for every key of the catalogue the values were made from.
    public private(set) var values: [String: Double]

    /// The defaults of the generic catalogue (`BehaviorCatalogue.parameters`).
    public init() { self.init(catalogue: BehaviorCatalogue.parameters) }

    /// The defaults of `catalogue` (the generic catalogue and a product's own parameters, issue 42).
    public init(catalogue: [RuleParameter]) {
        values = Dictionary(catalogue.map { ($0.keyPath, $0.defaultValue.doubleValue!) }, uniquingKeysWith: { a, _ in a })
    }

    /// The defaults overridden by `overrides` (keys outside the catalogue are a precondition failure: validate first).
    public init(_ overrides: [String: Double], catalogue: [RuleParameter] = BehaviorCatalogue.parameters) {
        self.init(catalogue: catalogue)
        for (k, v) in overrides { self[k] = v }
    }

    /// The defaults of `catalogue` overridden by the numeric values of a resolved scenario's `behavior` (an arm's
    /// `ResolvedArm.behavior`). Keys outside the catalogue (another product's) are ignored.
    public init(_ resolved: ParameterValues, catalogue: [RuleParameter] = BehaviorCatalogue.parameters) {
        self.init(catalogue: catalogue)
        for (k, v) in resolved.values where values[k] != nil {
            if let d = v.doubleValue { values[k] = d }
        }
    }

    /// The value of `key` (precondition: a key of the catalogue).
    public subscript(_ key: String) -> Double {
        get {
            guard let v = values[key] else { preconditionFailure("'\(key)' is not a behaviour parameter") }
            return v
        }
        set {
            precondition(values[key] != nil, "'\(key)' is not a behaviour parameter")
            values[key] = newValue
        }
    }

    /// The defaults of the generic catalogue (shared; built once).
    public static let defaults = BehaviorValues()
}
