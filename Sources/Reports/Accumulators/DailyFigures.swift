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
}

extension AccumulatorBounds {
    /// A product record's people and days: its people the record's, at most one entry a day of the horizon (days
    /// 0 … horizon) — what every product's per-day figures are checked against first.
    public func record(people: Int, days: Int, at path: String) throws(AccumulatorInvalid) {
        if people != self.people { throw AccumulatorInvalid("\(path).people", "\(people); the record holds \(self.people) people") }
        if days > self.days { throw AccumulatorInvalid("\(path).days", "\(days) days; this run has \(self.days) (days 0 … \(horizonDays))") }
    }
}
