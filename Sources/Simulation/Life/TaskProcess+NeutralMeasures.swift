import Behavior
import Reports
import RulesCore

// The things to do every person has (`TaskProcess`, issue 29), as product-neutral measures and KPIs, declared by the
// process (issue 42) and booked from its mind at each life's end.

extension TaskProcess: MeasuredPersonProcess {
    public static var neutralMeasures: [NeutralMeasure] { [.tasksArisen, .tasksDone, .tasksDoneOnTime, .tasksForgotten] }
    public static var neutralKPIs: [NeutralKPI] { NeutralKPI.taskKPIs }

    /// The life's things to do: arisen, done before the horizon, on time, forgotten (never done, never held by a
    /// product that got them done). Counted locally, each measure added once (a per-task look-up cost 3 % of none's
    /// instructions per person-day).
    public static func book(_ mind: TaskMind, into counts: inout NeutralCounts, horizonEnd: Instant) {
        var done = 0, onTime = 0, forgotten = 0
        for r in mind.records {
            if let d = r.doneAt, d < horizonEnd {
                done += 1
                if d <= r.task.deadline { onTime += 1 }
            } else if r.unaidedDoneAt == nil {
                forgotten += 1
            }
        }
        counts[.tasksArisen] += mind.records.count
        counts[.tasksDone] += done
        counts[.tasksDoneOnTime] += onTime
        counts[.tasksForgotten] += forgotten
    }
}

extension NeutralMeasure {
    /// Things to do arisen from install to the horizon.
    public static let tasksArisen = NeutralMeasure("tasks_arisen")
    /// Done before the horizon.
    public static let tasksDone = NeutralMeasure("tasks_done") { s in (s.measures[.tasksArisen], "arisen") }
    /// Done by their deadline.
    public static let tasksDoneOnTime = NeutralMeasure("tasks_done_on_time") { s in (s.measures[.tasksDone], "done") }
    /// Forgotten: never done, never held by a product that got them done.
    public static let tasksForgotten = NeutralMeasure("tasks_forgotten") { s in (s.measures[.tasksArisen] - s.measures[.tasksDone], "arisen and not done") }
}

extension NeutralKPI {
    /// The KPIs on the things to do.
    static let taskKPIs: [NeutralKPI] = [
        NeutralKPI(KPIDefinition("tasks_done_per_day", unit: "count_per_day", name: "Things done a day", group: "neutral",
                                 population: "every person-day from install (entry) to the horizon", window: "whole run",
                                 formula: "things to do done before the horizon ÷ person-days"),
                   .measure("tasks_done"), per: .personDays),
        NeutralKPI(KPIDefinition("tasks_done_on_time_per_day", unit: "count_per_day", name: "Things done on time a day", group: "neutral",
                                 population: "every person-day from install (entry) to the horizon", window: "whole run",
                                 formula: "things to do done by their deadline ÷ person-days"),
                   .measure("tasks_done_on_time"), per: .personDays),
        NeutralKPI(KPIDefinition("tasks_on_time_share", unit: "fraction", name: "Things done on time", group: "neutral",
                                 population: "every thing to do arisen from install (entry) to the horizon", window: "whole run",
                                 formula: "things done by their deadline ÷ things arisen"),
                   .measure("tasks_done_on_time"), per: .measure("tasks_arisen")),
        NeutralKPI(KPIDefinition("tasks_forgotten_share", unit: "fraction", name: "Things forgotten", group: "neutral",
                                 population: "every thing to do arisen from install (entry) to the horizon", window: "whole run",
                                 formula: "things never done and never held where they got done ÷ things arisen"),
                   .measure("tasks_forgotten"), per: .measure("tasks_arisen")),
    ]
}
