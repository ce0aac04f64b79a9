import Simulation
import Behavior
import NudgeRules
import Reports
import RulesCore
import Stochastics

/// The product Nudge as Habitat simulates it: the real engine (seed 001) and this adapter.
public typealias NudgeProduct = NudgeAdapter

/// Nudge's person side (seed 001, Nudge PRD v2.1): a person with things to do (`TaskProcess`, the same for every
/// product and none) writes some of them down as they arise — says them in a brain dump, types them, or shares a
/// link with a "remind me when" preset — opens Nudge on their cues and at its reminders, and at each card does the
/// thing, acts on it, snoozes it or skips it; answers permission prompts, the Live Activity offer, drafts and
/// paywalls; renews or not. What the person would have done by their own means they still do (`TaskMind`), but using
/// Nudge costs them (issue 39): reading cards and reminders and triaging captures is time, taken from the thing in
/// progress with a resumption lag (`attention.*`); a reminder seen is a pickup that can lead to a target app
/// (`reminder.cued_urge_scale`); ignored reminders lose their pull (`reminder.fatigue_per_ignored`). So Nudge can get
/// a thing done sooner or rescue a forgotten one, and it can also make things late.
///
/// Every behaviour constant is a `BehaviorCatalogue` parameter (`capture.*`, `card.*`, `reminder.*`, `tasks.*`);
/// the modelling choices are listed in this folder's README.
public enum NudgeAdapter: ProductAdapter {
    public typealias Engine = NudgeEngine
    public typealias Tally = NudgeTally
    public typealias Metrics = NudgeMetrics

    /// What the person means to do later.
    public enum Intent: Sendable {
        /// A nudge notification sent at `sentAt` is seen now.
        case seeReminder(NudgeKind, ItemID?, ref: UInt64, sentAt: Instant, buttons: Bool)
        /// Keep or cancel before the paid period ends.
        case renewalDecision(periodEnd: Instant)
        /// The phone is back online (a dump made offline is split then).
        case backOnline
    }

    /// What the person remembers and has set up in Nudge.
    public struct PersonState: Sendable {
        /// The paywall the engine showed and the person has not weighed yet.
        var pendingPaywall: (trigger: PaywallTrigger, at: Instant)?
        /// Reminders the person ignored, newest last (the last 3 days are weighed).
        var ignoredReminders: [Instant] = []
        /// The local day (index since install) the person muted reminders on.
        var mutedDay = -1
        /// The person switched Nudge's notifications off in the OS.
        var notificationsOff = false
        /// Things done today with Nudge (the north star's day).
        var doneToday = 0
        /// The engine showed the one-time Live Activity prompt and the person has not answered yet.
        var liveActivityPromptPending = false
        /// Visits to the app so far (a card decision's moment: the visit and the card's place in it).
        var visits: Int64 = 0
        /// The local day (index since install) a brain dump was refused at the Free limit: the person knows the limit
        /// for the rest of that day (audit N6).
        var dumpLimitKnownDay = -1
        /// Thoughts the 55 s cap cut from the dump just made (`brain_dump_auto_stopped`), said in a second dump.
        var thoughtsCut = 0
        /// The episode in the app under way (issue 39): its attention so far, in seconds, and whether one is open.
        var attentionSeconds = 0.0
        var inEpisode = false
        /// Seconds of attention spent in the app, things in progress delayed by it, and reminders that brought an urge
        /// for a target app (issue 39; for tests and traces).
        public internal(set) var attentionSecondsTotal = 0.0
        public internal(set) var thingsDelayed = 0
        public internal(set) var cuedUrgeCount = 0
        /// The person's stream of urges reminders bring (`reminder-cued-urges`), created on first use.
        /// (A life is one task's: the stream never crosses threads, as the life's own streams do not.)
        nonisolated(unsafe) var cuedUrges: RandomStream?
        /// Paywalls weighed, the keep-or-cancel decision booked, the refund asked for.
        public var subscriber = SubscriberMemory()
    }

    public static func initialState() -> PersonState { PersonState() }

    /// Nudge restricts no app: its people leave by uninstalling or by no longer opening it.
    public static var restrictsApps: Bool { false }
    /// Nudge gives value by things done with its help (seed 001 §1: "getting things done"; issue 39).
    public static var valueChannels: Set<ValueChannel> { [.thingDoneWithHelp] }
    public static func initialTally() -> NudgeTally { NudgeTally() }

    /// Nudge's people decide at onboarding, when a thing arises (capture), at each card, at each reminder, at
    /// permission prompts and the Live Activity offer, at drafts, on a Free visit whether to look at Pro in Settings,
    /// at paywalls, before a renewal, about refunds, daily whether to stay and, once dormant, daily whether to delete the
    /// app or come back (issue 39).
    public static var decisionKinds: [DecisionKind] {
        [.onboardingStep, .capture, .cardAction, .reminderReply, .permissionAnswer, .featurePrompt, .draftUse,
         .settingsUpgrade, .paywallPurchase, .renewalKeep, .refundRequest, .churn, .dormantResponse]
    }

    /// Each timer kind has its own fixed slot (`NudgeTimer.Kind.slotIndex`, 0..<8).
    public static func slot(of kind: NudgeTimer.Kind) -> Int? { kind.slotIndex }

    // MARK: - Trace

    /// Plan, the queue's length and today's dumps, before the person's columns.
    public static var traceColumns: [TraceColumn] {
        [.product("plan"), .product("queue"), .product("dumps_today")] + TraceColumn.personColumns
    }

    public static func traceState(_ life: borrowing PersonLife<Self>) -> [CSVField] {
        let e = life.engine
        return [.text(e.plan?.rawValue ?? "free"), .integer(Int64(e.activeCount)), .integer(Int64(e.dumpsToday))]
    }
}

extension NudgeAdapter.PersonState: SubscriberState {}
