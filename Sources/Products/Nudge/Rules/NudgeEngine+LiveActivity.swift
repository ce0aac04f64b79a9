import RulesCore

/// The opt-in Live Activity. Seed 001 §4 Feature 4b: Live Activity — Time Strip + Current Task (Opt-in).
extension NudgeEngine {
    /// "On first brain dump, a one-time prompt: "Want to see your current task on your Lock Screen?" — user can
    /// enable or dismiss, never asked again".
    mutating func liveActivityPrompt(_ enable: Bool, _ now: Instant, _ out: inout NudgeOutcome) {
        guard liveActivityPromptOpen else { out.decision = .refused(.nothingPending); return }
        liveActivityPromptOpen = false
        if enable { turnLiveActivity(on: true, now, &out) }
        out.decision = .updated
    }

    /// Settings "Live Activity on Lock Screen (default: OFF)" (seed 001 §5 Screen 4).
    mutating func setLiveActivity(_ on: Bool, _ now: Instant, _ out: inout NudgeOutcome) {
        liveActivityPromptOpen = false
        turnLiveActivity(on: on, now, &out)
        out.decision = .updated
    }

    mutating func turnLiveActivity(on: Bool, _ now: Instant, _ out: inout NudgeOutcome) {
        guard on != liveActivityOn else { return }
        liveActivityOn = on
        if on {
            laRestartAt = now + .hours(Int64(parameters.liveActivityRestartHours))
            nextLATransitionAt = Self.nextTransition(after: now, zone: zone)
            out.events.append(.liveActivityEnabled)
            out.effects.append(.liveActivityPush)
        } else {
            laRestartAt = .distantFuture
            out.events.append(.liveActivityDisabled)
        }
    }

    /// While ON: "push updates via background task at 5 time transitions" (06/09/13/17/20, inventory C16) and "8-hour
    /// max lifetime — auto-restart via `BGAppRefreshTask`" (`live_activity.restart_hours`): each a background wake.
    mutating func liveActivityTick(at t: Instant, _ out: inout NudgeOutcome) {
        if laRestartAt <= t {
            laRestartAt = t + .hours(Int64(parameters.liveActivityRestartHours))
            out.events.append(.liveActivityUpdated(cause: .restart))
            out.effects.append(.backgroundWake)
        }
        if nextLATransitionAt <= t {
            nextLATransitionAt = Self.nextTransition(after: t, zone: zone)
            out.events.append(.liveActivityUpdated(cause: .transition))
            out.effects.append(.backgroundWake)
        }
    }

    /// "Task changes pushed immediately when user completes/skips/snoozes in-app".
    mutating func liveActivityTaskChanged(_ out: inout NudgeOutcome) {
        guard liveActivityOn else { return }
        out.events.append(.liveActivityUpdated(cause: .taskChanged))
        out.effects.append(.liveActivityPush)
    }
}
