import RulesCore

/// The built-in personas. Defaults and their sources are listed in `Sources/Behavior/README.md`.
///
/// `general` is the scenario default: a blend of the segments in the Scroll Off charter (students,
/// workers/freelancers, late-night scrollers) plus ADHD adults.
public enum PersonaCatalog {
    /// Defaults shared by every persona unless it changes them. Each line names its source.
    public static let generalDistributions: [PersonaParameter: Distribution] = [
        // Apple 2016: 80 unlocks/day; Keller et al. 2021: ~78. Median 74, mean ≈ 82.
        .pickupsPerDay: .lognormal(median: 74, sigma: 0.45),
        // Assumption, calibrated to "~50% of pickups within 3 min of the previous one" (docs/DESIGN.md).
        .burstiness: .beta(a: 10, b: 10),
        .burstDecayMinutes: .fixed(1.5),
        // Heitmayer & Lahlou 2021: ~11% of sessions start from a notification.
        .notificationShare: .beta(a: 11, b: 89),
        // Assumption.
        .urgeShare: .beta(a: 6, b: 14),
        // Assumption, set by hand against the world check (issue 14): ≥ 50 % of sessions < 30 s (Andrews et al. 2015),
        // heavy tail (Falaki et al. 2010). At median 1 the component calibration passed (200 people × 14 days) but the
        // whole run did not (0.49: scrolling habits grow over weeks, so urges — the longest sessions — take a larger
        // share); 0.9 shortens every session by 10 %.
        .sessionLengthScale: .lognormal(median: 0.9, sigma: 0.25),
        // docs/DESIGN.md: weekends a few % higher.
        .weekendFactor: .fixed(1.04),
        // Assumption: asleep ≈ 23:30–07:00.
        .sleepStartHour: .normal(mean: 23.5, sd: 0.75),
        .sleepHours: .normal(mean: 7.4, sd: 0.6),
        // Lally et al. 2010: median 66 days, range 18–254; Singh et al. 2024 (review): means 1.5–2.5 × the medians.
        // σ 1.0 gives mean/median e^0.5 ≈ 1.65 and 5th–95th percentiles ≈ 13–340 days (σ 0.8, the Lally range as
        // the 5th–95th percentiles, gave mean/median 1.38, below Singh et al.; issue 14).
        .habitDaysTo95: .lognormal(median: 66, sigma: 1.0),
        // Assumption.
        .habitAsymptote: .uniform(low: 0.75, high: 1.0),
        // Edgren et al. 2024: decay levels off within 1–65 days (5th–95th ≈ 4–56 here).
        .habitDecayLevelOffDays: .lognormal(median: 15, sigma: 0.8),
        // Assumptions.
        .initialScrollingHabit: .beta(a: 6, b: 3),
        .initialResistHabit: .beta(a: 2, b: 8),
        .selfEfficacy: .beta(a: 4, b: 4),
        .willingnessToPay: .lognormal(median: 2.5, sigma: 1.0),
        .techComfort: .beta(a: 5, b: 2),
        .blockedAppCount: .uniform(low: 1.5, high: 5.5),
        .appLiking: .beta(a: 4, b: 2),
        .frustrationSensitivity: .beta(a: 3, b: 3),
        .appOpenHabit: .beta(a: 2, b: 5),
        // If-then plans written when asked: most write one or two, a tail follows the encouragement to write more
        // (rounded: 1, 2, 3, 4, 5 at ≈ 32/33/18/9/9%, mean ≈ 2.3). Assumption.
        .ifThenPlans: .lognormal(median: 2, sigma: 0.6),
        // The onboarding configuration step's base completion (EngagementModel), so the planning step is unchanged.
        .planningStepCompletion: .fixed(0.90),
        // Optional features and ways round them: assumptions, no published rates found (see README).
        .bedtimeSchedulePropensity: .beta(a: 2, b: 5),
        .bedtimeScheduleStartHour: .normal(mean: 22.75, sd: 0.6),
        .bedtimeScheduleEndHour: .normal(mean: 7.0, sd: 0.5),
        .perAppBudgetPropensity: .beta(a: 2, b: 8),
        .frictionOptOutPropensity: .beta(a: 2, b: 6),
        .exerciseSkipShare: .beta(a: 3, b: 7),
        .disableRestrictionExitShare: .beta(a: 3, b: 7),
        // Mean 0.045 (was beta(1, 32), mean 0.03): refunds are 3–4 % of transactions (world check), but only a first
        // purchase is refundable here while renewals and tokens are transactions too; set by hand (issue 14).
        .refundPropensity: .beta(a: 1.5, b: 32),
        .clockChangePropensity: .beta(a: 1, b: 39),
        // Things to do (issue 29). Arising: assumption — Nudge's own target of 3–5 items done per user per day
        // (seed 001 §11) implies at least that many arising; median 6 over waking hours.
        .tasksPerDay: .lognormal(median: 6, sigma: 0.4),
        // Forgetting an intention not written down: Marsh, Hicks & Landau 1998 (diary of a week's intentions:
        // about a quarter not carried out); mean 0.25.
        .taskForgetting: .beta(a: 2.5, b: 7.5),
        // Present bias in effortful tasks (assumption; Steel 2007: procrastination is common, ~15–20 % of adults
        // chronic); mean 0.35.
        .procrastination: .beta(a: 3.5, b: 6.5),
    ]

    /// Apps people want to block and their popularity (assumption).
    public static let defaultAppWeights: [(name: String, weight: Double)] = [
        ("instagram", 0.25), ("tiktok", 0.22), ("youtube", 0.18), ("reddit", 0.08),
        ("x", 0.07), ("snapchat", 0.07), ("facebook", 0.07), ("games", 0.06),
    ]

    /// The scenario default persona: the general defaults, day-worker profile.
    public static let general = Persona(name: "general", dailyProfile: .dayWorker)

    /// Students (charter segment): more pickups, later sleep, lower willingness to pay, higher tech comfort.
    public static let student = Persona(name: "student", dailyProfile: .student, changing: [
        .pickupsPerDay: .lognormal(median: 85, sigma: 0.4),
        .sleepStartHour: .normal(mean: 24.3, sd: 0.8),
        .sleepHours: .normal(mean: 7.6, sd: 0.7),
        .urgeShare: .beta(a: 7, b: 13),
        .willingnessToPay: .lognormal(median: 1.5, sigma: 1.0),
        .techComfort: .beta(a: 7, b: 2),
        .initialScrollingHabit: .beta(a: 7, b: 3),
        .bedtimeSchedulePropensity: .beta(a: 2, b: 4),
        .bedtimeScheduleStartHour: .normal(mean: 23.25, sd: 0.7),
        .bedtimeScheduleEndHour: .normal(mean: 8.0, sd: 0.75),
        .clockChangePropensity: .beta(a: 1.5, b: 28.5),
    ], appWeights: [("tiktok", 0.3), ("instagram", 0.28), ("youtube", 0.15), ("snapchat", 0.12), ("reddit", 0.08), ("games", 0.07)])

    /// Workers and freelancers (charter segment): fewer pickups, earlier sleep, higher willingness to pay.
    public static let worker = Persona(name: "worker", dailyProfile: .dayWorker, changing: [
        .pickupsPerDay: .lognormal(median: 68, sigma: 0.4),
        .sleepStartHour: .normal(mean: 23.1, sd: 0.6),
        .sleepHours: .normal(mean: 7.2, sd: 0.5),
        .willingnessToPay: .lognormal(median: 4, sigma: 0.9),
        .techComfort: .beta(a: 5, b: 2.5),
        .ifThenPlans: .lognormal(median: 2.4, sigma: 0.5),
        .perAppBudgetPropensity: .beta(a: 3, b: 7),
    ], appWeights: [("youtube", 0.2), ("instagram", 0.2), ("x", 0.15), ("reddit", 0.15), ("facebook", 0.15), ("tiktok", 0.15)])

    /// Late-night scrollers (charter: self-identified procrastinators): late sleep, strong habit, more urges.
    public static let lateNightScroller = Persona(name: "late-night-scroller", dailyProfile: .lateNight, changing: [
        .pickupsPerDay: .lognormal(median: 88, sigma: 0.4),
        .sleepStartHour: .normal(mean: 25.2, sd: 0.8),
        .sleepHours: .normal(mean: 6.8, sd: 0.7),
        .urgeShare: .beta(a: 8, b: 12),
        .initialScrollingHabit: .beta(a: 8, b: 2),
        .selfEfficacy: .beta(a: 3, b: 5),
        // The segment a bedtime schedule is for: most set one, aiming well before their actual late sleep.
        .bedtimeSchedulePropensity: .beta(a: 6, b: 3),
        .bedtimeScheduleStartHour: .normal(mean: 23.5, sd: 0.75),
        .bedtimeScheduleEndHour: .normal(mean: 7.5, sd: 0.75),
    ], appWeights: [("tiktok", 0.32), ("instagram", 0.25), ("youtube", 0.2), ("reddit", 0.13), ("x", 0.1)])

    /// ADHD adults: many pickups, very bursty, more urges, lower self-efficacy, shorter sessions (assumption).
    public static let adhdAdult = Persona(name: "adhd-adult", dailyProfile: .student, changing: [
        .pickupsPerDay: .lognormal(median: 95, sigma: 0.4),
        .burstiness: .beta(a: 12, b: 8),
        .urgeShare: .beta(a: 9, b: 11),
        .selfEfficacy: .beta(a: 3, b: 5),
        .sleepStartHour: .normal(mean: 24.4, sd: 1.0),
        .sleepHours: .normal(mean: 6.9, sd: 0.8),
        .sessionLengthScale: .lognormal(median: 0.85, sigma: 0.3),
        .frustrationSensitivity: .beta(a: 4, b: 2),
        .ifThenPlans: .lognormal(median: 1.6, sigma: 0.6),
        .planningStepCompletion: .fixed(0.85),
        .bedtimeScheduleStartHour: .normal(mean: 23.25, sd: 0.8),
        .frictionOptOutPropensity: .beta(a: 3, b: 4),
        .exerciseSkipShare: .beta(a: 4, b: 5),
        // Adults with ADHD recall and carry out fewer of their own real-life intentions and procrastinate more,
        // everyday prospective memory mediating the link (Altgassen, Scheres & Edel 2019); sizes are assumptions:
        // forgetting mean 0.40, procrastination mean 0.55.
        .taskForgetting: .beta(a: 4, b: 6),
        .procrastination: .beta(a: 5.5, b: 4.5),
    ])

    /// Every built-in persona, by name.
    public static let builtIn: [String: Persona] = [
        general.name: general, student.name: student, worker.name: worker,
        lateNightScroller.name: lateNightScroller, adhdAdult.name: adhdAdult,
    ]

    /// A built-in persona by name, or an error with a suggestion.
    public static func persona(named name: String) throws(PersonaError) -> Persona {
        if let p = builtIn[name] { return p }
        throw .unknownPersona(name, suggestion: Suggestion.closest(to: name, among: builtIn.keys.sorted()))
    }
}
