import RulesCore

/// `retention.csv` (CONTRACT.md, report 2): classic day-N retention by install cohort and segment.
///
/// A person is active on day N when they open the app on the N-th local day after their install day (day 0 is
/// the install day). Only people whose day N lies inside the horizon count in day N's cohort size, so late
/// installs do not drag long-horizon retention down. Counts are integers: merging is exact in any order.
public struct RetentionAccumulator: Mergeable, Sendable, Hashable {
    public struct Key: Hashable, Sendable, Comparable {
        /// ISO week of install (`2026-W02`) or `all`.
        public var cohort: String
        /// `all`, a persona, or a plan.
        public var segment: String
        public static func < (a: Key, b: Key) -> Bool { (a.cohort, a.segment) < (b.cohort, b.segment) }
    }
    public struct Counts: Hashable, Sendable {
        /// People observable on day N.
        public var eligible: [Int]
        /// People active on day N.
        public var active: [Int]
    }

    /// Days 0…maxDay are reported.
    public let maxDay: Int
    public private(set) var cells: [Key: Counts] = [:]

    public init(maxDay: Int) { self.maxDay = maxDay }

    /// Adds one person: install cohort, the segments they belong to (besides `all`), the days after install that
    /// lie in the horizon (`observedDays` = 1 + last observable day index), and the days they were active.
    public mutating func add(cohort: ISOWeek, segments: [String], observedDays: Int, activeDays: [Int]) {
        let observed = min(observedDays, maxDay + 1)
        var activeFlags = [Bool](repeating: false, count: maxDay + 1)
        for d in activeDays where d >= 0 && d < observed { activeFlags[d] = true }
        for c in [cohort.description, "all"] {
            for s in ["all"] + segments {
                let k = Key(cohort: c, segment: s)
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

    /// Day-N retention of a cohort and segment (nil when nobody is observable that day).
    public func retention(cohort: String = "all", segment: String = "all", day: Int) -> Double? {
        guard let c = cells[Key(cohort: cohort, segment: segment)], day <= maxDay, c.eligible[day] > 0 else { return nil }
        return Double(c.active[day]) / Double(c.eligible[day])
    }

    public static let header = ReportKeys.header + ["cohort", "segment", "day", "cohort_size", "active", "retention"]

    /// Rows by cohort (weeks ascending, then `all`), segment, day; days nobody could reach are omitted.
    public func rows(_ keys: ReportKeys) -> [[CSVField]] {
        let ordered = cells.keys.sorted { a, b in
            if (a.cohort == "all") != (b.cohort == "all") { return b.cohort == "all" }
            if a.cohort != b.cohort { return a.cohort < b.cohort }
            if (a.segment == "all") != (b.segment == "all") { return a.segment == "all" }
            return a.segment < b.segment
        }
        var rows: [[CSVField]] = []
        for k in ordered {
            let c = cells[k]!
            for d in 0...maxDay where c.eligible[d] > 0 {
                rows.append(keys.fields + [.text(k.cohort), .text(k.segment), .integer(Int64(d)), .integer(Int64(c.eligible[d])),
                                           .integer(Int64(c.active[d])), .rate(Double(c.active[d]) / Double(c.eligible[d]))])
            }
        }
        return rows
    }
}
