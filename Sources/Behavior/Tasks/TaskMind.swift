import Foundation
import RulesCore

/// What a person does with their things to do by their own means (issue 29): forgets some, puts others off — the
/// more effortful, the more they procrastinate, the lower their confidence and the longer their list, the longer —
/// and does the rest, on time or late. A product may add to it (`doneWithHelp`: a card shown, a reminder at the
/// right moment); what it takes from it is the person's attention (`spendAttention`, issue 39): time managing the
/// list delays the thing in progress.
///
/// Seed 001 §2: "Thoughts vanish in seconds", "Seeing 30 items = doing 0 items". The constants are `tasks.*` in
/// `BehaviorCatalogue` (`TaskModel`).
public struct TaskModel: Hashable, Sendable {
    /// Mean hours a remembered thing of 10 minutes' effort is put off, for an average person with an empty list.
    public var delayMeanHours = 10.0
    /// Elasticity of the delay in effort (effort ÷ 10 min to this power).
    public var effortExponent = 0.5
    /// Log-delay per unit of procrastination above 0.35.
    public var procrastinationWeight = 2.0
    /// Log-delay lowered per unit of task efficacy above 0.5.
    public var efficacyWeight = 1.0
    /// Delay added per thing already pending (a share of the delay; "seeing 30 items = doing 0 items").
    public var queueWeight = 0.05
    /// Share of the efficacy headroom one thing done on time adds, and share lost by one done late or never.
    public var efficacyGain = 0.02, efficacyLoss = 0.02

    public init() {}

    /// The model with the values of `values` (`tasks.*`).
    public init(values: BehaviorValues) {
        delayMeanHours = values["tasks.delay_mean_hours"]
        effortExponent = values["tasks.effort_exponent"]
        procrastinationWeight = values["tasks.procrastination_weight"]
        efficacyWeight = values["tasks.efficacy_weight"]
        queueWeight = values["tasks.queue_weight"]
        efficacyGain = values["tasks.efficacy_gain"]
        efficacyLoss = values["tasks.efficacy_loss"]
    }
}

/// One thing to do in a person's life and what became of it.
public struct TaskRecord: Sendable, Hashable {
    public var task: ThingToDo
    /// When the person would do it by their own means; nil when they forget it.
    public var unaidedDoneAt: Instant?
    /// When it was done (the earlier of unaided and helped), nil while not done.
    public var doneAt: Instant?
    /// A product holds it (captured in an app): not forgotten while the product shows it again.
    public var captured = false
    /// The person's confidence has taken its outcome into account.
    var settled = false

    /// Done by its deadline.
    public var doneOnTime: Bool { doneAt.map { $0 <= task.deadline } ?? false }
}

/// A person's things to do, by their own means and with what products add: the records of every thing that arose,
/// the person's task efficacy (domain-specific self-efficacy, Bandura 1977: mastery raises it, failure lowers it),
/// and the list they carry in their head.
public struct TaskMind: Sendable {
    public private(set) var records: [TaskRecord] = []
    /// Task efficacy 0…1, starting at the person's self-efficacy.
    public private(set) var efficacy: Double
    /// Records whose outcome the efficacy has not taken in yet.
    var unsettled: [Int] = []
    let traits: TaskTraits
    let wakeHour: Double, sleepHour: Double
    /// What people do with their things to do by their own means (`tasks.*`).
    public let model: TaskModel

    public init(person: Person, model: TaskModel = TaskModel()) {
        self.model = model
        efficacy = person.selfEfficacy.value
        traits = person.tasks
        sleepHour = person.phoneUse.sleepStartHour
        wakeHour = person.phoneUse.sleepStartHour + person.phoneUse.sleepHours - 24
    }

    /// The record of `ref` (1-based, in order of arising).
    public func record(_ ref: UInt64) -> TaskRecord? {
        let i = Int(ref) - 1
        return records.indices.contains(i) ? records[i] : nil
    }

    /// Things remembered and not yet done at `now` (the list in the person's head): a thing forgotten is not on it,
    /// even if an app holds it (the app shows one card, not the list).
    public func pending(at now: Instant) -> Int {
        var n = 0
        for i in unsettled where records[i].unaidedDoneAt != nil && records[i].doneAt.map({ $0 > now }) ?? false { n += 1 }
        return n
    }

    /// A thing to do arises: its fate by the person's own means is drawn from its own draws, now (with `model`).
    public mutating func arise(_ t: ThingToDo, zone: ZoneCalendar) { arise(t, model: model, zone: zone) }

    /// A thing to do arises: its fate by the person's own means is drawn from its own draws, now.
    public mutating func arise(_ t: ThingToDo, model: TaskModel, zone: ZoneCalendar) {
        settle(at: t.arisenAt, model: model)
        var r = TaskRecord(task: t)
        if t.recall >= traits.forgetting {
            let mean = model.delayMeanHours * pow(max(t.effortMinutes, 0.5) / 10, model.effortExponent)
                * exp(model.procrastinationWeight * (traits.procrastination - 0.35) - model.efficacyWeight * (efficacy - 0.5))
                * (1 + model.queueWeight * Double(pending(at: t.arisenAt)))
            let hours = -mean * log(max(1e-12, 1 - t.start))
            let done = awake(t.arisenAt + .milliseconds(Int64(hours * 3_600_000) + Int64(t.effortMinutes * 60_000)), zone: zone)
            r.unaidedDoneAt = done
            r.doneAt = done
        }
        records.append(r)
        unsettled.append(records.count - 1)
    }

    /// A product holds the thing (it was captured): forgetting it no longer ends it while the product shows it.
    public mutating func capture(_ ref: UInt64) {
        let i = Int(ref) - 1
        if records.indices.contains(i) { records[i].captured = true }
    }

    /// The person does the thing now with a product's help (a card shown, a reminder): done now unless already done.
    /// Returns true when this is when it got done.
    @discardableResult
    public mutating func doneWithHelp(_ ref: UInt64, at now: Instant) -> Bool {
        let i = Int(ref) - 1
        guard records.indices.contains(i) else { return false }
        if let d = records[i].doneAt, d <= now { return false }
        records[i].doneAt = now
        return true
    }

    /// Time the person spends managing their list in a product — reading a card, triaging a capture, reading a
    /// reminder — is time not spent doing (issue 39, audit A6/E5): every remembered thing not yet done by the person's
    /// own means is done `seconds` later (their plans slide by the time taken — the upper bound of a person with no
    /// slack; assumption), and a thing in progress (started: less than its effort left before it is done) loses the
    /// `resumptionLagSeconds` it takes to pick it up again on top (Altmann & Trafton 2004). A thing being done with a
    /// product's help is that episode's own work and does not move. Returns the number of things delayed. Nothing
    /// moves when both are 0.
    @discardableResult
    public mutating func spendAttention(seconds: Double, resumptionLagSeconds: Double, at now: Instant) -> Int {
        let episode = Int64(max(0, seconds) * 1000), lag = Int64(max(0, resumptionLagSeconds) * 1000)
        guard episode > 0 || lag > 0 else { return 0 }
        var moved = 0
        for i in unsettled {
            let r = records[i]
            guard let u = r.unaidedDoneAt, let d = r.doneAt, d == u, d > now else { continue }
            let started = d - .milliseconds(Int64(r.task.effortMinutes * 60_000)) <= now
            let ms = episode + (started ? lag : 0)
            guard ms > 0 else { continue }
            records[i].unaidedDoneAt = u + .milliseconds(ms)
            records[i].doneAt = d + .milliseconds(ms)
            moved += 1
        }
        return moved
    }

    /// Whether the person has done the thing by `now` (by their own means or with help).
    public func isDone(_ ref: UInt64, at now: Instant) -> Bool { record(ref)?.doneAt.map { $0 <= now } ?? false }

    /// Takes into the person's efficacy the outcome of every thing decided by `now`: done on time raises it, a
    /// deadline passed without it done lowers it.
    mutating func settle(at now: Instant, model: TaskModel) {
        // Compacted in place: nothing is allocated per thing arising.
        var kept = 0
        for k in unsettled.indices {
            let i = unsettled[k]
            let r = records[i]
            if let d = r.doneAt, d <= now {
                if d <= r.task.deadline { efficacy += model.efficacyGain * (1 - efficacy) } else { efficacy -= model.efficacyLoss * efficacy }
                records[i].settled = true
            } else if r.doneAt == nil, r.task.deadline < now {
                efficacy -= model.efficacyLoss * efficacy
                records[i].settled = true
            } else {
                unsettled[kept] = i
                kept += 1
            }
        }
        unsettled.removeLast(unsettled.count - kept)
    }

    /// `t`, or the person's next waking if `t` falls while they sleep (nobody runs errands at 3 am).
    /// The night of the day before `t`'s local date is tried first, then the night of that date. (Its cost, about 270
    /// instructions a call, is the zone's two look-ups of a midnight; the optimiser already kept the former loop's
    /// two-element array on the stack — issue 41, measured.)
    func awake(_ t: Instant, zone: ZoneCalendar) -> Instant {
        let d = zone.localDate(t)
        if let wake = wake(ifAsleepAt: t, night: d + -1, zone: zone) { return wake }
        if let wake = wake(ifAsleepAt: t, night: d, zone: zone) { return wake }
        return t
    }

    /// The waking that ends the night starting on local date `night`, if `t` falls in that night's sleep.
    @inline(__always)
    private func wake(ifAsleepAt t: Instant, night day: LocalDate, zone: ZoneCalendar) -> Instant? {
        let midnight = zone.instant(on: day, at: .midnight)
        let sleep = midnight + .milliseconds(Int64(sleepHour * 3_600_000))
        let wake = midnight + .milliseconds(Int64((wakeHour + 24) * 3_600_000))
        return t >= sleep && t < wake ? wake : nil
    }
}
