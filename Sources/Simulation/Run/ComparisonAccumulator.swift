import Reports
import RulesCore

/// One group's sums for comparing products on the same people (issue 28, `product-comparison.csv`): the
/// product-neutral outcomes of every person-day from the person's entry to the horizon — with the product, after
/// it and with none — and the product figures every product with an app shares. Integers only (battery in
/// millionths of a percent), so it merges exactly across threads and shards.
public struct ComparisonSums: Sendable, Hashable, Codable {
    public var people = 0
    /// Person-days from the install (entry) day to the horizon, treated or not.
    public var personDays = 0
    public var pickups = 0, sessions = 0, sessionsUnder30s = 0
    /// Milliseconds in the person's target apps (the apps they want to use less) in sessions the life started.
    public var targetAppMs: Int64 = 0
    /// Urges for a target app, and those acted on (the app opened).
    public var urges = 0, urgesActed = 0
    /// Σ over person-days of the product's battery drain in % per 24 h, in millionths (0 on a day without the app).
    public var batteryMicroPct: Int64 = 0
    /// D1, D7, D30: people observed past the day, those with the product in use on it (`in_use`) and those who
    /// opened its app of their own accord on it (`app_opened`, Adjust's definition; issue 39 item 2).
    public var retentionEligible = [0, 0, 0], inUse = [0, 0, 0], appOpened = [0, 0, 0]
    /// Person-days from install to the horizon with the product in use, and with its app opened of the person's own
    /// accord: the denominators of the products' claims (`ProductClaim.Basis`; issue 39 item 5).
    public var inUseDays = 0, appOpenedDays = 0
    /// Net revenue (gross − refunds − store fees) in micro-dollars, and people who ever paid.
    public var netRevenueMicros: Int64 = 0
    public var paying = 0
    /// The person processes' neutral measures (`NeutralMeasure.all`: the things to do of issue 29 — arisen, done,
    /// done on time, forgotten —, …), by id in a shard file (issue 42).
    public var measures = NeutralCounts()

    public init() {}

    /// The days of `retentionEligible` / `inUse` / `appOpened`.
    public static let retentionDays = [1, 7, 30]

    public mutating func merge(_ o: ComparisonSums) {
        people += o.people; personDays += o.personDays
        pickups += o.pickups; sessions += o.sessions; sessionsUnder30s += o.sessionsUnder30s
        targetAppMs += o.targetAppMs; urges += o.urges; urgesActed += o.urgesActed
        batteryMicroPct += o.batteryMicroPct
        for i in 0..<3 { retentionEligible[i] += o.retentionEligible[i]; inUse[i] += o.inUse[i]; appOpened[i] += o.appOpened[i] }
        inUseDays += o.inUseDays; appOpenedDays += o.appOpenedDays
        netRevenueMicros += o.netRevenueMicros; paying += o.paying
        measures.merge(o.measures)
    }
}

/// `ComparisonSums` per persona (and, summed, for everyone): what each arm of a run of several products reports on
/// the same people (`product-comparison.csv`) and the neutral KPIs every run reports (`kpis.csv`).
public struct ComparisonAccumulator: Mergeable, Sendable, Hashable, Codable {
    /// Persona name → sums.
    public private(set) var personas: [String: ComparisonSums] = [:]

    public init() {}

    /// Adds one person's sums under their persona.
    public mutating func add(persona: String, _ s: ComparisonSums) { personas[persona, default: ComparisonSums()].merge(s) }

    public mutating func merge(_ o: ComparisonAccumulator) {
        for (k, v) in o.personas { personas[k, default: ComparisonSums()].merge(v) }
    }

    /// Everyone's sums.
    public var all: ComparisonSums {
        var s = ComparisonSums()
        for k in personas.keys.sorted() { s.merge(personas[k]!) }
        return s
    }
}

/// The KPIs products are compared on (issue 28): the product-neutral outcomes, measured on every person-day to the
/// horizon whatever the product (and with none), and the product figures every product with an app shares.
public enum ComparisonKPIs {
    /// Product-neutral: the same measure with any product, after it and with none — the life's own figures, then the
    /// person processes' (`NeutralKPI.processKPIs`, declared by each `MeasuredPersonProcess`), each a ratio of figures named by id.
    public static let neutralKPIs: [NeutralKPI] = [
        NeutralKPI(KPIDefinition("target_app_minutes_per_day", unit: "minutes", name: "Minutes a day in target apps", group: "neutral",
                                 population: "every person-day from install (entry) to the horizon, treated or not", window: "whole run",
                                 formula: "Σ minutes in the apps the person wants to use less ÷ person-days"),
                   .targetAppMinutes, per: .personDays),
        NeutralKPI(KPIDefinition("pickups_per_day", unit: "count_per_day", name: "Pickups a day", group: "neutral",
                                 population: "every person-day from install (entry) to the horizon", window: "whole run", formula: "pickups ÷ person-days"),
                   .pickups, per: .personDays),
        NeutralKPI(KPIDefinition("urges_acted_per_day", unit: "count_per_day", name: "Urges acted on a day", group: "neutral",
                                 population: "every person-day from install (entry) to the horizon", window: "whole run",
                                 formula: "urges for a target app that ended in the app ÷ person-days"),
                   .urgesActed, per: .personDays),
        NeutralKPI(KPIDefinition("sessions_under_30s_share", unit: "fraction", name: "Sessions under 30 s", group: "neutral",
                                 population: "every session from install (entry) to the horizon", window: "whole run",
                                 formula: "sessions shorter than 30 s ÷ sessions"),
                   .sessionsUnder30s, per: .sessions),
        NeutralKPI(KPIDefinition("battery_pct_per_24h_mean", unit: "pct", name: "Battery % per 24 h", group: "neutral",
                                 population: "every person-day from install (entry) to the horizon; 0 on a day without the app", window: "whole run",
                                 formula: "Σ the app's drain in % per 24 h ÷ person-days"),
                   .batteryPct, per: .personDays),
    ] + NeutralKPI.processKPIs

    /// The neutral KPIs' definitions, in order.
    public static let neutral: [KPIDefinition] = neutralKPIs.map(\.definition)

    /// Product figures every product with an app shares (none for `none`): day-N retention read two ways, one name
    /// per meaning (issue 39 item 2; `retention_d1/d7/d30` until then, which meant `in_use`) — `in_use_dN`, the
    /// product acted that day (retention.csv's `in_use` reading), and `app_opened_dN`, the person opened its app of
    /// their own accord (retention.csv's `app_opened`, the world check's reading, Adjust's definition) —, then money.
    public static let shared: [KPIDefinition] = retentionDefinitions(.inUse) + retentionDefinitions(.appOpened) + [
        KPIDefinition("net_revenue_per_install", unit: "usd", name: "Net revenue per install", group: "shared",
                      population: "all installs", window: "whole run", formula: "net revenue (gross − refunds − store fees) ÷ installs"),
        KPIDefinition("paying_share", unit: "fraction", name: "Paying share", group: "shared",
                      population: "all installs", window: "whole run", formula: "people who ever paid ÷ installs"),
    ]

    static func retentionDefinitions(_ a: RetentionActivity) -> [KPIDefinition] {
        ComparisonSums.retentionDays.map { day in
            switch a {
            case .inUse:
                KPIDefinition("in_use_d\(day)", unit: "fraction", name: "D\(day) retention, in use", group: "shared",
                              population: "people observed past day \(day)", window: "day \(day) after install",
                              formula: "product in use on day \(day) (retention.csv's in_use reading) ÷ people")
            case .appOpened:
                KPIDefinition("app_opened_d\(day)", unit: "fraction", name: "D\(day) retention, app opened", group: "shared",
                              population: "people observed past day \(day)", window: "day \(day) after install",
                              formula: "app opened of the person's own accord on day \(day) (retention.csv's app_opened reading; a forced "
                                  + "detour is not an open) ÷ people")
            }
        }
    }

    /// The neutral KPIs that are a sum over person-days ÷ person-days (not a share of sessions or things to do): a
    /// claim's true effect can be put on the claim's own denominator only for these (`ProductComparison`).
    public static let perPersonDay: Set<String> = Set(neutralKPIs.filter { $0.denominator == .personDays }.map(\.definition.id))

    /// The values of `sums`: the neutral KPIs, then — for a product with an app — the shared ones. NaN where a
    /// population is empty.
    public static func values(_ s: ComparisonSums, hasApp: Bool) -> [(KPIDefinition, Double)] {
        func ratio(_ a: Double, _ b: Int) -> Double { b > 0 ? a / Double(b) : .nan }
        var v: [(KPIDefinition, Double)] = neutralKPIs.map { ($0.definition, $0.value(s)) }
        guard hasApp else { return v }
        for i in 0..<3 { v.append((shared[i], ratio(Double(s.inUse[i]), s.retentionEligible[i]))) }
        for i in 0..<3 { v.append((shared[3 + i], ratio(Double(s.appOpened[i]), s.retentionEligible[i]))) }
        v.append((shared[6], ratio(Double(s.netRevenueMicros) / 1_000_000, s.people)))
        v.append((shared[7], ratio(Double(s.paying), s.people)))
        return v
    }
}
