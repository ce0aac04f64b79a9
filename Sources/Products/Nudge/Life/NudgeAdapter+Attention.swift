import Simulation
import Behavior
import NudgeRules
import RulesCore
import Stochastics

extension NudgeAdapter {
    // MARK: - What using Nudge costs the person (issue 39, audit A6/E5/D6)

    /// Charges `seconds` of the person's attention to the episode in the app under way (a card read, a capture
    /// triaged, a reminder read: `attention.*`, `TaskToolModel`) and opens the episode.
    static func attend(_ seconds: Double, _ life: inout PersonLife<Self>) {
        life.state.attentionSeconds += seconds
        life.state.inEpisode = true
    }

    /// An episode in the app ends: its time is booked as phone time in use (the battery meter, where the life books
    /// time on the phone) and in `PersonState.attentionSecondsTotal`, and taken from the thing the person was doing
    /// by their own means, with the resumption lag (`TaskMind.spendAttention`, `attention.resumption_lag_seconds`).
    /// With every `attention.*` at 0 nothing is booked and nothing moves.
    static func endEpisode(_ life: inout PersonLife<Self>, at now: Instant) {
        guard life.state.inEpisode else { return }
        let seconds = life.state.attentionSeconds
        life.state.inEpisode = false
        life.state.attentionSeconds = 0
        if seconds > 0 {
            life.meter.addInUseSeconds(seconds)
            life.state.attentionSecondsTotal += seconds
        }
        let lag = life.world.constants.taskTool.resumptionLagSeconds
        let delayed = life.steer(TaskProcess.self) { $0.spendAttention(seconds: seconds, resumptionLagSeconds: lag, at: now) }
        life.state.thingsDelayed += delayed
    }

    /// A reminder seen is a pickup of the phone (`reminder.cued_urge_scale` > 0): phone in hand, an urge for a target
    /// app may follow (`PersonLife.productNotificationPickup`), its draws from the person's own `reminder-cued-urges`
    /// stream (created on first use), so no other stream's draws move. At 0 the reminder is read at a pickup the
    /// person made anyway, as before issue 39.
    static func reminderPickup(_ life: inout PersonLife<Self>, at now: Instant) {
        let scale = life.world.constants.taskTool.reminderCuedUrgeScale
        guard scale > 0 else { return }
        let rng: RandomStream
        if let s = life.state.cuedUrges { rng = s } else {
            rng = RandomStream(key: life.world.key(life.id, Self.cuedUrgeStream))
            life.state.cuedUrges = rng
        }
        if life.productNotificationPickup(urgeScale: scale, rng: rng, at: now) != nil { life.state.cuedUrgeCount += 1 }
    }

    /// The stream of the urges reminders bring (issue 39).
    public static let cuedUrgeStream: StreamName = "reminder-cued-urges"
}
