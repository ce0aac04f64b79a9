import Behavior
import Reports
import RulesCore

extension PersonLife {
    /// Sends an input to the engine and applies the outcome: invariant audit, events (funnel, adapter, trace),
    /// ledger, energy, timers. Returns the decision.
    @discardableResult
    public mutating func send(_ input: Engine.Input, at now: Instant, phoneInUse: Bool = true) -> Engine.Decision {
        engine.handle(input, at: now, into: &out)   // resets `out` itself
        // Invariant audit (issue 6): every engine call is checked; the first violation stops this life.
        let problems = engine.invariantViolations(at: now)
        if !problems.isEmpty && summary.violation == nil {
            summary.violation = InvariantViolation(arm: world.armName, replication: world.replication, seed: world.seed, person: id,
                                                   time: now, input: "\(input)", problems: problems)
            trace(kind: "invariant_violation", detail: "after \(input): " + problems.joined(separator: "; "), at: now)
            stopped = true
        }
        journal?.record(input, out.decision, standing: engine.standing, at: now)
        // Indexed loops: each element is read out of `out` before the handler runs (no iterator copies).
        if untreated {
            // After the uninstall only the store's events happen to the person (`ProductAdapter.outlivesApp`).
            for i in 0..<out.events.count where Adapter.outlivesApp(out.events[i]) { observe(out.events[i], at: now) }
        } else {
            for i in 0..<out.events.count { observe(out.events[i], at: now) }
        }
        for i in 0..<out.ledger.count { book(out.ledger[i]) }
        for i in 0..<out.effects.count { meter.charge(out.effects[i].energyCharge, phoneInUse: phoneInUse) }
        for i in 0..<out.timers.count where out.timers[i].at < horizonEnd {
            let timer = out.timers[i]
            let slot = Adapter.slot(of: timer.kind).map { timerSlots.claim(timer.kind, slot: $0) } ?? timerSlots.slot(for: timer.kind)
            queue.arm(slot: slot, .engine(timer), at: max(timer.at, queue.now))
        }
        summary.eventsSimulated += 1
        return out.decision
    }

    mutating func observe(_ event: Engine.Event, at t: Instant) {
        summary.funnel.observe(event, at: t)
        journal?.record(event, standing: engine.standing, at: t)
        Adapter.observe(event, &self, at: t)
        trace(kind: "engine", detail: event.name + (event.fields.isEmpty ? "" : " " + event.fields.map { "\($0.0)=\($0.1)" }.joined(separator: " ")), at: t)
    }

    /// Books one ledger line: the plan the engine states after it (`holdStanding`), the product's own money figures
    /// (`ProductAdapter.booked`: the ledger is their one source), revenue by the product's source with the store's
    /// commission, a service cost under the product's cost source (no commission), and the consumable months.
    mutating func book(_ entry: LedgerEntry) {
        ledgerLog?.append(entry)
        journal?.ledger.append(entry)
        if entry.kind.movesPlan { holdStanding(after: entry) }
        Adapter.booked(entry, &self)
        summary.world.book(entry, day: Int(zone.localDate(entry.at) - installDay),
                           periodMonths: world.revenueModel.subscriptionPeriodMonths[entry.productID] ?? 0)
        if entry.kind == .trialStart { return }   // no money moves
        let month = zone.monthID(entry.at)
        if entry.kind == .serviceCost {
            summary.revenue.add(month: month, source: world.revenueModel.source(of: .serviceCost), gross: .zero, fee: .zero, cost: entry.amount)
            return
        }
        let isConsumable = entry.kind == .consumablePurchase
        let tenureDays = Int((entry.at - installedAt).milliseconds / 86_400_000)
        let rate = world.storeFees.rate(isSubscription: !isConsumable, paidTenureDays: tenureDays)
        let source = world.revenueModel.source(of: entry.kind)
        if entry.kind == .refund {
            summary.revenue.add(month: month, source: source, gross: .zero, refund: Money(micros: abs(entry.amount.micros)), fee: .zero)
            return
        }
        summary.revenue.add(month: month, source: source, gross: entry.amount, fee: entry.amount.fraction(rate))
        var m = summary.consumableMonths[month, default: ConsumableMonth()]
        if isConsumable { m.consumables += entry.amount; m.sold += 1 } else { m.subscriptions += entry.amount }
        summary.consumableMonths[month] = m
    }

    /// The plan the engine states once a line that moves the plan is booked (`RuleEngine.standing`, principle 6):
    /// the summary keeps the highest plan segment ever held, in the order of the descriptor's `planSegments`
    /// (retention by segment), and whether the person ever bought a subscription (a `subscriptionPurchase` line:
    /// the paying share, subscribers). Derived here once for every product (issue 42), never set by an adapter.
    mutating func holdStanding(after entry: LedgerEntry) {
        if entry.kind == .subscriptionPurchase { summary.everSubscribed = true }
        let segment = engine.standing.segment
        guard segment != summary.planSegment else { return }
        let order = world.revenueModel.planSegments
        if let now = order.firstIndex(of: segment), now > (order.firstIndex(of: summary.planSegment) ?? 0) { summary.planSegment = segment }
    }

    /// The local day on which the person will ask the store to refund a charge made at `now`, or nil if they will
    /// not: one draw from the `features` stream against `PurchaseModel.refundProbability` (their refund propensity,
    /// the value they feel); asked on the third local day after (assumption, audit D11), the same for every
    /// product. The charge is the decision's opportunity (`DecisionKind.refundRequest`, once per charge).
    public mutating func refundRequestDay(at now: Instant) -> Int? {
        let p = world.purchase.refundProbability(propensity: person.featureUse.refundPropensity, valueFelt: engagement.perceivedValue)
        let asks = features.uniform() < p
        decideAtMoment(.refundRequest, moment: now.millisecondsSinceEpoch, asks ? .request : .noRequest, at: now)
        return asks ? dayIndex + 3 : nil
    }

    /// Counts a consumable purchase refused at the product's monthly cap (`RunFigures.consumables`' cap hits, for the
    /// product's own report of its consumables' share).
    public mutating func recordConsumableCapHit(at t: Instant) {
        summary.consumableMonths[zone.monthID(t), default: ConsumableMonth()].capHits += 1
    }
}

extension LedgerEntry.Kind {
    /// A line that may come with a change of plan (a purchase, renewal, upgrade, trial or refund): the life reads the
    /// engine's standing after it. Consumables and service costs never move the plan.
    var movesPlan: Bool { self != .consumablePurchase && self != .serviceCost }
}
