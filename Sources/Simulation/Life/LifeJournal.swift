import Behavior
import Reports
import RulesCore
import Stochastics

/// A typed record of one life, for tests that follow a person through a product (the life harness,
/// `Tests/LifeHarness`, used by each `Tests/<Name>LifeTests`): what the adapter was handed and what came of it, as
/// values rather than trace text. Nil in runs: the life checks it once per event and records nothing.
public struct LifeJournal<Adapter: ProductAdapter>: Sendable {
    /// One engine event as the life observed it (after the funnel, before the adapter).
    public struct Event: Sendable {
        public let at: Instant
        public let event: Adapter.Engine.Event
        /// The plan in force once the engine had produced it (after the whole outcome, as `habitat trace` shows it).
        public let standing: PlanStanding
        /// Its place among everything the journal recorded (`order`): what came first at one instant.
        public let order: Int
    }
    /// One input the adapter sent the engine (`PersonLife.send`) and the engine's decision on it.
    public struct Send: Sendable {
        public let at: Instant
        public let input: Adapter.Engine.Input
        public let decision: Adapter.Engine.Decision
        /// The plan in force after the engine's outcome.
        public let standing: PlanStanding
        /// Its place among everything the journal recorded: before the events of its outcome.
        public let order: Int
    }
    /// One decision taken at its opportunity: the kind's and the outcome's ids (`decisions.csv`).
    public struct Decision: Hashable, Sendable {
        public let at: Instant
        public let kind: String
        public let outcome: String
        /// Its place among everything the journal recorded (events, sends, decisions), for what came first at one instant.
        public let order: Int
    }
    /// One urge handed to the adapter (`ProductAdapter.urge`): its app, and the pickup with its intensity and length.
    public struct Urge: Sendable {
        public let at: Instant
        public let app: AppID
        public let pickup: Pickup
    }
    /// One occurrence of a person process handed to the life (the adapter's `occurrence`, or lived unaided).
    public struct Occurrence: Sendable {
        public let at: Instant
        public let occurrence: PersonOccurrence
    }

    public internal(set) var events: [Event] = []
    public internal(set) var sends: [Send] = []
    public internal(set) var decisions: [Decision] = []
    public internal(set) var ledger: [LedgerEntry] = []
    public internal(set) var urges: [Urge] = []
    public internal(set) var occurrences: [Occurrence] = []

    /// How many events, sends and decisions were recorded (the next one's `order`).
    public internal(set) var recorded = 0

    public init() {}

    mutating func record(_ event: Adapter.Engine.Event, standing: PlanStanding, at t: Instant) {
        events.append(Event(at: t, event: event, standing: standing, order: recorded))
        recorded += 1
    }

    mutating func record(_ input: Adapter.Engine.Input, _ decision: Adapter.Engine.Decision, standing: PlanStanding, at t: Instant) {
        sends.append(Send(at: t, input: input, decision: decision, standing: standing, order: recorded))
        recorded += 1
    }

    mutating func record(decision kind: String, _ outcome: String, at t: Instant) {
        decisions.append(Decision(at: t, kind: kind, outcome: outcome, order: recorded))
        recorded += 1
    }

    /// The events of one name (`AnalyticsEvent.name`), in time order.
    public func events(named name: String) -> [Event] { events.filter { $0.event.name == name } }

    /// The decisions of kind `kind` (its id), in time order.
    public func decisions(_ kind: String) -> [Decision] { decisions.filter { $0.kind == kind } }

    /// How many decisions of `kind` came out `outcome`.
    public func count(_ kind: String, _ outcome: String) -> Int { decisions.count { $0.kind == kind && $0.outcome == outcome } }
}

/// What a test scripts in place of the person's drawn life (the life harness): the pickups — urges with their app,
/// intensity and intended length, notifications, plain checks — and the occurrences of their processes, each at a
/// time after the install. With a script the life draws no pickup and runs none of the person's own processes;
/// everything else — the engine, the adapter, the person's choices at each moment, the day's end, churn — is as in a
/// run, so a test drives a person to a moment and asserts on what the product and the person did there.
public struct LifeScript: Sendable {
    /// A pickup `after` the install (its `at` is set when the life starts).
    public struct ScriptedPickup: Sendable {
        public var after: TimeSpan
        public var source: PickupSource
        public var sessionLength: TimeSpan
        public var urgeIntensity: Double
        public var kind: UrgeKind
    }
    /// An occurrence of a person process `after` the install.
    public struct ScriptedOccurrence: Sendable {
        public var after: TimeSpan
        public var occurrence: PersonOccurrence
    }

    public var pickups: [ScriptedPickup] = []
    public var occurrences: [ScriptedOccurrence] = []

    public init() {}

    /// An urge for the person's target app `app` (1-based, as `AppID`) `after` the install.
    public mutating func urge(app: Int, after: TimeSpan, intensity: Double = 0.6, minutes: Double = 10, kind: UrgeKind = .habitual) {
        pickups.append(ScriptedPickup(after: after, source: .urge(app: app - 1), sessionLength: .milliseconds(Int64(minutes * 60_000)),
                                      urgeIntensity: intensity, kind: kind))
    }

    /// A pickup for a notification (no urge) `after` the install.
    public mutating func notification(after: TimeSpan, seconds: Double = 20) {
        pickups.append(ScriptedPickup(after: after, source: .notification, sessionLength: .milliseconds(Int64(seconds * 1000)),
                                      urgeIntensity: 0, kind: .intended))
    }

    /// A pickup with no urge and no notification (a check) `after` the install.
    public mutating func check(after: TimeSpan, seconds: Double = 15) {
        pickups.append(ScriptedPickup(after: after, source: .spontaneous, sessionLength: .milliseconds(Int64(seconds * 1000)),
                                      urgeIntensity: 0, kind: .intended))
    }

    /// An occurrence of process `process` carrying `value` `after` the install.
    public mutating func occurrence<T: Sendable>(_ value: T, of process: StreamName, after: TimeSpan) {
        occurrences.append(ScriptedOccurrence(after: after, occurrence: PersonOccurrence(process: process, value: value)))
    }

    /// The pickups in time order, placed after `installedAt`.
    func placedPickups(installedAt: Instant) -> [Pickup] {
        pickups.sorted { $0.after < $1.after }.map {
            Pickup(at: installedAt + $0.after, source: $0.source, sessionLength: $0.sessionLength, urgeIntensity: $0.urgeIntensity, kind: $0.kind)
        }
    }
}

/// The scripted pickups not yet lived (`PersonLife.follow(_:)`).
struct ScriptedPickups {
    var remaining: [Pickup]
    var next = 0

    /// The next scripted pickup, not before `t` (one due while the phone was in hand comes when it is put down).
    mutating func take(after t: Instant) -> Pickup? {
        guard next < remaining.count else { return nil }
        var p = remaining[next]
        next += 1
        if p.at < t { p.at = t }
        return p
    }
}
