import Behavior
import Reports

/// A person's status on a day, for the per-week view of learning (`learning.csv`).
public enum LearningStatus: Int, CaseIterable, Sendable {
    /// The app installed and not dormant: the person still uses the product.
    case active
    /// The app installed, never opened (dormant, access revoked, restriction lifted): the product may still shield.
    case dormant
    /// No app: the person's tenure with the product ended (uninstalled), or they never had it (`none`); their days
    /// go on untreated to the horizon (issue 28).
    case untreated

    public var id: String {
        switch self {
        case .active: "active"
        case .dormant: "dormant"
        case .untreated: "untreated"
        }
    }
}

/// One day's urges for the person's target apps (`Person.apps`, the apps they want to use less) and what became of
/// them, counted by the life (issue 26).
public struct LearningDay: Sendable {
    /// Urges for a target app.
    public var urges = 0
    /// Shields shown over a target app (every shield, urged or mid-session).
    public var shields = 0
    /// Urges acted on (the app opened) and passed (a shield held, the person let go): `AppHabits`' counts of the day.
    public var acted = 0, passed = 0
    /// The urges the person would have had today untreated: Σ over the day's non-notification pickups of the urge
    /// probability at their apps' plateau habits (`PhoneUseProcess.plateauUrgeProbability`), in millionths.
    public var untreatedUrgeMillionths: Int64 = 0
    /// Pickups of the day (any app) and milliseconds spent in the target apps in sessions the life started: the
    /// product-neutral outcomes of the day (issue 28), the same measure with a product, after it and with none.
    public var pickups = 0
    public var targetAppMs: Int64 = 0
    public init() {}
}

/// Urges, shields and opens of the target apps per week since install and status: the per-week view of a product
/// changing a habit (`learning.csv`; issue 26). Integer counts (the mean app habit in millionths), so it merges
/// exactly across threads and shards.
public struct LearningAccumulator: Mergeable, Sendable, Hashable, Codable {
    /// Per week and status: person-days, urges, shields, acted, passed, habit (millionths, summed over person-days),
    /// untreated urges (millionths), pickups, milliseconds in the target apps. Week 0 is the install day (a part day); week w ≥ 1 is days 7w − 6 … 7w.
    var values: [Int64]
    public let weeks: Int
    static let fields = 9

    public init(horizonDays: Int) {
        weeks = max(2, (horizonDays + 6) / 7 + 2)
        values = Array(repeating: 0, count: weeks * LearningStatus.allCases.count * Self.fields)
    }

    /// Adds one person-day.
    public mutating func add(day index: Int, status: LearningStatus, _ d: LearningDay, meanHabit: Double) {
        let week = min(Self.week(ofDay: index), weeks - 1)
        let base = (week * LearningStatus.allCases.count + status.rawValue) * Self.fields
        values[base] += 1
        values[base + 1] += Int64(d.urges)
        values[base + 2] += Int64(d.shields)
        values[base + 3] += Int64(d.acted)
        values[base + 4] += Int64(d.passed)
        values[base + 5] += Int64((meanHabit * 1_000_000).rounded())
        values[base + 6] += d.untreatedUrgeMillionths
        values[base + 7] += Int64(d.pickups)
        values[base + 8] += d.targetAppMs
    }

    /// The week of day `index` since install: 0 for the install day, then 1 for days 1–7, 2 for days 8–14, ….
    public static func week(ofDay index: Int) -> Int { index <= 0 ? 0 : (index - 1) / 7 + 1 }

    public mutating func merge(_ o: LearningAccumulator) {
        precondition(o.values.count == values.count, "learning accumulators of different horizons")
        for i in values.indices { values[i] += o.values[i] }
    }

    /// A week's sums (zeros for a week beyond the horizon).
    func cell(_ week: Int, _ status: LearningStatus?) -> [Int64] {
        let statuses = status.map { [$0] } ?? LearningStatus.allCases
        var sum = [Int64](repeating: 0, count: Self.fields)
        guard week >= 0, week < weeks else { return sum }
        for s in statuses {
            let base = (week * LearningStatus.allCases.count + s.rawValue) * Self.fields
            for f in 0..<Self.fields { sum[f] += values[base + f] }
        }
        return sum
    }

    /// The person-days, urges, shields, opens and passes of a week (every status when `status` is nil).
    public func totals(week: Int, status: LearningStatus?) -> (personDays: Int64, urges: Int64, shields: Int64, acted: Int64, passed: Int64,
                                                               habitMillionths: Int64, untreatedUrgeMillionths: Int64) {
        let c = cell(week, status)
        return (c[0], c[1], c[2], c[3], c[4], c[5], c[6])
    }

    /// `learning.csv`'s columns after the report keys.
    public static let header = ReportKeys.header + ["week_since_install", "status", "person_days", "urges_per_day", "shields_per_day",
                                                     "opens_per_day", "passes_per_day", "opened_share", "dormant_shield_share", "mean_app_habit",
                                                     "untreated_urges_per_day", "urges_vs_untreated",
                                                     "pickups_per_day", "target_app_minutes_per_day"]

    /// One row per week with people in it, and status (`all`, `active`, `dormant`, `untreated`). `urges_vs_untreated` is the
    /// week's urges over the urges the same people would have had at their established habits: below 1, the
    /// product has made the apps wanted less often — free of who is still in the row.
    public func rows(_ keys: ReportKeys) -> [[CSVField]] {
        var out: [[CSVField]] = []
        for w in 0..<weeks {
            let all = cell(w, nil), dormantShields = cell(w, .dormant)[2]
            guard all[0] > 0 else { continue }
            for status in [nil] + LearningStatus.allCases.map(Optional.some) {
                let c = cell(w, status)
                guard c[0] > 0 else { continue }
                let days = Double(c[0])
                func rate(_ x: Int64, _ n: Int64) -> CSVField { n > 0 ? .rate(Double(x) / Double(n)) : .empty }
                out.append(keys.fields + [
                    .integer(Int64(w)), .text(status?.id ?? "all"), .integer(c[0]),
                    .value(Double(c[1]) / days), .value(Double(c[2]) / days),
                    .value(Double(c[3]) / days), .value(Double(c[4]) / days),
                    rate(c[3], c[3] + c[4]), status == nil ? rate(dormantShields, all[2]) : .empty,
                    .value(Double(c[5]) / 1_000_000 / days),
                    .value(Double(c[6]) / 1_000_000 / days), c[6] > 0 ? .rate(Double(c[1]) * 1_000_000 / Double(c[6])) : .empty,
                    .value(Double(c[7]) / days), .value(Double(c[8]) / 60_000 / days),
                ])
            }
        }
        return out
    }
}
