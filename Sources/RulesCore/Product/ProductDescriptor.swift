/// A product as plain data, published by its engine target (`RuleEngine.descriptor`): everything the shared
/// machinery, the reports and `habitat validate --explain` need to know about it without knowing the product.
///
/// Nothing in `Reports`, `ScenarioFormat` or the CLI names a product's figures; they read them from here.
public struct ProductDescriptor: Sendable {
    /// Scenario id (`product:` key), e.g. `scroll-off`.
    public var id: String
    /// Display name, e.g. `Scroll Off`.
    public var name: String
    /// File name of the product's seed document, the source of truth for its rules.
    public var seedFile: String
    /// What the engine owns, in a line.
    public var summary: String
    /// Every rule parameter the engine reads (the scenario's `rules:` keys).
    public var parameters: [RuleParameter]
    /// The activation funnel, in stage order.
    public var funnel: [FunnelStage]
    /// The product's own KPIs (definitions and targets), in report order.
    public var kpis: [KPIDefinition]
    /// Battery budgets.
    public var batteryBudgets: BatteryBudgets
    /// How money is reported: plan segments, revenue and cost sources, the KPI that caps consumables' share.
    public var revenue: RevenueModel
    /// Reports this product adds to the ones every run writes (file names).
    public var reports: [String]
    /// The engine's inputs, each with whether the simulated people drive it and the parameters it governs.
    public var inputs: [EngineInputInfo]
    /// Rule parameters no simulated life can move, each with the reason (key path → reason): e.g. a rule about
    /// the UI. Every other parameter must move some report when changed (`ParameterSensitivityTests`, issue 13).
    public var notSimulable: [String: String]
    /// What the product tells its people it does for them, each with the product-neutral KPI that measures it on the
    /// same people against no app (`product-comparison.csv` sets the claim beside the true effect; issue 28).
    public var claims: [ProductClaim]

    public init(id: String, name: String, seedFile: String, summary: String, parameters: [RuleParameter], funnel: [FunnelStage],
                kpis: [KPIDefinition], batteryBudgets: BatteryBudgets, revenue: RevenueModel, reports: [String],
                inputs: [EngineInputInfo], notSimulable: [String: String] = [:], claims: [ProductClaim] = []) {
        self.claims = claims
        self.id = id
        self.name = name
        self.seedFile = seedFile
        self.summary = summary
        self.parameters = parameters
        self.funnel = funnel
        self.kpis = kpis
        self.batteryBudgets = batteryBudgets
        self.revenue = revenue
        self.reports = reports
        self.inputs = inputs
        self.notSimulable = notSimulable
    }

    /// The rule parameters no simulated person can reach: every input that governs them is one the people never
    /// drive, or the descriptor documents them in `notSimulable`. An experiment arm that changes only these cannot
    /// differ from its control.
    public var parametersNotExercised: [String] {
        parameters.map(\.keyPath).filter { key in
            if notSimulable[key] != nil { return true }
            let governing = inputs.filter { $0.governs(key) }
            return !governing.isEmpty && governing.allSatisfy { !$0.drivenBySimulatedPeople }
        }
    }

    /// The KPI definition with an id, if the product defines it.
    public func kpi(_ id: String) -> KPIDefinition? { kpis.first { $0.id == id } }

    /// The ceiling on consumables' share of gross revenue (Scroll Off §5.2 / §8.3: tokens under 20 %): the target
    /// maximum of the KPI the revenue model names (`RevenueModel.consumableShareKPI`), like any KPI's target; nil
    /// where the product sets none. `token-revenue-share.csv` judges each month against it.
    public var consumableCeiling: Double? { revenue.consumableShareKPI.flatMap { kpi($0)?.targetMax } }
}

/// How a product makes money — and what serving its people costs it — and how its reports split it.
///
/// Ceilings and targets on money are KPI targets like any other (docs/DESIGN.md, principle 6): the consumable share
/// is the KPI `consumableShareKPI` names, a per-user cost ceiling is `cost_per_dau_day`'s `targetMax` in the
/// descriptor's `kpis`.
public struct RevenueModel: Hashable, Sendable {
    /// Plan segments people are counted in, the unpaid one first (Scroll Off: `free`, `premium`, `pro`).
    public var planSegments: [String]
    /// The `revenue.csv` source of subscription money.
    public var subscriptionSource: String
    /// The `revenue.csv` source of consumable purchases (e.g. `tokens`), nil when the product sells none.
    public var consumableSource: String?
    /// The id of the product's KPI of consumables' share of gross revenue (Scroll Off: `token_revenue_share`), whose
    /// `targetMax` is the ceiling `token-revenue-share.csv` judges against (`ProductDescriptor.consumableCeiling`);
    /// nil where the product has none.
    public var consumableShareKPI: String?
    /// The `revenue.csv` source of service costs (`LedgerEntry.Kind.serviceCost`: an AI request, …), nil when the
    /// product pays for none. A product that names one reports `cost_per_dau_day` (Habitat's KPI: its per-user cost
    /// ceiling is that KPI's `targetMax`, set by listing the KPI in the descriptor's `kpis`).
    public var costSource: String?
    /// The billing period in months of each subscription SKU (ledger `productID` → months: 1 monthly, 12 annual),
    /// for the world check's renewal and 12-month retention figures. Empty when the product sells no subscription.
    public var subscriptionPeriodMonths: [String: Int]
    /// Length of the free trial the product offers before a subscription's first charge, nil when it offers none
    /// (its engine books `LedgerEntry.Kind.trialStart` when one starts).
    public var trialDays: Int?

    public init(planSegments: [String], subscriptionSource: String = "subscriptions", consumableSource: String? = nil,
                consumableShareKPI: String? = nil, costSource: String? = nil, subscriptionPeriodMonths: [String: Int] = [:],
                trialDays: Int? = nil) {
        self.planSegments = planSegments
        self.subscriptionSource = subscriptionSource
        self.consumableSource = consumableSource
        self.consumableShareKPI = consumableShareKPI
        self.costSource = costSource
        self.subscriptionPeriodMonths = subscriptionPeriodMonths
        self.trialDays = trialDays
    }

    /// The product sells subscriptions (it has a paid plan segment).
    public var sellsSubscriptions: Bool { !paidSegments.isEmpty }
    /// The product sells anything (subscriptions or consumables); a product that sells nothing has no purchases,
    /// refunds or revenue to compare with published figures.
    public var sellsAnything: Bool { sellsSubscriptions || consumableSource != nil }
    /// The product offers a free trial.
    public var offersTrial: Bool { trialDays != nil }
    /// The product pays for serving its people (it names a `costSource`).
    public var incursCosts: Bool { costSource != nil }

    /// The unpaid segment (`free`).
    public var unpaidSegment: String { planSegments.first ?? "free" }
    /// The paid segments, in order.
    public var paidSegments: [String] { Array(planSegments.dropFirst()) }

    /// The source a ledger line's money is reported under (a service cost with no `costSource` named: `service`).
    public func source(of kind: LedgerEntry.Kind) -> String {
        switch kind {
        case .consumablePurchase: consumableSource ?? subscriptionSource
        case .serviceCost: costSource ?? "service"
        default: subscriptionSource
        }
    }

    /// A product that earns nothing (e.g. Lazuri): one segment, no sources beyond subscriptions.
    public static let free = RevenueModel(planSegments: ["free"])
}

/// One of an engine's inputs as data: its name, whether the simulated people drive it, and the rule parameters
/// that only matter through it (key paths, or prefixes ending in `.`).
public struct EngineInputInfo: Hashable, Sendable {
    /// The input's name, e.g. `setCurfew`.
    public var name: String
    /// True when a simulated life sends it.
    public var drivenBySimulatedPeople: Bool
    /// Parameters it governs: exact key paths, or prefixes ending in `.` (`curfew.`).
    public var parameters: [String]

    public init(_ name: String, driven: Bool, parameters: [String] = []) {
        self.name = name
        self.drivenBySimulatedPeople = driven
        self.parameters = parameters
    }

    /// Whether this input governs a parameter key path.
    public func governs(_ key: String) -> Bool {
        parameters.contains { $0.hasSuffix(".") ? key.hasPrefix($0) : key == $0 }
    }
}

/// A figure a product shows its people about what it does for them (Scroll Off's "time saved"), and how the same
/// effect is measured truly: as the paired difference of a product-neutral KPI against the same people with no app
/// (`none`), in the claim's own sense (issue 28, `product-comparison.csv`).
public struct ProductClaim: Hashable, Sendable {
    /// How the claimed amount relates to the neutral KPI.
    public enum Sense: String, Hashable, Sendable {
        /// The claim is an amount the product takes away: true effect = none − arm (minutes saved).
        case reduces
        /// The claim is an amount the product adds: true effect = arm − none (tasks done).
        case increases
    }
    /// The product's own KPI that reports the claim (its descriptor's `kpis`).
    public var kpi: String
    /// The product-neutral KPI that measures the same effect (`target_app_minutes_per_day`, …).
    public var neutralKPI: String
    public var sense: Sense
    /// The claim in the product's words, with its source.
    public var statement: String
    /// The days the claimed figure is per (its KPI's population), so that its true effect can be put on the same
    /// denominator (issue 39 item 5).
    public var basis: Basis

    /// What a claimed figure is per.
    public enum Basis: String, Hashable, Sendable, CaseIterable {
        /// Per person-day with the product in use (retention's `in_use` reading): Scroll Off's median time saved
        /// over the days in use.
        case dayInUse = "day_in_use"
        /// Per person-day with the app opened (a DAU-day; retention's `app_opened` reading): Nudge's items done per DAU.
        case dayAppOpened = "day_app_opened"

        /// The population of a KPI per such days (`KPIDefinition.population`): the claim's KPI states it.
        public var population: String {
            switch self {
            case .dayInUse: "person-days with the product in use"
            case .dayAppOpened: "person-days with the app opened"
            }
        }

        /// In words, for the report.
        public var words: String {
            switch self {
            case .dayInUse: "per day in use"
            case .dayAppOpened: "per day the app was opened"
            }
        }
    }

    public init(kpi: String, neutralKPI: String, sense: Sense, basis: Basis, statement: String) {
        self.kpi = kpi
        self.neutralKPI = neutralKPI
        self.sense = sense
        self.basis = basis
        self.statement = statement
    }
}
