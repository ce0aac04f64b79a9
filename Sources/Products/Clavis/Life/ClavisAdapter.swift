import Behavior
import ClavisRules
import RulesCore
import Simulation
import Stochastics

/// The product Clavis as Habitat simulates it: the real engine (seed 004) and this adapter.
public typealias ClavisProduct = ClavisAdapter

/// Clavis's person side (seed `004_8fa1e69c755a74b3.txt`; issue 44): onboarding in the spec's order (§6.1) with an
/// everyday object enrolled as the main key and left at home (§1), perhaps a temporary key, the Focus set up through
/// Shortcuts (§10 Risk 3); locking when leaving home or going to bed and unlocking on arriving home or waking — a habit,
/// with the key at hand only at home (the person's own whereabouts, `WhereaboutsProcess`); scans as measurements (the
/// frame model, `ClavisFrameModel`, in the lighting of the place and hour); and an urge for a locked app met by the
/// options the spec leaves open: endure, the app reached anyway (a Focus does not block apps), unlock with the key at
/// home, go home for it, a temporary unlock (§6.5), or a bypass — the Focus switched off outside the app, "Delete my
/// key" (§9), the key replaced (§3), a look-alike object (inventory §7). Free: no money hook, no ledger line.
///
/// The same people as every product (personas, phone use, urges, habits, places, streams keyed without the product);
/// every modelling choice is an assumption documented in `Sources/Products/Clavis/Life/README.md`.
public enum ClavisAdapter: RestrictingAdapter {
    public typealias Engine = ClavisEngine
    public typealias Tally = ClavisTally
    public typealias Metrics = ClavisMetrics

    /// Why the person meant to lock (which moment unlocks it).
    public enum LockMoment: UInt8, Sendable, Hashable { case leaving, bedtime, opened }

    /// Something the person means to do later.
    public enum Intent: Sendable {
        /// Going to bed: a moment to lock (bedtime).
        case bedtime
        /// Waking up: a moment to unlock after a bedtime lock.
        case wake
        /// Local midnight passed with a mode locked: the new day is a locked day (retention's `in_use` reading).
        case newDayLocked
    }

    /// What the person set up in Clavis and remembers.
    public struct PersonState: Sendable {
        /// The person's target apps, blocked by the mode (empty: none chosen).
        public internal(set) var apps: [AppID] = []
        public internal(set) var mode: ModeID?
        /// The main key (an object at home) and its distinctiveness d.
        public internal(set) var mainKey: KeyID?
        public internal(set) var distinctiveness = 0.6
        /// The temporary key, if one was enrolled; carried or left at home; its distinctiveness.
        public internal(set) var temporaryKey: KeyID?
        public internal(set) var temporaryCarried = false
        public internal(set) var temporaryDistinctiveness = 0.6
        /// The person meant to enrol a temporary key at set-up.
        var wantsTemporary = false
        /// Onboarding stopped at the main key's enrolment because the person was away from home: it goes on at the next
        /// arrival home.
        public internal(set) var enrolPending = false
        /// The person's propensities to lock when leaving home and at bedtime (per person, drawn at set-up).
        public internal(set) var lockLeaving = 0.0, lockBedtime = 0.0
        /// The moment of the current lock, if locked.
        public internal(set) var lockedAt: LockMoment?
        /// The Focus switched off outside the app during the current lock (the engine still locked).
        public internal(set) var focusBypassed = false
        /// The person is on the way home to unlock with the key.
        public internal(set) var goingHomeForKey = false
        /// The scan randomness (its own stream, so scan outcomes never shift the person's other draws).
        var scans: ScanStream?
        /// Reused buffer for the lock's options, and the outcome each stands for.
        var options: [OfferedOption] = []
        var outcomes: [DecisionOutcome] = []
    }

    /// The scan stream, held in the person's state: a life runs on one thread, as its other streams do.
    struct ScanStream: @unchecked Sendable { let rng: RandomStream }

    public static func initialState() -> PersonState { PersonState() }
    public static func initialTally() -> ClavisTally { ClavisTally() }

    /// Clavis gives value by urges let go at the lock and by lock cycles kept.
    public static var valueChannels: Set<ValueChannel> { [.urgeResisted, .lockKept] }

    public static var decisionKinds: [DecisionKind] {
        [.onboardingStep, .clavisLock, .clavisUnlock, .clavisLocked, .clavisRetry, .churn, .dormantResponse]
    }

    public static func slot(of kind: ClavisTimerKind) -> Int? { kind.slotIndex }

    // MARK: - The restriction (the shared blocker layer)

    /// Clavis stands in front of a target app while a mode is locked and its Focus is on (§8), outside a running
    /// temporary unlock (§6.5; every target app is among its temporary apps, assumption).
    public static func restricts(_ app: AppID, _ life: inout PersonLife<Self>) -> Bool {
        guard let l = life.engine.lock, !life.state.focusBypassed else { return false }
        return l.temporaryUntil == nil && life.state.apps.contains(app)
    }

    /// A mode or key remains to delete.
    public static func restrictionRemains(_ life: inout PersonLife<Self>) -> Bool { !life.engine.modes.isEmpty }

    /// The person lifts the restriction (churn: the shared `disableRestriction`): "Delete my key" (§9), which clears
    /// every key and mode and drops a lock (`data.delete_while_locked`, default allowed).
    public static func liftRestriction(_ life: inout PersonLife<Self>, at now: Instant) {
        life.send(.appOpened, at: now)
        life.send(.deleteAllData, at: now)
        if life.engine.modes.isEmpty { forget(&life) }
        life.blocker?.leavingByUnblocking = false
    }

    /// Everything the person set up is gone ("Delete my key").
    static func forget(_ life: inout PersonLife<Self>) {
        life.state.apps.removeAll()
        life.state.mode = nil
        life.state.mainKey = nil
        life.state.temporaryKey = nil
        life.state.lockedAt = nil
        life.state.focusBypassed = false
    }

    /// The Focus this app runs through Shortcuts (§8): the person has nothing to revoke but the Focus itself, which
    /// only hides apps while a mode is locked — switched off for good (assumption: the churn's revoke kind).
    public static func revokeAccess(_ life: inout PersonLife<Self>, at now: Instant) {
        if life.engine.lock != nil { life.state.focusBypassed = true }
    }
}
