import Foundation
import Reports
import Stochastics

/// One published figure about how people use phones, habits and subscription apps, with the range the literature
/// gives: what every run's simulated people are checked against (`world-check.csv`, issue 14).
public struct WorldFigure: Sendable, Hashable {
    /// Stable id, the `figure` column (e.g. `retention_d1`).
    public let id: String
    /// `fraction` (a share of a whole, 0…1), `change` (a relative change, which may be below 0: issue 40),
    /// `count_per_day`, `hour`, `ratio`, `days` or `usd` (docs/report-spec.json's `units`).
    public let unit: String
    /// Where the range comes from.
    public let source: String
    /// The published range, inclusive; a one-sided figure ("at least 50 %") has the natural bound on its open side.
    public let low: Double
    public let high: Double
    /// What is measured, in a sentence.
    public let summary: String

    public init(id: String, unit: String, source: String, low: Double, high: Double, summary: String) {
        self.id = id
        self.unit = unit
        self.source = source
        self.low = low
        self.high = high
        self.summary = summary
    }

    /// Whether `v` lies in the published range (inclusive).
    public func contains(_ v: Double) -> Bool { v >= low && v <= high }
}

/// The published figures of the world check, in report order.
public enum WorldFigures {
    static let revenueCat26 = "RevenueCat State of Subscription Apps 2026"
    static let adjust = "Adjust 2023 app benchmarks (install cohort; app opened that local day)"

    public static let all: [WorldFigure] = [
        WorldFigure(id: "unlocks_per_day", unit: "count_per_day", source: "Apple 2016; Keller et al. 2021", low: 70, high: 95,
                    summary: "phone pickups (unlocks) per person-day observed"),
        WorldFigure(id: "sessions_under_30s_share", unit: "fraction", source: "Andrews et al. 2015", low: 0.50, high: 1,
                    summary: "share of phone sessions shorter than 30 s (at least half)"),
        WorldFigure(id: "pickups_within_3min_share", unit: "fraction", source: "RescueTime 2019", low: 0.40, high: 0.60,
                    summary: "share of pickups starting within 3 min of the end of the person's previous session"),
        WorldFigure(id: "notification_session_share", unit: "fraction", source: "Heitmayer & Lahlou 2021", low: 0.08, high: 0.15,
                    summary: "share of phone sessions started by a notification"),
        WorldFigure(id: "peak_hour", unit: "hour", source: "Locket; Localytics", low: 17, high: 22,
                    summary: "local hour of day with the most pickups"),
        WorldFigure(id: "night_to_peak_ratio", unit: "ratio", source: "Locket; Localytics", low: 0, high: 0.45,
                    summary: "pickups per hour over 03:00-05:00 local divided by pickups in the peak hour"),
        WorldFigure(id: "weekend_uplift", unit: "change", source: "Localytics", low: 0, high: 0.15,
                    summary: "pickups per weekend day / pickups per weekday - 1 (whole local days after the install day)"),
        WorldFigure(id: "habit_days_to_95_median", unit: "days", source: "Lally et al. 2010; Singh et al. 2024", low: 55, high: 80,
                    summary: "median over the simulated people's habits (scrolling and resisting) of days of daily repetition to 95 % of the asymptote"),
        WorldFigure(id: "habit_days_to_95_mean_over_median", unit: "ratio", source: "Lally et al. 2010; Singh et al. 2024", low: 1.5, high: 2.5,
                    summary: "mean over median of the same days-to-95 % (the right skew of habit formation)"),
        WorldFigure(id: "habit_decay_levelled_by_65d_share", unit: "fraction", source: "Edgren et al. 2024", low: 0.90, high: 1,
                    summary: "share of the simulated habits whose decay has levelled off within 65 days of disuse"),
        WorldFigure(id: "retention_d1", unit: "fraction", source: adjust, low: 0.22, high: 0.30,
                    summary: "day-1 retention, app opened (voluntary): the app opened of the person's own accord on local day 1 after install, "
                        + "Adjust's definition (retention.csv, cohort all, segment all, app_opened). A forced detour - Earned Access's shield "
                        + "cannot open its app, so the way past it is opening Earned Access's Unlock Gate - counts as in_use, not as an "
                        + "open: in Scroll Off the same act happens on the shield itself, Adjust's all-app benchmark measures people "
                        + "returning of their own accord, and counting forced opens would measure the shield's design (issue 39)"),
        WorldFigure(id: "retention_d7", unit: "fraction", source: adjust, low: 0.10, high: 0.16,
                    summary: "day-7 retention, app opened (voluntary; a forced detour is in_use, not an open: see retention_d1)"),
        WorldFigure(id: "retention_d14", unit: "fraction", source: adjust, low: 0.07, high: 0.12,
                    summary: "day-14 retention, app opened (voluntary; a forced detour is in_use, not an open: see retention_d1)"),
        WorldFigure(id: "retention_d30", unit: "fraction", source: adjust, low: 0.03, high: 0.08,
                    summary: "day-30 retention, app opened (voluntary; a forced detour is in_use, not an open: see retention_d1)"),
        WorldFigure(id: "download_to_paid_d35", unit: "fraction", source: revenueCat26 + " (median 0.020)", low: 0.007, high: 0.046,
                    summary: "share of installs observable 35 days with a first payment (subscription or consumable) in install days 0-34"),
        WorldFigure(id: "trial_to_paid", unit: "fraction", source: revenueCat26 + " (median 0.34)", low: 0.16, high: 0.48,
                    summary: "share of free trials ended inside the run followed by a paid subscription"),
        WorldFigure(id: "trial_start_install_day_share", unit: "fraction", source: "RevenueCat State of Subscription Apps 2025 (82 %)", low: 0.80, high: 1,
                    summary: "share of trial starts on the install day"),
        WorldFigure(id: "first_monthly_renewal", unit: "fraction", source: "RevenueCat (56 %)", low: 0.50, high: 0.60,
                    summary: "share of first subscriptions on a monthly SKU, with their renewal date inside the run, charged again 27+ days after the first charge"),
        WorldFigure(id: "monthly_12m_retention", unit: "fraction", source: "RevenueCat", low: 0.05, high: 0.19,
                    summary: "share of first subscriptions on a monthly SKU still charged 360+ days after the first charge (run must reach day 366 after it)"),
        WorldFigure(id: "annual_12m_retention", unit: "fraction", source: "RevenueCat", low: 0.17, high: 0.43,
                    summary: "share of first subscriptions on an annual SKU renewed 360+ days after the first charge (run must reach day 366 after it)"),
        WorldFigure(id: "refund_share", unit: "fraction", source: "RevenueCat (refunds 3-4 % of transactions)", low: 0.03, high: 0.04,
                    summary: "refunds over charges (purchases, renewals, consumables)"),
        WorldFigure(id: "revenue_per_install_d14_usd", unit: "usd",
                    source: "RevenueCat State of Subscription Apps 2025 (all-app median $0.31, top quartile $0.89; health & fitness median $0.44)",
                    low: 0.10, high: 0.89,
                    summary: "gross less refunds and upgrade credits in install days 0-13 per install observable 14 days (before store fees)"),
        // Issue 26: what a self-control tool does to the launches of the apps it targets, in field studies.
        WorldFigure(id: "target_app_opens_reduction_weeks_1_3", unit: "change",
                    source: "Kim et al. 2019 (CHI, LocknType; N 40, 3 weeks): lock-out screens stopped 13.1-47.5 % of launches; "
                        + "Lu et al. 2024 (CHI, InteractOut; N 42, 5 weeks): -16.5 % app opens; Hiniker et al. 2016 (CHI, MyTime; N 23): -21 % time",
                    low: 0.13, high: 0.48,
                    summary: "1 - opens of the target apps / the urges the same people would have had untreated, over people still using the product in weeks 1-3 after install"),
    ]

    /// The figure with an id.
    public static func figure(_ id: String) -> WorldFigure? { all.first { $0.id == id } }
}

/// One replication's reading of one figure: a value (with its count form for shares, so a single replication
/// still gets an interval), or why the run cannot measure it.
public struct WorldMeasurement: Sendable, Hashable {
    public var value: Double?
    /// For shares: successes and trials behind `value`.
    public var successes: Int?
    public var trials: Int?
    /// Why the figure does not apply (nil when measured).
    public var reason: String?

    public static func value(_ v: Double) -> WorldMeasurement { v.isFinite ? WorldMeasurement(value: v) : .notApplicable("undefined in this run") }
    public static func share(_ k: Int, of n: Int, else reason: String) -> WorldMeasurement {
        n > 0 ? WorldMeasurement(value: Double(k) / Double(n), successes: k, trials: n) : .notApplicable(reason)
    }
    public static func notApplicable(_ reason: String) -> WorldMeasurement { WorldMeasurement(reason: reason) }
}

/// One figure of the world check for one arm, pooled over replications.
public struct WorldCheckRow: Sendable {
    public let figure: WorldFigure
    /// Mean over the replications that measured it.
    public let mean: Double?
    /// 95 % interval: for a share (counted k of n), an interval made for proportions inside 0…1
    /// (`WorldCheck.interval95`, `ShareInterval`); for other figures Student-t over replications (none with one).
    public let ciLow: Double?
    public let ciHigh: Double?
    /// Whether the mean lies in the published range (nil when not measured).
    public let inside: Bool?
    /// `yes` when measured, else the reason.
    public let applies: String
    /// Replications that measured the figure.
    public let replications: Int
    public static let applicable = "yes"

    /// The same row under another figure id (a joint calibration's `<product>:<figure>`).
    public func relabelled(_ id: String) -> WorldCheckRow {
        let f = WorldFigure(id: id, unit: figure.unit, source: figure.source, low: figure.low, high: figure.high, summary: figure.summary)
        return WorldCheckRow(figure: f, mean: mean, ciLow: ciLow, ciHigh: ciHigh, inside: inside, applies: applies, replications: replications)
    }

    public init(figure: WorldFigure, mean: Double?, ciLow: Double?, ciHigh: Double?, inside: Bool?, applies: String, replications: Int) {
        self.figure = figure
        self.mean = mean
        self.ciLow = ciLow
        self.ciHigh = ciHigh
        self.inside = inside
        self.applies = applies
        self.replications = replications
    }
}

/// `world-check.csv`: pooling per-replication readings and the report's columns.
public enum WorldCheck {
    /// The columns, from `arm` on (in the file they follow the report keys `scenario,arm,replication,product`;
    /// `replication` is `all` since every row is pooled).
    public static let header = ["arm", "figure", "unit", "source", "range_low", "range_high", "simulated_mean", "ci_low", "ci_high",
                                "inside", "applies", "replications"]

    /// The file's header: the report keys, then `header` after `arm`.
    public static var fileHeader: [String] { ReportKeys.header + header.dropFirst() }

    /// Pools one figure's readings (one per replication, in order).
    public static func pool(_ figure: WorldFigure, _ readings: [WorldMeasurement]) -> WorldCheckRow {
        let measured = readings.filter { $0.value != nil }
        guard !measured.isEmpty else {
            let reason = readings.first(where: { $0.reason != nil })?.reason ?? "no replication"
            return WorldCheckRow(figure: figure, mean: nil, ciLow: nil, ciHigh: nil, inside: nil, applies: reason, replications: 0)
        }
        let s = Summary(measured.map { $0.value! })
        let (low, high) = interval95(s, measured)
        return WorldCheckRow(figure: figure, mean: s.mean, ciLow: low, ciHigh: high, inside: figure.contains(s.mean),
                             applies: WorldCheckRow.applicable, replications: measured.count)
    }

    /// Pools every figure: `readings[r][id]` is replication r's reading of figure `id`.
    public static func pool(_ readings: [[String: WorldMeasurement]]) -> [WorldCheckRow] {
        WorldFigures.all.map { f in pool(f, readings.map { $0[f.id] ?? .notApplicable("not measured") }) }
    }

    /// A figure's 95 % interval (issue 40). A share — every replication measured it as k of n — gets an interval made
    /// for proportions (`ShareInterval`: Wilson's with one replication, the log-odds Student-t interval over two or
    /// more, Wilson's on the pooled counts when every replication sits at 0 or 1), inside 0…1; any other figure the
    /// Student-t interval over replications (none with one).
    static func interval95(_ s: Summary, _ measured: [WorldMeasurement]) -> (Double?, Double?) {
        let counts = measured.compactMap { m in m.successes.flatMap { k in m.trials.map { (k, $0) } } }
        guard counts.count == measured.count else {
            let ci = s.confidenceInterval95()
            return (ci?.lower, ci?.upper)
        }
        let pooled = counts.reduce((successes: 0, trials: 0)) { ($0.successes + $1.0, $0.trials + $1.1) }
        let ci = measured.count == 1 ? ShareInterval.wilson95(pooled.successes, pooled.trials)
                                     : ShareInterval.overReplications95(s, pooledCounts: pooled)
        return (ci?.lower, ci?.upper)
    }

    /// Wilson's score interval for k successes in n trials at 95 % (`ShareInterval.wilson95`).
    public static func wilson95(_ k: Int, _ n: Int) -> (Double, Double) {
        let w = ShareInterval.wilson95(k, n) ?? (0, 1)
        return (w.lower, w.upper)
    }

    /// A number as written in the report: up to 6 decimals, trailing zeros dropped (`0.22`, `70`, `0.013`).
    /// Integer arithmetic on the value rounded to micro-units (no `String(format:)`, which costs more than the
    /// rest of the world check together on a small run).
    public static func format(_ v: Double?) -> String {
        guard let v, v.isFinite else { return "" }
        let scaled = (v * 1_000_000).rounded()
        guard abs(scaled) < 9e15 else { return String(v) }
        let n = Int64(scaled), magnitude = n.magnitude
        var s = n < 0 ? "-" : ""
        s += String(magnitude / 1_000_000)
        var fraction = magnitude % 1_000_000
        guard fraction != 0 else { return s }
        var digits = 6
        while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        let f = String(fraction)
        return s + "." + String(repeating: "0", count: digits - f.count) + f
    }

    /// The rows of one arm, in `header`'s columns.
    public static func csvRows(arm: String, _ rows: [WorldCheckRow]) -> [[String]] {
        rows.map { r in
            [arm, r.figure.id, r.figure.unit, r.figure.source, format(r.figure.low), format(r.figure.high), format(r.mean),
             format(r.ciLow), format(r.ciHigh), r.inside.map { $0 ? "true" : "false" } ?? "", r.applies, String(r.replications)]
        }
    }

    /// The file's rows of one arm: the report keys (replication `all`), then `csvRows` after `arm`.
    public static func fileRows(_ keys: ReportKeys, _ rows: [WorldCheckRow]) -> [[CSVField]] {
        csvRows(arm: keys.arm, rows).map { keys.fields + $0.dropFirst().map { CSVField.text($0) } }
    }

    /// The stdout block: how many applicable figures are inside, the ones outside, the ones not measurable.
    public static func summaryLines(arm: String, _ rows: [WorldCheckRow]) -> [String] {
        let applicable = rows.filter { $0.applies == WorldCheckRow.applicable }
        let outside = applicable.filter { $0.inside == false }
        let skipped = rows.filter { $0.applies != WorldCheckRow.applicable }
        var lines = ["World check (arm \(arm)): \(applicable.count - outside.count) of \(applicable.count) applicable figures inside the published range"
                     + (outside.isEmpty ? "." : "; outside:")]
        for r in outside {
            lines.append("  \(r.figure.id) \(format(r.mean.map { ($0 * 10_000).rounded() / 10_000 })) (\(format(r.figure.low))–\(format(r.figure.high)))")
        }
        if !skipped.isEmpty {
            lines.append("  not measurable: " + skipped.map { "\($0.figure.id) (\($0.applies))" }.joined(separator: "; "))
        }
        return lines
    }
}
