import Foundation
import Reports
import Testing
@testable import Simulation

@Suite("Neutral measures declared once and written by id (issue 42)")
struct NeutralMeasureTests {
    static func sums(arisen: Int, done: Int, onTime: Int, forgotten: Int) -> ComparisonSums {
        var s = ComparisonSums()
        s.people = 1
        s.personDays = 10
        s.measures[.tasksArisen] = arisen
        s.measures[.tasksDone] = done
        s.measures[.tasksDoneOnTime] = onTime
        s.measures[.tasksForgotten] = forgotten
        return s
    }

    @Test("the measures go to a shard by id, only those not zero, and come back; the KPIs name them by id")
    func roundTrip() throws {
        var acc = ComparisonAccumulator()
        acc.add(persona: "p", Self.sums(arisen: 8, done: 6, onTime: 4, forgotten: 0))
        let json = String(decoding: try JSONEncoder().encode(acc), as: UTF8.self)
        #expect(json.contains(#""measure":"tasks_done_on_time""#) && json.contains(#""value":4"#))
        #expect(!json.contains("tasks_forgotten"), "a zero is not written")
        let back = try JSONDecoder().decode(ComparisonAccumulator.self, from: Data(json.utf8))
        #expect(back == acc)
        try back.validate(AccumulatorBounds(people: 1, horizonDays: 10), at: "comparison")
        let v = Dictionary(uniqueKeysWithValues: ComparisonKPIs.values(back.all, hasApp: false).map { ($0.0.id, $0.1) })
        #expect(v["tasks_done_per_day"] == 0.6 && v["tasks_done_on_time_per_day"] == 0.4 && v["tasks_on_time_share"] == 0.5)
        #expect(v["tasks_forgotten_share"] == 0)
        #expect(ComparisonKPIs.neutral.map(\.id) == ["target_app_minutes_per_day", "pickups_per_day", "urges_acted_per_day", "sessions_under_30s_share",
                                                     "battery_pct_per_24h_mean", "tasks_done_per_day", "tasks_done_on_time_per_day",
                                                     "tasks_on_time_share", "tasks_forgotten_share"])
        #expect(ComparisonKPIs.perPersonDay == ["target_app_minutes_per_day", "pickups_per_day", "urges_acted_per_day", "battery_pct_per_24h_mean",
                                                "tasks_done_per_day", "tasks_done_on_time_per_day"])
    }

    @Test("a measure this habitat does not know, or one beyond its declared bound, is refused by id")
    func refusals() throws {
        let bounds = AccumulatorBounds(people: 1, horizonDays: 10)
        var acc = ComparisonAccumulator()
        acc.add(persona: "p", Self.sums(arisen: 8, done: 6, onTime: 4, forgotten: 0))
        let json = String(decoding: try JSONEncoder().encode(acc), as: UTF8.self)
        let unknown = try JSONDecoder().decode(ComparisonAccumulator.self, from: Data(json.replacingOccurrences(of: "tasks_arisen", with: "made_up").utf8))
        #expect { try unknown.validate(bounds, at: "comparison") } throws: { error in
            "\(error)" == "comparison[p].measures[made_up]: 'made_up' is not a neutral measure of this habitat (it has tasks_arisen, tasks_done, "
                + "tasks_done_on_time, tasks_forgotten)"
        }
        var over = ComparisonAccumulator()
        over.add(persona: "p", Self.sums(arisen: 3, done: 2, onTime: 1, forgotten: 2))
        #expect { try over.validate(bounds, at: "comparison") } throws: { error in
            "\(error)" == "comparison[p].tasks_forgotten: 2 > arisen and not done 1"
        }
        var late = ComparisonAccumulator()
        late.add(persona: "p", Self.sums(arisen: 3, done: 2, onTime: 3, forgotten: 0))
        #expect { try late.validate(bounds, at: "comparison") } throws: { error in "\(error)" == "comparison[p].tasks_done_on_time: 3 > done 2" }
    }
}
