import Foundation
import RulesCore
import Stochastics

extension StreamName {
    /// A person's traits added after the first person model (planning, optional features). Drawn from their own
    /// stream so that adding them shifted none of the `population` draws: every person drawn before they existed
    /// is drawn the same. New traits are appended at the end of `PersonTraits.draw`, never inserted.
    public static let personTraits = StreamName("population-traits")
    /// Decisions about optional features (set a bedtime schedule? budget per app? turn prompts off? change the
    /// clock? ask for a refund?): a stream of their own, so that an adapter that starts making them shifts none of
    /// the `choices`, `purchases` or `onboarding` draws it already makes.
    public static let featureUse = StreamName("feature-use")
}

/// How a person answers an app that asks for if-then plans (implementation intentions), e.g. at onboarding.
public struct PlanningTraits: Hashable, Sendable {
    /// Plans the person writes when asked, 1…5 (an app may require at least one; what it encourages is its own).
    public var ifThenPlans: Int
    /// Probability of finishing the planning step at tech comfort 0.5 (`stepCompletionProbability`); the rest
    /// abandon it.
    public var stepCompletion: Double

    public init(ifThenPlans: Int = 2, stepCompletion: Double = 0.90) {
        self.ifThenPlans = ifThenPlans
        self.stepCompletion = stepCompletion
    }

    /// Probability of finishing the planning step: `stepCompletion^(1.5 − techComfort)`, the form of
    /// `EngagementModel.onboardingCompletionProbability` (at the default 0.90 it equals its `.configuration` step).
    public func stepCompletionProbability(techComfort: Double) -> Double {
        pow(stepCompletion, 1.5 - min(max(techComfort, 0), 1))
    }

    /// Whether the person finishes the planning step (one draw, normally from the `onboarding` stream). With the
    /// default `stepCompletion` it decides as `EngagementModel.completesStep(.configuration, …)` does.
    public func completesStep(techComfort: Double, rng: RandomStream) -> Bool {
        rng.uniform() < stepCompletionProbability(techComfort: techComfort)
    }
}

/// How a person uses the optional features of digital-wellbeing apps, and ways round them. Each propensity is a
/// probability per opportunity, as documented; the product adapter decides what counts as an opportunity.
public struct FeatureUseTraits: Hashable, Sendable {
    /// Probability of setting a bedtime schedule (downtime, curfew, sleep mode) when an app offers one.
    public var bedtimeSchedulePropensity: Double
    /// Local hour the person would start such a schedule (fractional, may exceed 24: 24.5 = 00:30).
    public var bedtimeScheduleStartHour: Double
    /// Local hour (next morning) the person would end it.
    public var bedtimeScheduleEndHour: Double
    /// Probability of budgeting per app (a per-app allowance or wallet, a daily spending cap) when an app offers it.
    public var perAppBudgetPropensity: Double
    /// Probability of turning an optional friction step off (mindfulness prompts, waiting screens) when the
    /// setting is within reach.
    public var frictionOptOutPropensity: Double
    /// Probability of skipping a friction exercise each time one is offered (a skip does not count as done:
    /// `ExerciseOutcome.skipped`).
    public var exerciseSkipProbability: Double
    /// Share of the person's exits that disable the restriction (unblock the apps once a lock or cooldown allows)
    /// instead of uninstalling (`EngagementModel.dailyChurnDecision(rng:disableRestrictionShare:)`).
    public var disableRestrictionExitShare: Double
    /// Probability of asking for a refund after a purchase, at value felt 0.5 (`PurchaseModel.refundProbability`).
    public var refundPropensity: Double
    /// Probability of changing the system clock to get round a restriction, each time a restriction refuses every
    /// way through.
    public var clockChangePropensity: Double

    public init(bedtimeSchedulePropensity: Double = 0.3, bedtimeScheduleStartHour: Double = 22.75, bedtimeScheduleEndHour: Double = 7,
                perAppBudgetPropensity: Double = 0.2, frictionOptOutPropensity: Double = 0.25, exerciseSkipProbability: Double = 0.3,
                disableRestrictionExitShare: Double = 0.3, refundPropensity: Double = 0.03, clockChangePropensity: Double = 0.025) {
        self.bedtimeSchedulePropensity = bedtimeSchedulePropensity
        self.bedtimeScheduleStartHour = bedtimeScheduleStartHour
        self.bedtimeScheduleEndHour = bedtimeScheduleEndHour
        self.perAppBudgetPropensity = perAppBudgetPropensity
        self.frictionOptOutPropensity = frictionOptOutPropensity
        self.exerciseSkipProbability = exerciseSkipProbability
        self.disableRestrictionExitShare = disableRestrictionExitShare
        self.refundPropensity = refundPropensity
        self.clockChangePropensity = clockChangePropensity
    }
}

/// The later traits of a person, drawn together from the `personTraits` stream.
public enum PersonTraits {
    /// Draws planning and feature-use traits in a fixed order (append new draws at the end).
    public static func draw(persona: Persona, rng: RandomStream) -> (planning: PlanningTraits, featureUse: FeatureUseTraits) {
        let planning = PlanningTraits(
            ifThenPlans: Int(persona.draw(.ifThenPlans, rng).rounded()),
            stepCompletion: persona.draw(.planningStepCompletion, rng))
        let features = FeatureUseTraits(
            bedtimeSchedulePropensity: persona.draw(.bedtimeSchedulePropensity, rng),
            bedtimeScheduleStartHour: persona.draw(.bedtimeScheduleStartHour, rng),
            bedtimeScheduleEndHour: persona.draw(.bedtimeScheduleEndHour, rng),
            perAppBudgetPropensity: persona.draw(.perAppBudgetPropensity, rng),
            frictionOptOutPropensity: persona.draw(.frictionOptOutPropensity, rng),
            exerciseSkipProbability: persona.draw(.exerciseSkipShare, rng),
            disableRestrictionExitShare: persona.draw(.disableRestrictionExitShare, rng),
            refundPropensity: persona.draw(.refundPropensity, rng),
            clockChangePropensity: persona.draw(.clockChangePropensity, rng))
        return (planning, features)
    }
}
