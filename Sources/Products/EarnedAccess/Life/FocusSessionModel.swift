import Behavior
import Foundation
import Stochastics

/// When a person sets out to focus — a timed focus session in a blocker (Earned Access's Focus Bank, seed 003 §6
/// "Earned by focus sessions"; Lazuri's focus time) — for how long, and whether they see it through. Independent of
/// any product: an adapter turns a session into its engine's inputs.
///
/// - Sessions a day: Poisson with mean `sessionsPerDay · exp(valueWeight · (value − 0.5))`, so a person who gets
///   more from the product focuses more. Assumption (no published rate for blocker focus sessions).
/// - Planned length: log-normal with median `medianMinutes` (25 min, the Pomodoro interval, Cirillo 2006) and
///   log-sd `minutesSigma`, rounded to whole minutes within `minMinutes…maxMinutes`.
/// - Start: uniform local time in `windowStartHour…windowEndHour` (waking, working hours). Assumption.
/// - Completion: logit `completionIntercept + completionEfficacyWeight · (selfEfficacy − 0.5)
///   − completionLengthWeight · ln(minutes / medianMinutes)`: longer sessions are abandoned more. Assumption.
public struct FocusSessionModel: Hashable, Sendable {
    public var sessionsPerDay = 0.8
    public var valueWeight = 1.5
    public var medianMinutes = 25.0
    public var minutesSigma = 0.45
    public var minMinutes = 10.0
    public var maxMinutes = 90.0
    public var windowStartHour = 9.0
    public var windowEndHour = 21.0
    public var completionIntercept = log(0.75 / 0.25)
    public var completionEfficacyWeight = 2.0
    public var completionLengthWeight = 0.5

    public init() {}

    /// A model with the values of `values` (`BehaviorCatalogue`: `focus.*`).
    public init(values: BehaviorValues) {
        sessionsPerDay = values["focus.sessions_per_day"]
        valueWeight = values["focus.value_weight"]
        medianMinutes = values["focus.median_minutes"]
        minutesSigma = values["focus.minutes_sigma"]
        minMinutes = values["focus.min_minutes"]
        maxMinutes = max(minMinutes, values["focus.max_minutes"])
        windowStartHour = values["focus.window_start_hour"]
        windowEndHour = max(windowStartHour, values["focus.window_end_hour"])
        completionIntercept = values["focus.completion_intercept"]
        completionEfficacyWeight = values["focus.completion_efficacy_weight"]
        completionLengthWeight = values["focus.completion_length_weight"]
    }

    /// Mean sessions a day at perceived value `valueFelt` (0…1).
    public func meanSessions(valueFelt: Double) -> Double { sessionsPerDay * exp(valueWeight * (valueFelt - 0.5)) }

    /// How many focus sessions the person starts today.
    public func sessionsToday(valueFelt: Double, rng: RandomStream) -> Int {
        rng.poisson(mean: meanSessions(valueFelt: valueFelt))
    }

    /// The length the person means to focus, whole minutes.
    public func plannedMinutes(rng: RandomStream) -> Int {
        let m = medianMinutes * exp(minutesSigma * rng.normal(mean: 0, standardDeviation: 1))
        return Int(min(max(m, minMinutes), maxMinutes).rounded())
    }

    /// When in the local day a session starts, seconds since midnight.
    public func startSecondsOfDay(rng: RandomStream) -> Int {
        Int(((windowStartHour + (windowEndHour - windowStartHour) * rng.uniform()) * 3600).rounded())
    }

    /// Probability of finishing a session of `minutes` at self-efficacy `selfEfficacy` (0…1).
    public func completionProbability(minutes: Int, selfEfficacy: Double) -> Double {
        let x = completionIntercept + completionEfficacyWeight * (selfEfficacy - 0.5)
            - completionLengthWeight * log(Double(max(1, minutes)) / medianMinutes)
        return 1 / (1 + exp(-x))
    }

    /// Whether the person sees the session through.
    public func completes(minutes: Int, selfEfficacy: Double, rng: RandomStream) -> Bool {
        rng.uniform() < completionProbability(minutes: minutes, selfEfficacy: selfEfficacy)
    }
}

/// The daily habits a person checks off in an app that asks for them (seed 003 §6 "Earned by focus sessions and
/// habits"; "2 valid habits completed"). Independent of any product.
///
/// - Habits set up: binomial over `maxHabits` with mean `meanHabits`. Assumption.
/// - Each habit is checked off on a day with logit probability `dailyIntercept + valueWeight · (value − 0.5)`
///   (default 0.6 at value 0.5): self-tracking adherence falls as the app stops mattering. Assumption (habit
///   apps report adherence well below daily, e.g. Stawarz, Cox & Blandford 2015; no figure fitted).
public struct HabitCheckInModel: Hashable, Sendable {
    public var meanHabits = 1.5
    public var maxHabits = 3
    public var dailyIntercept = log(0.6 / 0.4)
    public var valueWeight = 2.0

    public init() {}

    /// A model with the values of `values` (`BehaviorCatalogue`: `habits.*`).
    public init(values: BehaviorValues) {
        maxHabits = Int(values["habits.max_count"].rounded())
        meanHabits = min(values["habits.mean_count"], Double(maxHabits))
        dailyIntercept = values["habits.daily_intercept"]
        valueWeight = values["habits.value_weight"]
    }

    /// How many habits the person sets up.
    public func habitsSetUp(rng: RandomStream) -> Int {
        guard maxHabits > 0 else { return 0 }
        let p = meanHabits / Double(maxHabits)
        return (0..<maxHabits).reduce(0) { n, _ in n + (rng.uniform() < p ? 1 : 0) }
    }

    /// Probability of checking off one habit today at perceived value `valueFelt`.
    public func checkOffProbability(valueFelt: Double) -> Double {
        1 / (1 + exp(-(dailyIntercept + valueWeight * (valueFelt - 0.5))))
    }

    /// Whether the person checks off one habit today.
    public func checksOff(valueFelt: Double, rng: RandomStream) -> Bool {
        rng.uniform() < checkOffProbability(valueFelt: valueFelt)
    }
}
