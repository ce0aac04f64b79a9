/// The metrics of `battery-budget.csv`, in report order.
public enum BatteryMetric: String, Sendable, CaseIterable, Hashable {
    case idlePctPerHour = "idle_pct_per_hour"
    case activePctPerHour = "active_pct_per_hour"
    case pctPer24h = "pct_per_24h"
}

/// A product's battery budgets (nil where the product sets none), with their source.
public struct BatteryBudgets: Hashable, Sendable {
    /// Idle drain limit, % per hour (device locked, no use).
    public var idlePctPerHour: Double?
    /// Active drain limit, % per hour of use.
    public var activePctPerHour: Double?
    /// Limit over 24 h, % (idle and active together).
    public var pctPer24h: Double?
    /// Where the budgets come from (a seed section), nil with none.
    public var source: ParameterSource?

    public init(idlePctPerHour: Double?, activePctPerHour: Double?, pctPer24h: Double?, source: ParameterSource? = nil) {
        self.idlePctPerHour = idlePctPerHour
        self.activePctPerHour = activePctPerHour
        self.pctPer24h = pctPer24h
        self.source = source
    }

    /// No budgets.
    public static let none = BatteryBudgets(idlePctPerHour: nil, activePctPerHour: nil, pctPer24h: nil)

    /// The budget of one metric.
    public subscript(_ metric: BatteryMetric) -> Double? {
        switch metric {
        case .idlePctPerHour: idlePctPerHour
        case .activePctPerHour: activePctPerHour
        case .pctPer24h: pctPer24h
        }
    }
}
