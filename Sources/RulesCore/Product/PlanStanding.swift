/// A person's plan as their engine knows it (`RuleEngine.standing`): the plan segment they are counted in and what a
/// month of it is worth (docs/DESIGN.md, principle 6: money is a ledger, and the plan behind it is the engine's).
public struct PlanStanding: Hashable, Sendable {
    /// One of the descriptor's `revenue.planSegments` (Scroll Off: `free`, `premium`, `pro`).
    public var segment: String
    /// The monthly-equivalent price of the plan in force, its MRR contribution: zero on the unpaid plan, during a
    /// free trial and on a plan that never renews (a lifetime purchase).
    public var monthlyPrice: Money

    public init(segment: String, monthlyPrice: Money) {
        self.segment = segment
        self.monthlyPrice = monthlyPrice
    }

    /// The unpaid plan `segment` (by default `free`), worth nothing a month.
    public static func unpaid(_ segment: String = "free") -> PlanStanding { PlanStanding(segment: segment, monthlyPrice: .zero) }
}

/// One plan as a product's price list has it (e.g. `ScrollOffEngine.listPrice(of:)`): what one paid period costs and
/// how many calendar months it runs. The one place a price is divided by its period, for the MRR (`monthly`,
/// exact) and for a person weighing the price per month (`monthlyUSD`).
public struct PlanPrice: Hashable, Sendable {
    /// The price of one paid period (gross, what the customer pays).
    public var price: Money
    /// Calendar months one paid period runs; nil for a one-time purchase that never renews (a lifetime plan).
    public var periodMonths: Int?

    public init(price: Money, periodMonths: Int?) {
        precondition(periodMonths.map { $0 > 0 } ?? true, "a billing period is at least a month")
        self.price = price
        self.periodMonths = periodMonths
    }

    /// The monthly-equivalent price, price ÷ months in micro-dollars truncated toward zero (the MRR a subscriber
    /// contributes: $59.99 a year is $4.999166 a month); nil for a one-time purchase.
    public var monthly: Money? { periodMonths.map { Money(micros: price.micros / Int64($0)) } }

    /// The monthly-equivalent price in dollars as a person weighs it against their willingness to pay: price ÷
    /// months in floating point (for behaviour, never for ledgers); nil for a one-time purchase.
    public var monthlyUSD: Double? { periodMonths.map { price.usd / Double($0) } }
}
