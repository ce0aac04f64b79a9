import Reports
import RulesCore

// The decision audit (issue 25, "every decision once, at its moment"): the product opens an opportunity, the person
// takes a decision at it. The vocabulary — kinds and outcomes — is declared by whoever makes the decisions
// (`DecisionVocabulary.swift`, issue 42); the counts make `decisions.csv` (`DecisionCounts`).

/// A person's open opportunities: per kind (slot of the product's `DecisionLayout`), the moment last opened and the
/// decisions it still allows.
struct DecisionAudit {
    var moment: [Int64]
    var remaining: [Int]

    init<Adapter: ProductAdapter>(_: Adapter.Type) {
        let kinds = DecisionLayout.of(Adapter.self).kinds.count
        moment = [Int64](repeating: .min, count: kinds)
        remaining = [Int](repeating: 0, count: kinds)
    }
}

extension PersonLife {
    /// The product gives the person the moment for a decision of `kind`. `moment` identifies the opportunity (a
    /// period's end, a shield's instant, a step's number): opening the same moment again grants nothing, so a
    /// decision booked twice for one opportunity is caught. A new moment replaces the one before (its unused
    /// allowance lapses: the moment has passed).
    public mutating func offerDecision(_ kind: DecisionKind, moment: Int64) {
        guard let k = summary.decisions.layout.slot(of: kind) else { return undeclared(kind, nil, at: now) }
        guard decisionAudit.moment[k] != moment else { return }
        decisionAudit.moment[k] = moment
        decisionAudit.remaining[k] = summary.decisions.layout.allowances[k]
        summary.decisions.countOpportunity(slot: k)
    }

    /// The person decides `kind` with `outcome`. Without an open opportunity (or beyond its allowance), of a kind the
    /// product does not declare (`ProductAdapter.decisionKinds`) or with an outcome not among its kind's, this is an
    /// invariant violation: the life stops there and the run fails with the person's id (`InvariantViolation`).
    public mutating func decide(_ kind: DecisionKind, _ outcome: DecisionOutcome, at now: Instant) {
        guard let k = summary.decisions.layout.slot(of: kind), let cell = summary.decisions.layout.cell(of: outcome, slot: k) else {
            return undeclared(kind, outcome, at: now)
        }
        guard decisionAudit.remaining[k] > 0 else {
            let problem = decisionAudit.moment[k] == .min
                ? "decision \(kind.id) (\(outcome.id)) without its opportunity (\(kind.opportunity))"
                : "decision \(kind.id) (\(outcome.id)) beyond its opportunity's allowance of \(kind.perOpportunity) (\(kind.opportunity) at moment \(decisionAudit.moment[k]))"
            return violateDecision(kind, problem, at: now)
        }
        decisionAudit.remaining[k] -= 1
        summary.decisions.countDecision(slot: k, cell: cell)
        journal?.record(decision: kind.id, outcome.id, at: now)
    }

    /// A decision (or, `outcome` nil, an opportunity) the product's declared vocabulary does not hold.
    mutating func undeclared(_ kind: DecisionKind, _ outcome: DecisionOutcome?, at now: Instant) {
        let layout = summary.decisions.layout
        let problem: String
        if let k = layout.slot(of: kind), let o = outcome {
            problem = "decision \(kind.id) (\(o.id)): \(o.id) is not an outcome of \(kind.id) as the product declares it "
                + "(\(layout.kinds[k].outcomes.map(\.id).joined(separator: ", ")))"
        } else {
            problem = "decision \(kind.id)\(outcome.map { " (\($0.id))" } ?? "") of a kind the product does not declare "
                + "(decisionKinds: \(layout.kinds.map(\.id).joined(separator: ", ")))"
        }
        violateDecision(kind, problem, at: now)
    }

    /// Stops the life with a decision invariant violated (the first one a life breaks is kept).
    mutating func violateDecision(_ kind: DecisionKind, _ problem: String, at now: Instant) {
        if summary.violation == nil {
            summary.violation = InvariantViolation(arm: world.armName, replication: world.replication, seed: world.seed, person: id,
                                                   time: now, input: "decision \(kind.id)", problems: [problem], invariant: "decision")
        }
        trace(kind: "invariant_violation", detail: problem, at: now)
        stopped = true
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
    /// `kind` is the decision the shield opens: the shared `shield_choice` (a way through offered), or a product's own
    /// (Lazuri's `lazuri_shield`: one button and the promise), so a product with its own shield declares only that.
    public mutating func offerShieldDecision(over app: AppID, at t: Instant, shown: Bool = true, kind: DecisionKind = .shieldChoice) {
        if shown { shieldShown(over: app) }
        offerDecision(kind, moment: t.millisecondsSinceEpoch &* 64 &+ Int64(app.rawValue))
    }
}
