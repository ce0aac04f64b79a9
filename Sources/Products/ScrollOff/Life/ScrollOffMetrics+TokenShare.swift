import Simulation
import Reports
import RulesCore
import ScrollOffRules

extension ScrollOffMetrics {
    /// Scroll Off's own reports: `token-revenue-share.csv` (CONTRACT.md, report 3) — the share of gross revenue that
    /// comes from emergency tokens, per month and in total, against the ceiling (seed 000 §5.2: tokens stay under
    /// 20 %; the `token_revenue_share` KPI's `targetMax`, `ProductDescriptor.consumableCeiling`). Fed by the run's
    /// neutral consumable figures (`RunFigures.consumables`: the ledger's consumable and other gross by month, the
    /// purchases refused at the monthly cap); a Scroll Off report since issue 42, with the same columns and values.
    public static var reports: [MetricsReport<Self>] {
        [MetricsReport("token-revenue-share.csv", header: tokenShareHeader, after: "retention.csv") { _, run, keys in
            tokenShareRows(run.consumables, keys, threshold: ScrollOffEngine.descriptor.consumableCeiling ?? 1)
        }]
    }

    /// `forecast.csv`'s month-by-month token share (the same figure as the report's `token_share`).
    public static var forecastConsumableShare: String? { "token_share" }

    static let tokenShareHeader = ReportKeys.header + ["month", "token_gross_usd", "subscription_gross_usd", "other_gross_usd", "total_gross_usd",
                                                       "token_share", "threshold", "within_threshold", "tokens_sold", "token_buyers", "cap_hits"]

    /// Rows by month ascending, then `total` (`token_buyers` there counts buyer-months).
    static func tokenShareRows(_ c: ConsumableAccumulator, _ keys: ReportKeys, threshold: Double) -> [[CSVField]] {
        func row(_ label: String, _ m: ConsumableAccumulator.Month) -> [CSVField] {
            keys.fields + [.text(label), .text(m.consumableGross.formatted()), .text(m.subscriptionGross.formatted()), .text(m.otherGross.formatted()),
                           .text(m.totalGross.formatted()), .optional(m.consumableShare, decimals: 6), .number(threshold, decimals: 2),
                           m.consumableShare.map { .flag($0 <= threshold) } ?? .empty,
                           .integer(Int64(m.sold)), .integer(Int64(m.buyers)), .integer(Int64(m.capHits))]
        }
        return c.months.keys.sorted().map { row($0.description, c.months[$0]!) } + [row("total", c.total)]
    }
}
