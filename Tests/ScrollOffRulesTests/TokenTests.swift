import Testing
import RulesCore
@testable import ScrollOffRules

/// Emergency tokens: §3.4 "Emergency Token IAP $0.99, hard-capped at 5/month (all plans). Pro includes 3
/// tokens/month bundled"; §5.1 Pro "Emergency tokens (3/mo included; then $0.99 up to 5/mo)"; §9 "Monthly token cap
/// enforced (5 max, Pro includes 3)"; §5.2 "show as last resort only"; §6.1 at 0 credits "Only bypass option:
/// Emergency Token ($0.99) if under monthly cap" (audit 2026-11 D9, D13, D14).
@Suite("Emergency tokens (§3.4, §5.1, §5.2, §6.1, §9)")
struct TokenTests {
    let app = AppID(1)

    /// Meets the shield at `t` and presses the token button.
    @discardableResult
    func token(_ h: inout Harness, at t: Instant) -> ScrollOffOutcome {
        h.meetShield(app, at: t)
        return h.send(.shield(.emergencyToken), at: t)
    }

    @Test("Default: Pro's 3 included tokens count toward the 5 — then 2 purchases, then the cap (§5.1, §9)")
    func proFiveInTotal() {
        var h = Harness(parameters: params(straightToTokens))
        h.subscribe(.proMonthly, at: h.at(0, 6))
        h.onboard()
        #expect(h.engine.includedTokensRemaining == 3)
        var paid: [Money] = []
        for k in 0..<5 {
            let o = token(&h, at: h.at(1, 9 + k))
            #expect(o.decision == .tokenUsed)
            paid += o.ledger.map(\.amount)
        }
        #expect(paid == [Money(usd: 0.99), Money(usd: 0.99)])
        #expect(token(&h, at: h.at(1, 15)).decision == .tokenCapReached)
        #expect(h.problems.isEmpty, "\(h.problems.prefix(2))")
    }

    @Test("Default: 5 tokens bought on Free, then Pro annual the same month: no included token, invariants hold (audit D9 abort)")
    func upgradeAfterFivePurchases() {
        var h = Harness(parameters: params(straightToTokens))
        h.onboard()
        for k in 0..<5 { #expect(token(&h, at: h.at(1, 9 + k)).decision == .tokenUsed) }
        #expect(h.send(.buyPlan(.proAnnual), at: h.at(1, 15)).decision == .subscribed)
        #expect(h.engine.includedTokensRemaining == 0)
        #expect(token(&h, at: h.at(1, 16)).decision == .tokenCapReached)
        #expect(h.problems.isEmpty, "\(h.problems.prefix(2))")
        // Next month: Pro's 3 included, then 2 purchases.
        h.run(until: h.at(27, 8))
        #expect(h.engine.includedTokensRemaining == 3)
    }

    @Test("With tokens.included_count_toward_cap false (§5.2 'purchasable' reading), Pro may use 3 + 5")
    func includedOutsideTheCap() {
        var p = straightToTokens
        p["tokens.included_count_toward_cap"] = .bool(false)
        var h = Harness(parameters: params(p))
        h.subscribe(.proMonthly, at: h.at(0, 6))
        h.onboard()
        for k in 0..<8 { #expect(token(&h, at: h.at(1, 9 + k)).decision == .tokenUsed) }
        #expect(token(&h, at: h.at(1, 18)).decision == .tokenCapReached)
    }

    @Test("bypass_token_purchased.tokens_used_this_month carries uses this month, this one included (§8.1 field name)")
    func tokensUsedField() {
        var h = Harness(parameters: params(straightToTokens))
        h.subscribe(.proMonthly, at: h.at(0, 6))
        h.onboard()
        for k in 0..<3 { token(&h, at: h.at(1, 9 + k)) }             // the included ones
        let bought = token(&h, at: h.at(1, 13))
        #expect(bought.events.contains(.bypassTokenPurchased(month: MonthID(year: 2026, month: 1), tokensUsedThisMonth: 4)))
    }

    @Test("Tokens are bought at the shield only (§5.2 'show as last resort only'); a parameter allows the store")
    func onlyAtShield() {
        var h = Harness()
        h.onboard()
        let o = h.send(.buyToken, at: h.at(0, 9))
        #expect(o.decision == .tokenOnlyAtShield)
        #expect(o.ledger.isEmpty && o.events.isEmpty)
        var g = Harness(parameters: params(["tokens.purchasable_outside_shield": .bool(true)]))
        g.onboard()
        #expect(g.send(.buyToken, at: g.at(0, 9)).decision == .tokenPurchased)
    }

    @Test("At 0 credits the only bypass is the token (§6.1, default); the free peek comes back with the parameter (§3.4)",
          arguments: [false, true])
    func zeroCredits(freePeekAtZero: Bool) {
        var h = Harness(parameters: params(["bypass.free_peek_at_zero_credits": .bool(freePeekAtZero)]))
        h.onboard()
        h.meetShield(at: h.at(0, 7, 30))
        #expect(h.engine.balance() == .zero)
        let offer = h.engine.shieldOffer()!
        #expect(offer.choices == (freePeekAtZero ? [.close, .peek] : [.close, .emergencyToken]))
        #expect((h.send(.shield(.peek), at: h.at(0, 7, 30)).decision == .freePeek) == freePeekAtZero)
    }

    @Test("With credits the free peek is offered first (§3.4 Step 1)")
    func freePeekWithCredits() {
        var h = Harness()
        h.onboard()
        h.send(.onboarding(.demoBlockCompleted), at: h.at(0, 7))
        h.meetShield(at: h.at(0, 7, 30))
        #expect(h.engine.shieldOffer()!.choices == [.close, .useCredits, .peek])
        #expect(h.send(.shield(.peek), at: h.at(0, 7, 30)).decision == .freePeek)
    }
}
