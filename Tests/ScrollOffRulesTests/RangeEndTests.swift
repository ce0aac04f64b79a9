import Testing
import RulesCore
@testable import ScrollOffRules

/// Rule settings at the ends of their catalogue ranges that once broke the invariant audit (reliability audit
/// 2026-11, F2c), checked against the words of seed 000_5f03618b73c6ae9a.txt.
@Suite("Rule parameters at their range ends")
struct RangeEndTests {
    let app = AppID(1)

    func parameters(_ changes: [String: ParameterValue]) -> ScrollOffParameters {
        var v = ParameterValues(defaultsOf: ScrollOffParameters.catalogue)
        for (k, x) in changes { v[k] = x }
        return ScrollOffParameters(values: v)
    }

    @Test("Ladder: the free-peek quota is per tier — Free at 20 gets 20 free peeks a day, not Premium's 2 (§3.4 Step 1)")
    func freeQuotaAboveOtherTiers() {
        // §3.4 "Step 1: One free 60-sec peek (Free); two for Premium", per local day; the Free number is a parameter.
        var h = Harness(parameters: parameters(["bypass.free_peeks_per_day.free": .int(20)]))
        h.onboard()
        for day in Int64(0)...1 {
            for k in 0..<20 {
                h.send(.appForeground(app), at: h.at(day, 8, 2 * k))
                #expect(h.send(.shield(.peek), at: h.at(day, 8, 2 * k)).decision == .freePeek)
            }
            h.send(.appForeground(app), at: h.at(day, 9, 30))
            #expect(h.send(.shield(.peek), at: h.at(day, 9, 30)).decision != .freePeek)
            h.send(.appBackground(app), at: h.at(day, 9, 30))
        }
        #expect(h.problems.isEmpty, "\(h.problems.prefix(2))")
    }

    @Test("Ladder: peeks taken on Premium stay within quota after a mid-day return to Free (§3.4 Step 1)")
    func peeksThenDowngrade() {
        var h = Harness()
        h.subscribe(.premiumMonthly, at: h.at(0, 6))
        h.onboard()
        for k in 0..<2 {
            h.send(.appForeground(app), at: h.at(0, 8, 2 * k))
            #expect(h.send(.shield(.peek), at: h.at(0, 8, 2 * k)).decision == .freePeek)
        }
        h.send(.refundSubscription, at: h.at(0, 9))
        h.send(.appForeground(app), at: h.at(0, 9, 30))
        #expect(h.send(.shield(.peek), at: h.at(0, 9, 30)).decision != .freePeek)
        #expect(h.problems.isEmpty, "\(h.problems.prefix(2))")
    }

    @Test("Tokens: when included tokens count toward the cap, a month never holds more than 5 (§3.4, §5.1; assumption)",
          arguments: [(0, 3), (3, 2), (5, 0)])
    func includedCountTowardCap(boughtOnFree: Int, included: Int) {
        // §3.4 "Emergency Token IAP $0.99, hard-capped at 5/month (all plans). Pro includes 3 tokens/month bundled";
        // §5.1 Pro: "Emergency tokens (3/mo included; then $0.99 up to 5/mo)".
        var h = Harness(parameters: parameters(["tokens.included_count_toward_cap": .bool(true), "tokens.purchasable_outside_shield": .bool(true)]))
        h.onboard()
        for k in 0..<boughtOnFree { #expect(h.send(.buyToken, at: h.at(1, 9, k)).decision == .tokenPurchased) }
        #expect(h.send(.buyPlan(.proAnnual), at: h.at(1, 10)).decision == .subscribed)
        #expect(h.engine.includedTokensRemaining == included)
        for k in 0..<(5 - boughtOnFree - included) { #expect(h.send(.buyToken, at: h.at(1, 11, k)).decision == .tokenPurchased) }
        #expect(h.send(.buyToken, at: h.at(1, 12)).decision == .tokenCapReached)
        // Next month (2026-02-01): 3 included, then 2 purchases.
        h.run(until: h.at(27, 9))
        #expect(h.engine.includedTokensRemaining == 3)
        for k in 0..<2 { #expect(h.send(.buyToken, at: h.at(27, 9, k)).decision == .tokenPurchased) }
        #expect(h.send(.buyToken, at: h.at(27, 10)).decision == .tokenCapReached)
        #expect(h.problems.isEmpty, "\(h.problems.prefix(2))")
    }
}
