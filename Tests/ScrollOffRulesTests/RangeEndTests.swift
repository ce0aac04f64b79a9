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
}
