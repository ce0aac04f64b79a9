import RulesCore
import Stochastics
import Reports

/// Collects person-day battery figures per device and metric, and energy by activity, for `battery-budget.csv`.
///
/// Per device and metric it keeps a `LogHistogram` (exact count, mean and maximum; p50/p90/p99 within 1.16%)
/// and the exact count of person-days within the budget, which is why the budgets are fixed at construction.
/// Merging is bit-identical in any grouping and order (integer counts, fixed-point sums — energy by activity in
/// nanojoules), so a run split into shards (`habitat run --shard`, `habitat merge`) gives the same bytes as a whole run.
///
/// `meets_budget` is true when the p90 of the person-days is within the budget: a product meets its budget when
/// nine person-days in ten do — Habitat's reading of §7.6 ("typical usage"), an assumption; `share_within_budget`
/// gives the exact share for any other reading.
public struct BatteryBudgetAccumulator: Mergeable, Sendable, Hashable, Codable {
    /// The percentile that decides `meets_budget`.
    public static let meetsBudgetQuantile = 0.9
    /// The `device` value of the rows that pool every device.
    public static let allDevices = "all"

    /// Key columns then value columns of `battery-budget.csv` (CONTRACT.md report 4).
    public static let header = [
        "scenario", "arm", "replication", "product",
        "device", "metric", "person_days", "mean", "p50", "p90", "p99", "max", "budget", "share_within_budget", "meets_budget",
    ]

    struct Cell: Hashable, Sendable, Codable {
        var histogram = LogHistogram()
        var withinBudget = 0
    }

    /// The budgets person-days are counted against.
    public let budgets: BatteryBudgets
    /// Per device id: one cell per metric, in `BatteryMetric.allCases` order.
    var cells: [String: [Cell]] = [:]
    /// Joules by activity over all recorded person-days (all devices), in fixed point.
    var energy = FixedPointEnergy()
    /// Joules by activity over all recorded person-days (all devices).
    public var energyByActivity: EnergyVector { energy.joules }
    /// Person-days recorded.
    public private(set) var personDays = 0

    public init(budgets: BatteryBudgets) { self.budgets = budgets }

    /// Records one person-day on device `deviceID`: each defined metric, nothing for undefined ones.
    public mutating func add(_ day: PersonDayBattery, deviceID: String) {
        // One dictionary access, mutated in place (no copy-on-write of the histograms' bins).
        Self.record(day, budgets: budgets, into: &cells[deviceID, default: Self.emptyCells])
        personDays += 1
    }

    static let emptyCells = Array(repeating: Cell(), count: BatteryMetric.allCases.count)

    static func record(_ day: PersonDayBattery, budgets: BatteryBudgets, into cells: inout [Cell]) {
        for (i, metric) in BatteryMetric.allCases.enumerated() {
            guard let v = day[metric] else { continue }
            cells[i].histogram.add(v)
            if let b = budgets[metric], v <= b { cells[i].withinBudget += 1 }
        }
    }

    /// Records the day a meter has accumulated (its battery figures and its energy by activity).
    public mutating func record(_ meter: PersonDayEnergyMeter, dayLengthSeconds: Double = 86_400) {
        add(meter.battery(dayLengthSeconds: dayLengthSeconds), deviceID: meter.device.id)
        energy.add(meter.joulesByActivity)
    }

    /// Adds energy by activity charged outside `record(_:)` (e.g. a person's whole life at once).
    public mutating func addEnergy(_ joules: EnergyVector) { energy.add(joules) }

    /// Folds `other` in. Both must count against the same budgets.
    public mutating func merge(_ other: BatteryBudgetAccumulator) {
        precondition(budgets == other.budgets, "BatteryBudgetAccumulator.merge: different budgets")
        for (device, theirs) in other.cells {
            if cells[device] != nil {
                for i in theirs.indices {
                    cells[device]![i].histogram.merge(theirs[i].histogram)
                    cells[device]![i].withinBudget += theirs[i].withinBudget
                }
            } else {
                cells[device] = theirs
            }
        }
        energy.merge(other.energy)
        personDays += other.personDays
    }

    /// The key under which a decoder's `userInfo` supplies the budgets: they are the product's (its descriptor), not
    /// part of the encoded state.
    public static let budgetsUserInfoKey = CodingUserInfoKey(rawValue: "habitat.batteryBudgets")!

    enum CodingKeys: String, CodingKey { case cells, energy, personDays = "person_days" }

    /// Decodes the state encoded by `encode(to:)`; the budgets come from `userInfo[budgetsUserInfoKey]`.
    public init(from decoder: any Decoder) throws {
        guard let budgets = decoder.userInfo[Self.budgetsUserInfoKey] as? BatteryBudgets else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "battery budgets missing from the decoder's userInfo"))
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.budgets = budgets
        cells = try c.decode([String: [Cell]].self, forKey: .cells)
        energy = try c.decode(FixedPointEnergy.self, forKey: .energy)
        personDays = try c.decode(Int.self, forKey: .personDays)
        guard cells.values.allSatisfy({ $0.count == BatteryMetric.allCases.count }) else {
            throw DecodingError.dataCorruptedError(forKey: .cells, in: c, debugDescription: "a device without one cell per metric")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(cells, forKey: .cells)
        try c.encode(energy, forKey: .energy)
        try c.encode(personDays, forKey: .personDays)
    }

    /// Device ids seen, catalogue devices in catalogue order, then others alphabetically.
    public var deviceIDs: [String] {
        cells.keys.sorted { a, b in
            switch (DeviceCatalog.order(of: a), DeviceCatalog.order(of: b)) {
            case let (x?, y?): x < y
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): a < b
            }
        }
    }

    /// The histogram of one device (or `allDevices`) and metric; empty if none seen.
    public func histogram(device: String, metric: BatteryMetric) -> LogHistogram { cell(device: device, metric: metric).histogram }

    /// Person-days within budget for a device (or `allDevices`) and metric.
    public func withinBudget(device: String, metric: BatteryMetric) -> Int { cell(device: device, metric: metric).withinBudget }

    private func cell(device: String, metric: BatteryMetric) -> Cell {
        let i = BatteryMetric.allCases.firstIndex(of: metric)!
        if device == Self.allDevices {
            var pooled = Cell()
            for d in deviceIDs {
                pooled.histogram.merge(cells[d]![i].histogram)
                pooled.withinBudget += cells[d]![i].withinBudget
            }
            return pooled
        }
        return cells[device]?[i] ?? Cell()
    }

    /// The rows of `battery-budget.csv` for this accumulator: for each device seen (then `all`, pooling the
    /// devices) and each metric, in `header` order. Percentages have 6 decimals; statistics of a metric with no
    /// person-days, and budget fields of a metric without a budget, are empty.
    public func rows(scenario: String, arm: String, replication: Int, product: String) -> [[CSVField]] {
        rows(ReportKeys(scenario: scenario, arm: arm, replication: replication, product: product))
    }

    /// The rows under any report keys (a replication, or `all` for pooled rows).
    public func rows(_ keys: ReportKeys) -> [[CSVField]] {
        var out: [[CSVField]] = []
        for device in deviceIDs + [Self.allDevices] {
            for metric in BatteryMetric.allCases {
                let c = cell(device: device, metric: metric)
                let h = c.histogram
                let pct = { (v: Double?) -> CSVField in CSVField.optional(v, decimals: 6) }
                let budget = budgets[metric]
                let p90 = h.quantile(Self.meetsBudgetQuantile)
                var row: [CSVField] = keys.fields + [.text(device), .text(metric.rawValue), .integer(Int64(h.count))]
                row += [pct(h.mean), pct(h.quantile(0.5)), pct(p90), pct(h.quantile(0.99)), pct(h.count > 0 ? h.max : nil)]
                row.append(pct(budget))
                if let budget, h.count > 0, let p90 {
                    row.append(.rate(Double(c.withinBudget) / Double(h.count)))
                    row.append(.flag(p90 <= budget))
                } else {
                    row += [.empty, .empty]
                }
                out.append(row)
            }
        }
        return out
    }

    /// `rows` as a table with `header`.
    public func table(scenario: String, arm: String, replication: Int, product: String) -> CSVTable {
        var t = CSVTable(header: Self.header)
        t.append(contentsOf: rows(scenario: scenario, arm: arm, replication: replication, product: product))
        return t
    }

    /// Header of the energy-by-effect breakdown (not a contract report yet).
    public static let energyHeader = ["scenario", "arm", "replication", "product", "activity", "joules", "joules_per_person_day", "share"]

    /// Energy by effect: one row per activity with total joules, joules per person-day and share of all joules.
    public func energyRows(scenario: String, arm: String, replication: Int, product: String) -> [[CSVField]] {
        energyRows(ReportKeys(scenario: scenario, arm: arm, replication: replication, product: product))
    }

    /// Energy by effect under any report keys.
    public func energyRows(_ keys: ReportKeys) -> [[CSVField]] {
        let total = energyByActivity.total
        return EnergyActivity.allCases.map { a in
            let j = energyByActivity[a]
            return keys.fields + [.text(a.rawValue),
                    .value(j), .optional(personDays > 0 ? j / Double(personDays) : nil, decimals: 6),
                    .optional(total > 0 ? j / total : nil, decimals: 6)]
        }
    }
}
