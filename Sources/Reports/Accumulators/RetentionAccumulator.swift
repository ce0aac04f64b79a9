import RulesCore

/// What makes a person active on a day, for retention. Every product reports both readings (issue 13, audit D2):
/// "still using" a product whose main surface is not its own app (a blocker's shield, a lock screen) is more than
/// opening that app.
public enum RetentionActivity: String, Hashable, Sendable, CaseIterable, Comparable, Codable {
    /// The product is in use (`in_use`; `product_in_use` until issue 39): the person met its restriction (shield,
    /// lock), spent or earned in it, or opened its app, a forced detour included — each product's adapter says which
    /// of its events count.
    case inUse = "in_use"
    /// The person opened the product's own app of their own accord (Adjust's definition of retention: a voluntary
    /// open on local day N after install). A forced detour — Earned Access's shield cannot open its app, so getting
    /// past it means opening Earned Access's Unlock Gate (seed 003 §2) — is use of the product (`inUse`), not an
    /// open: in Scroll Off the same act happens on the shield itself, and counting forced opens would make the
    /// figure measure the shield's design, not people coming back (issue 39 item 2).
    case appOpened = "app_opened"

    public static func < (a: Self, b: Self) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }
}

/// `retention.csv` (CONTRACT.md, report 2): classic day-N retention by install cohort, segment and activity
/// reading (`RetentionActivity`).
///
/// A person is active on day N when they were active (in the row's reading) on the N-th local day after their
/// install day (day 0 is the install day). Only people whose day N lies inside the horizon count in day N's cohort size, so late
/// installs do not drag long-horizon retention down. Counts are integers: merging is exact in any order.
public struct RetentionAccumulator: Mergeable, Sendable, Hashable, Codable {
    public struct Key: Hashable, Sendable, Comparable, Codable {
        /// ISO week of install (`2026-W02`) or `all`.
        public var cohort: String
        /// `all`, a persona, or a plan.
        public var segment: String
        /// What counts as active.
        public var activity: RetentionActivity
        public static func < (a: Key, b: Key) -> Bool {
            (a.cohort, a.segment) != (b.cohort, b.segment) ? (a.cohort, a.segment) < (b.cohort, b.segment) : a.activity < b.activity
        }
    }
    public struct Counts: Hashable, Sendable, Codable {
        /// People observable on day N.
        public var eligible: [Int]
        /// People active on day N.
        public var active: [Int]
    }

    /// Days 0…maxDay are reported.
    public let maxDay: Int
    public private(set) var cells: [Key: Counts] = [:]

    public init(maxDay: Int) { self.maxDay = maxDay }

    /// Adds one person in one activity reading: install cohort, the segments they belong to (besides `all`), the
    /// days after install that lie in the horizon (`observedDays` = 1 + last observable day index), and the days
    /// they were active in that reading.
    public mutating func add(cohort: ISOWeek, segments: [String], observedDays: Int, activity: RetentionActivity, activeDays: [Int]) {
        let observed = min(observedDays, maxDay + 1)
        var activeFlags = [Bool](repeating: false, count: maxDay + 1)
        for d in activeDays where d >= 0 && d < observed { activeFlags[d] = true }
        for c in [cohort.description, "all"] {
            for s in ["all"] + segments {
                let k = Key(cohort: c, segment: s, activity: activity)
                var counts = cells[k] ?? Counts(eligible: Array(repeating: 0, count: maxDay + 1), active: Array(repeating: 0, count: maxDay + 1))
                for d in 0..<observed {
                    counts.eligible[d] += 1
                    if activeFlags[d] { counts.active[d] += 1 }
                }
                cells[k] = counts
            }
        }
    }

    public mutating func merge(_ o: RetentionAccumulator) {
        precondition(o.maxDay == maxDay)
        for (k, v) in o.cells {
            if var c = cells[k] {
                for d in 0...maxDay { c.eligible[d] += v.eligible[d]; c.active[d] += v.active[d] }
                cells[k] = c
            } else {
                cells[k] = v
            }
        }
    }

    /// Day-N retention of a cohort and segment in one activity reading (nil when nobody is observable that day).
    public func retention(cohort: String = "all", segment: String = "all", activity: RetentionActivity = .inUse,
                          day: Int) -> Double? {
        guard let c = cells[Key(cohort: cohort, segment: segment, activity: activity)], day <= maxDay, c.eligible[day] > 0 else { return nil }
        return Double(c.active[day]) / Double(c.eligible[day])
    }

    /// Day N's counts of a cohort and segment in one activity reading: people active and people observable (nil
    /// when the cell is empty or N is past `maxDay`).
    public func counts(cohort: String = "all", segment: String = "all", activity: RetentionActivity, day: Int) -> (active: Int, eligible: Int)? {
        guard let c = cells[Key(cohort: cohort, segment: segment, activity: activity)], day >= 0, day <= maxDay else { return nil }
        return (c.active[day], c.eligible[day])
    }

    public static let header = ReportKeys.header + ["cohort", "segment", "activity", "day", "cohort_size", "active", "retention"]

    /// Rows by cohort (weeks ascending, then `all`), segment, activity reading, day; days nobody could reach are omitted.
    public func rows(_ keys: ReportKeys) -> [[CSVField]] {
        let ordered = cells.keys.sorted { a, b in
            if (a.cohort == "all") != (b.cohort == "all") { return b.cohort == "all" }
            if a.cohort != b.cohort { return a.cohort < b.cohort }
            if (a.segment == "all") != (b.segment == "all") { return a.segment == "all" }
            if a.segment != b.segment { return a.segment < b.segment }
            return a.activity < b.activity
        }
        var rows: [[CSVField]] = []
        for k in ordered {
            let c = cells[k]!
            for d in 0...maxDay where c.eligible[d] > 0 {
                rows.append(keys.fields + [.text(k.cohort), .text(k.segment), .text(k.activity.rawValue), .integer(Int64(d)), .integer(Int64(c.eligible[d])),
                                           .integer(Int64(c.active[d])), .rate(Double(c.active[d]) / Double(c.eligible[d]))])
            }
        }
        return rows
    }
}
