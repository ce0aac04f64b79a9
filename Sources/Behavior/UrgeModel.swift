import Foundation

/// What kind of urge brought a person to an app (issue 26).
///
/// * `habitual`: automatic checking, cued and brief — what Oulasvirta et al. 2012 call checking habits and Lukoff et
///   al. 2018 tie to use people later find meaningless.
/// * `intended`: the person wants something from the app (a message, a video they were sent).
///
/// `PhoneUseProcess` draws the kind with the urge: for app i the rate of urges is `floor + h_i` (in units of the
/// person's urge share), the intended part the floor, the habitual part the app's habit h_i, so the habitual share
/// is h_i / (floor + h_i) and falls as the habit starves.
public enum UrgeKind: String, Hashable, Sendable, CaseIterable {
    case habitual, intended
}

/// Urges and what an interruption does to them (issue 26): the floor of intended use, the habit's residual, and
/// letting go.
///
/// **Letting go.** An interruption between an urge and the app — a shield appearing, a breathing quest, an exercise,
/// a wait — gives the reflective system a chance to take over from the automatic one (dual-process accounts of habit,
/// Wood & Rünger 2016). The longer the interruption, the likelier reflection engages, and once it does, a weak urge is
/// dropped more readily than a strong one; an intended urge much less readily than a habitual one, since the person
/// still wants what they came for:
///
///     P(let go) = (1 − e^(−s/τ)) · k · (1 − u)
///
/// with s the interruption's seconds, τ `urges.reflection_seconds`, k = 1 for a habitual urge and
/// `urges.intended_let_go_factor` for an intended one, and u the urge's intensity (0…1). The form and τ are
/// assumptions; its direction is the dose–response Kim et al. 2019 (CHI, "LocknType") measured — a lock-out screen
/// with a bare pause stopped 13.1 % of launches, one that asked for 30 typed digits 47.5 % (world check).
public struct UrgeModel: Hashable, Sendable {
    /// Intended urges per unit of urge share whatever the habit (`urges.intended_floor`).
    public var intendedFloor = 0.5
    /// Share of the plateau an app habit's decay levels off at (`urges.habit_residual_share`).
    public var habitResidualShare = 0.3
    /// τ: seconds of interruption over which reflection engages (`urges.reflection_seconds`).
    public var reflectionSeconds = 20.0
    /// k for an intended urge (`urges.intended_let_go_factor`).
    public var intendedLetGoFactor = 0.25
    /// Seconds a shield holds the person before they can answer it (`shield.notice_seconds`): the interruption every
    /// shield is, before any option's own friction.
    public var shieldNoticeSeconds = 5.0
    /// A session ends when the person actually puts the phone down, and the next pickup follows that end
    /// (`urges.pickup_follows_actual_session` = 1); false: the former model, every session its intended length.
    public var pickupFollowsActualSession = true

    public init() {}

    /// The model with the values of `values` (`urges.*`, `shield.notice_seconds`).
    public init(values: BehaviorValues) {
        intendedFloor = values["urges.intended_floor"]
        habitResidualShare = values["urges.habit_residual_share"]
        reflectionSeconds = values["urges.reflection_seconds"]
        intendedLetGoFactor = values["urges.intended_let_go_factor"]
        shieldNoticeSeconds = values["shield.notice_seconds"]
        pickupFollowsActualSession = values["urges.pickup_follows_actual_session"] >= 0.5
    }

    /// The probability that an urge of `kind` and intensity `urge` is let go during an interruption of `seconds`.
    @inlinable
    public func letGoProbability(_ kind: UrgeKind, urge: Double, seconds: Double) -> Double {
        guard seconds > 0 else { return 0 }
        let engaged = 1 - exp(-seconds / max(reflectionSeconds, 1e-9))
        let k = kind == .habitual ? 1 : intendedLetGoFactor
        return engaged * k * (1 - min(max(urge, 0), 1))
    }
}
