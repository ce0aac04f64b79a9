/// A product's figures of one day since install (Earned Access's unlocks, Nudge's things to do), kept in an array
/// indexed by day and merged day by day (issue 42: one merge and one check for every product's per-day figures).
public protocol DailyFigures {
    init()
    /// Adds another record's figures of the same day.
    mutating func merge(_ other: Self)
}

extension Array where Element: DailyFigures {
    /// Adds `other`'s days to these, day by day, growing to the longer of the two.
    /// Inlinable: specialised for each product's day type where it is called (unspecialised, it made generic
    /// metadata for every day merged: 1.4 % of Nudge's instructions in the speed gate).
    @inlinable public mutating func mergeDays(_ other: [Element]) {
        while count < other.count { append(Element()) }
        for (i, d) in other.enumerated() { self[i].merge(d) }
    }

    /// One person observed for `days` days since install: the array grows to cover them, and each of those days counts
    /// the person at `people` (the per-day rates' denominator: every install observed that day, churned or not).
    @inlinable public mutating func countPerson(observedDays days: Int, at people: WritableKeyPath<Element, Int>) {
        while count < days { append(Element()) }
        for d in 0..<days { self[d][keyPath: people] += 1 }
    }
}

extension AccumulatorBounds {
    /// A product record's people and days: its people the record's, at most one entry a day of the horizon (days
    /// 0 … horizon) — what every product's per-day figures are checked against first.
    public func record(people: Int, days: Int, at path: String) throws(AccumulatorInvalid) {
        if people != self.people { throw AccumulatorInvalid("\(path).people", "\(people); the record holds \(self.people) people") }
        if days > self.days { throw AccumulatorInvalid("\(path).days", "\(days) days; this run has \(self.days) (days 0 … \(horizonDays))") }
    }

    /// A product's per-day figures (`path` names the array): each day's people at most the record's, and each of
    /// `fields` (a name and how to read it) within the count bounds, on each day and summed over the days.
    public func days<D>(_ days: [D], fields: [(String, (D) -> Int)], people: (D) -> Int, at path: String) throws(AccumulatorInvalid) {
        var totals = fields.map { countTotal("\(path)[every day].\($0.0)") }
        for (i, d) in days.enumerated() {
            try self.people(people(d), "\(path)[\(i)].people")
            for (f, field) in fields.enumerated() {
                let v = field.1(d)
                try count(v, "\(path)[\(i)].\(field.0)")
                try totals[f].add(v)
            }
        }
    }
}
