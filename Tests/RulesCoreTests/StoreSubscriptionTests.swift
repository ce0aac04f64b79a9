import Testing
@testable import RulesCore

/// A toy store: a monthly and an annual plan that renew, and a lifetime plan that never does.
enum ToyPlan: String, StorePlan {
    case monthly, annual, lifetime
    var sku: String { "toy.\(rawValue)" }
    var months: Int? { switch self { case .monthly: 1; case .annual: 12; case .lifetime: nil } }
    var price: Money { switch self { case .monthly: Money(usd: 9.99); case .annual: Money(usd: 59.99); case .lifetime: Money(usd: 99) } }
}

/// A toy taxonomy whose cases are the witnesses of the store's events (SE-0280), as a product's own enum is; the
/// purchase has its own name, as Nudge's `subscription_started`.
enum ToyEvent: Hashable, Sendable, AnalyticsEvent, TrialSubscriptionEvents {
    case trialStarted(ToyPlan)
    case bought(ToyPlan, price: Money)
    case subscriptionRenewed(ToyPlan, price: Money)
    case subscriptionCancelled(ToyPlan)
    case subscriptionExpired(ToyPlan)
    case subscriptionRefunded(ToyPlan)
    static func subscriptionPurchaseCompleted(_ plan: ToyPlan, price: Money) -> ToyEvent { .bought(plan, price: price) }
    var name: String { "\(self)" }
    var fields: [(String, String)] { [] }
}

/// Issue 42: the store's rules every subscription product shared, written once (`StoreSubscription`).
@Suite("A store subscription's rules, once for every product (issue 42)")
struct StoreSubscriptionTests {
    let zone: ZoneCalendar
    let t0 = utc("2026-03-10T12:00:00Z")
    var ledger = OutcomeList<LedgerEntry>()
    var events = OutcomeList<ToyEvent>()

    init() throws { zone = try RulesCoreTests.zone("Europe/Berlin") }

    @Test("A trial is free, books a zero trial_start line, and converts into a purchase at its end")
    mutating func trialConverts() {
        var s = StoreSubscription<ToyPlan>()
        s.startTrial(.annual, days: 7, at: t0, &ledger, &events)
        #expect(s.plan == .annual && s.inTrial && s.trialUsed && s.autoRenew && s.periodEnd == t0 + .days(7))
        #expect(ledger.array == [LedgerEntry(at: t0, amount: .zero, productID: "toy.annual", kind: .trialStart)])
        #expect(events.array == [.trialStarted(.annual)])
        #expect(s.monthlyPrice { PlanPrice(price: $0.price, periodMonths: $0.months) } == .zero)
        #expect(s.mrr(at: t0) { PlanPrice(price: $0.price, periodMonths: $0.months) } == nil)

        let end = s.periodEnd
        s.renew(.annual, price: ToyPlan.annual.price, months: 12, at: end, in: zone, &ledger, &events)
        #expect(!s.inTrial && s.autoRenew && s.lastPaid == ToyPlan.annual.price)
        #expect(s.periodStart == end && s.periodEnd == zone.adding(months: 12, to: end))
        #expect(ledger.array.last == LedgerEntry(at: end, amount: ToyPlan.annual.price, productID: "toy.annual", kind: .subscriptionPurchase))
        #expect(events.array.last == .bought(.annual, price: ToyPlan.annual.price))
        // A paid period renews as a renewal, not a purchase.
        let next = s.periodEnd
        s.renew(.annual, price: ToyPlan.annual.price, months: 12, at: next, in: zone, &ledger, &events)
        #expect(ledger.array.last?.kind == .subscriptionRenewal && events.array.last == .subscriptionRenewed(.annual, price: ToyPlan.annual.price))
    }

    @Test("The MRR is the price per month of a paid period running past the horizon; a one-time plan has none")
    mutating func monthlyAndMRR() {
        let price = { (p: ToyPlan) in PlanPrice(price: p.price, periodMonths: p.months) }
        var s = StoreSubscription<ToyPlan>()
        #expect(s.monthlyPrice(price) == .zero && s.mrr(at: t0, price) == nil)
        s.purchase(.annual, price: ToyPlan.annual.price, months: 12, at: t0, in: zone, &ledger, &events)
        #expect(s.monthlyPrice(price) == Money(micros: 4_999_166))
        #expect(s.mrr(at: s.periodEnd - .seconds(1), price) == Money(micros: 4_999_166))
        #expect(s.mrr(at: s.periodEnd, price) == nil)
        s.purchase(.lifetime, price: ToyPlan.lifetime.price, months: nil, at: t0, in: zone, &ledger, &events)
        #expect(!s.autoRenew && s.periodEnd == .distantFuture)
        #expect(s.monthlyPrice(price) == .zero && s.mrr(at: t0, price) == nil)
    }

    @Test("Cancelling stops the renewal once; the period then expires and the plan lapses")
    mutating func cancelThenExpire() {
        var s = StoreSubscription<ToyPlan>()
        let nothingToCancel = s.cancelAutoRenew(&events)
        #expect(!nothingToCancel && events.isEmpty)
        s.purchase(.monthly, price: ToyPlan.monthly.price, months: 1, at: t0, in: zone, &ledger, &events)
        let cancelled = s.cancelAutoRenew(&events)
        #expect(cancelled && !s.autoRenew && s.plan == .monthly)
        let again = s.cancelAutoRenew(&events)
        #expect(!again)
        #expect(events.array == [.bought(.monthly, price: ToyPlan.monthly.price), .subscriptionCancelled(.monthly)])
        s.expire(.monthly, &events)
        #expect(s.plan == nil && !s.inTrial && !s.autoRenew && s.periodEnd == .distantFuture)
        #expect(events.array.last == .subscriptionExpired(.monthly))
    }

    @Test("A refund returns the last charge (no line for a trial) and the plan lapses; without a plan nothing happens")
    mutating func refunds() {
        var s = StoreSubscription<ToyPlan>()
        let nothingToRefund = s.refund(at: t0, &ledger, &events)
        #expect(!nothingToRefund && ledger.isEmpty && events.isEmpty)
        s.startTrial(.monthly, days: 7, at: t0, &ledger, &events)
        let trialRefunded = s.refund(at: t0 + .hours(1), &ledger, &events)
        #expect(trialRefunded)
        #expect(ledger.count == 1 && events.array.last == .subscriptionRefunded(.monthly) && s.plan == nil && s.trialUsed)
        s.purchase(.monthly, price: ToyPlan.monthly.price, months: 1, at: t0 + .days(1), in: zone, &ledger, &events)
        let refunded = s.refund(at: t0 + .days(2), &ledger, &events)
        #expect(refunded)
        #expect(ledger.array.last == LedgerEntry(at: t0 + .days(2), amount: .zero - ToyPlan.monthly.price, productID: "toy.monthly", kind: .refund))
        #expect(s.plan == nil && !s.autoRenew && s.periodEnd == .distantFuture)
    }

    @Test("An engine's timer is its kind and instant: equal, hashed and shown by both")
    func armedTimer() {
        enum Kind: Hashable, Sendable { case tick, end(Int) }
        let a = ArmedTimer(Kind.end(3), at: t0)
        #expect(a == ArmedTimer(.end(3), at: t0) && a != ArmedTimer(.end(4), at: t0) && a != ArmedTimer(.end(3), at: t0 + .seconds(1)))
        #expect(Set([a, ArmedTimer(.end(3), at: t0), ArmedTimer(.tick, at: t0)]).count == 2)
        #expect(a.description == "end(3)@\(t0)")
    }
}
