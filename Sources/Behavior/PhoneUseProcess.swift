import Foundation
import RulesCore
import Stochastics

/// What started a pickup.
public enum PickupSource: Hashable, Sendable {
    /// A general check of the phone (time, messages, nothing in particular).
    case spontaneous
    /// A notification prompted it (Heitmayer & Lahlou 2021: ~11% of sessions).
    case notification
    /// An urge to open the person's blocked app at this index in `Person.apps`.
    case urge(app: Int)
}

/// One phone pickup: when, why, and how long the person means to use the phone.
public struct Pickup: Hashable, Sendable {
    public var at: Instant
    public var source: PickupSource
    /// Intended session length (the adapter may cut it short at a shield).
    public var sessionLength: TimeSpan
    /// Urge intensity 0…1 for `.urge` pickups, 0 otherwise.
    public var urgeIntensity: Double
    /// Habitual or intended, for `.urge` pickups (`.intended` otherwise).
    public var kind: UrgeKind = .intended
    public var sessionEnd: Instant { at + sessionLength }

    public init(at: Instant, source: PickupSource, sessionLength: TimeSpan, urgeIntensity: Double, kind: UrgeKind = .intended) {
        self.at = at
        self.source = source
        self.sessionLength = sessionLength
        self.urgeIntensity = urgeIntensity
        self.kind = kind
    }
}

/// A person's phone pickups: a self-exciting (Hawkes) point process on top of an hour-of-week base profile.
///
/// Intensity λ(t) = b(h(t)) + E(t), where b is the person's base rate for local hour-of-week h (daily profile ×
/// sleep suppression × weekend factor, normalised so the expected total is `pickupsPerDay`), and E is the
/// excitation: each session's end adds `burstiness / τ` and E decays as e^(−t/τ), τ = `burstDecayMinutes`.
/// Sampled exactly without thinning (see `nextPickup`).
/// A background pickup is a notification with probability `notificationShare / (1 − burstiness)`; any other
/// pickup is an urge with probability `urgeShare × Σ_i w_i·(floor + h_i)` (capped at 0.95), else spontaneous: w_i
/// the app's liking share, h_i its habit (`AppHabits`), floor `urges.intended_floor` (0.5, so with every habit at
/// the person's scrolling habit h this is the former `urgeShare × (0.5 + h)`). The app is drawn in proportion to
/// w_i·(floor + h_i), and, from the same uniform, the urge is intended (the floor's part) or habitual (the habit's
/// part, h_i / (floor + h_i)) — issue 26: an app whose habit starves is wanted less often, and less automatically.
///
/// Session lengths are log-normal (assumption, calibrated to Andrews et al. 2015 and Falaki et al. 2010):
/// spontaneous median 15 s σ 1.5, notification median 20 s σ 1.2, urge median 75 s σ 1.5 times
/// (0.5 + urge intensity); all times `sessionLengthScale`, clamped to 1 s…4 h.
/// No allocation per pickup.
public struct PhoneUseProcess: Sendable {
    public let parameters: PhoneUseParameters
    /// Base rates per local hour of week (index = weekday(Mon = 0)·24 + hour), events per millisecond.
    public let baseRatePerMs: [Double]
    /// Fraction of the base rate that is notification-started.
    public let notificationFraction: Double
    /// App liking shares w_i (summing to 1).
    let appWeights: [Double]
    /// Cumulative urge weights, two per app: w_i·floor (intended), then w_i·h_i (habitual); rebuilt when a habit moves.
    var urgeCumulative: [Double]
    /// The habit of opening each target app (fed and starved by what the person does with its urges).
    public private(set) var habits: AppHabits
    /// Intended urges per unit of urge share, whatever the habit (`UrgeModel.intendedFloor`).
    public let intendedFloor: Double
    /// The scrolling habit the base rate was compensated with (the habits' mean at the start).
    public let scrollingHabitStrength: Double

    /// Self-excitation state: E (events/ms) at time `excitationAt` (ms).
    var excitation: Double = 0
    var excitationAt: Double = -.infinity
    /// The last pickup's instant (ms) and the excitation just after it, before its session's jump: while
    /// `sessionJumpPending`, the next draw may place the jump at the session's actual end instead (`nextPickup`).
    var lastEventMs: Double = 0
    var excitationAtEvent: Double = 0
    var sessionJumpPending = false
    let decayPerMs: Double
    let jump: Double
    let muSpontaneous: Double, muNotification: Double, muUrge: Double
    // Cached hour piece [pieceStart, pieceEnd) in UTC ms and its index.
    var pieceStart: Double = .infinity
    var pieceEnd: Double = -.infinity
    var pieceIndex: Int = 0

    /// Session-length model constants (assumption; see type documentation).
    public static let spontaneousMedianSeconds = 15.0, spontaneousSigma = 1.5
    public static let notificationMedianSeconds = 20.0, notificationSigma = 1.2
    public static let urgeMedianSeconds = 75.0, urgeSigma = 1.5
    /// Multiplier on the base rate while asleep (night-time wake-ups). Assumption.
    public static let asleepFactor = 0.05
    /// Hours later that sleep starts on Friday and Saturday nights. Assumption.
    public static let weekendSleepShiftHours = 0.75

    public init(person: Person, urges: UrgeModel = UrgeModel()) {
        self.init(parameters: person.phoneUse, appLikings: person.apps.map(\.liking),
                  habits: AppHabits(person: person, residualShare: urges.habitResidualShare), intendedFloor: urges.intendedFloor)
    }

    /// A process whose every app habit stays at `scrollingHabitStrength` unless fed or starved at the default rates.
    public init(parameters p: PhoneUseParameters, appLikings: [Double], scrollingHabitStrength: Double = 0.5) {
        self.init(parameters: p, appLikings: appLikings, habits: AppHabits(count: appLikings.count, strength: scrollingHabitStrength))
    }

    public init(parameters p: PhoneUseParameters, appLikings: [Double], habits: AppHabits, intendedFloor: Double = 0.5) {
        precondition(habits.strength.count == appLikings.count, "one habit per app")
        self.parameters = p
        self.habits = habits
        self.intendedFloor = intendedFloor
        let scrollingHabitStrength = habits.mean
        self.scrollingHabitStrength = scrollingHabitStrength
        let weights = p.dailyProfile.hourWeights
        var rates = [Double](repeating: 0, count: 168)
        let nights = SleepWindows(p)
        for d in 0..<7 {
            for h in 0..<24 {
                let i = d * 24 + h
                let asleep = nights.asleepFraction(hourOfWeek: i)
                let weekend = d >= 5 ? p.weekendFactor : 1
                rates[i] = weights[h] * (1 - asleep + Self.asleepFactor * asleep) * weekend
            }
        }
        let n = min(max(p.burstiness, 0), 0.9)
        let total = rates.reduce(0, +)
        // The phone cannot be picked up while in use: compensate the base rate for the expected busy share of
        // waking time so the expected total stays `pickupsPerDay`.
        let busy = min(0.5, p.pickupsPerDay * Self.expectedSessionSeconds(p, habit: scrollingHabitStrength, intendedFloor: intendedFloor) / ((24 - p.sleepHours) * 3600))
        let weeklyBackground = 7 * p.pickupsPerDay * (1 - n) / (1 - busy)
        self.baseRatePerMs = rates.map { $0 / total * weeklyBackground / 3_600_000 }
        self.notificationFraction = min(1, p.notificationShare / (1 - n))
        let tauMs = p.burstDecayMinutes * 60_000
        self.decayPerMs = 1 / tauMs
        self.jump = n / tauMs
        let likings = appLikings.map { max($0, 1e-6) }
        let likingTotal = likings.reduce(0, +)
        self.appWeights = likings.map { $0 / likingTotal }
        self.urgeCumulative = Array(repeating: 0, count: 2 * appLikings.count)
        let scale = p.sessionLengthScale
        self.muSpontaneous = log(Self.spontaneousMedianSeconds * scale)
        self.muNotification = log(Self.notificationMedianSeconds * scale)
        self.muUrge = log(Self.urgeMedianSeconds * scale)
        rebuildUrgeWeights()
    }

    /// Rebuilds the cumulative urge weights from the habits.
    mutating func rebuildUrgeWeights() {
        var s = 0.0
        for i in appWeights.indices {
            s += appWeights[i] * intendedFloor
            urgeCumulative[2 * i] = s
            s += appWeights[i] * habits.strength[i]
            urgeCumulative[2 * i + 1] = s
        }
    }

    /// An urge for app `i` was acted on (the person opened the app).
    public mutating func urgeActed(_ i: Int) { habits.acted(i) }
    /// An urge for app `i` passed without the app.
    public mutating func urgePassed(_ i: Int) { habits.passed(i) }
    /// An urge counted as passed was acted on after all (a wait or a quest ended in the app).
    public mutating func urgeActedAfterAll(_ i: Int) { habits.actedAfterAll(i) }

    /// Closes a local day: the app habits move by the day's urges, and the urge rates follow.
    public mutating func endOfDay() {
        if habits.endOfDay() { rebuildUrgeWeights() }
    }

    /// The urge probability of a non-notification pickup at the apps' plateau habits: what it would be untreated.
    public var plateauUrgeProbability: Double {
        var s = 0.0
        for i in appWeights.indices { s += appWeights[i] * (intendedFloor + habits.plateau[i]) }
        return min(0.95, parameters.urgeShare * s)
    }

    /// The probability that a non-notification pickup is an urge: `urgeShare × Σ w_i (floor + h_i)`, capped at 0.95.
    public var urgeProbability: Double {
        min(0.95, parameters.urgeShare * (urgeCumulative.last ?? 0))
    }

    /// Expected session length in seconds (log-normal means mixed by source shares), with every app's habit at
    /// `habit` and the urge rate `urgeShare × (intendedFloor + habit)` as `urgeProbability` draws it (the floor was a
    /// literal 0.5 here, audit 2026-11-27 A1: a scenario moving `urges.intended_floor` mis-compensated the base rate).
    public static func expectedSessionSeconds(_ p: PhoneUseParameters, habit: Double, intendedFloor: Double = 0.5) -> Double {
        func lnMean(_ median: Double, _ sigma: Double) -> Double { median * p.sessionLengthScale * exp(sigma * sigma / 2) }
        let h = min(max(habit, 0), 1)
        let pUrge = min(0.95, p.urgeShare * (intendedFloor + h)) * (1 - p.notificationShare)
        let meanIntensity = min(1, 0.3 + 0.7 * h)
        return p.notificationShare * lnMean(notificationMedianSeconds, notificationSigma)
            + pUrge * lnMean(urgeMedianSeconds, urgeSigma) * (0.5 + meanIntensity)
            + max(0, 1 - p.notificationShare - pUrge) * lnMean(spontaneousMedianSeconds, spontaneousSigma)
    }

    /// Fraction of hour-of-week `i` the person is asleep, from the weeknight window shifted later on Fri/Sat nights.
    static func asleepFraction(hourOfWeek i: Int, parameters p: PhoneUseParameters) -> Double {
        SleepWindows(p).asleepFraction(hourOfWeek: i)
    }

    /// Expected pickups per day (all sources).
    public var expectedPickupsPerDay: Double { parameters.pickupsPerDay }

    /// The next pickup strictly after `after` (normally the end of the previous session).
    ///
    /// Sampled exactly, without thinning: the base profile and the excitation are independent Poisson processes
    /// until the next pickup, so the pickup is the earlier of their first events. The base event spends one
    /// unit-exponential hazard across the local-hour pieces (one logarithm however many hours pass); the excited
    /// event, for intensity E₀·e^(−s/τ) with total mass E₀τ, happens with probability 1 − e^(−E₀τ) at
    /// s = −τ·ln(1 − D/(E₀τ)), D unit-exponential (Dassios & Zhao 2013). A base event is a notification with
    /// probability `notificationFraction`; an excited one never is.
    ///
    /// A session's jump of excitation is added at its end (the Hawkes process excites after a session, not during
    /// it). Drawn, the pickup's jump sits at its *intended* end; if `after` is another instant — the session
    /// actually ended earlier (a shield held, access taken away) or later (a quest, then the session), see
    /// `urges.pickup_follows_actual_session` — the jump is moved there: the excitation carried from before the
    /// pickup decays to `after`, and the jump is added at `after`. When `after` is the intended end (the former
    /// model) nothing is recomputed, so its draws and times are unchanged to the bit.
    public mutating func nextPickup(after: Instant, zone: ZoneCalendar, rng: RandomStream) -> Pickup {
        let afterMs = after.millisecondsSinceEpoch
        let start = Double(afterMs)
        if sessionJumpPending && start != excitationAt && start >= lastEventMs {
            // The session actually ended at `after`: its jump is added there.
            excitation = excitationAtEvent * exp(-(start - lastEventMs) * decayPerMs) + jump
            excitationAt = start
        }
        sessionJumpPending = false
        if start < excitationAt {
            excitationAt = start
        } else if excitation > 0 && start > excitationAt {
            excitation *= exp(-(start - excitationAt) * decayPerMs)
            if excitation < 1e-15 { excitation = 0 }
        }
        // The excitation's first event, if it has one.
        var excitedGap = Double.infinity
        var excitationAfter = 0.0
        if excitation > 0 {
            let d = rng.exponential(mean: 1)
            let mass = excitation / decayPerMs
            if d < mass {
                excitedGap = -log1p(-d / mass) / decayPerMs
                excitationAfter = max(0, excitation - d * decayPerMs)
            }
        }
        // The base profile's first event: one unit of hazard spent hour piece by hour piece.
        var hazard = rng.exponential(mean: 1)
        var t = start
        var baseGap = Double.infinity
        while t - start < excitedGap {
            if !(t >= pieceStart && t < pieceEnd) { locatePiece(t, zone: zone) }
            let base = baseRatePerMs[pieceIndex]
            let capacity = base * (pieceEnd - t)
            if hazard < capacity { baseGap = t + hazard / base - start; break }
            hazard -= capacity
            t = pieceEnd
            if t - start > Self.longestGapMs { break } // a base profile of zeros: only the excitation can fire
        }
        let excited = excitedGap <= baseGap
        precondition(excitedGap.isFinite || baseGap.isFinite, "PhoneUseProcess: no pickup within a year (zero base rates)")
        let gap = excited ? excitedGap : baseGap
        let eventMs = start + gap
        if excited {
            excitation = excitationAfter
        } else if excitation > 0 {
            excitation *= exp(-gap * decayPerMs)
        }
        let notification = !excited && rng.uniform() < notificationFraction
        // Ceiling and rounding by integer conversion (times are positive): no libm call.
        let truncated = Int64(eventMs)
        let atMs = max(afterMs + 1, Double(truncated) < eventMs ? truncated + 1 : truncated)
        let source: PickupSource
        let intensity: Double
        var kind = UrgeKind.intended
        var seconds: Double
        if notification {
            source = .notification
            intensity = 0
            seconds = rng.lognormal(mu: muNotification, sigma: Self.notificationSigma)
        } else {
            if !urgeCumulative.isEmpty && rng.uniform() < urgeProbability {
                let u = drawUrge(rng)
                kind = u.kind
                source = .urge(app: u.app)
                intensity = u.intensity
                seconds = u.seconds
            } else {
                source = .spontaneous
                intensity = 0
                seconds = rng.lognormal(mu: muSpontaneous, sigma: Self.spontaneousSigma)
            }
        }
        seconds = min(max(seconds, 1), 14_400)
        let length = TimeSpan(milliseconds: Int64(seconds * 1000 + 0.5))
        // Excitation: decay to the session's end, then add this pickup's jump there.
        let endMs = Double(atMs + length.milliseconds)
        lastEventMs = eventMs
        excitationAtEvent = excitation
        sessionJumpPending = true
        excitation = excitation * exp(-(endMs - eventMs) * decayPerMs) + jump
        excitationAt = endMs
        return Pickup(at: Instant(millisecondsSinceEpoch: atMs), source: source, sessionLength: length, urgeIntensity: intensity, kind: kind)
    }

    /// An urge's app, kind, intensity and intended seconds (unclamped), drawn from `rng` in the order the pickup
    /// process always drew them. Inlined: called out of line from the mutating `nextPickup`, the whole process (about
    /// 300 bytes) was copied for each urge (issue 41).
    @inline(__always)
    func drawUrge(_ rng: RandomStream) -> (app: Int, kind: UrgeKind, intensity: Double, seconds: Double) {
        let r = rng.uniform() * urgeCumulative[urgeCumulative.count - 1]
        var slot = 0
        while slot < urgeCumulative.count - 1 && r >= urgeCumulative[slot] { slot += 1 }
        let app = slot / 2
        let h = min(max(habits.strength[app], 0), 1)
        let intensity = min(1, (0.3 + 0.7 * h) * (0.5 + rng.uniform()))
        return (app, slot % 2 == 0 ? .intended : .habitual, intensity, rng.lognormal(mu: muUrge, sigma: Self.urgeSigma) * (0.5 + intensity))
    }

    /// Phone in hand at a pickup the process did not make (a product's notification seen, issue 39): with probability
    /// `scale × urgeProbability` (capped at 1) an urge for one of the target apps follows — cue reactivity, the same
    /// apps, kinds and session lengths as an urge pickup — drawn from `rng`, a stream of the caller's (the process's
    /// own pickups and its excitation are untouched). Nil when no urge follows.
    public func cuedUrge(scale: Double, at now: Instant, rng: RandomStream) -> Pickup? {
        guard scale > 0, !urgeCumulative.isEmpty, rng.uniform() < min(1, scale * urgeProbability) else { return nil }
        let u = drawUrge(rng)
        let length = TimeSpan(milliseconds: Int64(min(max(u.seconds, 1), 14_400) * 1000 + 0.5))
        return Pickup(at: now, source: .urge(app: u.app), sessionLength: length, urgeIntensity: u.intensity, kind: u.kind)
    }

    /// The longest stretch searched for a base event (a year) before concluding the base profile is all zeros.
    static let longestGapMs = 366.0 * 86_400_000

    /// Finds the local hour piece containing `t` (UTC ms).
    mutating func locatePiece(_ t: Double, zone: ZoneCalendar) {
        let ms = Int64(t.rounded(.down))
        let local = zone.localMilliseconds(Instant(millisecondsSinceEpoch: ms))
        let offset = local - ms
        let hourNumber = Self.floorDiv(local, 3_600_000)
        let day = Self.floorDiv(hourNumber, 24)
        let hour = Int(hourNumber - day * 24)
        let weekday = Int(((day + 3) % 7 + 7) % 7) // 1970-01-01 was a Thursday; Monday = 0
        pieceIndex = weekday * 24 + hour
        pieceStart = Double(hourNumber * 3_600_000 - offset)
        pieceEnd = Double((hourNumber + 1) * 3_600_000 - offset)
        if !(t >= pieceStart && t < pieceEnd) { pieceStart = t; pieceEnd = max(pieceEnd, t + 1) }
    }

    @inline(__always) static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}

/// A person's sleep windows over the week: the nights starting on days −1…7, each also a week earlier and later
/// (27 windows, in the order the hours' overlaps are summed), computed once for the 168 hours of the base profile.
///
/// Fast because the windows are built once per person instead of once per hour (issue 41: the set-up spent half its
/// instructions rebuilding them), and a window that cannot overlap the hour is skipped: its term of the sum,
/// `max(0, min(hi, end) − max(lo, start))`, is then ±0 or (with NaN bounds) 0, and adding zero to the sum leaves it
/// bit for bit as it was — the result is the one the full sum gives.
struct SleepWindows {
    /// Window starts and ends in hours of the week, night by night and, within a night, shifted −168, 0, +168 h.
    private var starts: [Double] = [], ends: [Double] = []

    init(_ p: PhoneUseParameters) {
        starts.reserveCapacity(27)
        ends.reserveCapacity(27)
        for night in -1...7 { // the night starting on day `night` (mod 7)
            let d = ((night % 7) + 7) % 7
            let start = Double(night * 24) + p.sleepStartHour + ((d == 4 || d == 5) ? PhoneUseProcess.weekendSleepShiftHours : 0)
            let end = start + p.sleepHours
            for shift in [-168.0, 0, 168] {
                starts.append(start + shift)
                ends.append(end + shift)
            }
        }
    }

    /// Fraction of hour-of-week `i` asleep: the windows' overlaps with [i, i + 1) summed in window order, at most 1.
    func asleepFraction(hourOfWeek i: Int) -> Double {
        var asleep = 0.0
        let lo = Double(i), hi = Double(i + 1)
        for k in starts.indices where ends[k] > lo && starts[k] < hi {
            asleep += max(0, min(hi, ends[k]) - max(lo, starts[k]))
        }
        return min(1, asleep)
    }
}
