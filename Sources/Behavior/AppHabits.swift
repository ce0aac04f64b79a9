import Foundation

/// The habit of opening each of a person's target apps (`Person.apps`): **fed** when an urge for the app comes and
/// the person opens it, **starved** when an urge passes without it (issue 26). The urge rate for an app rises with
/// its habit (cue reactivity, `PhoneUseProcess`), so a blocked app whose urges keep passing is wanted less and less
/// often, and when the block goes away its urges come back at the rate the habit has by then.
///
/// Per local day and app, with f urges acted on and p passed (s = f / (f + p); a day with no urge for the app leaves
/// its habit as it is — habits move with cues, not with the calendar):
///
///     h ← h + c·s·(H − h) − δ·(1 − s)·(h − r·H)
///
/// * H, the plateau: the strength the person brings (`initial_scrolling_habit`). An adult's checking habit is long
///   established, so an untreated person who opens every urge stays where they are (no drift; the former model's
///   habit grew toward `habit_asymptote` at every urge, audit of issue 26).
/// * c = 1 − 20^(−1/d95), d95 the person's `habit_days_to_95`: a fully fed day is one day of Lally et al. 2010's
///   daily repetition (95 % of the way in d95 days, median 66).
/// * δ = 1 − 20^(−1/L), L the person's `habit_decay_level_off_days`: a fully starved day is one day of Edgren et
///   al. 2024's decay, 95 % done in L days (1–65, median 15) — here a day of cues met without the behaviour.
/// * r, the residual share (`urges.habit_residual_share`, 0.3 as `HabitParameters.residualShare`): what decay
///   levels off at, a share of the plateau (Edgren et al. 2024: decay levels off above zero).
///
/// The same rule holds for every product and for none: only what the person does with an urge differs.
public struct AppHabits: Hashable, Sendable {
    /// Habit strength per app (index as in `Person.apps`), 0…1.
    public private(set) var strength: [Double]
    /// The strength each app's habit returns to when fed every day (the person's established habit).
    public let plateau: [Double]
    /// c: the share of the way to the plateau a fully fed day goes.
    public let growthRate: Double
    /// δ: the share of the way to the residual a fully starved day goes.
    public let decayRate: Double
    /// r: the share of the plateau that decay levels off at.
    public let residualShare: Double
    /// Urges acted on and passed today, per app.
    public private(set) var actedToday: [Int32]
    public private(set) var passedToday: [Int32]

    /// `count` apps at `strength`, growing and decaying at the rates of `daysTo95` and `decayLevelOffDays`.
    public init(count: Int, strength: Double, daysTo95: Double = 66, decayLevelOffDays: Double = 15, residualShare: Double = 0.3) {
        let s = min(max(strength, 0), 1)
        self.strength = Array(repeating: s, count: count)
        plateau = self.strength
        growthRate = 1 - pow(20, -1 / max(daysTo95, 0.5))
        decayRate = 1 - pow(20, -1 / max(decayLevelOffDays, 0.5))
        self.residualShare = min(max(residualShare, 0), 1)
        actedToday = Array(repeating: 0, count: count)
        passedToday = Array(repeating: 0, count: count)
    }

    /// The person's app habits: every target app at the person's scrolling habit, at the person's own rates.
    public init(person: Person, residualShare: Double = 0.3) {
        let p = person.scrollingHabit.parameters
        self.init(count: person.apps.count, strength: person.scrollingHabit.strengthAtLastUse, daysTo95: p.daysTo95,
                  decayLevelOffDays: p.decayLevelOffDays, residualShare: residualShare)
    }

    /// An urge for app `i` was acted on: the person opened the app.
    public mutating func acted(_ i: Int) { actedToday[i] += 1 }

    /// An urge for app `i` passed without the app (a shield held, the person let go).
    public mutating func passed(_ i: Int) { passedToday[i] += 1 }

    /// An urge counted as passed today was acted on after all (a wait or a quest ended in the app).
    public mutating func actedAfterAll(_ i: Int) {
        if passedToday[i] > 0 { passedToday[i] -= 1 }
        actedToday[i] += 1
    }

    /// Closes a day: every app with an urge today moves by the day's share of urges acted on. Returns whether any
    /// strength changed.
    @discardableResult
    public mutating func endOfDay() -> Bool {
        var changed = false
        for i in strength.indices {
            let f = Double(actedToday[i]), p = Double(passedToday[i])
            guard f + p > 0 else { continue }
            let s = f / (f + p)
            let h = strength[i], top = plateau[i]
            let next = h + growthRate * s * (top - h) - decayRate * (1 - s) * (h - residualShare * top)
            strength[i] = min(max(next, 0), 1)
            changed = changed || strength[i] != h
            actedToday[i] = 0
            passedToday[i] = 0
        }
        return changed
    }

    /// The mean strength over the apps (0 with none).
    public var mean: Double { strength.isEmpty ? 0 : strength.reduce(0, +) / Double(strength.count) }
}
