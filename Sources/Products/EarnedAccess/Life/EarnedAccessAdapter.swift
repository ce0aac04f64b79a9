import Simulation
import Behavior
import EarnedAccessRules
import Reports
import RulesCore

/// The product Earned Access as Habitat simulates it: the real engine (seed 003) and this adapter.
public typealias EarnedAccessProduct = EarnedAccessAdapter

/// Earned Access's person side (seed 003): the six onboarding steps (§3 A), modes drawn per persona, the shield that
/// cannot open the app (§2, §3 B) — give up, wait for the block to end, or close it and open Earned Access to reach
/// the Unlock Gate — the gate's *offer → choose → apply* (§3 C), focus sessions and habits that earn credits (§6),
/// the paywall, trial, renewals and the downgrade's "pick the 3 to keep" (§5), and what the reports count.
///
/// The same people as every product (personas, phone use, urges, habits, streams keyed without the product); what
/// Earned Access adds is documented in `Sources/Simulation/README.md` ("Earned Access") with its assumptions.
public enum EarnedAccessAdapter: RestrictingAdapter {
    public typealias Engine = EarnedAccessEngine
    public typealias Tally = EarnedAccessTally
    public typealias Metrics = EarnedAccessMetrics

    /// Something the person means to do later (a focus session, a habit, a decision), scheduled on the person's
    /// queue (`PersonLife.schedule(_:at:)`) and carried out at its time (`carryOut`).
    public enum Intent: Sendable {
        case startFocus(minutes: Int, quitsAfter: Int?)
        case cancelFocus
        case checkOffHabit(HabitID)
        case abandonQuest
        case abandonEmergencyWait
        /// Add a sleep mode beside the first mode (a second mode: Pro on the seed's rules).
        case addSleepMode
        /// Try the app again once the block that stopped the person has ended.
        case retry(AppID, urge: Double, intended: TimeSpan)
        /// Keep or cancel before the trial or paid period ends.
        case renewalDecision(periodEnd: Instant)
    }

    /// What the person remembers and has set up in Earned Access.
    public struct PersonState: Sendable {
        /// The person's distracting apps, in the order picked (the engine keeps which are enforced).
        var apps: [AppID] = []
        /// Apps the person wanted but Free refused (a 4th app): added if they go Pro.
        var wantedApps: [AppID] = []
        /// A sleep mode the person wanted but Free refused (a 2nd mode): added if they go Pro.
        var wantsSleepMode = false
        /// The strictness the person wants for their modes (seed 003 §5 Pro "Strictness levels (Strict/Hard)"): on
        /// Free, asking for it is the paywall moment "Enabling Strict or Hard mode"; without Pro the modes stay
        /// Standard, and a person who goes Pro sets it then (audit 2026-11-25 E13).
        var wantedStrictness = Strictness.standard
        /// The week (of day_id) whose weekly review the person has looked at.
        var lastReviewWeek: ISOWeek?
        /// The day_id (04:00 boundary, seed 003 §6) of the install: day 0 of the per-day figures.
        var installDayID = LocalDate(year: 1970, month: 1, day: 1)!
        var habits: [HabitID] = []
        /// The paywall the engine showed and the person has not weighed yet.
        var pendingPaywall: (trigger: PaywallTrigger, at: Instant)?
        /// The app, urge and intended use waiting on a quest or an emergency wait at the gate.
        var waitingUnlock: (app: AppID, urge: Double, intended: TimeSpan)?
        /// The urge and intended end of the session in a distracting app, for the shield that returns at a grant's end.
        var sessionUrge = 0.5
        var sessionIntendedEnd: Instant?
        /// Reused buffers for the options weighed at a shield.
        var options: [OfferedOption] = []
        var choices: [GateChoice?] = []
        /// The downgrade whose "pick the 3 to keep" prompt the person has answered (a count of downgrades).
        var keepAppsPromptSeen = 0
        /// The person has said "not now" to a paywall, and no longer reaches for the options it guards.
        var declinedPaywall = false
        /// Earned Access is being opened as a forced detour (the shield's only button closes it; the way through is
        /// opening Earned Access's Unlock Gate, seed 003 §2): while set, the `app_opened` event marks the product in
        /// use that day but not a voluntary open (issue 39 item 2).
        var openingAsDetour = false
        /// Paywalls weighed, the keep-or-cancel decision booked, the refund asked for (shared with every product that
        /// sells a subscription).
        public var subscriber = SubscriberMemory()
    }

    public static func initialState() -> PersonState { PersonState() }

    /// Earned Access gives value by urges let go at its shield, minutes kept from the target apps and credit earned by
    /// focus sessions, habits and quests (seed 003; issue 39).
    public static var valueChannels: Set<ValueChannel> { [.urgeResisted, .minutesKept, .creditEarned] }

    /// Earned Access's people decide at onboarding's steps, at the shield (give up, wait, or detour), at the Unlock Gate, at paywalls, before a trial or a paid
    /// period ends, about refunds, after a downgrade (which 3 apps to keep), daily whether to stay, and — dormant — on a
    /// day of shields what to do about them.
    public static var decisionKinds: [DecisionKind] {
        [.onboardingStep, .shieldChoice, .gateOption, .paywallPurchase, .trialKeep, .renewalKeep, .refundRequest, .downgradeChoice, .churn, .dormantResponse]
    }
    public static func initialTally() -> EarnedAccessTally { EarnedAccessTally() }

    // MARK: - Timer slots

    /// Each timer kind's own queue slot: the five global kinds first, then three per mode or app id `x` at `5 + 3x`
    /// — a mode's start and end at offsets 0 and 1, an app's unlock end at 2 — so no two kinds share one (the life
    /// checks).
    public static func slot(of kind: EarnedAccessTimer.Kind) -> Int? {
        func perID(_ x: Int, _ offset: Int) -> Int { 5 + 3 * x + offset }
        switch kind {
        case .dayBoundary: return 0
        case .emergencyWaitEnd: return 1
        case .questEnd: return 2
        case .focusEnd: return 3
        case .periodEnd: return 4
        case .modeStart(let m): return perID(Int(m), 0)
        case .modeEnd(let m): return perID(Int(m), 1)
        case .unlockEnd(let a): return perID(Int(a.rawValue), 2)
        }
    }

    // MARK: - Trace

    /// Focus Bank balance, streak, plan (with the trial) and the live grants, before the person's columns.
    public static var traceColumns: [TraceColumn] {
        [.product("balance"), .product("streak"), .product("plan"), .product("grants")] + TraceColumn.personColumns
    }

    public static func traceState(_ life: borrowing PersonLife<Self>) -> [CSVField] {
        let e = life.engine
        let plan = e.plan.map { e.inTrial ? "\($0)-trial" : $0.description } ?? "free"
        let grants = e.grants.map { "\($0.app.rawValue):\($0.method):\($0.minutes)m" }.joined(separator: " ")
        return [.integer(Int64(e.balance)), .integer(Int64(e.streak)), .text(plan), .text(grants)]
    }
}

extension EarnedAccessAdapter.PersonState: SubscriberState {}
