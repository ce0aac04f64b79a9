import RulesCore

/// `token-revenue-share.csv` (CONTRACT.md, report 3): the share of gross revenue that comes from consumable
/// tokens, per month and in total, against the product's ceiling (Scroll Off §5.2: tokens stay under 20 %).
public struct TokenShareAccumulator: Mergeable, Sendable, Hashable, Codable {
    public struct Month: Hashable, Sendable, Codable {
        public var tokenGross = Money.zero, subscriptionGross = Money.zero, otherGross = Money.zero
        public var tokensSold = 0, tokenBuyers = 0, capHits = 0
        public var totalGross: Money { tokenGross + subscriptionGross + otherGross }
        /// Token gross over total gross (nil with no revenue).
        public var tokenShare: Double? { totalGross > .zero ? tokenGross.usd / totalGross.usd : nil }

        mutating func add(_ o: Month) {
            tokenGross += o.tokenGross; subscriptionGross += o.subscriptionGross; otherGross += o.otherGross
            tokensSold += o.tokensSold; tokenBuyers += o.tokenBuyers; capHits += o.capHits
        }
    }

    public private(set) var months: [MonthID: Month] = [:]
    public init() {}

    /// One person's month: gross by source, tokens bought and refused purchases at the cap. The person counts as
    /// a token buyer of the month when they bought at least one.
    public mutating func add(month: MonthID, tokenGross: Money = .zero, subscriptionGross: Money = .zero, otherGross: Money = .zero,
                             tokensSold: Int = 0, capHits: Int = 0) {
        var m = Month()
        m.tokenGross = tokenGross
        m.subscriptionGross = subscriptionGross
        m.otherGross = otherGross
        m.tokensSold = tokensSold
        m.tokenBuyers = tokensSold > 0 ? 1 : 0
        m.capHits = capHits
        months[month, default: Month()].add(m)
    }

    public mutating func merge(_ o: TokenShareAccumulator) {
        for (k, v) in o.months { months[k, default: Month()].add(v) }
    }

    /// All months together (`token_buyers` there counts buyer-months).
    public var total: Month { months.values.reduce(into: Month()) { $0.add($1) } }

    public static let header = ReportKeys.header + ["month", "token_gross_usd", "subscription_gross_usd", "other_gross_usd", "total_gross_usd",
                                                    "token_share", "threshold", "within_threshold", "tokens_sold", "token_buyers", "cap_hits"]

    /// Rows by month ascending, then `total`.
    public func rows(_ keys: ReportKeys, threshold: Double) -> [[CSVField]] {
        func row(_ label: String, _ m: Month) -> [CSVField] {
            keys.fields + [.text(label), .text(m.tokenGross.formatted()), .text(m.subscriptionGross.formatted()), .text(m.otherGross.formatted()),
                           .text(m.totalGross.formatted()), .optional(m.tokenShare, decimals: 6), .number(threshold, decimals: 2),
                           m.tokenShare.map { .flag($0 <= threshold) } ?? .empty,
                           .integer(Int64(m.tokensSold)), .integer(Int64(m.tokenBuyers)), .integer(Int64(m.capHits))]
        }
        return months.keys.sorted().map { row($0.description, months[$0]!) } + [row("total", total)]
    }
}
