import Simulation
import Behavior
import Reports
import RulesCore
import ScrollOffRules

/// What a person can see and use of Scroll Off: the engine's inputs and outputs plus the screens the adapter reads
/// (the shield's buttons, the plan, the wallet). `ScrollOffEngine` conforms; tests wrap it (e.g. an engine with an
/// injected fault) and the same adapter drives the wrapper.
public protocol ScrollOffEngineView: RuleEngine where Parameters == ScrollOffParameters, Input == ScrollOffInput,
    Decision == ScrollOffDecision, Event == ScrollOffEvent, TimerKind == ScrollOffTimer.Kind, Outcome == ScrollOffOutcome {
    /// The tier in force.
    var tier: Tier { get }
    /// Current plan; nil = Free.
    var plan: Plan? { get }
    var periodStart: Instant { get }
    var periodEnd: Instant { get }
    var autoRenew: Bool { get }
    /// The shield in front of the person, if any.
    var pendingShield: ShieldEncounter? { get }
    /// The person's curfew schedules (Curfew scheduler, §6.1).
    var curfews: [Curfew] { get }
    /// The app's own time-saved figure of today (`insights.time_saved_method`).
    var timeSavedEstimateToday: TimeSpan { get }
    /// The buttons of the pending shield (nil without one).
    func shieldOffer() -> ShieldOffer?
    /// Credits available (global wallet, or an app's).
    func balance(for app: AppID?) -> TimeSpan
    /// A plan's price and period, as the price list shows it.
    func listPrice(of p: Plan) -> PlanPrice
}

extension ScrollOffEngine: ScrollOffEngineView {}

/// The product Scroll Off as Habitat simulates it: the real engine and this adapter.
public typealias ScrollOffProduct = ScrollOffAdapter<ScrollOffEngine>

/// Scroll Off's person side (seed 000): onboarding (§6.1), what an urge for a blocked app becomes, the person at the
/// shield (*offer → choose → apply*), paywalls and renewals, and what the reports count.
///
/// The adapter's modelling choices are assumptions, documented in `Sources/Simulation/README.md`: an urge for a
/// blocked app opens it and meets whatever the engine decides; at a shield the person chooses among exactly the
/// engine's buttons by the behaviour model's multinomial logit; a session ends when the intended length is over or
/// the engine takes access away; the app itself is opened on cues by the engagement habit.
public enum ScrollOffAdapter<Engine: ScrollOffEngineView>: RestrictingAdapter {
    public typealias Tally = ScrollOffTally
    public typealias Metrics = ScrollOffMetrics

    /// What the person remembers and has set up in Scroll Off.
    public struct PersonState: Sendable {
        /// Apps the person put on the Blocked list.
        var blockedApps: [AppID] = []
        /// Reused buffers for the options of a shield (no allocation per encounter).
        var options: [OfferedOption] = []
        var buttons: [ShieldChoice] = []
        /// The month the person was last refused a token at the cap.
        var capRefusedMonth: MonthID?
        /// Shields met today.
        var todayShields = 0
        /// If-then plans the person wrote at onboarding (they lower acting at the shield, `ChoiceContext`).
        var plansWritten = 0
        /// The last paywall the engine showed and the person has not weighed yet (context, SKU shown).
        var pendingPaywall: (context: PaywallContext, sku: Plan, at: Instant)?
        /// A chip the engine raised on its own (a timer: the Free earn cap) while nobody looked: it waits on the
        /// dashboard until the person opens the app that local day.
        var dashboardChip: (context: PaywallContext, sku: Plan, day: Int)?
        /// The urge and intended end of the session in a blocked app, for the shield that returns mid-session.
        var sessionUrge = 0.5
        var sessionIntendedEnd: Instant?
        /// A mindfulness exercise in progress at a shield: resumed when its length has passed.
        var exercise: ExerciseInProgress?
        /// The person has met the mindfulness step once (the moment they may turn it off).
        var metMindfulness = false
        /// The person wants Pro's per-app budgets and has not set them up yet.
        var wantsBudgets = false
        /// Paywalls weighed, the keep-or-cancel decision booked, the refund asked for (shared with every product that
        /// sells a subscription).
        public var subscriber = SubscriberMemory()
    }

    /// A mindfulness exercise the person is doing at a shield (seed 000 §3.4 step 4, §4 lengths).
    struct ExerciseInProgress: Sendable {
        var app: AppID
        var exercise: MindfulnessExercise
        var urge: Double
        var kind: UrgeKind
        var intended: TimeSpan
        var startedAt: Instant
        var endsAt: Instant
        /// The person turns the step off in Settings once this one is answered.
        var optsOut: Bool
    }

    public static func initialState() -> PersonState { PersonState() }

    /// Scroll Off gives value by urges let go at its shield, minutes kept from the target apps and credit earned by exercises
    /// (seed 000; issue 39).
    public static var valueChannels: Set<ValueChannel> { [.urgeResisted, .minutesKept, .creditEarned] }

    /// Scroll Off's people decide at onboarding's steps, at shields, at paywall chips, before renewals, about refunds,
    /// and daily whether to stay (no trial, no gate, no downgrade prompt in seed 000).
    public static var decisionKinds: [DecisionKind] { [.onboardingStep, .shieldChoice, .paywallPurchase, .renewalKeep, .refundRequest, .churn, .dormantResponse] }
    public static func initialTally() -> ScrollOffTally { ScrollOffTally() }

    // MARK: - Timer slots

    /// Each timer kind's own queue slot: the four global kinds first, then seven per app or curfew id `x` at
    /// `4 + 7x` — the app kinds at offsets 0–3, the curfew kinds at 4–6 — so no two kinds share one (the life checks).
    public static func slot(of kind: ScrollOffTimer.Kind) -> Int? {
        func perID(_ x: Int, _ offset: Int) -> Int { 4 + 7 * x + offset }
        switch kind {
        case .earnAward: return 0
        case .localMidnight: return 1
        case .monthStart: return 2
        case .renewal: return 3
        case .cooldownEnd(let a): return perID(Int(a.rawValue), 0)
        case .unlockEnd(let a): return perID(Int(a.rawValue), 1)
        case .walletEmpty(let a): return perID(Int(a.rawValue), 2)
        case .pausedSessionEnd(let a): return perID(Int(a.rawValue), 3)
        case .curfewStart(let c): return perID(Int(c), 4)
        case .curfewEnd(let c): return perID(Int(c), 5)
        case .curfewReminder(let c): return perID(Int(c), 6)
        }
    }

    // MARK: - Intents

    /// What the person scheduled for later on their queue (`PersonLife.schedule(_:at:)`).
    public enum Intent: Sendable {
        /// A mindfulness exercise comes to its end: the shield encounter resumes (`state.exercise`).
        case exerciseEnds
        /// A day before the period ending at `periodEnd`: keep or cancel. Only this moment draws it (audit 2026-11-25
        /// E1: an exercise's end used to draw it again).
        case renewalDecision(periodEnd: Instant)
    }

    /// The wallet (global, seconds) and the plan, placed among the person's columns as traces have always shown them.
    public static var traceColumns: [TraceColumn] {
        [.product("wallet_seconds"), .person(.scrollingHabit), .person(.resistHabit), .person(.selfEfficacy), .product("plan"),
         .person(.frustration), .person(.perceivedValue)]
    }

    public static func traceState(_ life: borrowing PersonLife<Self>) -> [CSVField] {
        [.integer(life.engine.balance(for: nil).wholeSeconds), .text(life.engine.plan?.description ?? "free")]
    }
}

extension ScrollOffAdapter.PersonState: SubscriberState {}
