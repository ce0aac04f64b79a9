import Reports
import RulesCore
import Simulation
import ToyRules

/// One life's notes by day since install.
public struct ToyTally: Sendable {
    public var keptByDay: [Int] = []
    public var droppedByDay: [Int] = []
    public var remindersByDay: [Int] = []
    public init() {}
    mutating func record(day: Int, kept: Bool) {
        grow(to: day)
        if kept { keptByDay[day] += 1 } else { droppedByDay[day] += 1 }
    }
    mutating func recordReminder(day: Int) {
        grow(to: day)
        remindersByDay[day] += 1
    }
    mutating func grow(to day: Int) {
        while keptByDay.count <= day { keptByDay.append(0); droppedByDay.append(0); remindersByDay.append(0) }
    }
}

/// The toy's figures: notes kept and dropped and reminders per day since install (`notes.csv`), and its KPI.
public struct ToyMetrics: ProductMetrics {
    public var kept: [Int] = []
    public var dropped: [Int] = []
    public var reminders: [Int] = []
    public init() {}

    public mutating func add(_ t: ToyTally) {
        Self.add(t.keptByDay, into: &kept); Self.add(t.droppedByDay, into: &dropped); Self.add(t.remindersByDay, into: &reminders)
    }
    public mutating func merge(_ o: ToyMetrics) {
        Self.add(o.kept, into: &kept); Self.add(o.dropped, into: &dropped); Self.add(o.reminders, into: &reminders)
    }
    static func add(_ a: [Int], into b: inout [Int]) {
        if b.count < a.count { b += Array(repeating: 0, count: a.count - b.count) }
        for i in a.indices { b[i] += a[i] }
    }

    public func validate(_ b: AccumulatorBounds, at path: String) throws(AccumulatorInvalid) {
        for (i, v) in (kept + dropped + reminders).enumerated() where v < 0 {
            throw AccumulatorInvalid("\(path).notes[\(i)]", "a negative count (\(v))")
        }
    }

    public func kpiValues(_ run: RunFigures) -> [(KPIDefinition, Double)] {
        let people = run.common[.people]
        return [(ToyEngine.descriptor.kpis[0], people > 0 ? Double(kept.reduce(0, +)) / Double(people) : 0)]
    }

    public static var reports: [MetricsReport<Self>] {
        [MetricsReport("notes.csv", header: ReportKeys.header + ["day", "kept", "dropped", "reminders"]) { m, _, keys in
            let days = max(m.kept.count, m.dropped.count, m.reminders.count)
            return (0..<days).map { d in keys.fields + [d, at(m.kept, d), at(m.dropped, d), at(m.reminders, d)].map { CSVField.integer(Int64($0)) } }
        }]
    }

    /// The count of day `d`, 0 past the end.
    static func at(_ counts: [Int], _ d: Int) -> Int { d < counts.count ? counts[d] : 0 }
}
