import RulesCore
import Stochastics

// The invariants of the report accumulators (`ValidatedAccumulator`), each one that `add` keeps for every run.

extension FunnelAccumulator: ValidatedAccumulator {
    /// Everyone enters the funnel; a stage's basis population is at most everyone, and its users at most its basis
    /// population (the chain is checked against the stages: `validate(_:at:stages:)`).
    public func validate(_ b: AccumulatorBounds, at path: String) throws(AccumulatorInvalid) {
        if people != b.people { throw AccumulatorInvalid("\(path).people", "\(people); the record holds \(b.people) people") }
        try b.size(eligible.count, reached.count, "\(path).eligible")
        for i in reached.indices {
            try b.subset(eligible[i], of: people, "people", "\(path).eligible[\(i + 1)]")
            try b.subset(reached[i], of: eligible[i], "its basis population", "\(path).reached[\(i + 1)]")
        }
    }

    /// As `validate(_:at:)`, and against the funnel's stages: a stage whose basis counts everyone has everyone in
    /// it, and a chained stage counts a person only if its chain predecessor did.
    public func validate(_ b: AccumulatorBounds, at path: String, stages: [FunnelStage]) throws(AccumulatorInvalid) {
        try validate(b, at: path)
        try b.size(reached.count, stages.count, "\(path).reached")
        for (i, s) in stages.enumerated() {
            if s.basis.includes(observedDays: 0), eligible[i] != people {
                throw AccumulatorInvalid("\(path).eligible[\(i + 1)]", "\(eligible[i]); every one of the \(people) people is in stage \(s.id)'s basis")
            }
            guard s.chained else { continue }
            let p = FunnelStage.chainPredecessor(of: i, in: stages)
            try b.subset(reached[i], of: p.map { reached[$0] } ?? people, p.map { "stage \($0 + 1)" } ?? "people", "\(path).reached[\(i + 1)]")
        }
    }
}

extension RetentionAccumulator: ValidatedAccumulator {
    /// Days 0…horizon in every cell; people observable on day N (eligible) never more than the record's people nor
    /// than on day N − 1; people active never more than those observable.
    public func validate(_ b: AccumulatorBounds, at path: String) throws(AccumulatorInvalid) {
        if maxDay != b.horizonDays { throw AccumulatorInvalid("\(path).max_day", "\(maxDay); this run's horizon is \(b.horizonDays) days") }
        for (k, c) in cells {
            let cell = "\(path)[\(k.cohort)/\(k.segment)/\(k.activity.rawValue)]"
            try b.size(c.eligible.count, maxDay + 1, "\(cell).eligible")
            try b.size(c.active.count, maxDay + 1, "\(cell).active")
            var before = b.people
            for d in 0...maxDay {
                try b.subset(c.eligible[d], of: before, d == 0 ? "people" : "eligible on day \(d - 1)", "\(cell).eligible[\(d)]")
                try b.subset(c.active[d], of: c.eligible[d], "eligible", "\(cell).active[\(d)]")
                before = c.eligible[d]
            }
        }
    }
}

extension RevenueAccumulator: ValidatedAccumulator {
    /// Money within the bounds in every cell and summed over the cells (gross and fees go negative with an upgrade's
    /// credit; refunds and costs do not); transactions counts; paying people at most the record's people per cell.
    public func validate(_ b: AccumulatorBounds, at path: String) throws(AccumulatorInvalid) {
        var gross = b.moneyTotal("\(path).gross"), refunds = b.moneyTotal("\(path).refunds"), fees = b.moneyTotal("\(path).store_fee")
        var cost = b.moneyTotal("\(path).cost"), transactions = b.countTotal("\(path).transactions"), paying = b.countTotal("\(path).paying_people")
        for (k, t) in cells {
            let cell = "\(path)[\(k.month)/\(k.source)]"
            try b.micros(t.gross.micros, signed: true, "\(cell).gross"); try gross.add(Int(t.gross.micros))
            try b.micros(t.refunds.micros, "\(cell).refunds"); try refunds.add(Int(t.refunds.micros))
            try b.micros(t.storeFee.micros, signed: true, "\(cell).store_fee"); try fees.add(Int(t.storeFee.micros))
            try b.micros(t.cost.micros, "\(cell).cost"); try cost.add(Int(t.cost.micros))
            try b.count(t.transactions, "\(cell).transactions"); try transactions.add(t.transactions)
            try b.people(t.payingPeople, "\(cell).paying_people"); try paying.add(t.payingPeople)
        }
    }
}

extension ConsumableAccumulator: ValidatedAccumulator {
    /// Money within the bounds per month and over the months; consumables sold and cap hits counts; buyers at most
    /// the people.
    public func validate(_ b: AccumulatorBounds, at path: String) throws(AccumulatorInvalid) {
        var consumable = b.moneyTotal("\(path).consumable_gross"), sub = b.moneyTotal("\(path).subscription_gross")
        var other = b.moneyTotal("\(path).other_gross")
        var sold = b.countTotal("\(path).sold"), buyers = b.countTotal("\(path).buyers"), caps = b.countTotal("\(path).cap_hits")
        for (id, m) in months {
            let cell = "\(path)[\(id)]"
            try b.micros(m.consumableGross.micros, signed: true, "\(cell).consumable_gross"); try consumable.add(Int(m.consumableGross.micros))
            try b.micros(m.subscriptionGross.micros, signed: true, "\(cell).subscription_gross"); try sub.add(Int(m.subscriptionGross.micros))
            try b.micros(m.otherGross.micros, signed: true, "\(cell).other_gross"); try other.add(Int(m.otherGross.micros))
            try b.count(m.sold, "\(cell).sold"); try sold.add(m.sold)
            try b.people(m.buyers, "\(cell).buyers"); try buyers.add(m.buyers)
            try b.count(m.capHits, "\(cell).cap_hits"); try caps.add(m.capHits)
        }
    }
}

extension ForecastAccumulator: ValidatedAccumulator {
    /// Per month: installs, active and paying people at most the record's people (one plan a person), MRR money.
    public func validate(_ b: AccumulatorBounds, at path: String) throws(AccumulatorInvalid) {
        var mrr = b.moneyTotal("\(path).mrr")
        for (id, m) in months {
            let cell = "\(path)[\(id)]"
            try b.people(m.installs, "\(cell).installs")
            try b.people(m.active, "\(cell).active")
            try b.size(m.paying.count, paidSegments.count, "\(cell).paying")
            var payers = 0
            for (i, n) in m.paying.enumerated() {
                try b.people(n, "\(cell).paying[\(paidSegments[i])]")
                payers += n
            }
            try b.people(payers, "\(cell).paying (every plan)")
            try b.micros(m.mrr.micros, "\(cell).mrr"); try mrr.add(Int(m.mrr.micros))
        }
    }
}

extension LogHistogram: ValidatedAccumulator {
    /// Its own consistency (`LogHistogram.inconsistency`) and a count within the bounds.
    public func validate(_ b: AccumulatorBounds, at path: String) throws(AccumulatorInvalid) {
        try b.count(count, "\(path).count")
        if let problem = inconsistency { throw AccumulatorInvalid(path, problem) }
    }
}
