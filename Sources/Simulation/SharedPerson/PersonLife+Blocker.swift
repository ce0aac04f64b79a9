import Behavior
import RulesCore

/// The person side every product that blocks apps shares (docs/ARCHITECTURE.md, "The shared person layer").
extension PersonLife {
    /// An urge for a restricted app the product stands in front of: the session the person means to have counts
    /// toward the day's intended restricted time (true time saved), and a session in another app ends.
    public mutating func meetUrgeForRestrictedApp(_ app: AppID, pickup p: Pickup, at now: Instant) {
        intendedRestrictedMs += p.sessionLength.milliseconds
        if let fg = foregroundApp, fg != app { endSession(fg, at: now) }
    }

    /// Whether the urge is let go in the interruption a shield is, before anything on it is weighed (issue 26,
    /// `UrgeModel.letGoProbability` over `shield.notice_seconds`): one draw from `choices`.
    public mutating func letsGoAtShield(urge: Double) -> Bool {
        choices.uniform() < world.urges.letGoProbability(urgeKind, urge: urge, seconds: world.urges.shieldNoticeSeconds)
    }
}
