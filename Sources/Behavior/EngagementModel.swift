import Foundation
import Stochastics

/// Things that happen to a person with the product, reported by the product adapter. The person's own (a refused
/// shield, a paywall, a resisted urge, minutes saved, an app open) have their weights here (`engagement.*`); what
/// only a product knows (Scroll Off's empty wallet, Earned Access's detour, Nudge's tier limit, credit earned, a
/// thing done with help) is `.frustration(w)` or `.value(w, channel)`, with the weight the product's constants read
/// once per world from its own behaviour parameters (`ProductAdapter.Constants`, issue 42).
public enum EngagementEvent: Hashable, Sendable {
    case shieldRefused, paywallHit, resistedUrge
    case minutesSaved(Double)
    case appOpened
    case notificationReceived
    /// A dormant person met a shield: friction from an app they no longer look at (issue 26).
    case dormantShield
    /// A frustration of the product's own, as a step of `w` (share of headroom, × (0.5 + sensitivity)).
    case frustration(Double)
    /// Value given through one of the product's channels, as a step of `w` (share of headroom).
    case value(Double, ValueChannel)
}

/// A way a product gives a person value (issue 39): each product declares its channels
/// (`ProductAdapter.valueChannels`), and value felt grows only through them. An open vocabulary (issue 42): the
/// person's own channels are declared here, a product's own in its folder (`extension ValueChannel { static let … }`,
/// Nudge's `thingDoneWithHelp`); a channel is its id, compared by a code computed once (a trivial value: no string
/// is copied or hashed on the life's path).
public struct ValueChannel: Hashable, Sendable, CustomStringConvertible {
    /// The channel's id (`snake_case`).
    public let id: StaticString
    /// FNV-1a 64 of `id`, computed once: what equality and hashing compare.
    public let code: UInt64

    public init(_ id: StaticString) {
        self.id = id
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        id.withUTF8Buffer { for b in $0 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 } }
        code = h
    }

    public static func == (a: ValueChannel, b: ValueChannel) -> Bool { a.code == b.code }
    public func hash(into h: inout Hasher) { h.combine(code) }
    public var description: String { id.description }

    /// An urge for a target app the person let go of at the product's prompt (a willpower win).
    public static let urgeResisted = ValueChannel("urge_resisted")
    /// Credit earned (Scroll Off's and Earned Access's earned minutes: a mechanism both share).
    public static let creditEarned = ValueChannel("credit_earned")
    /// Minutes the person meant to spend in a target app and kept for themselves.
    public static let minutesKept = ValueChannel("minutes_kept")
}

extension EngagementEvent {
    /// The value channel the event belongs to, if it gives value.
    public var valueChannel: ValueChannel? {
        switch self {
        case .resistedUrge: .urgeResisted
        case .minutesSaved: .minutesKept
        case let .value(_, channel): channel
        default: nil
        }
    }
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
    case none, notification, afterShield
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
/// that emerges from them (docs/DESIGN.md principle 5). All rates are assumptions.
public struct EngagementModel: Hashable, Sendable {
    /// 0…1; built by frustrating events, fades by `frustrationDailyRetention` a day.
    public private(set) var frustration: Double
    /// 0…1: the value the product has given the person through its channels (urges resisted, credit earned,
    /// minutes kept, things done with its help), fading by `valueDailyRetention` a day. Nothing at install (issue 39).
    public private(set) var productValue: Double
    /// 0…1: the novelty of a new app, `noveltyStart` at install, fading by `noveltyDailyRetention` a day (issue 39;
    /// it replaces the literal 0.3 of value felt at install).
    public private(set) var novelty: Double
    /// Value felt, 0…1: what the product gave plus what is still new about it. The churn hazard, the purchase
    /// utilities and the task tool's decisions weigh it.
    public var perceivedValue: Double { min(1, productValue + novelty) }
    /// Whether the person installed out of curiosity only — to try the app, not to adopt it (issue 39, "trying and
    /// dropping"): drawn once at install (`drawTrying(rng:)`), the same person whatever the product.
    public private(set) var triesOnly = false
    /// Habit of opening the app itself, 0…1.
    public private(set) var appOpenHabit: Double
    public private(set) var daysSinceOpen: Int = 0
    public var frustrationSensitivity: Double
    /// The product's integration into the person's day (issue 26): a habit of use, reinforced on each local day the
    /// product is in use (Lally-style growth at the person's habit-formation pace, Edgren-style decay when it is not),
    /// so value felt at a keep-or-cancel decision grows with the days a trial was used (`PurchaseModel.integrationWeight`).
    public private(set) var integration = HabitModel(parameters: HabitParameters(), initialStrength: 0)

    public var frustrationDailyRetention = 0.8
    public var valueDailyRetention = 0.93
    /// Novelty at install and its daily retention (`engagement.novelty_start`, `engagement.novelty_daily_retention`).
    public var noveltyStart = 0.3
    public var noveltyDailyRetention = 0.93
    /// Share of installs who only try the app (`retention.trying_share`) and their daily chance of dropping it
    /// (`retention.trying_daily_drop`), whatever the product gives.
    public var tryingShare = 0.0
    public var tryingDailyDrop = 0.6
    public var appOpenHabitGain = 0.05
    public var appOpenHabitDailyRetention = 0.97
    /// Churn hazard per day at zero frustration, value and app-open habit (assumption, ≈ Adjust 2023 D30 for
    /// ordinary apps when nothing engages the person).
    public var baseChurnHazard = 0.08
    public var frustrationWeight = 2.5
    public var valueWeight = 3.0
    public var engagementWeight = 1.5
    /// The churn hazard of a person paying for the product now, as a share of the hazard otherwise
    /// (`churn.paying_hazard_ratio`, applied by the life through `dailyChurnDecision(…hazardScale:)`). Assumption.
    public var payingHazardRatio = 0.5
    /// How a churn splits between uninstall, revoking Screen Time access and going dormant. Assumption.
    public var churnKindWeights: [Double] = [0.35, 0.15, 0.5]
    /// Frustration steps (share of headroom, × (0.5 + sensitivity)) of a refused shield and a paywall.
    public var shieldRefusedFrustration = 0.04
    public var paywallHitFrustration = 0.10
    /// Perceived-value steps (share of headroom) of a resisted urge, each minute saved (capped).
    public var resistedUrgeValue = 0.03
    public var valuePerMinuteSaved = 0.002
    public var minutesSavedValueCap = 0.2
    /// Cue strengths of opening the app (see `appOpenProbability(cue:)`).
    public var noCueStrength = 0.05
    public var notificationCueStrength = 0.6
    public var afterShieldCueStrength = 0.3

    public init(frustrationSensitivity: Double = 0.5, appOpenHabit: Double = 0.3, perceivedValue: Double = 0.3) {
        self.frustrationSensitivity = frustrationSensitivity
        self.appOpenHabit = appOpenHabit
        self.productValue = perceivedValue
        self.novelty = 0
        self.frustration = 0
    }

    public init(person: Person) {
        self.init(frustrationSensitivity: person.frustrationSensitivity, appOpenHabit: person.appOpenHabit, perceivedValue: 0)
        novelty = noveltyStart
        integration = Self.integrationHabit(person)
    }

    /// The product's integration into the person's day, from nothing, at the person's pace of habit formation.
    static func integrationHabit(_ person: Person) -> HabitModel {
        let habit = person.resistHabit.parameters
        return HabitModel(parameters: HabitParameters(asymptote: 1, daysTo95: habit.daysTo95, decayLevelOffDays: habit.decayLevelOffDays),
                          initialStrength: 0)
    }

    /// A model with the constants of `values` (`BehaviorCatalogue`: `churn.*`, `engagement.*`) and the default state;
    /// give it a person with `starting(person:)`.
    public init(values: BehaviorValues, frustrationSensitivity: Double = 0.5, appOpenHabit: Double = 0.3, perceivedValue: Double = 0.3) {
        self.init(frustrationSensitivity: frustrationSensitivity, appOpenHabit: appOpenHabit, perceivedValue: perceivedValue)
        frustrationDailyRetention = values["engagement.frustration_daily_retention"]
        valueDailyRetention = values["engagement.value_daily_retention"]
        noveltyStart = values["engagement.novelty_start"]
        noveltyDailyRetention = values["engagement.novelty_daily_retention"]
        tryingShare = values["retention.trying_share"]
        tryingDailyDrop = values["retention.trying_daily_drop"]
        appOpenHabitGain = values["engagement.app_open_habit_gain"]
        appOpenHabitDailyRetention = values["engagement.app_open_habit_daily_retention"]
        baseChurnHazard = values["churn.base_hazard"]
        frustrationWeight = values["churn.frustration_weight"]
        valueWeight = values["churn.value_weight"]
        engagementWeight = values["churn.engagement_weight"]
        payingHazardRatio = values["churn.paying_hazard_ratio"]
        churnKindWeights = [values["churn.split.uninstall"], values["churn.split.revoke_access"], values["churn.split.dormant"]]
        shieldRefusedFrustration = values["engagement.frustration.shield_refused"]
        paywallHitFrustration = values["engagement.frustration.paywall_hit"]
        resistedUrgeValue = values["engagement.value.resisted_urge"]
        valuePerMinuteSaved = values["engagement.value.per_minute_saved"]
        minutesSavedValueCap = values["engagement.value.minutes_saved_cap"]
        noCueStrength = values["engagement.cue.none"]
        notificationCueStrength = values["engagement.cue.notification"]
        afterShieldCueStrength = values["engagement.cue.after_shield"]
    }

    /// This model's constants with `person`'s starting state (as `init(person:)`): built once per world, copied
    /// per person, so no person reads a value by key.
    public func starting(person: Person) -> EngagementModel {
        var m = self
        m.frustrationSensitivity = person.frustrationSensitivity
        m.appOpenHabit = person.appOpenHabit
        m.productValue = 0
        m.novelty = noveltyStart
        m.triesOnly = false
        m.frustration = 0
        m.daysSinceOpen = 0
        m.integration = Self.integrationHabit(person)
        return m
    }

    /// Draws whether the person only tries the app (one uniform from `rng`, normally the `churn` stream, at install,
    /// before any daily draw): with `tryingShare`. Keyed without arm or product, so the same people only try every arm.
    public mutating func drawTrying(rng: RandomStream) {
        triesOnly = rng.uniform() < tryingShare
    }

    /// The product was in use on local day `day` (counted once a day).
    public mutating func recordProductUse(onDay day: Int64) { integration.reinforce(onDay: day) }

    /// The product's integration into the day on local day `day`, 0…1.
    public func integration(onDay day: Int64) -> Double { integration.strength(onDay: day) }

    /// The channels through which the product gives value (`ProductAdapter.valueChannels`); nil: any (component
    /// tests). A value event on a channel the product did not declare is a programming error (asserted).
    public var valueChannels: Set<ValueChannel>?

    /// Updates the state for one event.
    public mutating func record(_ e: EngagementEvent) {
        assert(e.valueChannel.map { valueChannels?.contains($0) ?? true } ?? true,
               "value through channel \(e.valueChannel!), which the product does not declare (ProductAdapter.valueChannels)")
        func frustrate(_ w: Double) { frustration = min(1, frustration + (1 - frustration) * w * (0.5 + frustrationSensitivity)) }
        func value(_ w: Double) { productValue = min(1, productValue + (1 - productValue) * w) }
        switch e {
        case .shieldRefused: frustrate(shieldRefusedFrustration)
        case .paywallHit: frustrate(paywallHitFrustration)
        case let .frustration(w): frustrate(w)
        case let .value(w, _): value(w)
        case .resistedUrge: value(resistedUrgeValue)
        case let .minutesSaved(m): value(min(minutesSavedValueCap, valuePerMinuteSaved * max(m, 0)))
        case .appOpened:
            appOpenHabit = min(1, appOpenHabit + appOpenHabitGain * (1 - appOpenHabit))
            daysSinceOpen = 0
        case .notificationReceived: break
        case .dormantShield: frustrate(shieldRefusedFrustration)
        }
    }

    /// Ends a day: feelings fade, an unused app-open habit weakens.
    public mutating func endOfDay() {
        frustration *= frustrationDailyRetention
        productValue *= valueDailyRetention
        novelty *= noveltyDailyRetention
        daysSinceOpen += 1
        if daysSinceOpen > 1 { appOpenHabit *= appOpenHabitDailyRetention }
    }

    /// Probability that the person opens the app itself given a cue.
    public func appOpenProbability(cue: AppOpenCue) -> Double {
        let cueStrength: Double
        switch cue {
        case .none: cueStrength = noCueStrength
        case .notification: cueStrength = notificationCueStrength
        case .afterShield: cueStrength = afterShieldCueStrength
        }
        return 1 - exp(-cueStrength * (0.2 + 2 * appOpenHabit + perceivedValue))
    }

    /// Churn hazard per day of a person who adopted the product: the cost felt (frustration) against the value felt
    /// (what the product gave and its novelty) and the habit of opening it.
    public var adoptedChurnHazardPerDay: Double {
        min(1, baseChurnHazard * exp(frustrationWeight * frustration - valueWeight * perceivedValue - engagementWeight * appOpenHabit))
    }

    /// Churn hazard per day: the adopted person's, or — for a person who only tries the app — at least the daily
    /// chance of dropping it (`tryingDailyDrop`), whatever the product gives. A population mixing the two has the
    /// shape of every install-cohort curve: steep first days, then a slow tail (heterogeneity alone makes the
    /// cohort's hazard fall with time; Fader & Hardie 2007, the shifted-beta-geometric model).
    public var churnHazardPerDay: Double {
        triesOnly ? max(tryingDailyDrop, adoptedChurnHazardPerDay) : adoptedChurnHazardPerDay
    }

    /// Whether (and how) the person leaves today: two draws from `rng` (normally the `churn` stream).
    public func dailyChurnDecision(rng: RandomStream) -> ChurnKind? {
        dailyChurnDecision(rng: rng, disableRestrictionShare: 0)
    }

    /// Whether (and how) the person leaves today, where a share of would-be uninstalls disables the restriction
    /// instead (the person's `FeatureUseTraits.disableRestrictionExitShare`). The same two draws as
    /// `dailyChurnDecision(rng:)`, which it equals at share 0: the split reuses the first uniform (given that the
    /// person leaves, u/hazard is uniform and independent of the kind), so no stream shifts.
    /// A product that restricts nothing (`restricts` false: no device permission to revoke, no restriction to lift)
    /// splits leaving between uninstalling and going dormant only (issue 29), with the same draws.
    /// `hazardScale` multiplies the day's hazard (a paying person's `payingHazardRatio`); the draws are the same.
    public func dailyChurnDecision(rng: RandomStream, disableRestrictionShare: Double, restricts: Bool = true, hazardScale: Double = 1) -> ChurnKind? {
        let hazard = min(1, churnHazardPerDay * hazardScale)
        let u = rng.uniform()
        let kind = rng.categorical(weights: restricts ? churnKindWeights : [churnKindWeights[0], 0, churnKindWeights[2]])
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

/// Onboarding step completion with scenario values (`onboarding.completion.*`): p = base^(1.5 − techComfort), the
/// base being the probability at comfort 0.5. `OnboardingModel(values: .defaults)` decides as
/// `EngagementModel.completesStep`.
/// How firm a block a person asks for (a product's strictness levels, e.g. Earned Access's Standard/Strict/Hard).
public enum BlockFirmness: String, Hashable, Sendable { case standard, strict, hard }

public struct OnboardingModel: Hashable, Sendable {
    public var informational: Double
    public var permission: Double
    public var configuration: Double
    public var payment: Double
    /// Shares of people asking for a hard or a strict block when a product offers a strictness (assumptions).
    public var hardBlockShare: Double
    public var strictBlockShare: Double

    public init(values: BehaviorValues = .defaults) {
        informational = values["onboarding.completion.informational"]
        permission = values["onboarding.completion.permission"]
        configuration = values["onboarding.completion.configuration"]
        payment = values["onboarding.completion.payment"]
        hardBlockShare = values["onboarding.hard_block_share"]
        strictBlockShare = values["onboarding.strict_block_share"]
    }

    /// How firm a block the person asks for when a product offers a choice (one uniform from `rng`): hard with
    /// `hardBlockShare`, strict with `strictBlockShare`, else standard.
    public func blockFirmness(rng: RandomStream) -> BlockFirmness {
        let u = rng.uniform()
        return u < hardBlockShare ? .hard : u < hardBlockShare + strictBlockShare ? .strict : .standard
    }

    /// The completion probability at tech comfort 0.5.
    public func baseCompletion(_ kind: OnboardingStepKind) -> Double {
        switch kind {
        case .informational: return informational
        case .permission: return permission
        case .configuration: return configuration
        case .payment: return payment
        }
    }

    /// Probability of completing one step: `base^(1.5 − techComfort)`.
    public func completionProbability(_ kind: OnboardingStepKind, techComfort: Double) -> Double {
        pow(baseCompletion(kind), 1.5 - min(max(techComfort, 0), 1))
    }

    /// Whether the person completes a step (one draw, normally from the `onboarding` stream).
    public func completesStep(_ kind: OnboardingStepKind, techComfort: Double, rng: RandomStream) -> Bool {
        rng.uniform() < completionProbability(kind, techComfort: techComfort)
    }
}
