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
    /// `subscriptions`, `tokens`, `service` (a cost source), … (free text, sorted in reports).
    public var source: String
    public var gross: Money
    public var refunds: Money
    public var storeFee: Money
    /// What the product paid suppliers for serving the person (service costs: AI requests, …); no store fee on it.
    public var cost: Money
    public var transactions: Int

    public init(month: MonthID, source: String, gross: Money = .zero, refunds: Money = .zero, storeFee: Money = .zero, cost: Money = .zero,
                transactions: Int = 0) {
        self.month = month
        self.source = source
        self.gross = gross
        self.refunds = refunds
        self.storeFee = storeFee
        self.cost = cost
        self.transactions = transactions
    }
    /// Net to the developer: gross − refunds − store fee (before costs).
    public var net: Money { gross - refunds - storeFee }
}

/// Collects one person's ledger into month × source lines (so paying people are counted once each).
public struct PersonRevenue: Sendable {
    public private(set) var lines: [RevenueLine] = []
    public init() {}

    /// Adds a sale (positive), a refund (a refund line with a positive amount refunded) or a service cost (`cost`,
    /// positive; no gross, no fee): one ledger line, one transaction.
    public mutating func add(month: MonthID, source: String, gross: Money, refund: Money = .zero, fee: Money, cost: Money = .zero) {
        if let i = lines.firstIndex(where: { $0.month == month && $0.source == source }) {
            lines[i].gross += gross
            lines[i].refunds += refund
            lines[i].storeFee += fee
            lines[i].cost += cost
            lines[i].transactions += 1
        } else {
            lines.append(RevenueLine(month: month, source: source, gross: gross, refunds: refund, storeFee: fee, cost: cost, transactions: 1))
        }
    }
}

/// `revenue.csv` (CONTRACT.md, report 6): per month and source, gross, refunds, store fee, net, transactions,
/// paying people and service costs, with a `total` month per source. Integer money, so merging is exact in any order.
///
/// Costs are kept beside revenue, never netted into it: a service cost (`LedgerEntry.Kind.serviceCost`) is booked
/// under the revenue model's cost source (its own rows, `cost_usd` filled, the money columns 0), so `net_usd` stays
/// net of refunds and store fees only and every existing figure reads as before; `grossMargin` sets the costs
/// against the net.
public struct RevenueAccumulator: Mergeable, Sendable, Hashable, Codable {
    public struct Key: Hashable, Sendable, Comparable, Codable {
        public var month: MonthID
        public var source: String
        public static func < (a: Key, b: Key) -> Bool { (a.month, a.source) < (b.month, b.source) }
    }
    public struct Totals: Hashable, Sendable, Codable {
        public var gross = Money.zero, refunds = Money.zero, storeFee = Money.zero, cost = Money.zero
        public var transactions = 0, payingPeople = 0
        public var net: Money { gross - refunds - storeFee }

        public init() {}

        /// Adds another cell's figures.
        public mutating func add(_ o: Totals) {
            gross += o.gross; refunds += o.refunds; storeFee += o.storeFee; cost += o.cost
            transactions += o.transactions; payingPeople += o.payingPeople
        }
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
            t.cost += l.cost
            t.transactions += l.transactions
            if l.gross > .zero { t.payingPeople += 1 }
            cells[Key(month: l.month, source: l.source)] = t
        }
    }

    public mutating func merge(_ o: RevenueAccumulator) {
        for (k, v) in o.cells { cells[k, default: Totals()].add(v) }
    }

    /// Every month and source together.
    public var total: Totals { cells.values.reduce(into: Totals()) { $0.add($1) } }

    /// Gross margin: (net − costs) ÷ net, with net = gross − refunds − store fees over every month and source and
    /// costs the service costs (`cost_usd`); nil when there is no net revenue to set costs against (net ≤ 0). 1 for
    /// a product without costs; below 0 when costs exceed the net.
    public var grossMargin: Double? {
        let t = total
        guard t.net > .zero else { return nil }
        return (t.net - t.cost).usd / t.net.usd
    }

    /// Gross of a month over every source.
    public func gross(month: MonthID, source: String? = nil) -> Money {
        cells.filter { $0.key.month == month && (source == nil || $0.key.source == source) }.values.reduce(.zero) { $0 + $1.gross }
    }

    /// The months present, ascending.
    public var months: [MonthID] { Array(Set(cells.keys.map(\.month))).sorted() }

    public static let header = ReportKeys.header + ["month", "source", "gross_usd", "refunds_usd", "store_fee_usd", "net_usd", "transactions",
                                                    "paying_people", "cost_usd"]

    /// Rows ordered by month then source, then per-source totals (`month` = `total`; paying people there are the
    /// sum over months, i.e. paying person-months).
    public func rows(_ keys: ReportKeys) -> [[CSVField]] {
        var rows: [[CSVField]] = []
        func row(_ month: String, _ source: String, _ t: Totals) -> [CSVField] {
            keys.fields + [.text(month), .text(source), .text(t.gross.formatted(decimals: 2)), .text(t.refunds.formatted(decimals: 2)),
                           .text(t.storeFee.formatted(decimals: 2)), .text(t.net.formatted(decimals: 2)),
                           .integer(Int64(t.transactions)), .integer(Int64(t.payingPeople)), .text(t.cost.formatted(decimals: 2))]
        }
        var bySource: [String: Totals] = [:]
        for k in cells.keys.sorted() {
            let t = cells[k]!
            rows.append(row(k.month.description, k.source, t))
            bySource[k.source, default: Totals()].add(t)
        }
        for source in bySource.keys.sorted() { rows.append(row("total", source, bySource[source]!)) }
        return rows
    }
}
