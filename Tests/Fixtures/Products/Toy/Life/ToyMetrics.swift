import Reports
import RulesCore
import Simulation
import ToyRules

/// One life's notes by day since install.
public struct ToyTally: Sendable {
    public var keptByDay: [Int] = []
    public var droppedByDay: [Int] = []
    public init() {}
    mutating func record(day: Int, kept: Bool) {
        while keptByDay.count <= day { keptByDay.append(0); droppedByDay.append(0) }
        if kept { keptByDay[day] += 1 } else { droppedByDay[day] += 1 }
    }
}

/// The toy's figures: notes kept and dropped per day since install (`notes.csv`), and its KPI.
public struct ToyMetrics: ProductMetrics {
    public var kept: [Int] = []
    public var dropped: [Int] = []
    public init() {}

    public mutating func add(_ t: ToyTally) { Self.add(t.keptByDay, into: &kept); Self.add(t.droppedByDay, into: &dropped) }
    public mutating func merge(_ o: ToyMetrics) { Self.add(o.kept, into: &kept); Self.add(o.dropped, into: &dropped) }
    static func add(_ a: [Int], into b: inout [Int]) {
        if b.count < a.count { b += Array(repeating: 0, count: a.count - b.count) }
        for i in a.indices { b[i] += a[i] }
    }

    public func validate(_ b: AccumulatorBounds, at path: String) throws(AccumulatorInvalid) {
        for (i, v) in (kept + dropped).enumerated() where v < 0 {
            throw AccumulatorInvalid("\(path).notes[\(i)]", "a negative count (\(v))")
        }
    }

    public func kpiValues(_ run: RunFigures) -> [(KPIDefinition, Double)] {
        let people = run.common[.people]
        return [(ToyEngine.descriptor.kpis[0], people > 0 ? Double(kept.reduce(0, +)) / Double(people) : 0)]
    }

    public static var reports: [MetricsReport<Self>] {
        [MetricsReport("notes.csv", header: ReportKeys.header + ["day", "kept", "dropped"]) { m, _, keys in
            (0..<max(m.kept.count, m.dropped.count)).map { d in
                keys.fields + [.integer(Int64(d)), .integer(Int64(d < m.kept.count ? m.kept[d] : 0)),
                               .integer(Int64(d < m.dropped.count ? m.dropped[d] : 0))]
            }
        }]
    }
}
