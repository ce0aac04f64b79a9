import Foundation
import Stochastics

/// Per-person parameters of one habit (scrolling, resisting, opening the blocker app).
public struct HabitParameters: Hashable, Sendable {
    /// The asymptote a of y = a − b·e^(−c·t) (Lally et al. 2010).
    public var asymptote: Double
    /// Days of daily repetition from strength 0 to 95% of the asymptote (Lally et al. 2010: median 66, 18–254).
    public var daysTo95: Double
    /// Days of disuse after which decay has levelled off, i.e. 95% of the eventual loss is done
    /// (Edgren et al. 2024: 1–65 days).
    public var decayLevelOffDays: Double
    /// The share of the strength at last use that survives any gap (the level decay levels off at). Assumption: 0.3.
    public var residualShare: Double
    /// Extra repetition-days of consolidation a use after a gap may credit (spacing effect). Assumption: 1, so a
    /// use after one missed day counts as two days of practice — which is what makes "one missed day barely
    /// matters" (Lally et al. 2010) hold.
    public var spacingCredit: Double

    public init(asymptote: Double = 1, daysTo95: Double = 66, decayLevelOffDays: Double = 15,
                residualShare: Double = 0.3, spacingCredit: Double = 1) {
        self.asymptote = asymptote
        self.daysTo95 = daysTo95
        self.decayLevelOffDays = decayLevelOffDays
        self.residualShare = residualShare
        self.spacingCredit = spacingCredit
    }

    /// The per-repetition-day growth rate c' in y(k) = a − (a − y0)(1 − c')^k: `1 − 20^(−1/daysTo95)`.
    @inlinable public var growthRate: Double { 1 - pow(20, -1 / daysTo95) }
}

/// Habit strength for one behaviour: grows toward an asymptote with each repetition-day, decays with disuse and
/// levels off (docs/DESIGN.md principle 5).
///
/// * Growth, per day with at least one use: y ← a − (a − y)(1 − c')^e, the discrete form of Lally's
///   y = a − b·e^(−c·t). Here e = 1 for consecutive days and up to `1 + spacingCredit` after a gap.
/// * Decay, after g whole days without use: y = y_last · (r + (1 − r)·exp(−(g/τ)⁴)) with τ = levelOff/3^¼, so
///   a single missed day costs little (under 1% even for a habit that levels off after 4 days) and the loss is
///   95% complete after `decayLevelOffDays` (Edgren et al. 2024). The shape exponent 4 is an assumption, chosen so
///   that one missed day a week moves the population's median days-to-95% by well under 10% (Lally et al. 2010).
public struct HabitModel: Hashable, Sendable {
    public var parameters: HabitParameters
    /// Strength right after the last use (or the initial strength).
    public private(set) var strengthAtLastUse: Double
    /// The day index of the last use, if any. Days are any integer count (e.g. `LocalDate.dayNumber`).
    public private(set) var lastUseDay: Int64?

    public init(parameters: HabitParameters, initialStrength: Double = 0) {
        self.parameters = parameters
        self.strengthAtLastUse = min(max(initialStrength, 0), parameters.asymptote)
        self.lastUseDay = nil
    }

    /// Strength on `day` (after any decay since the last use; before a use on that day).
    @inlinable public func strength(onDay day: Int64) -> Double {
        guard let last = lastUseDay, day > last + 1 else { return strengthAtLastUse }
        return strengthAtLastUse * decayFactor(missedDays: Double(day - last - 1))
    }

    /// 3^¼: with τ = levelOff/3^¼, exp(−(levelOff/τ)⁴) = e^(−3) ≈ 5% of the loss remains at `decayLevelOffDays`.
    @inlinable public static var fourthRootOf3: Double { 1.3160740129524924 }

    /// The surviving fraction after `missedDays` of disuse.
    @inlinable public func decayFactor(missedDays g: Double) -> Double {
        guard g > 0 else { return 1 }
        let tau = parameters.decayLevelOffDays / Self.fourthRootOf3
        let x = g / tau
        let x2 = x * x
        let r = parameters.residualShare
        return r + (1 - r) * exp(-x2 * x2)
    }

    /// Records a use on `day`. Several uses on one day count once (the unit of repetition is the day).
    public mutating func reinforce(onDay day: Int64) {
        if let last = lastUseDay, day <= last { return }
        let current = strength(onDay: day)
        let gap = lastUseDay.map { Double(day - $0) } ?? 1
        let exponent = min(gap, 1 + parameters.spacingCredit)
        let a = parameters.asymptote
        strengthAtLastUse = a - (a - current) * pow(1 - parameters.growthRate, exponent)
        lastUseDay = day
    }

    /// Applies `days` of disuse at once to the strength at last use, without moving the day index. For callers
    /// that do not track days; do not combine with gaps between `reinforce(onDay:)` calls (that would count twice).
    public mutating func decay(days: Double) {
        strengthAtLastUse *= decayFactor(missedDays: days)
    }

    /// Draws per-person habit parameters from a persona.
    public static func drawParameters(persona: Persona, rng: RandomStream) -> HabitParameters {
        HabitParameters(asymptote: persona.draw(.habitAsymptote, rng),
                        daysTo95: persona.draw(.habitDaysTo95, rng),
                        decayLevelOffDays: persona.draw(.habitDecayLevelOffDays, rng))
    }

    /// Simulation helper for calibration: calendar days from strength 0 until the strength reaches 95% of the
    /// asymptote, using the habit once a day (optionally skipping one day a week). `nil` if not reached in `limit`.
    public static func daysTo95Percent(parameters: HabitParameters, missOneDayPerWeek: Bool = false, limit: Int64 = 5000) -> Int64? {
        var habit = HabitModel(parameters: parameters)
        let target = 0.95 * parameters.asymptote
        var day: Int64 = 0
        while day < limit {
            day += 1
            if missOneDayPerWeek && day % 7 == 0 { continue }
            habit.reinforce(onDay: day)
            if habit.strengthAtLastUse >= target - 1e-12 { return day }
        }
        return nil
    }
}
