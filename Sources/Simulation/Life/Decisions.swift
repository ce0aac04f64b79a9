import Behavior
import Reports
import RulesCore

/// Every kind of decision a simulated person makes, for any product (issue 25, "every decision once, at its
/// moment"). Each kind declares its **opportunity** — the moment the product gives, which makes the decision legal
/// — and how many decisions one opportunity allows. `PersonLife.offerDecision(_:moment:)` opens an opportunity,
/// `PersonLife.decide(_:_:at:)` takes one: a decision without its open opportunity, or beyond its allowance, is an
/// invariant violation that stops the life with a replayable person id, like an engine invariant. The counts make
/// `decisions.csv`. A later product adds its kinds here (a case, its opportunity, allowance and outcomes).
public enum DecisionKind: Int, CaseIterable, Sendable {
    /// Complete an onboarding step or drop out there (one decision per step shown).
    case onboardingStep
    /// A button at a shield encounter; a refusal or a skipped exercise lets the person choose again, up to the
    /// encounter's rounds (Scroll Off's `meetShield`).
    case shieldChoice
    /// An option at an Unlock Gate visit, or leaving it (Earned Access).
    case gateOption
    /// Buy (a plan, a trial, an upgrade) or decline at a paywall the engine showed.
    case paywallPurchase
    /// Keep or cancel a trial, once per trial: as it starts (cancelling, issue 26), or a day before it ends.
    case trialKeep
    /// Keep or cancel auto-renewal, once per paid period, before it ends.
    case renewalKeep
    /// Ask the store for a refund of a charge, or not: once per first charge.
    case refundRequest
    /// After a downgrade, pick what to keep within Free's limits, or let the product's auto-keep stand.
    case downgradeChoice
    /// Once a local day: stay, or leave (uninstall, revoke access, go dormant, lift the restriction).
    case churn
    /// Once a local day on which a dormant person met the product's shields: stay dormant, lift the blocking,
    /// uninstall, or come back (issue 26: dormant is not frozen).
    case dormantResponse
    /// A thing to do arose (issue 29): write it down in the product (say it, type it, share it) or not.
    case capture
    /// A card the product shows (Nudge's One-Thing view): do it now, act on it, snooze, skip, or close the app.
    case cardAction
    /// A reminder notification seen: ignore, open, a button, "Tomorrow", "Let it go", mute today, notifications off.
    case reminderReply
    /// A permission prompt: allow or deny.
    case permissionAnswer
    /// A one-time offer of an optional feature (Nudge's lock-screen task): enable or dismiss.
    case featurePrompt
    /// An AI draft shown with an action: send it, edit then send, or abandon.
    case draftUse
    /// A visit to the app on a free plan, with no paywall met that day: open Settings → "Upgrade to Pro" (a
    /// paywall the person asks for) or not (issue 38; Nudge seed 001 §5 Screen 4).
    case settingsUpgrade

    /// The kind's id in `decisions.csv`.
    public var id: String {
        switch self {
        case .onboardingStep: "onboarding_step"
        case .shieldChoice: "shield_choice"
        case .gateOption: "gate_option"
        case .paywallPurchase: "paywall_purchase"
        case .trialKeep: "trial_keep"
        case .renewalKeep: "renewal_keep"
        case .refundRequest: "refund_request"
        case .downgradeChoice: "downgrade_choice"
        case .churn: "churn"
        case .dormantResponse: "dormant_response"
        case .capture: "capture"
        case .cardAction: "card_action"
        case .reminderReply: "reminder_reply"
        case .permissionAnswer: "permission_answer"
        case .featurePrompt: "feature_prompt"
        case .draftUse: "draft_use"
        case .settingsUpgrade: "settings_upgrade"
        }
    }

    /// The event that opens the opportunity (`decisions.csv`'s `opportunity`).
    public var opportunity: String {
        switch self {
        case .onboardingStep: "onboarding_step_shown"
        case .shieldChoice: "shield_shown"
        case .gateOption: "unlock_gate_opened"
        case .paywallPurchase: "paywall_shown"
        case .trialKeep: "trial_started"
        case .renewalKeep: "paid_period_started"
        case .refundRequest: "first_charge"
        case .downgradeChoice: "keep_apps_prompt"
        case .churn: "local_day_ended"
        case .dormantResponse: "local_day_ended_while_dormant"
        case .capture: "thing_to_do_arose"
        case .cardAction: "card_shown"
        case .reminderReply: "reminder_seen"
        case .permissionAnswer: "permission_requested"
        case .featurePrompt: "feature_prompt_shown"
        case .draftUse: "draft_shown"
        case .settingsUpgrade: "app_visit_on_free_plan"
        }
    }

    /// The most decisions one opportunity allows.
    public var perOpportunity: Int {
        switch self {
        case .shieldChoice: 5   // ScrollOffAdapter.meetShield's four rounds, after a completed exercise its answer too
        case .gateOption: 3     // EarnedAccessAdapter.meetShield's rounds: a Pro-only option shows the paywall, then another
        default: 1
        }
    }

    /// The outcomes a decision of this kind can have, in report order.
    public var outcomes: [DecisionOutcome] {
        switch self {
        case .onboardingStep: [.complete, .dropOut]
        case .shieldChoice: [.letGo, .close, .useCredits, .peek, .mindfulness, .buyToken, .useToken, .unblock, .giveUp, .walkAway, .detour, .waitForEnd]
        case .gateOption: [.useCredits, .quest, .emergency, .giveUp]
        case .paywallPurchase: [.decline, .startTrial, .buyMonthly, .buyAnnual, .buyLifetime, .upgrade]
        case .trialKeep: [.keep, .inert, .cancel, .cancelAtStart]
        case .renewalKeep: [.keep, .inert, .cancel]
        case .refundRequest: [.request, .noRequest]
        case .downgradeChoice: [.pickApps, .autoKeep]
        case .churn: [.stay, .uninstall, .revokeAccess, .dormant, .disableRestriction]
        case .dormantResponse: [.stay, .disableRestriction, .uninstall, .comeBack]
        case .capture: [.speak, .type, .share, .notCaptured]
        case .cardAction: [.done, .act, .snooze, .skip, .closeApp]
        case .reminderReply: [.ignore, .open, .button, .tomorrow, .letItGo, .muteToday, .typeOff, .notificationsOff]
        case .permissionAnswer: [.allow, .deny]
        case .featurePrompt: [.enable, .dismiss]
        case .draftUse: [.sendDraft, .editDraft, .abandonDraft]
        case .settingsUpgrade: [.open, .ignore]
        }
    }
}

/// How a decision came out. One vocabulary for every kind (`DecisionKind.outcomes` says which apply).
public enum DecisionOutcome: Int, CaseIterable, Sendable {
    case complete, dropOut
    case close, useCredits, peek, mindfulness, buyToken, useToken, unblock, giveUp, quest, emergency, walkAway
    /// Earned Access: close the shield to open the app's Unlock Gate; or wait for the block's end, which is near.
    case detour, waitForEnd
    case decline, startTrial, buyMonthly, buyAnnual, buyLifetime, upgrade
    case keep, cancel
    case request, noRequest
    case pickApps, autoKeep
    case stay, uninstall, revokeAccess, dormant, disableRestriction
    /// A habitual or weak urge dropped during the shield's interruption (issue 26): the person closes it.
    case letGo
    /// Meant to cancel, did not get round to it before the charge: the plan goes on (auto-renewal inertia).
    case inert
    /// A dormant person opens the app again.
    case comeBack
    /// A trial's auto-renewal cancelled as the trial starts (sophisticated inertia); the trial runs on unpaid.
    case cancelAtStart
    /// Issue 29 (capture, cards, reminders, permissions, features, drafts).
    case speak, type, share, notCaptured
    case done, act, snooze, skip, closeApp
    case ignore, open, button, tomorrow, letItGo, muteToday, notificationsOff
    case allow, deny, enable, dismiss
    case sendDraft, editDraft, abandonDraft
    /// Issue 38: a reminder of a type the person then turns off in Settings (Nudge seed 001 §4 Feature 5 "Can disable
    /// specific nudge types").
    case typeOff

    /// The outcome's id in `decisions.csv`.
    public var id: String {
        switch self {
        case .complete: "complete"
        case .dropOut: "drop_out"
        case .close: "close"
        case .useCredits: "use_credits"
        case .peek: "peek"
        case .mindfulness: "mindfulness"
        case .buyToken: "buy_token"
        case .useToken: "use_token"
        case .unblock: "unblock"
        case .giveUp: "give_up"
        case .quest: "quest"
        case .emergency: "emergency"
        case .walkAway: "walk_away"
        case .detour: "detour"
        case .waitForEnd: "wait_for_end"
        case .decline: "decline"
        case .startTrial: "start_trial"
        case .buyMonthly: "buy_monthly"
        case .buyAnnual: "buy_annual"
        case .buyLifetime: "buy_lifetime"
        case .upgrade: "upgrade"
        case .keep: "keep"
        case .cancel: "cancel"
        case .request: "request"
        case .noRequest: "no_request"
        case .pickApps: "pick_apps"
        case .autoKeep: "auto_keep"
        case .stay: "stay"
        case .uninstall: "uninstall"
        case .revokeAccess: "revoke_access"
        case .dormant: "dormant"
        case .disableRestriction: "disable_restriction"
        case .letGo: "let_go"
        case .inert: "inert"
        case .comeBack: "come_back"
        case .cancelAtStart: "cancel_at_start"
        case .speak: "speak"
        case .type: "type"
        case .share: "share"
        case .notCaptured: "not_captured"
        case .done: "done"
        case .act: "act"
        case .snooze: "snooze"
        case .skip: "skip"
        case .closeApp: "close_app"
        case .ignore: "ignore"
        case .open: "open"
        case .button: "button"
        case .tomorrow: "tomorrow"
        case .letItGo: "let_it_go"
        case .muteToday: "mute_today"
        case .notificationsOff: "notifications_off"
        case .allow: "allow"
        case .deny: "deny"
        case .enable: "enable"
        case .dismiss: "dismiss"
        case .sendDraft: "send_draft"
        case .editDraft: "edit_draft"
        case .abandonDraft: "abandon_draft"
        case .typeOff: "type_off"
        }
    }

    /// A keep-or-cancel decision.
    public init(_ keep: KeepOutcome) {
        switch keep {
        case .keep: self = .keep
        case .cancel: self = .cancel
        case .inert: self = .inert
        }
    }

    /// A dormant person's answer to a day of shields.
    public init(_ response: DormantResponse) {
        switch response {
        case .stay: self = .stay
        case .liftBlocking: self = .disableRestriction
        case .uninstall: self = .uninstall
        case .comeBack: self = .comeBack
        }
    }

    /// A day's churn decision.
    public init(_ churn: ChurnKind?) {
        switch churn {
        case nil: self = .stay
        case .uninstall?: self = .uninstall
        case .revokeAccess?: self = .revokeAccess
        case .dormant?: self = .dormant
        case .disableRestriction?: self = .disableRestriction
        }
    }
}

/// Opportunities, decisions and outcomes per kind, for one life or (summed) one run: integer counts, so they merge
/// exactly (shards, threads).
public struct DecisionCounts: Mergeable, Sendable, Hashable, Codable {
    /// Per kind: opportunities, decisions, then one count per `DecisionOutcome` (flat, kind-major).
    var values: [Int]
    static let stride = 2 + DecisionOutcome.allCases.count

    public init() { values = Array(repeating: 0, count: DecisionKind.allCases.count * Self.stride) }

    public func opportunities(_ k: DecisionKind) -> Int { values[k.rawValue * Self.stride] }
    public func decisions(_ k: DecisionKind) -> Int { values[k.rawValue * Self.stride + 1] }
    public func count(_ k: DecisionKind, _ o: DecisionOutcome) -> Int { values[k.rawValue * Self.stride + 2 + o.rawValue] }

    mutating func countOpportunity(_ k: DecisionKind) { values[k.rawValue * Self.stride] += 1 }
    mutating func countDecision(_ k: DecisionKind, _ o: DecisionOutcome) {
        values[k.rawValue * Self.stride + 1] += 1
        values[k.rawValue * Self.stride + 2 + o.rawValue] += 1
    }

    public mutating func merge(_ other: DecisionCounts) {
        for i in values.indices { values[i] += other.values[i] }
    }

    /// `decisions.csv`'s columns after the report keys.
    public static let header = ReportKeys.header + ["decision", "opportunity", "per_opportunity", "opportunities", "decisions", "outcome", "count", "share"]

    /// One row per kind of `kinds` and each of its outcomes.
    public func rows(_ keys: ReportKeys, kinds: [DecisionKind]) -> [[CSVField]] {
        kinds.flatMap { k in
            k.outcomes.map { o in
                let n = decisions(k)
                return keys.fields + [.text(k.id), .text(k.opportunity), .integer(Int64(k.perOpportunity)), .integer(Int64(opportunities(k))),
                                      .integer(Int64(n)), .text(o.id), .integer(Int64(count(k, o))),
                                      n > 0 ? .rate(Double(count(k, o)) / Double(n)) : .empty]
            }
        }
    }
}

/// A person's open opportunities: per kind, the moment last opened and the decisions it still allows.
struct DecisionAudit {
    var moment = [Int64](repeating: .min, count: DecisionKind.allCases.count)
    var remaining = [Int](repeating: 0, count: DecisionKind.allCases.count)
}

extension PersonLife {
    /// The product gives the person the moment for a decision of `kind`. `moment` identifies the opportunity (a
    /// period's end, a shield's instant, a step's number): opening the same moment again grants nothing, so a
    /// decision booked twice for one opportunity is caught. A new moment replaces the one before (its unused
    /// allowance lapses: the moment has passed).
    public mutating func offerDecision(_ kind: DecisionKind, moment: Int64) {
        let k = kind.rawValue
        guard decisionAudit.moment[k] != moment else { return }
        decisionAudit.moment[k] = moment
        decisionAudit.remaining[k] = kind.perOpportunity
        summary.decisions.countOpportunity(kind)
    }

    /// The person decides `kind` with `outcome`. Without an open opportunity (or beyond its allowance) this is an
    /// invariant violation: the life stops there and the run fails with the person's id (`InvariantViolation`).
    public mutating func decide(_ kind: DecisionKind, _ outcome: DecisionOutcome, at now: Instant) {
        let k = kind.rawValue
        guard decisionAudit.remaining[k] > 0 else {
            let problem = decisionAudit.moment[k] == .min
                ? "decision \(kind.id) (\(outcome.id)) without its opportunity (\(kind.opportunity))"
                : "decision \(kind.id) (\(outcome.id)) beyond its opportunity's allowance of \(kind.perOpportunity) (\(kind.opportunity) at moment \(decisionAudit.moment[k]))"
            if summary.violation == nil {
                summary.violation = InvariantViolation(arm: world.armName, replication: world.replication, seed: world.seed, person: id,
                                                       time: now, input: "decision \(kind.id)", problems: [problem], invariant: "decision")
            }
            trace(kind: "invariant_violation", detail: problem, at: now)
            stopped = true
            return
        }
        decisionAudit.remaining[k] -= 1
        summary.decisions.countDecision(kind, outcome)
        journal?.decisions.append(.init(at: now, kind: kind.id, outcome: outcome.id))
    }

    /// `offerDecision` and `decide` at once, for a moment that is its own single decision (an onboarding step, a
    /// day's churn): the opportunity is the product's, and the person answers it there.
    public mutating func decideAtMoment(_ kind: DecisionKind, moment: Int64, _ outcome: DecisionOutcome, at now: Instant) {
        offerDecision(kind, moment: moment)
        decide(kind, outcome, at: now)
    }

    /// Onboarding step `step` (0, 1, … in the product's order) is shown and the person completes it or drops out
    /// there: the decision is recorded and returned, for `guard life.onboardingStep(…) else { … }`.
    public mutating func onboardingStep(_ step: Int, completes: Bool, at now: Instant) -> Bool {
        decideAtMoment(.onboardingStep, moment: Int64(step), completes ? .complete : .dropOut, at: now)
        return completes
    }

    /// The opportunity of a shield shown (or, `shown` false, an exercise at it ending) over `app` at `t`: one per
    /// instant and app. A shield shown is counted for the per-week view and marks the urge being answered as met.
    public mutating func offerShieldDecision(over app: AppID, at t: Instant, shown: Bool = true) {
        if shown { shieldShown(over: app) }
        offerDecision(.shieldChoice, moment: t.millisecondsSinceEpoch &* 64 &+ Int64(app.rawValue))
    }
}
