import RulesCore

/// Gross revenue from consumables against the rest, per month (issue 42: kept neutrally for any product that sells
/// consumables; the report that judges the share against a ceiling is the product's own — Scroll Off's
/// `token-revenue-share.csv`). Folded from each person's ledger lines and purchases refused at the product's cap.
public struct ConsumableAccumulator: Mergeable, Sendable, Hashable, Codable {
    public struct Month: Hashable, Sendable, Codable {
        public var consumableGross = Money.zero, subscriptionGross = Money.zero, otherGross = Money.zero
        /// Consumables bought; people who bought at least one this month; purchases refused at the cap.
        public var sold = 0, buyers = 0, capHits = 0
        public var totalGross: Money { consumableGross + subscriptionGross + otherGross }
        /// Consumable gross over total gross (nil with no revenue).
        public var consumableShare: Double? { totalGross > .zero ? consumableGross.usd / totalGross.usd : nil }

        mutating func add(_ o: Month) {
            consumableGross += o.consumableGross; subscriptionGross += o.subscriptionGross; otherGross += o.otherGross
            sold += o.sold; buyers += o.buyers; capHits += o.capHits
        }

        /// The shard's names of the fields (format unchanged by issue 42's renaming; the shard format changes once,
        /// elsewhere).
        enum CodingKeys: String, CodingKey {
            case consumableGross = "tokenGross", subscriptionGross, otherGross, sold = "tokensSold", buyers = "tokenBuyers", capHits
        }
    }

    public private(set) var months: [MonthID: Month] = [:]
    public init() {}

    /// One person's month: gross by source, consumables bought and refused purchases at the cap. The person counts
    /// as a buyer of the month when they bought at least one.
    public mutating func add(month: MonthID, consumableGross: Money = .zero, subscriptionGross: Money = .zero, otherGross: Money = .zero,
                             sold: Int = 0, capHits: Int = 0) {
        var m = Month()
        m.consumableGross = consumableGross
        m.subscriptionGross = subscriptionGross
        m.otherGross = otherGross
        m.sold = sold
        m.buyers = sold > 0 ? 1 : 0
        m.capHits = capHits
        months[month, default: Month()].add(m)
    }

    public mutating func merge(_ o: ConsumableAccumulator) {
        for (k, v) in o.months { months[k, default: Month()].add(v) }
    }

    /// All months together (`buyers` there counts buyer-months).
    public var total: Month { months.values.reduce(into: Month()) { $0.add($1) } }
}
