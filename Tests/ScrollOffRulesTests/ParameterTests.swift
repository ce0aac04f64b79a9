import Testing
import RulesCore
@testable import ScrollOffRules

@Suite("Parameters and catalogue")
struct ParameterTests {
    @Test("Catalogue defaults build ScrollOffParameters.defaults, which carry the charter's numbers (§3, §5)")
    func defaultsMatchCharter() {
        let d = ScrollOffParameters(values: ParameterValues(defaultsOf: ScrollOffParameters.catalogue))
        #expect(d == ScrollOffParameters.defaults)
        #expect(d.freeMaxBlockedApps == 3 && d.maxShieldedApps == 50)
        #expect(d.premiumMonthlyPrice == Money(usd: 4.99) && d.proMonthlyPrice == Money(usd: 8.99) && d.proAnnualPrice == Money(usd: 59.99))
        #expect(d.earnAward == .minutes(Int64(5)) && d.earnAbstinence == .minutes(Int64(60)))
        #expect(d.dailyEarnCap == TierValues(free: .minutes(Int64(45)), premium: .minutes(Int64(90)), pro: .minutes(Int64(120))))
        #expect(d.rolloverDays == TierValues(free: 1, premium: 3, pro: 7))
        #expect(d.cooldown == TierValues(free: .hours(2), premium: .hours(1), pro: .minutes(Int64(30))))
        #expect(d.curfewMaxLength == .hours(16) && d.curfewEditLockLead == .minutes(Int64(30)))
        #expect(d.freePeeksPerDay.free == 1 && d.freePeeksPerDay.premium == 2 && d.creditPeeksPerDay == 2)
        #expect(d.tokenPrice == Money(usd: 0.99) && d.tokenMonthlyPurchaseCap == 5 && d.proIncludedTokensPerMonth == 3)
        #expect(d.clockRollbackThreshold == .minutes(Int64(10)) && d.starterCredit == .seconds(Int64(120)))
    }

    @Test("Key paths are unique, snake_case, and every default is valid for its kind")
    func keyPaths() {
        let keys = ScrollOffParameters.catalogue.map(\.keyPath)
        #expect(Set(keys).count == keys.count)
        for p in ScrollOffParameters.catalogue {
            let ok = p.keyPath.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { seg in
                !seg.isEmpty && seg.first!.isLowercase && seg.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" }
            }
            #expect(ok, "\(p.keyPath)")
            #expect(p.problem(with: p.defaultValue) == nil, "\(p.keyPath)")
            #expect(!p.summary.isEmpty)
        }
        for k in ["tiers.free.max_blocked_apps", "earn.award_minutes", "earn.daily_cap_minutes.free", "tokens.monthly_purchase_cap",
                  "tokens.price_usd", "tokens.pro_included_per_month", "prices.premium_monthly", "prices.pro_monthly", "prices.pro_annual"] {
            #expect(keys.contains(k), "\(k)")
        }
    }

    @Test("The open questions of the charter are parameters marked as assumptions")
    func assumptionsMarked() {
        let assumed = Set(ScrollOffParameters.catalogue.filter(\.source.isAssumption).map(\.keyPath))
        for k in ["bypass.free_peeks_per_day.pro", "tokens.unlock_minutes", "tokens.work_during_curfew", "earn.rollover_counts_earning_day",
                  "spend.lot_order", "tokens.included_count_toward_cap", "milestones.streak_min_awards_per_day", "insights.minutes_saved_per_resisted_urge",
                  "milestones.streak_day_rule", "bypass.free_peek_at_zero_credits", "tokens.purchasable_outside_shield",
                  "earn.starter_credit_requires_authorization", "bypass.mindfulness_enabled_by_default"] {
            #expect(assumed.contains(k), "\(k)")
        }
    }

    @Test("A scenario override reaches the engine (token cap 3)")
    func override() {
        var v = ParameterValues(defaultsOf: ScrollOffParameters.catalogue)
        v["tokens.monthly_purchase_cap"] = .int(3)
        v["tokens.purchasable_outside_shield"] = .bool(true)
        var h = Harness(parameters: ScrollOffParameters(values: v))
        for k in 0..<3 { #expect(h.send(.buyToken, at: h.at(0, 9, k)).decision == .tokenPurchased) }
        #expect(h.send(.buyToken, at: h.at(0, 9, 5)).decision == .tokenCapReached)
    }
}
