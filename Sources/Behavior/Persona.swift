import RulesCore
import Stochastics

/// The names of a persona's overridable parameters, as a scenario writes them (`personas.<name>.<parameter>`).
///
/// Every parameter has a documented default (in `PersonaCatalog.general`) and its source: a calibration figure
/// from docs/DESIGN.md ("Behavioural calibration targets") or "assumption". Drawn values are clamped to `validRange`.
public enum PersonaParameter: String, CaseIterable, Sendable, Hashable, CustomStringConvertible {
    /// Expected phone pickups (unlocks) per day, all sources. Apple 2016: 80; Keller et al. 2021: ~78.
    case pickupsPerDay = "pickups_per_day"
    /// Branching ratio of the self-exciting process: expected follow-up pickups triggered by one. Assumption,
    /// calibrated so ~50% of pickups come within 3 min of the previous one (docs/DESIGN.md).
    case burstiness
    /// Time constant of the self-excitation, minutes. Assumption (same calibration).
    case burstDecayMinutes = "burst_decay_minutes"
    /// Share of pickups started by a notification. Heitmayer & Lahlou 2021: ~11%.
    case notificationShare = "notification_share"
    /// Share of non-notification pickups that are urges to open a distracting app, at habit strength 0.5. Assumption.
    case urgeShare = "urge_share"
    /// Multiplier on the session-length distributions. Assumption (1 keeps Andrews et al. 2015: ≥50% < 30 s).
    case sessionLengthScale = "session_length_scale"
    /// Weekend pickup-rate multiplier. docs/DESIGN.md: "weekends a few % higher".
    case weekendFactor = "weekend_factor"
    /// Local hour (fractional, may exceed 24) at which sleep starts on weeknights. Assumption.
    case sleepStartHour = "sleep_start_hour"
    /// Hours of sleep. Assumption.
    case sleepHours = "sleep_hours"
    /// Days of daily repetition to reach 95% of the habit asymptote. Lally et al. 2010: median 66, range 18–254.
    case habitDaysTo95 = "habit_days_to_95"
    /// Habit asymptote a in y = a − b·e^(−c·t). Assumption (Lally et al. 2010 fit per-person asymptotes).
    case habitAsymptote = "habit_asymptote"
    /// Days of disuse after which habit decay has levelled off (95% of it done). Edgren et al. 2024: 1–65 days.
    case habitDecayLevelOffDays = "habit_decay_level_off_days"
    /// Initial scrolling-habit strength, 0…1. Assumption (the target users already scroll habitually).
    case initialScrollingHabit = "initial_scrolling_habit"
    /// Initial resisting-habit strength, 0…1. Assumption.
    case initialResistHabit = "initial_resist_habit"
    /// Initial self-efficacy, 0…1. Assumption.
    case selfEfficacy = "self_efficacy"
    /// Willingness to pay for a blocker, USD per month. Assumption (chosen so download→paid lands near 2%).
    case willingnessToPay = "willingness_to_pay"
    /// Comfort with technology, 0…1 (onboarding completion). Assumption.
    case techComfort = "tech_comfort"
    /// Number of apps the person wants blocked (rounded, 1…8). Assumption.
    case blockedAppCount = "blocked_app_count"
    /// How much the person likes each blocked app, 0…1 (drawn per app). Assumption.
    case appLiking = "app_liking"
    /// How strongly frustrating events build frustration, 0…1. Assumption.
    case frustrationSensitivity = "frustration_sensitivity"
    /// Initial strength of the habit of opening the blocker app itself, 0…1. Assumption.
    case appOpenHabit = "app_open_habit"
    /// If-then plans the person writes when an app asks (rounded, 1…5). Assumption (the charter's "require 1,
    /// encourage 3-5" is what an app asks for, not what people do).
    case ifThenPlans = "if_then_plans"
    /// Probability of finishing an app's planning step at tech comfort 0.5 (p = base^(1.5 − comfort)). Assumption
    /// (0.90, the onboarding configuration step's base).
    case planningStepCompletion = "planning_step_completion"
    /// Probability of setting a bedtime schedule (downtime, curfew, sleep mode) when an app offers one. Assumption.
    case bedtimeSchedulePropensity = "bedtime_schedule_propensity"
    /// Local hour such a schedule would start (fractional, may exceed 24). Assumption.
    case bedtimeScheduleStartHour = "bedtime_schedule_start_hour"
    /// Local hour (next morning) such a schedule would end. Assumption.
    case bedtimeScheduleEndHour = "bedtime_schedule_end_hour"
    /// Probability of budgeting per app (per-app allowances, a daily spending cap) when offered. Assumption.
    case perAppBudgetPropensity = "per_app_budget_propensity"
    /// Probability of turning an optional friction step (mindfulness prompts) off when the setting is within
    /// reach. Assumption.
    case frictionOptOutPropensity = "friction_opt_out_propensity"
    /// Probability of skipping each friction exercise offered. Assumption (mean 0.3, the adapter's former constant).
    case exerciseSkipShare = "exercise_skip_share"
    /// Share of exits that disable the restriction instead of uninstalling. Assumption.
    case disableRestrictionExitShare = "disable_restriction_exit_share"
    /// Probability of asking for a refund after a purchase, at value felt 0.5. Assumption.
    case refundPropensity = "refund_propensity"
    /// Probability of changing the system clock when a restriction refuses every way through. Assumption.
    case clockChangePropensity = "clock_change_propensity"
    /// Things to do arising per day over waking hours (`TaskTraits`, issue 29).
    case tasksPerDay = "tasks_per_day"
    /// Probability that a thing to do not written down is forgotten.
    case taskForgetting = "task_forgetting"
    /// Present bias: how much effortful things are put off (0…1).
    case procrastination

    public var description: String { rawValue }

    /// The range drawn values are clamped to.
    public var validRange: ClosedRange<Double> {
        switch self {
        case .pickupsPerDay: return 5...400
        case .burstiness: return 0...0.9
        case .burstDecayMinutes: return 0.1...60
        case .notificationShare: return 0...0.8
        case .urgeShare: return 0...0.95
        case .sessionLengthScale: return 0.1...10
        case .weekendFactor: return 0.5...2
        case .sleepStartHour: return 18...30
        case .sleepHours: return 3...12
        case .habitDaysTo95: return 2...1000
        case .habitAsymptote: return 0.05...1
        case .habitDecayLevelOffDays: return 0.5...365
        case .initialScrollingHabit, .initialResistHabit, .selfEfficacy, .techComfort, .appLiking,
             .frustrationSensitivity, .appOpenHabit: return 0...1
        case .willingnessToPay: return 0...200
        case .blockedAppCount: return 1...8
        case .ifThenPlans: return 1...5
        case .planningStepCompletion, .bedtimeSchedulePropensity, .perAppBudgetPropensity, .frictionOptOutPropensity,
             .exerciseSkipShare, .disableRestrictionExitShare, .refundPropensity, .clockChangePropensity: return 0...1
        case .tasksPerDay: return 0...60
        case .taskForgetting, .procrastination: return 0...1
        case .bedtimeScheduleStartHour: return 18...28
        case .bedtimeScheduleEndHour: return 4...12
        }
    }

    /// The parameter for a scenario name, or an error with a "did you mean" suggestion.
    public static func named(_ name: String) -> Result<PersonaParameter, PersonaError> {
        if let p = PersonaParameter(rawValue: name) { return .success(p) }
        return .failure(.unknownParameter(name, suggestion: Suggestion.closest(to: name, among: allCases.map(\.rawValue))))
    }
}

/// A problem with a persona definition or override.
public enum PersonaError: Error, Hashable, Sendable, CustomStringConvertible {
    case unknownParameter(String, suggestion: String?)
    case invalidDistribution(parameter: String, distribution: String, problem: String)
    case unknownPersona(String, suggestion: String?)
    /// Several problems, all reported at once.
    case several([PersonaError])

    public var description: String {
        switch self {
        case let .unknownParameter(n, s):
            return "unknown persona parameter '\(n)'" + (s.map { " (did you mean '\($0)'?)" } ?? "")
                + "; allowed: " + AllowedList.text(PersonaParameter.allCases.map(\.rawValue))
        case let .invalidDistribution(p, d, problem): return "persona parameter '\(p)': \(d): \(problem)"
        case let .unknownPersona(n, s): return "unknown persona '\(n)'" + (s.map { " (did you mean '\($0)'?)" } ?? "")
            + "; allowed: " + AllowedList.text(PersonaCatalog.builtIn.keys.sorted(), seeAlso: "habitat list")
        case let .several(list): return list.map(\.description).joined(separator: "\n")
        }
    }
}

/// The shape of a person's waking-hour phone use over the day, before sleep suppression (relative weights).
public enum DailyProfile: String, CaseIterable, Sendable, Hashable {
    /// Office or shift worker: morning check, lunch bump, evening peak 20–22h.
    case dayWorker = "day-worker"
    /// Student: later start, use spread through the afternoon, evening peak 20–23h.
    case student
    /// Late-night scroller: peak 22–01h.
    case lateNight = "late-night"

    /// 24 relative weights for local hours 0…23 (assumption, shaped to docs/DESIGN.md's evening peak).
    public var hourWeights: [Double] {
        switch self {
        case .dayWorker:
            return [0.9, 0.8, 0.7, 0.6, 0.6, 0.7, 0.9, 1.1, 1.0, 0.85, 0.85, 0.9,
                    1.1, 1.0, 0.85, 0.85, 0.9, 1.05, 1.2, 1.3, 1.45, 1.5, 1.35, 1.1]
        case .student:
            return [1.1, 0.9, 0.8, 0.7, 0.6, 0.6, 0.7, 0.8, 0.9, 0.9, 0.95, 1.0,
                    1.1, 1.0, 1.0, 1.05, 1.1, 1.15, 1.2, 1.3, 1.45, 1.5, 1.45, 1.3]
        case .lateNight:
            return [1.6, 1.4, 1.1, 0.8, 0.6, 0.6, 0.6, 0.7, 0.8, 0.8, 0.85, 0.9,
                    0.95, 0.95, 0.95, 1.0, 1.0, 1.05, 1.1, 1.2, 1.35, 1.5, 1.65, 1.7]
        }
    }
}

/// A kind of synthetic person: distributions for every behavioural parameter plus the apps they want blocked.
/// Population shares, devices and time zones belong to the scenario (its `population` mixes), not here.
public struct Persona: Hashable, Sendable {
    public var name: String
    /// Waking-hour shape of phone use.
    public var dailyProfile: DailyProfile
    /// One distribution per parameter; always complete (every `PersonaParameter` has an entry).
    public private(set) var distributions: [PersonaParameter: Distribution]
    /// Candidate apps to block and their relative popularity for this persona (assumption).
    public var appWeights: [(name: String, weight: Double)]

    /// A persona from `PersonaCatalog.general` with some parameters replaced.
    public init(name: String, dailyProfile: DailyProfile, changing changes: [PersonaParameter: Distribution] = [:],
                appWeights: [(name: String, weight: Double)]? = nil) {
        self.name = name
        self.dailyProfile = dailyProfile
        var d = PersonaCatalog.generalDistributions
        for (k, v) in changes { d[k] = v }
        self.distributions = d
        self.appWeights = appWeights ?? PersonaCatalog.defaultAppWeights
    }

    public subscript(_ p: PersonaParameter) -> Distribution { distributions[p]! }

    /// The names a scenario may override (`PersonaParameter.allCases`).
    public static var overridableParameterNames: [String] { PersonaParameter.allCases.map(\.rawValue) }

    /// This persona with scenario overrides applied. Reports every unknown name (with a suggestion) and every
    /// unusable distribution at once.
    public func applying(overrides: [String: Distribution]) throws(PersonaError) -> Persona {
        var copy = self
        var problems: [PersonaError] = []
        for name in overrides.keys.sorted() {
            let dist = overrides[name]!
            switch PersonaParameter.named(name) {
            case let .failure(e): problems.append(e)
            case let .success(p):
                if let why = dist.problem {
                    problems.append(.invalidDistribution(parameter: name, distribution: dist.description, problem: why))
                } else {
                    copy.distributions[p] = dist
                }
            }
        }
        if problems.count == 1 { throw problems[0] }
        if !problems.isEmpty { throw .several(problems) }
        return copy
    }

    /// One clamped draw of a parameter.
    public func draw(_ p: PersonaParameter, _ rng: RandomStream) -> Double {
        let r = p.validRange
        return Swift.min(r.upperBound, Swift.max(r.lowerBound, self[p].draw(rng)))
    }

    public static func == (a: Persona, b: Persona) -> Bool {
        a.name == b.name && a.dailyProfile == b.dailyProfile && a.distributions == b.distributions
            && a.appWeights.elementsEqual(b.appWeights, by: { $0.name == $1.name && $0.weight == $1.weight })
    }
    public func hash(into h: inout Hasher) { h.combine(name); h.combine(dailyProfile); h.combine(distributions) }
}
