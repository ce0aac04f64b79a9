import Testing
import RulesCore
@testable import Reports

/// Issue 27: `revenue.csv`'s `cost_usd` column — service costs under their own source, kept beside revenue (never
/// netted into `net_usd`), merged exactly in any order — and the gross margin set against the net.
@Suite("revenue.csv's costs and the gross margin (issue 27)")
struct RevenueCostTests {
    static let jan = MonthID(year: 2026, month: 1), feb = MonthID(year: 2026, month: 2)

    /// A person who pays $4.99 in January (30 % fee) and is served two AI requests in January and one in February.
    static func subscriber() -> PersonRevenue {
        var p = PersonRevenue()
        p.add(month: jan, source: "subscriptions", gross: Money(usd: 4.99), fee: Money(usd: 4.99).fraction(0.3))
        p.add(month: jan, source: "ai", gross: .zero, fee: .zero, cost: Money(micros: 740))
        p.add(month: jan, source: "ai", gross: .zero, fee: .zero, cost: Money(micros: 1_500_000))
        p.add(month: feb, source: "ai", gross: .zero, fee: .zero, cost: Money(micros: 2_004_999))
        return p
    }

    /// A person who pays nothing but is served one request.
    static func freeRider() -> PersonRevenue {
        var p = PersonRevenue()
        p.add(month: feb, source: "ai", gross: .zero, fee: .zero, cost: Money(micros: 995_001))
        return p
    }

    @Test("The cost column: its own source's rows, no fee and no paying people there; 0.00 on revenue rows")
    func costColumn() {
        var acc = RevenueAccumulator()
        acc.add(Self.subscriber())
        acc.add(Self.freeRider())
        #expect(RevenueAccumulator.header.suffix(3) == ["transactions", "paying_people", "cost_usd"])
        let rows = acc.rows(keys).map { Array($0.map(\.rendered).dropFirst(4)) }
        #expect(rows == [
            ["2026-01", "ai", "0.00", "0.00", "0.00", "0.00", "2", "0", "1.50"],
            ["2026-01", "subscriptions", "4.99", "0.00", "1.50", "3.49", "1", "1", "0.00"],
            ["2026-02", "ai", "0.00", "0.00", "0.00", "0.00", "2", "0", "3.00"],
            ["total", "ai", "0.00", "0.00", "0.00", "0.00", "4", "0", "4.50"],
            ["total", "subscriptions", "4.99", "0.00", "1.50", "3.49", "1", "1", "0.00"],
        ])
        #expect(acc.total.cost == Money(micros: 4_500_740))
        #expect(acc.total.net == Money(micros: 3_493_000))   // costs are not netted into net revenue
    }

    @Test("Merged in any order and split any way, the cost column is the same to the micro-dollar")
    func mergeIsExact() {
        let people = (0..<7).map { $0 % 3 == 0 ? Self.freeRider() : Self.subscriber() }
        var whole = RevenueAccumulator()
        for p in people { whole.add(p) }
        var a = RevenueAccumulator(), b = RevenueAccumulator(), c = RevenueAccumulator()
        for (i, p) in people.enumerated() { if i < 2 { a.add(p) } else if i < 5 { b.add(p) } else { c.add(p) } }
        var abc = a; abc.merge(b); abc.merge(c)
        var cba = c; cba.merge(b); cba.merge(a)
        #expect(abc == whole && cba == whole)
        #expect(whole.total.cost == Money(micros: 4 * 3_505_739 + 3 * 995_001))
        #expect(abc.rows(keys).map { $0.map(\.rendered) } == cba.rows(keys).map { $0.map(\.rendered) })
    }

    @Test("Gross margin = (net − costs) ÷ net, net = gross − refunds − store fees; none without net revenue")
    func grossMargin() {
        var acc = RevenueAccumulator()
        acc.add(Self.subscriber())
        acc.add(Self.freeRider())
        var refunded = PersonRevenue()
        refunded.add(month: Self.feb, source: "subscriptions", gross: Money(usd: 9.99), fee: Money(usd: 9.99).fraction(0.3))
        refunded.add(month: Self.feb, source: "subscriptions", gross: .zero, refund: Money(usd: 9.99), fee: .zero)
        acc.add(refunded)
        // gross 14.98, refunds 9.99, fees 1.497 + 2.997 → net 0.496; costs 3.505739 + 0.995001.
        let net = 14.98 - 9.99 - 1.497 - 2.997, cost = 4.50074
        #expect(acc.total.net == Money(micros: 496_000))
        #expect(abs(acc.grossMargin! - (net - cost) / net) < 1e-9)
        #expect(acc.grossMargin! < 0)   // costs beyond the net: a negative margin, reported as it is
        var noCosts = RevenueAccumulator()
        var p = PersonRevenue()
        p.add(month: Self.jan, source: "subscriptions", gross: Money(usd: 4.99), fee: Money(usd: 4.99).fraction(0.3))
        noCosts.add(p)
        #expect(noCosts.grossMargin == 1)
        var onlyCosts = RevenueAccumulator()
        onlyCosts.add(Self.freeRider())
        #expect(onlyCosts.grossMargin == nil && RevenueAccumulator().grossMargin == nil)
    }
}
