import Behavior
import Foundation
import RulesCore
import Simulation

/// Lazuri's own behaviour parameters (issue 43; declared beside its adapter, issue 42): how a written promise and a
/// button-only shield act on an urge, how that wears off, the schedules people set up by persona, the lack of
/// onboarding, reading cards, and opening the app. The thesis (`002_80c8c6af1a4e5690.txt`) measured none of them — its
/// user study logged no usage (§6.2.2) — so each is a published mechanism or an assumption, said as such.
public enum LazuriBehavior {
    public static let groups: [BehaviorParameterGroup] = [
        BehaviorParameterGroup(after: "shield.walk_away_share", shield),
        BehaviorParameterGroup(after: "dormant.uninstall_share", setUp + app),
    ]

    /// The promise and the shield.
    static let shield: [RuleParameter] = [
        .behavior("lazuri.promise_effect", 0.59, 0...5,
          "lowering of the utility of breaking the promise at the shield when the person's own promise is on it, fresh (logit scale)",
          .assumption("half the implementation-intention effect (Gollwitzer & Sheeran 2006, d ≈ 0.65, 1.18 on the logit scale, the generic shield.plan_effect_max): a promise is a goal intention in the person's own words — self-persuasion (Aronson 1999) — and a soft commitment device with no penalty (Bryan, Karlan & Nelson 2010), not an if-then plan")),
        .behavior("lazuri.promise_half_life_shields", 14, 0.5...1000,
          "shields with the same promise after which its effect is halved (exponential decay per exposure: habituation to a static message); rewriting it restores it",
          .assumption("habituation to a repeated unchanged stimulus and its recovery on a novel one (Rankin et al. 2009); warning wear-out with repeated exposure (Anderson et al. 2016, fMRI of repeated security warnings); the half-life itself is not measured for promises")),
        .behavior("lazuri.break_constant", -1.5, -20...20,
          "utility constant of breaking the promise (switching the schedule off, deleting it, revoking Screen Time): the steps out of the shield into Lazuri's Focus tab or Settings, and the guilt of it",
          .assumption("no figure in the thesis; §4.2.4 \"they can choose when to start or stop it\" makes it always possible")),
        .behavior("lazuri.break_friction_seconds", 20, 0...600,
          "seconds of leaving the shield, opening Lazuri, finding the Focus tab and the toggle",
          .assumption("three taps and an app launch")),
        .behavior("lazuri.break_delete_share", 0.2, 0...1, "share of broken promises broken by deleting the schedule rather than switching it off",
          .assumption("§4.2.4 names both; switching off keeps the schedule for later")),
        .behavior("lazuri.break_revoke_share", 0.05, 0...1, "share of broken promises broken by revoking Screen Time in Settings",
          .assumption("inventory Q15: a rare bypass, the app re-prompts at the next open")),
        .behavior("lazuri.shield_frustration", 0.01, 0...1,
          "frustration step of a shield with no way through but breaking the promise (the engagement risk of a button-only shield)",
          .assumption("smaller than a refused unlock (engagement.frustration.shield_refused): the person chose the window")),
        .behavior("lazuri.resume_probability", 0.5, 0...1,
          "chance that a person who broke the promise that day puts the protection back by the day's end (switches on, creates again, grants Screen Time again)",
          .assumption("the thesis follows nobody past a week (§6.2.2)")),
    ]

    /// Onboarding and schedules by persona.
    static let setUp: [RuleParameter] = [
        .behavior("lazuri.onboarding.no_tutorial_completion", 0.85, 0...1,
          "chance a person finds each set-up step unaided (the Focus tab, the picker, \"+\" Create Schedule, the toggle) on top of the generic configuration completion",
          .assumption("§6.1.2 names the lack of onboarding among the app's limitations; the figure is not measured")),
        .behavior("lazuri.schedule.evening_share", 0.3, 0...1,
          "share of day workers and students who block their evening rather than their work or school hours",
          .assumption("inventory §8.2: work hours, evening, or overnight")),
        .behavior("lazuri.schedule.work_start_hour", 9, 0...24, "start of a day worker's work-hours window, local hour",
          .assumption("office hours")),
        .behavior("lazuri.schedule.work_end_hour", 17, 0...24, "end of a day worker's work-hours window, local hour",
          .assumption("office hours")),
        .behavior("lazuri.schedule.school_start_hour", 9, 0...24, "start of a student's school-hours window, local hour",
          .assumption("a school or lecture day")),
        .behavior("lazuri.schedule.school_end_hour", 15, 0...24, "end of a student's school-hours window, local hour",
          .assumption("a school or lecture day")),
        .behavior("lazuri.schedule.evening_start_hour", 19, 0...24, "start of an evening window, local hour", .assumption("after dinner")),
        .behavior("lazuri.schedule.evening_end_hour", 23, 0...24, "end of an evening window, local hour", .assumption("bedtime")),
    ]

    /// Opening Lazuri, reading cards, looking at minutes and rank, the promise.
    static let app: [RuleParameter] = [
        .behavior("lazuri.open_share", 1, 0...1,
          "share of the shared engagement habit's app openings that open Lazuri (1: as any app; lower it for a product opened less)",
          .assumption("the shared cue model, engagement.app_open_per_pickup_scale, unchanged")),
        .behavior("lazuri.visit.read_cards_share", 0.6, 0...1, "share of openings spent reading cards on the Learn tab (the tab the app opens on)",
          .assumption("Learn is the first tab (§4.2)")),
        .behavior("lazuri.visit.minutes_share", 0.2, 0...1, "share of openings spent looking at the focus minutes (Focus tab)",
          .assumption("no usage logged (§6.2.2)")),
        .behavior("lazuri.visit.rank_share", 0.1, 0...1, "share of openings spent looking at the Compete tab (achievements, rank); the rest close the app",
          .assumption("no usage logged (§6.2.2)")),
        .behavior("lazuri.cards_per_visit", 4, 1...100, "mean cards swiped through in a reading visit (1 + Poisson)",
          .assumption("a short session; inventory §8.6")),
        .behavior("lazuri.card_seconds", 15, 1...300, "median seconds spent on one card",
          .assumption("inventory §8.6: median 15 s per card")),
        .behavior("lazuri.value.new_card", 0.01, 0...1, "value step of a card never seen before (learning something)",
          .assumption("small beside a resisted urge")),
        .behavior("lazuri.value.focus_minutes", 0.02, 0...1, "value step of looking at the focus minutes after a completed window (\"Minutes that served you\")",
          .assumption("small beside a resisted urge")),
        .behavior("lazuri.promise_write_probability", 0.4, 0...1, "chance a person on the Compete tab with no promise yet writes one",
          .assumption("the thesis's study asked no one (§6.2); the sheet is one tap away")),
        .behavior("lazuri.promise_rewrite_probability", 0.1, 0...1, "chance a person on the Compete tab with a promise writes it anew",
          .assumption("the thesis's study asked no one (§6.2)")),
        .behavior("lazuri.promise_at_setup_probability", 0, 0...1,
          "chance a person who has just switched their first schedule on goes to the Compete tab and writes a promise there and then (a checklist's order; 0: the promise is met only on later visits to Compete)",
          .assumption("the thesis has no onboarding (§6.1.2) and its study's checklist listed the promise (App. 1–2); 0 is the app as shipped, 1 the study's or a promise experiment's (Scenarios/lazuri-promise.yaml)")),
        .behavior("lazuri.promise_median_characters", 120, 1...900, "median length of a promise, characters (lognormal, σ 0.8; cut at 900 by the engine)",
          .assumption("two or three sentences")),
    ]
}

/// Lazuri's constants, read once per world (`World.constants`).
public struct LazuriConstants: Sendable {
    public var promiseEffect: Double
    public var promiseHalfLife: Double
    public var breakRole: OptionRole
    public var breakFrictionSeconds: Double
    public var deleteShare: Double
    public var revokeShare: Double
    public var shieldFrustration: Double
    public var resumeProbability: Double
    public var noTutorialCompletion: Double
    public var eveningShare: Double
    public var work: (start: Double, end: Double)
    public var school: (start: Double, end: Double)
    public var evening: (start: Double, end: Double)
    public var openShare: Double
    public var readCardsShare: Double
    public var minutesShare: Double
    public var rankShare: Double
    public var cardsPerVisit: Double
    public var cardSeconds: Double
    public var newCardValue: Double
    public var focusMinutesValue: Double
    public var promiseWriteProbability: Double
    public var promiseRewriteProbability: Double
    public var promiseMedianCharacters: Double
    public var promiseAtSetup: Double

    public init(values v: BehaviorValues) {
        promiseEffect = v["lazuri.promise_effect"]
        promiseHalfLife = v["lazuri.promise_half_life_shields"]
        breakRole = .open(fulfilment: 1, constant: v["lazuri.break_constant"])
        breakFrictionSeconds = v["lazuri.break_friction_seconds"]
        deleteShare = v["lazuri.break_delete_share"]
        revokeShare = v["lazuri.break_revoke_share"]
        shieldFrustration = v["lazuri.shield_frustration"]
        resumeProbability = v["lazuri.resume_probability"]
        noTutorialCompletion = v["lazuri.onboarding.no_tutorial_completion"]
        eveningShare = v["lazuri.schedule.evening_share"]
        work = (v["lazuri.schedule.work_start_hour"], v["lazuri.schedule.work_end_hour"])
        school = (v["lazuri.schedule.school_start_hour"], v["lazuri.schedule.school_end_hour"])
        evening = (v["lazuri.schedule.evening_start_hour"], v["lazuri.schedule.evening_end_hour"])
        openShare = v["lazuri.open_share"]
        readCardsShare = v["lazuri.visit.read_cards_share"]
        minutesShare = v["lazuri.visit.minutes_share"]
        rankShare = v["lazuri.visit.rank_share"]
        cardsPerVisit = v["lazuri.cards_per_visit"]
        cardSeconds = v["lazuri.card_seconds"]
        newCardValue = v["lazuri.value.new_card"]
        focusMinutesValue = v["lazuri.value.focus_minutes"]
        promiseWriteProbability = v["lazuri.promise_write_probability"]
        promiseRewriteProbability = v["lazuri.promise_rewrite_probability"]
        promiseMedianCharacters = v["lazuri.promise_median_characters"]
        promiseAtSetup = v["lazuri.promise_at_setup_probability"]
    }

    /// The promise's effect after `exposures` shields with the same words: `promise_effect · 2^(−exposures / half-life)`.
    public func promiseEffect(afterExposures exposures: Int) -> Double {
        promiseEffect * pow(2, -Double(exposures) / promiseHalfLife)
    }

}

extension ValueChannel {
    /// A card never seen before (Lazuri's flashcards: learning something).
    public static let cardLearned = ValueChannel("card_learned")
}

extension LazuriAdapter {
    public typealias Constants = LazuriConstants
    public static var behaviorParameterGroups: [BehaviorParameterGroup] { LazuriBehavior.groups }
    public static func constants(_ values: BehaviorValues) -> LazuriConstants { LazuriConstants(values: values) }
}
