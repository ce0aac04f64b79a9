import Reports
import RulesCore
import Stochastics

// The invariants of the run's own accumulators (`ValidatedAccumulator`), checked when `habitat merge` reads a
// shard record back; each holds for every run (`add` keeps it).

extension FixedPointEnergy {
    /// Every activity's sum is a person's joules added once per person: 0 … people × 2^63 units.
    func validate(_ b: AccumulatorBounds, at path: String) throws(AccumulatorInvalid) {
        let cap = Int128(b.people) * Int128(Int64.max)
        for (i, a) in EnergyActivity.allCases.enumerated() where units[i] < 0 || units[i] > cap {
            throw AccumulatorInvalid("\(path)[\(a.rawValue)]", "\(units[i]) nanojoules is outside 0 … \(b.people) people × 2^63")
        }
    }
}

extension BatteryBudgetAccumulator: ValidatedAccumulator {
    /// Person-days within the bounds; per metric, the devices' histograms hold at most the person-days, each valid,
    /// and their person-days within budget at most their count.
    public func validate(_ b: AccumulatorBounds, at path: String) throws(AccumulatorInvalid) {
        try b.count(personDays, "\(path).person_days")
        var perMetric = [Int](repeating: 0, count: BatteryMetric.allCases.count)
        for (device, cs) in cells {
            try b.size(cs.count, BatteryMetric.allCases.count, "\(path)[\(device)]")
            for (i, metric) in BatteryMetric.allCases.enumerated() {
                let cell = "\(path)[\(device)/\(metric.rawValue)]"
                try cs[i].histogram.validate(b, at: cell)
                try b.subset(cs[i].withinBudget, of: cs[i].histogram.count, "person-days", "\(cell).within_budget")
                perMetric[i] += cs[i].histogram.count
                try b.subset(perMetric[i], of: personDays, "person_days", "\(path)[every device/\(metric.rawValue)].count")
            }
        }
        try energy.validate(b, at: "\(path).energy")
    }
}

extension WorldAccumulator: ValidatedAccumulator {
    public func validate(_ b: AccumulatorBounds, at path: String) throws(AccumulatorInvalid) {
        try counts.validate(b, at: "\(path).counts")
        try b.size(pickupsByHour.count, 24, "\(path).pickups_by_hour")
        var total = b.countTotal("\(path).pickups_by_hour")
        for (h, n) in pickupsByHour.enumerated() { try b.count(n, "\(path).pickups_by_hour[\(h)]"); try total.add(n) }
        try habitDaysTo95.validate(b, at: "\(path).habit_days_to_95")
    }
}

extension DecisionCounts {
    /// Every kind and outcome read is one the product declares (`declared`, its `DecisionLayout`; issue 42), and per
    /// kind: decisions at most the opportunities × the decisions each allows, outcomes adding up to the decisions.
    public func validate(_ b: AccumulatorBounds, at path: String, declared: DecisionLayout) throws(AccumulatorInvalid) {
        let ids = declared.kinds.map(\.id).joined(separator: ", ")
        for (s, k) in layout.kinds.enumerated() {
            let field = "\(path)[\(k.id.echoed())]"
            guard let d = declared.slot(of: k) else {
                throw AccumulatorInvalid(field, "'\(k.id.echoed())' is not a decision kind of this product (it declares \(ids.isEmpty ? "none" : ids))")
            }
            let kind = declared.kinds[d]
            let base = layout.bases[s], opportunities = values[base], decisions = values[base + 1]
            try b.count(opportunities, "\(field).opportunities")
            try b.subset(decisions, of: opportunities * kind.perOpportunity, "opportunities × \(kind.perOpportunity)", "\(field).decisions")
            var sum = 0
            for (j, o) in k.outcomes.enumerated() {
                guard declared.cell(of: o, slot: d) != nil else {
                    throw AccumulatorInvalid("\(field).\(o.id.echoed())", "'\(o.id.echoed())' is not an outcome of decision kind '\(k.id)' (its outcomes: "
                                             + "\(kind.outcomes.map(\.id).joined(separator: ", ")))")
                }
                try b.subset(values[base + 2 + j], of: decisions, "decisions", "\(field).\(o.id)")
                sum += values[base + 2 + j]
            }
            if sum != decisions { throw AccumulatorInvalid("\(field).decisions", "\(decisions), but its outcomes add up to \(sum)") }
        }
    }
}

extension LearningAccumulator: ValidatedAccumulator {
    /// The horizon's weeks × statuses × fields, each a count within the bounds, and each field's weeks within them.
    public func validate(_ b: AccumulatorBounds, at path: String) throws(AccumulatorInvalid) {
        let expected = LearningAccumulator(horizonDays: b.horizonDays)
        if weeks != expected.weeks { throw AccumulatorInvalid("\(path).weeks", "\(weeks); this run's horizon has \(expected.weeks)") }
        try b.size(values.count, expected.values.count, "\(path).values")
        let names = ["person_days", "urges", "shields", "acted", "passed", "habit_millionths", "untreated_urge_millionths", "pickups", "target_app_ms"]
        for f in 0..<Self.fields {
            var total = b.countTotal("\(path).\(names[f])")
            for w in 0..<weeks {
                for s in LearningStatus.allCases {
                    let v = values[(w * LearningStatus.allCases.count + s.rawValue) * Self.fields + f]
                    guard v >= 0, v <= Int64(b.countCap) else {
                        try b.count(Int(clamping: v), "\(path)[week \(w)/\(s.id)].\(names[f])")
                        continue
                    }
                    try total.add(Int(v))
                }
            }
        }
    }
}

extension ComparisonAccumulator: ValidatedAccumulator {
    /// Per persona: counts within the bounds, subsets within their sets (app opened ≤ in use ≤ eligible ≤ people, days with the app opened ≤ days in use ≤ person-days, paying ≤
    /// people, each neutral measure within its declared bound — things done on time ≤ done ≤ arisen, forgotten ≤ arisen
    /// and not done —, and no measure this Habitat does not know); over the personas, people adding up to the
    /// record's and every figure within the bounds.
    public func validate(_ b: AccumulatorBounds, at path: String) throws(AccumulatorInvalid) {
        var people = 0
        var totals: [AccumulatorBounds.Total] = Self.countFields.map { b.countTotal("\(path).\($0.name)") }
        var measureTotals: [AccumulatorBounds.Total] = NeutralMeasure.all.map { b.countTotal("\(path).\($0.id)") }
        var net = b.moneyTotal("\(path).net_revenue_micros")
        for (persona, s) in personas {
            let p = "\(path)[\(persona)]"
            try b.people(s.people, "\(p).people")
            people += s.people
            try b.people(people, "\(path).people (every persona)")
            for (i, f) in Self.countFields.enumerated() {
                let v = s[keyPath: f.value]
                try b.count(v, "\(p).\(f.name)")
                try totals[i].add(v)
            }
            try b.size(s.retentionEligible.count, 3, "\(p).retention_eligible")
            try b.size(s.inUse.count, 3, "\(p).in_use")
            try b.size(s.appOpened.count, 3, "\(p).app_opened")
            for (i, day) in ComparisonSums.retentionDays.enumerated() {
                try b.subset(s.retentionEligible[i], of: s.people, "people", "\(p).retention_eligible[d\(day)]")
                try b.subset(s.inUse[i], of: s.retentionEligible[i], "eligible", "\(p).in_use[d\(day)]")
                // An app opened is the product in use (`PersonLife.recordActiveDay`).
                try b.subset(s.appOpened[i], of: s.inUse[i], "in use", "\(p).app_opened[d\(day)]")
            }
            try b.subset(s.inUseDays, of: s.personDays, "person-days", "\(p).in_use_days")
            try b.subset(s.appOpenedDays, of: s.inUseDays, "days in use", "\(p).app_opened_days")
            try b.subset(s.paying, of: s.people, "people", "\(p).paying")
            if let id = s.measures.unknown.first {
                throw AccumulatorInvalid("\(p).measures[\(id.echoed())]", "'\(id.echoed())' is not a neutral measure of this habitat (it has "
                                         + "\(NeutralMeasure.all.map(\.id).joined(separator: ", ")))")
            }
            for (i, m) in NeutralMeasure.all.enumerated() {
                let v = s.measures.values[i]
                try b.count(v, "\(p).\(m.id)")
                try measureTotals[i].add(v)
                if let bound = m.within?(s) { try b.subset(v, of: bound.set, bound.name, "\(p).\(m.id)") }
            }
            try b.micros(s.netRevenueMicros, signed: true, "\(p).net_revenue_micros"); try net.add(Int(s.netRevenueMicros))
        }
        if people != b.people { throw AccumulatorInvalid("\(path).people", "the personas hold \(people) people; the record \(b.people)") }
    }

    /// The per-person-day counts of `ComparisonSums` (milliseconds and millionths of a percent included).
    static var countFields: [(name: String, value: KeyPath<ComparisonSums, Int>)] { [
        ("person_days", \.personDays), ("pickups", \.pickups), ("sessions", \.sessions), ("sessions_under_30s", \.sessionsUnder30s),
        ("target_app_ms", \.targetAppMsInt), ("urges", \.urges), ("urges_acted", \.urgesActed), ("battery_micro_pct", \.batteryMicroPctInt),
    ] }
}

extension ComparisonSums {
    var targetAppMsInt: Int { Int(targetAppMs) }
    var batteryMicroPctInt: Int { Int(batteryMicroPct) }
}

extension RunAccumulator: ValidatedAccumulator {
    /// Every accumulator of the record, against the product's descriptor (funnel stages, paid segments, trial days)
    /// and the run's horizon.
    public func validate(_ b: AccumulatorBounds, at path: String = "") throws(AccumulatorInvalid) {
        let d = Adapter.Engine.descriptor
        let dot = path.isEmpty ? "" : path + "."
        try common.validate(b, at: "\(dot)common")
        if common[.people] != b.people { throw AccumulatorInvalid("\(dot)common.people", "\(common[.people]); the record holds \(b.people) people") }
        try funnel.validate(b, at: "\(dot)funnel", stages: d.funnel)
        try retention.validate(b, at: "\(dot)retention")
        try consumables.validate(b, at: "\(dot)tokens")   // the shard's name of `consumables`
        try revenue.validate(b, at: "\(dot)revenue")
        try battery.validate(b, at: "\(dot)battery")
        if forecast.paidSegments != d.revenue.paidSegments {
            throw AccumulatorInvalid("\(dot)forecast.paid_segments", "\(forecast.paidSegments); the product's are \(d.revenue.paidSegments)")
        }
        try forecast.validate(b, at: "\(dot)forecast")
        try trueSavedPerDay.validate(b, at: "\(dot)true_saved_per_day")
        try b.micros(mrrAtEnd.micros, "\(dot)mrr_at_end")
        var churn = 0
        for (kind, n) in churned {
            try b.people(n, "\(dot)churned[\(kind)]")
            churn += n
            try b.people(churn, "\(dot)churned (every kind)")
        }
        try product.validate(b, at: "\(dot)product")
        if world.trialDays != d.revenue.trialDays {
            throw AccumulatorInvalid("\(dot)world.trial_days", "\(world.trialDays.map(String.init) ?? "none"); the product's are \(d.revenue.trialDays.map(String.init) ?? "none")")
        }
        try world.validate(b, at: "\(dot)world")
        try decisions.validate(b, at: "\(dot)decisions", declared: .of(Adapter.self))
        try learning.validate(b, at: "\(dot)learning")
        try comparison.validate(b, at: "\(dot)comparison")
    }
}
