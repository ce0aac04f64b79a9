import Foundation
import RulesCore
import Stochastics

/// Things to do arising in a person's day (issue 29): a `PersonProcess` every person lives, with Nudge, with any
/// other product and with none, drawn from its own stream (`tasks`) keyed without arm or product.
///
/// Arrivals are a Poisson process over the person's waking hours (from their sleep traits) at `tasksPerDay` a day;
/// each thing has a kind, an effort, an urgency and a real deadline (`TaskShape`), and its own draws for what the
/// person does with it unaided (`TaskMind`, the process's mind: Nudge reads and steers it, issue 42).
public struct TaskProcess: PersonProcess {
    public typealias Occurrence = ThingToDo
    public static let stream = StreamName("tasks")

    let perAwakeHour: Double
    let wakeHour: Double
    let sleepHour: Double
    let shape: TaskShape
    var count: UInt64 = 0
    /// The last two local dates whose midnights were looked up, and those midnights (`window`, older first): each draw
    /// walks the dates from the day before `t`'s, so it asks again for the two dates the previous draw ended on (issue
    /// 41: about two look-ups of 85 instructions an arrival saved, 16.6 M of the gate's `none` run). A person's zone
    /// never changes: no entry goes stale.
    var midnights = MidnightCache()

    public typealias Mind = TaskMind

    /// The person's things to do and what became of them (issue 29), with the arm's `tasks.*` values.
    public static func mind(person: Person, behavior: BehaviorValues) -> TaskMind {
        TaskMind(person: person, model: TaskModel(values: behavior))
    }

    /// A thing to do arising is forgotten or put off and done by the person's own means (`TaskMind.arise`).
    public static func liveUnaided(_ t: ThingToDo, mind: inout TaskMind, zone: ZoneCalendar) {
        mind.arise(t, zone: zone)
    }

    public static func traceRow(_ t: ThingToDo, mind: TaskMind) -> (kind: String, detail: String)? {
        let unaided = mind.record(t.ref)?.unaidedDoneAt.map { " unaided: done \($0)" } ?? " unaided: forgotten"
        return ("task", "#\(t.ref) \(t.kind) effort=\(Int(t.effortMinutes.rounded()))m due \(t.deadline)" + unaided)
    }

    public init(person: Person) {
        let p = person.phoneUse
        let awake = max(1, 24 - p.sleepHours)
        perAwakeHour = person.tasks.tasksPerDay / awake
        sleepHour = p.sleepStartHour                     // may pass 24 (after midnight)
        wakeHour = p.sleepStartHour + p.sleepHours - 24  // the same local date's waking hour (may be negative)
        shape = TaskShape.standard
        kindTotal = RandomStream.total(of: shape.kindWeights)
        logEffortMedians = shape.effortMedianMinutes.map { log($0) }
    }

    /// The shape's kind weights summed and checked once, and the logarithms of its effort medians (issue 41: both were
    /// recomputed at every thing to do; the same values, so the same draws).
    let kindTotal: Double
    let logEffortMedians: [Double]

    /// The waking window of local date `d`: from waking to falling asleep (hours past midnight of `d`, either may
    /// lie outside 0…24).
    mutating func window(_ d: LocalDate, zone: ZoneCalendar) -> (Instant, Instant) {
        let midnight = midnights.midnight(of: d, zone: zone)
        return (midnight + .milliseconds(Int64(wakeHour * 3_600_000)), midnight + .milliseconds(Int64(sleepHour * 3_600_000)))
    }

    public mutating func next(after t: Instant, zone: ZoneCalendar, rng: RandomStream) -> (at: Instant, occurrence: ThingToDo)? {
        guard perAwakeHour > 0 else { return nil }
        var gap = Int64(rng.exponential(rate: perAwakeHour) * 3_600_000)   // waking milliseconds
        var d = zone.localDate(t) + -1
        var at: Instant?
        for _ in 0..<400 {
            let (w0, w1) = window(d, zone: zone)
            d = d + 1
            guard t < w1, w0 < w1 else { continue }
            let from = max(t, w0)
            let available = (w1 - from).milliseconds
            if gap < available { at = from + .milliseconds(gap); break }
            gap -= available
        }
        guard let when = at, when > t else { return nil }
        count += 1
        return (when, shape.draw(ref: count, at: when, zone: zone, rng: rng, kindTotal: kindTotal, logEffortMedians: logEffortMedians))
    }
}

/// The shape of things to do: kinds, efforts, urgency and deadlines. Assumptions (no published distribution of
/// everyday to-dos by kind was found): errands and reading are the longest; calls, texts and emails are minutes.
public struct TaskShape: Sendable, Hashable {
    /// Relative frequency of each kind, in `TaskKind.allCases` order (call, text, email, errand, read).
    public var kindWeights: [Double] = [0.15, 0.25, 0.15, 0.3, 0.15]
    /// Median effort in minutes per kind (lognormal, σ `effortSigma`).
    public var effortMedianMinutes: [Double] = [5, 2, 8, 30, 10]
    public var effortSigma = 0.6
    /// Urgency ~ Beta(a, b).
    public var urgencyA = 2.0, urgencyB = 3.0
    /// Hours from arising to the deadline: lognormal with median `deadlineMedianHours × (1 − 0.8 urgency)`, σ
    /// `deadlineSigma`, at least one hour.
    public var deadlineMedianHours = 48.0
    public var deadlineSigma = 0.8
    /// Words a person says about one thing: 3 + uniform 0…`extraWords`.
    public var extraWords = 7

    public static let standard = TaskShape()

    /// A thing arising at `t`; `kindTotal` is `RandomStream.total(of: kindWeights)` and `logEffortMedians` the
    /// logarithms of `effortMedianMinutes`, computed once by the process.
    func draw(ref: UInt64, at t: Instant, zone: ZoneCalendar, rng: RandomStream, kindTotal: Double, logEffortMedians: [Double]) -> ThingToDo {
        let kindIndex = rng.categorical(weights: kindWeights, total: kindTotal)
        let effort = rng.lognormal(mu: logEffortMedians[kindIndex], sigma: effortSigma)
        let urgency = rng.beta(urgencyA, urgencyB)
        let hours = max(1, rng.lognormal(mu: log(deadlineMedianHours * (1 - 0.8 * urgency)), sigma: deadlineSigma))
        let words = 3 + rng.uniformInt(below: extraWords + 1)
        return ThingToDo(ref: ref, kind: TaskKind.allCases[kindIndex], arisenAt: t, effortMinutes: effort, urgency: urgency,
                         deadline: t + .milliseconds(Int64(hours * 3_600_000)), words: words,
                         recall: rng.uniform(), start: rng.uniform())
    }
}

/// A person's last two local midnights looked up (`ZoneCalendar.instant(on:at:)`), for dates asked in ascending order.
struct MidnightCache: Sendable {
    private var older: (day: LocalDate, at: Instant)?
    private var newer: (day: LocalDate, at: Instant)?

    /// The instant local date `d` begins in `zone` (always the same zone for one cache).
    mutating func midnight(of d: LocalDate, zone: ZoneCalendar) -> Instant {
        if let n = newer, n.day == d { return n.at }
        if let o = older, o.day == d { return o.at }
        let at = zone.instant(on: d, at: .midnight)
        older = newer
        newer = (d, at)
        return at
    }
}
