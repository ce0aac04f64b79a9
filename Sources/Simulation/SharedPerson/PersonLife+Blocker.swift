import Behavior
import RulesCore

/// The person side every product that blocks apps shares (docs/ARCHITECTURE.md, "The shared person layer"; issue 42
/// item 3). The bookkeeping is `blocker`, present only for a product that restricts.
extension PersonLife {
    /// An urge for a restricted app the product stands in front of: the session the person means to have counts
    /// toward the day's intended restricted time (true time saved), and a session in another app ends.
    public mutating func meetUrgeForRestrictedApp(_ app: AppID, pickup p: Pickup, at now: Instant) {
        blocker?.intendedRestrictedMs += p.sessionLength.milliseconds
        if let fg = foregroundApp, fg != app { endSession(fg, at: now) }
    }

    /// Whether the urge is let go in the interruption a shield is, before anything on it is weighed (issue 26,
    /// `UrgeModel.letGoProbability` over `shield.notice_seconds`): one draw from `choices`.
    public mutating func letsGoAtShield(urge: Double) -> Bool {
        choices.uniform() < world.urges.letGoProbability(urgeKind, urge: urge, seconds: world.urges.shieldNoticeSeconds)
    }

    /// The device permission step of onboarding (Screen Time; `onboarding.completion.permission`, step 0): completed
    /// or not by the person's tech comfort. Refused, the product is told (`denied`) and the person, for whom the
    /// product can do nothing, stays dormant (assumption).
    public mutating func grantsPermission(at t: Instant, denied: (inout Self) -> Void) -> Bool {
        guard onboardingStep(0, completes: world.onboarding.completesStep(.permission, techComfort: person.techComfort, rng: onboarding), at: t) else {
            denied(&self)
            dormant = true
            return false
        }
        return true
    }
}

extension PersonLife where Adapter: RestrictingAdapter {
    /// The blocker's urge prologue: a person leaving by unblocking lifts what is left of the restriction first; an
    /// urge for an app the product does not restrict is used as meant, unseen by it; a person busy with the product
    /// (an exercise, a quest, a wait, a scan: `beBusy`) drops it, settled as neither an open nor a pass; otherwise the
    /// urge meets the restriction (`meetUrgeForRestrictedApp`). True when the adapter goes on with it.
    public mutating func urgeMeetsRestriction(_ app: AppID, pickup p: Pickup, at now: Instant) -> Bool {
        liftRestrictionIfLeaving(at: now)
        guard Adapter.restricts(app, &self) else {
            useAppUnseen(app, intended: p.sessionLength, at: now)
            return false
        }
        guard !dropUrgeIfBusy(at: now) else { return false }
        meetUrgeForRestrictedApp(app, pickup: p, at: now)
        return true
    }

    /// A person leaving by unblocking (`RestrictingAdapter.disableRestriction`) tries again to lift what the rules
    /// refused, while some of it remains.
    public mutating func liftRestrictionIfLeaving(at now: Instant) {
        if blocker?.leavingByUnblocking == true, Adapter.restrictionRemains(&self) { Adapter.liftRestriction(&self, at: now) }
    }
}
