/// A headline number as data: id, unit, the product's target range, and how the product's document defines it
/// (Scroll Off: seed 000 §8.3). Habitat's own figures (pickups per day, MRR, battery) use the same type without a
/// target. The one definition type of every report and of `validate --explain`.
public struct KPIDefinition: Hashable, Sendable, TargetRanged {
    /// snake_case id used in `kpis.csv`, e.g. `d1_retention`.
    public var id: String
    /// `fraction`, `usd`, `minutes`, `count`, `count_per_day`, `pct`, …
    public var unit: String
    public var targetMin: Double?
    public var targetMax: Double?
    /// The document's wording (the id when the KPI is Habitat's own).
    public var name: String
    /// The document's group (retention, engagement, monetization, …); empty for Habitat's own.
    public var group: String
    /// Who is counted.
    public var population: String
    /// The time window, as text.
    public var window: String
    /// How it is computed from events (and ledger) alone.
    public var formula: String
    /// Where the definition and target come from (seed section), nil for Habitat's own figures.
    public var source: ParameterSource?
    /// Days of each person's life the KPI needs observed (e.g. 45 for "within 45 days of install"): only people
    /// observed that long count, and a run shorter than that cannot measure it (audit 2026-11-25 E9). Nil: none.
    public var windowDays: Int?

    public init(_ id: String, unit: String, targetMin: Double? = nil, targetMax: Double? = nil, name: String? = nil,
                group: String = "", population: String = "", window: String = "", formula: String = "",
                source: ParameterSource? = nil, windowDays: Int? = nil) {
        self.windowDays = windowDays
        self.id = id
        self.unit = unit
        self.targetMin = targetMin
        self.targetMax = targetMax
        self.name = name ?? id
        self.group = group
        self.population = population
        self.window = window
        self.formula = formula
        self.source = source
    }
}

/// How long a run is against what a figure needs (the KPIs' `applies`, the world check's `applies`).
public enum RunLength {
    /// `needs N days; run has M` when a run of `horizonDays` is shorter than `days`, else nil.
    public static func shortfall(needs days: Int, horizonDays h: Int) -> String? { h < days ? "needs \(days) days; run has \(h)" : nil }
}

extension KPIDefinition {
    /// `kpis.csv`'s `applies`: `yes` when measured, else why not — the run is shorter than the KPI's window, or no one
    /// is in its population (audit 2026-11-25 E9: never 0 and "not met").
    public func applies(measured: Bool, horizonDays: Int) -> String {
        if measured { return "yes" }
        if let w = windowDays, let short = RunLength.shortfall(needs: w + 1, horizonDays: horizonDays) { return short }
        return population.isEmpty ? "no one to measure" : "no one in its population (\(population))"
    }
}
