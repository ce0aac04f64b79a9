import Behavior
import LazuriRules
import Reports
import RulesCore
import Simulation

/// The product Lazuri as Habitat simulates it: the real engine (seed 002) and this adapter.
public typealias LazuriProduct = LazuriAdapter

/// Lazuri's person side (seed `002_80c8c6af1a4e5690.txt`; issue 43): onboarding as the person lives it with no
/// tutorial (the Focus tab, Screen Time, the picker, a schedule fitting their day, the toggle), the promise shield met
/// by an urge for a blocked app inside a window — press "I won't break my promise!", leave by the home gesture, or
/// break the promise the only ways the product leaves open (switch the schedule off, delete it, revoke Screen Time) —
/// the promise written or not on the Compete tab and wearing off with every shield it stands on, and the app opened
/// on cues to read cards, look at the minutes or the rank. Free: no money hook, no ledger line.
///
/// The same people as every product (personas, phone use, urges, habits, streams keyed without the product); every
/// modelling choice is an assumption documented in `Sources/Products/Lazuri/Life/README.md`.
public enum LazuriAdapter: RestrictingAdapter {
    public typealias Engine = LazuriEngine
    public typealias Tally = LazuriTally
    public typealias Metrics = LazuriMetrics

    /// How the person broke the promise (the window's interruption, for `focus.csv`).
    public enum Break: Sendable, Hashable { case switchOff, delete, revoke }

    /// What the person set up in Lazuri and remembers.
    public struct PersonState: Sendable {
        /// The person's target apps in the selection (empty: nothing selected).
        public internal(set) var apps: [AppID] = []
        /// The person's schedule (nil: none saved) and what they filled in for it.
        public internal(set) var scheduleID: ScheduleID?
        public internal(set) var spec: ScheduleSpec?
        /// Shields the current promise has stood on (its wear-out; a new promise starts again at 0).
        public internal(set) var promiseExposures = 0
        /// How the promise was broken today, if it was (the day's end asks whether to put the protection back).
        public internal(set) var brokenToday: Break?
        /// The cause of the next window interruption the engine reports.
        var interruption: Break?
        /// Lazuri is being opened on the way to breaking the promise: a detour the shield forces, not an open.
        var openingToBreak = false
        /// The focus minutes the person has seen on the Focus tab.
        var minutesSeen = 0
        /// The thesis's checklist features the person used in their first week (the user study's figures).
        public internal(set) var checklist: Checklist = []
        /// Reused buffer for the shield's options.
        var options: [OfferedOption] = []
    }

    /// The features of the thesis's testing checklist (App. 1–2; §6.2.3 "All feature checkmarks were completed"), as
    /// Habitat's people can use them: Screen Time granted, apps selected, a schedule switched on, a shield met, a window
    /// completed, a promise written, a card read, the Compete tab opened.
    public struct Checklist: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let screenTime = Checklist(rawValue: 1), selected = Checklist(rawValue: 2), enabled = Checklist(rawValue: 4)
        public static let shield = Checklist(rawValue: 8), window = Checklist(rawValue: 16), promise = Checklist(rawValue: 32)
        public static let card = Checklist(rawValue: 64), compete = Checklist(rawValue: 128)
        public static let all: Checklist = [.screenTime, .selected, .enabled, .shield, .window, .promise, .card, .compete]

        /// The feature an engine event shows used, if any.
        static func item(_ e: LazuriEvent) -> Checklist {
            switch e {
            case .screenTimePermissionResult(granted: true): .screenTime
            case let .selectionUpdated(apps, categories, domains) where apps + categories + domains > 0: .selected
            case .scheduleEnabled: .enabled
            case .shieldShown: .shield
            case .blockEnded(_, .completed, _): .window
            case .promiseSaved: .promise
            case .cardViewed: .card
            default: []
            }
        }
    }

    public static func initialState() -> PersonState { PersonState() }
    public static func initialTally() -> LazuriTally { LazuriTally() }

    /// Lazuri gives value by urges let go at its shield, focus minutes kept, and cards learned.
    public static var valueChannels: Set<ValueChannel> { [.urgeResisted, .minutesKept, .cardLearned] }

    /// Lazuri's people decide at onboarding's steps, at the shield (`lazuri_shield`, its own: one button and the
    /// promise), at the Compete tab (the promise), at each opening (what to look at), at a day's end after breaking
    /// the promise, and daily whether to stay.
    public static var decisionKinds: [DecisionKind] {
        [.onboardingStep, .lazuriShield, .promiseWrite, .lazuriVisit, .lazuriResume, .churn, .dormantResponse]
    }

    /// The engine's two timer kinds, each its own slot.
    public static func slot(of kind: LazuriTimerKind) -> Int? { kind.slotIndex }

    // MARK: - The restriction (the shared blocker layer)

    /// Lazuri stands in front of a target app in the selection while a window blocks, with Screen Time granted;
    /// outside windows the app is used as meant, unseen.
    public static func restricts(_ app: AppID, _ life: inout PersonLife<Self>) -> Bool {
        life.engine.screenTime == .granted && life.engine.isBlocking && life.state.apps.contains(app)
    }

    /// A schedule remains to switch off or delete.
    public static func restrictionRemains(_ life: inout PersonLife<Self>) -> Bool { !life.engine.schedules.isEmpty }

    /// The person lifts the restriction (churn: the shared `disableRestriction`): every schedule switched off and
    /// deleted (§4.2.4 "at any time"), done at once; the selection stays but blocks nothing.
    public static func liftRestriction(_ life: inout PersonLife<Self>, at now: Instant) {
        for id in life.engine.schedules.map(\.id) {
            life.state.interruption = .delete
            life.send(.deleteSchedule(id), at: now)
        }
        life.state.interruption = nil
        life.state.scheduleID = nil
        life.state.apps.removeAll()
        life.blocker?.leavingByUnblocking = false
    }

    /// Screen Time access revoked (a churn kind, §4.2.2): every shield lifts.
    public static func revokeAccess(_ life: inout PersonLife<Self>, at now: Instant) {
        life.state.interruption = .revoke
        life.send(.screenTimeRevoked, at: now, phoneInUse: false)
        life.state.interruption = nil
    }
}
