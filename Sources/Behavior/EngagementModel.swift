import Foundation
import Stochastics

/// Things that happen to a person with the blocker, reported by the product adapter.
public enum EngagementEvent: Hashable, Sendable {
    case shieldRefused, walletEmpty, paywallHit, earnedCredit, resistedUrge
    case minutesSaved(Double)
    case appOpened
    case notificationReceived
}

/// Ways of leaving.
public enum ChurnKind: String, Hashable, Sendable, CaseIterable {
    case uninstall, revokeAccess, dormant
    /// The app stays installed but the person lifts its restriction: unblocks the apps (once a lock or cooldown
    /// lets them) or deletes the schedules. Only `dailyChurnDecision(rng:disableRestrictionShare:)` returns it.
    case disableRestriction
}

/// Cues that can prompt opening the blocker app itself.
public enum AppOpenCue: Hashable, Sendable {
    case none, notification, walletCheck, afterShield
}

/// Kinds of onboarding step.
public enum OnboardingStepKind: String, Hashable, Sendable, CaseIterable {
    case informational, permission, configuration, payment
    /// Completion probability at tech comfort 0.5. Assumption.
    public var baseCompletion: Double {
        switch self {
        case .informational: return 0.97
        case .permission: return 0.80
        case .configuration: return 0.90
        case .payment: return 0.25
        }
    }
}

/// Engagement with the blocker app: an app-open habit with cues, frustration and perceived value, and churn
/// that emerges from them (DESIGN.md principle 5). All rates are assumptions.
public struct EngagementModel: Hashable, Sendable {
    /// 0…1; built by frustrating events, fades by `frustrationDailyRetention` a day.
    public private(set) var frustration: Double
    /// 0…1; built by earned credit, resisted urges and minutes saved, fades by `valueDailyRetention` a day.
    public private(set) var perceivedValue: Double
    /// Habit of opening the app itself, 0…1.
    public private(set) var appOpenHabit: Double
    public private(set) var daysSinceOpen: Int = 0
    public var frustrationSensitivity: Double

    public var frustrationDailyRetention = 0.8
    public var valueDailyRetention = 0.93
    public var appOpenHabitGain = 0.05
    public var appOpenHabitDailyRetention = 0.97
    /// Churn hazard per day at zero frustration, value and app-open habit (assumption, ≈ Adjust 2023 D30 for
    /// ordinary apps when nothing engages the person).
    public var baseChurnHazard = 0.08
    public var frustrationWeight = 2.5
    public var valueWeight = 3.0
    public var engagementWeight = 1.5
    /// How a churn splits between uninstall, revoking Screen Time access and going dormant. Assumption.
    public var churnKindWeights: [Double] = [0.35, 0.15, 0.5]

    public init(frustrationSensitivity: Double = 0.5, appOpenHabit: Double = 0.3, perceivedValue: Double = 0.3) {
        self.frustrationSensitivity = frustrationSensitivity
        self.appOpenHabit = appOpenHabit
        self.perceivedValue = perceivedValue
        self.frustration = 0
    }

    public init(person: Person) {
        self.init(frustrationSensitivity: person.frustrationSensitivity, appOpenHabit: person.appOpenHabit)
    }

    /// Updates the state for one event.
    public mutating func record(_ e: EngagementEvent) {
        func frustrate(_ w: Double) { frustration = min(1, frustration + (1 - frustration) * w * (0.5 + frustrationSensitivity)) }
        func value(_ w: Double) { perceivedValue = min(1, perceivedValue + (1 - perceivedValue) * w) }
        switch e {
        case .shieldRefused: frustrate(0.04)
        case .walletEmpty: frustrate(0.08)
        case .paywallHit: frustrate(0.10)
        case .earnedCredit: value(0.01)
        case .resistedUrge: value(0.03)
        case let .minutesSaved(m): value(min(0.2, 0.002 * max(m, 0)))
        case .appOpened:
            appOpenHabit = min(1, appOpenHabit + appOpenHabitGain * (1 - appOpenHabit))
            daysSinceOpen = 0
        case .notificationReceived: break
        }
    }

    /// Ends a day: feelings fade, an unused app-open habit weakens.
    public mutating func endOfDay() {
        frustration *= frustrationDailyRetention
        perceivedValue *= valueDailyRetention
        daysSinceOpen += 1
        if daysSinceOpen > 1 { appOpenHabit *= appOpenHabitDailyRetention }
    }

    /// Probability that the person opens the app itself given a cue.
    public func appOpenProbability(cue: AppOpenCue) -> Double {
        let cueStrength: Double
        switch cue {
        case .none: cueStrength = 0.05
        case .notification: cueStrength = 0.6
        case .walletCheck: cueStrength = 0.9
        case .afterShield: cueStrength = 0.3
        }
        return 1 - exp(-cueStrength * (0.2 + 2 * appOpenHabit + perceivedValue))
    }

    /// Churn hazard per day, from frustration, perceived value and engagement.
    public var churnHazardPerDay: Double {
        min(1, baseChurnHazard * exp(frustrationWeight * frustration - valueWeight * perceivedValue - engagementWeight * appOpenHabit))
    }

    /// Whether (and how) the person leaves today: two draws from `rng` (normally the `churn` stream).
    public func dailyChurnDecision(rng: RandomStream) -> ChurnKind? {
        dailyChurnDecision(rng: rng, disableRestrictionShare: 0)
    }

    /// Whether (and how) the person leaves today, where a share of would-be uninstalls disables the restriction
    /// instead (the person's `FeatureUseTraits.disableRestrictionExitShare`). The same two draws as
    /// `dailyChurnDecision(rng:)`, which it equals at share 0: the split reuses the first uniform (given that the
    /// person leaves, u/hazard is uniform and independent of the kind), so no stream shifts.
    public func dailyChurnDecision(rng: RandomStream, disableRestrictionShare: Double) -> ChurnKind? {
        let hazard = churnHazardPerDay
        let u = rng.uniform()
        let kind = rng.categorical(weights: churnKindWeights)
        guard u < hazard else { return nil }
        let leaving = ChurnKind.allCases[kind]
        if leaving == .uninstall, disableRestrictionShare > 0, u / hazard < disableRestrictionShare { return .disableRestriction }
        return leaving
    }

    /// Probability of completing one onboarding step: `base^(1.5 − techComfort)` (base at comfort 0.5).
    public static func onboardingCompletionProbability(_ kind: OnboardingStepKind, techComfort: Double) -> Double {
        pow(kind.baseCompletion, 1.5 - min(max(techComfort, 0), 1))
    }

    /// Whether the person completes an onboarding step (one draw, normally from the `onboarding` stream).
    public static func completesStep(_ kind: OnboardingStepKind, techComfort: Double, rng: RandomStream) -> Bool {
        rng.uniform() < onboardingCompletionProbability(kind, techComfort: techComfort)
    }
}
