import RulesCore

/// Store commission rules (docs/DESIGN.md, principle 6): 30 % of gross, 15 % for a subscription once the subscriber
/// has over a year of paid tenure, and 15 % on everything for members of the small-business programme.
public struct StoreFeePolicy: Hashable, Sendable {
    /// Standard commission.
    public var standardRate: Double
    /// Reduced commission (subscriptions after a year of tenure; small-business programme).
    public var reducedRate: Double
    /// Paid tenure after which subscription renewals pay the reduced rate.
    public var reducedAfterDays: Int
    /// The developer is in the small-business programme: every sale pays the reduced rate.
    public var smallBusinessProgram: Bool

    public init(standardRate: Double = 0.30, reducedRate: Double = 0.15, reducedAfterDays: Int = 365, smallBusinessProgram: Bool = false) {
        self.standardRate = standardRate
        self.reducedRate = reducedRate
        self.reducedAfterDays = reducedAfterDays
        self.smallBusinessProgram = smallBusinessProgram
    }

    /// The commission rate of one sale.
    public func rate(isSubscription: Bool, paidTenureDays: Int) -> Double {
        if smallBusinessProgram { return reducedRate }
        return isSubscription && paidTenureDays >= reducedAfterDays ? reducedRate : standardRate
    }
}

/// One person's money in one month and revenue source, before folding.
public struct RevenueLine: Hashable, Sendable {
    public var month: MonthID
    /// `subscription`, `tokens`, … (free text, sorted in reports).
    public var source: String
    public var gross: Money
    public var refunds: Money
    public var storeFee: Money
    public var transactions: Int

    public init(month: MonthID, source: String, gross: Money = .zero, refunds: Money = .zero, storeFee: Money = .zero, transactions: Int = 0) {
        self.month = month
        self.source = source
        self.gross = gross
        self.refunds = refunds
        self.storeFee = storeFee
        self.transactions = transactions
    }
    /// Net to the developer: gross − refunds − store fee.
    public var net: Money { gross - refunds - storeFee }
}

/// Collects one person's ledger into month × source lines (so paying people are counted once each).
public struct PersonRevenue: Sendable {
    public private(set) var lines: [RevenueLine] = []
    public init() {}

    /// Adds a sale (positive) or a refund (a refund line with a positive amount refunded).
    public mutating func add(month: MonthID, source: String, gross: Money, refund: Money = .zero, fee: Money) {
        if let i = lines.firstIndex(where: { $0.month == month && $0.source == source }) {
            lines[i].gross += gross
            lines[i].refunds += refund
            lines[i].storeFee += fee
            lines[i].transactions += 1
        } else {
            lines.append(RevenueLine(month: month, source: source, gross: gross, refunds: refund, storeFee: fee, transactions: 1))
        }
    }
}

/// `revenue.csv` (CONTRACT.md, report 6): per month and source, gross, refunds, store fee, net, transactions and
/// paying people, with a `total` month per source. Integer money, so merging is exact in any order.
public struct RevenueAccumulator: Mergeable, Sendable, Hashable, Codable {
    public struct Key: Hashable, Sendable, Comparable, Codable {
        public var month: MonthID
        public var source: String
        public static func < (a: Key, b: Key) -> Bool { (a.month, a.source) < (b.month, b.source) }
    }
    public struct Totals: Hashable, Sendable, Codable {
        public var gross = Money.zero, refunds = Money.zero, storeFee = Money.zero
        public var transactions = 0, payingPeople = 0
        public var net: Money { gross - refunds - storeFee }
    }
    public private(set) var cells: [Key: Totals] = [:]

    public init() {}

    /// Folds one person's lines in (each line's person counts once as paying when gross > 0).
    public mutating func add(_ person: PersonRevenue) {
        for l in person.lines {
            var t = cells[Key(month: l.month, source: l.source), default: Totals()]
            t.gross += l.gross
            t.refunds += l.refunds
            t.storeFee += l.storeFee
            t.transactions += l.transactions
            if l.gross > .zero { t.payingPeople += 1 }
            cells[Key(month: l.month, source: l.source)] = t
        }
    }

    public mutating func merge(_ o: RevenueAccumulator) {
        for (k, v) in o.cells {
            var t = cells[k, default: Totals()]
            t.gross += v.gross
            t.refunds += v.refunds
            t.storeFee += v.storeFee
            t.transactions += v.transactions
            t.payingPeople += v.payingPeople
            cells[k] = t
        }
    }

    /// Gross of a month over every source.
    public func gross(month: MonthID, source: String? = nil) -> Money {
        cells.filter { $0.key.month == month && (source == nil || $0.key.source == source) }.values.reduce(.zero) { $0 + $1.gross }
    }

    /// The months present, ascending.
    public var months: [MonthID] { Array(Set(cells.keys.map(\.month))).sorted() }

    public static let header = ReportKeys.header + ["month", "source", "gross_usd", "refunds_usd", "store_fee_usd", "net_usd", "transactions", "paying_people"]

    /// Rows ordered by month then source, then per-source totals (`month` = `total`; paying people there are the
    /// sum over months, i.e. paying person-months).
    public func rows(_ keys: ReportKeys) -> [[CSVField]] {
        var rows: [[CSVField]] = []
        func row(_ month: String, _ source: String, _ t: Totals) -> [CSVField] {
            keys.fields + [.text(month), .text(source), .text(t.gross.formatted(decimals: 2)), .text(t.refunds.formatted(decimals: 2)),
                           .text(t.storeFee.formatted(decimals: 2)), .text(t.net.formatted(decimals: 2)),
                           .integer(Int64(t.transactions)), .integer(Int64(t.payingPeople))]
        }
        var bySource: [String: Totals] = [:]
        for k in cells.keys.sorted() {
            let t = cells[k]!
            rows.append(row(k.month.description, k.source, t))
            var s = bySource[k.source, default: Totals()]
            s.gross += t.gross; s.refunds += t.refunds; s.storeFee += t.storeFee
            s.transactions += t.transactions; s.payingPeople += t.payingPeople
            bySource[k.source] = s
        }
        for source in bySource.keys.sorted() { rows.append(row("total", source, bySource[source]!)) }
        return rows
    }
}
