import Behavior
import RulesCore

/// The person side every subscription product shares (docs/ARCHITECTURE.md, "The shared person layer"): paywalls
/// weighed at most once a local day, one keep-or-cancel decision per period, refunds asked for on the third day.
/// An adapter whose `PersonState` holds a `SubscriberMemory` calls these instead of keeping its own copies.
extension PersonLife where Adapter.PersonState: SubscriberState {
    /// A paywall is met now: whether the person may weigh it by the once-a-day rule — the first hard paywall always
    /// (it is the decision the wall asks for), any other only if no paywall was weighed today. Remembers the hard
    /// wall. The caller marks the day with `paywallWeighed()` when it does weigh.
    public mutating func meetPaywall(hardWall: Bool) -> Bool {
        let firstHardWall = hardWall && !state.subscriber.metHardWall
        if hardWall { state.subscriber.metHardWall = true }
        return firstHardWall || state.subscriber.lastPaywallDay != dayIndex
    }

    /// Today is a day a paywall (or the plans) was weighed.
    public mutating func paywallWeighed() { state.subscriber.lastPaywallDay = dayIndex }

    /// True when a paywall or the plans were weighed today.
    public var weighedPaywallToday: Bool { state.subscriber.lastPaywallDay == dayIndex }

    /// Offers the keep-or-cancel decision of the period ending at `periodEnd` (its opportunity, `kind`
    /// `.trialKeep` or `.renewalKeep`) unless it is already booked; true when it was offered now.
    public mutating func offerKeepDecision(_ kind: DecisionKind, periodEnd: Instant) -> Bool {
        guard state.subscriber.renewalDecisionFor != periodEnd else { return false }
        state.subscriber.renewalDecisionFor = periodEnd
        offerDecision(kind, moment: periodEnd.millisecondsSinceEpoch)
        return true
    }

    /// True while the keep-or-cancel decision booked is the one of the period ending at `periodEnd`.
    public func keepDecisionIsFor(_ periodEnd: Instant) -> Bool { state.subscriber.renewalDecisionFor == periodEnd }

    /// The person keeps the plan or cancels it, with probability of keeping `pKeep` (one draw from `purchases`;
    /// meaning to cancel may end inert, `PurchaseModel.keepOrCancel`); traced as `renewal-decision` with `detail`
    /// after the outcome, and taken as the `kind` decision.
    public mutating func keepOrCancel(_ kind: DecisionKind, probabilityOfKeeping pKeep: Double, detail: String, at now: Instant) -> KeepOutcome {
        let outcome = world.purchase.keepOrCancel(probabilityOfKeeping: pKeep, rng: purchases)
        trace(kind: "renewal-decision", detail: "\(outcome.rawValue) \(detail)", at: now)
        decide(kind, DecisionOutcome(outcome), at: now)
        return outcome
    }

    /// After a charge at `now`, the person may ask for a refund (`refundRequestDay`): the day is remembered.
    public mutating func considerRefund(at now: Instant) {
        if let day = refundRequestDay(at: now) { state.subscriber.refundDay = day }
    }

    /// True (once) when the day of the refund the person asks for has come.
    public mutating func refundIsDue() -> Bool {
        guard let day = state.subscriber.refundDay, dayIndex >= day else { return false }
        state.subscriber.refundDay = nil
        return true
    }
}

/// The person side every product shares, subscription or not.
extension PersonLife {
    /// The value a person weighs at a purchase or keep-or-cancel decision now: the value they feel plus the
    /// product's integration into their day (issue 26: a trial builds it).
    public var valueAtDecision: Double {
        world.purchase.valueAtDecision(valueFelt: engagement.perceivedValue, integration: engagement.integration(onDay: Int64(dayIndex)))
    }

    /// The person resisted an urge at a shield (a willpower win): self-efficacy and the resisting habit grow, the
    /// product is felt to help, and — when the product can tell — the minutes they meant to spend count as saved.
    public mutating func recordWillpowerWin(minutesSaved: Double?) {
        person.selfEfficacy.recordWin()
        person.resistHabit.reinforce(onDay: Int64(dayIndex))
        engagement.record(.resistedUrge)
        if let minutesSaved { engagement.record(.minutesSaved(minutesSaved)) }
    }

    /// The person acted on an urge the product stood in front of (a lapse): self-efficacy falls.
    public mutating func recordLapse() { person.selfEfficacy.recordLapse() }
}
