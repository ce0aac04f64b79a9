import Foundation
import Testing
import Stochastics
@testable import Behavior

@Suite("Tier × period purchase choice (audit D7)")
struct PlanOfferTests {
    let model = PurchaseModel()
    /// Premium-like monthly, Pro-like monthly and annual (the charter's prices, as generic tiers).
    let three = Paywall(reason: .tierLimit, offers: [
        PlanOffer(id: 10, tierRank: 1, periodMonths: 1, priceUSD: 4.99),
        PlanOffer(id: 20, tierRank: 2, periodMonths: 1, priceUSD: 8.99),
        PlanOffer(id: 21, tierRank: 2, periodMonths: 12, priceUSD: 59.99),
    ])

    @Test("three offers: every option is chosen over 40 000 draws (seed 7), shares match the probabilities ±0.01")
    func everyOptionChosen() {
        let rng = RandomStream(seed: 7)
        var counts = [0, 0, 0, 0]   // none, offers 0…2
        let n = 40_000
        for i in 0..<n {
            let wtp = [2.5, 6.0, 12.0][i % 3]
            counts[(model.choose(three, willingnessToPay: wtp, valueFelt: 0.6, rng: rng) ?? -1) + 1] += 1
        }
        #expect(counts.allSatisfy { $0 > 0 }, "counts \(counts)")
        var expected = [0.0, 0, 0, 0]
        for wtp in [2.5, 6.0, 12.0] {
            let p = model.offerProbabilities(three, willingnessToPay: wtp, valueFelt: 0.6)
            #expect(abs(p.none + p.offers.reduce(0, +) - 1) < 1e-12)
            #expect(p.offers.allSatisfy { $0 > 0 })
            expected[0] += p.none / 3
            for j in 0..<3 { expected[j + 1] += p.offers[j] / 3 }
        }
        for j in 0..<4 { #expect(abs(Double(counts[j]) / Double(n) - expected[j]) < 0.01, "option \(j)") }
    }

    @Test("the annual discount is taken against the same tier's monthly price, and only when it is offered")
    func discountAgainstSameTier() {
        let annual = three.offers[2]
        let alone = Paywall(reason: .tierLimit, offers: [annual])
        let withOtherTier = Paywall(reason: .tierLimit, offers: [three.offers[0], annual])
        let u = { (p: Paywall) in model.offerUtility(annual, at: p, willingnessToPay: 5, valueFelt: 0.5) }
        #expect(u(withOtherTier) == u(alone), "a lower tier's monthly price is no reference for this tier's annual")
        #expect(abs(u(three) - u(alone) - model.wDiscount * log(12 * 8.99 / 59.99)) < 1e-12)
        // Surplus at the monthly-equivalent price: the annual alone is the monthly at 59.99/12 plus the period terms.
        let monthlyAtEquivalent = PlanOffer(id: 0, tierRank: 2, periodMonths: 1, priceUSD: 59.99 / 12)
        let uMonthly = model.offerUtility(monthlyAtEquivalent, at: alone, willingnessToPay: 5, valueFelt: 0.5)
        #expect(abs(u(alone) - uMonthly - model.annualConstant) < 1e-12)
    }

    @Test("higher willingness to pay moves choice up the tiers")
    func tierValue() {
        func ratio(_ wtp: Double) -> Double {
            let p = model.offerProbabilities(three, willingnessToPay: wtp, valueFelt: 0.5).offers
            return (p[1] + p[2]) / p[0]
        }
        #expect(ratio(3) < ratio(10))
        #expect(ratio(10) < ratio(40))
        let rank0 = Paywall(reason: .other, offers: three.offers.map { var o = $0; o.tierRank = 0; return o })
        // Without tier differences the cheaper monthly always beats the dearer one.
        let p = model.offerProbabilities(rank0, willingnessToPay: 40, valueFelt: 0.5).offers
        #expect(p[0] > p[1])
    }

    @Test("a plan priced 0 goes through the one-cent floor: finite, sums to 1, bought at least as often", arguments: [0.0, 4.99])
    func freeOffers(monthly: Double) {
        let free = Paywall(reason: .tierLimit, offers: [
            PlanOffer(id: 0, tierRank: 1, periodMonths: 1, priceUSD: monthly),
            PlanOffer(id: 1, tierRank: 2, periodMonths: 1, priceUSD: 0),
            PlanOffer(id: 2, tierRank: 2, periodMonths: 12, priceUSD: 0),
        ])
        for wtp in [0.0, 2.5, 200] {
            let p = model.offerProbabilities(free, willingnessToPay: wtp, valueFelt: 0.5)
            #expect(([p.none] + p.offers).allSatisfy { $0.isFinite && $0 >= 0 })
            #expect(abs(p.none + p.offers.reduce(0, +) - 1) < 1e-12)
            #expect(p.none <= model.offerProbabilities(three, willingnessToPay: wtp, valueFelt: 0.5).none)
        }
        #expect(free.offers[1].monthlyEquivalentUSD == PurchaseModel.priceFloorUSD)
    }

    @Test("one tier with matchingTwoOptionForm() reproduces the two-option form (none, monthly, annual) to 1e-12")
    func reproducesTwoOptionForm() {
        let legacy = model.matchingTwoOptionForm()
        for (monthly, annual) in [(4.99, 59.99), (4.99, 39.99), (8.99, 59.99), (0, 59.99), (4.99, 0)] {
            for reason in PaywallReason.allCases {
                for wtp in [0.0, 1, 2.5, 9, 50] {
                    for v in [0, 0.3, 0.5, 0.9] {
                        let m = PaywallMoment(reason: reason, monthlyPriceUSD: monthly, annualPriceUSD: annual)
                        let old = model.purchaseProbabilities(m, willingnessToPay: wtp, valueFelt: v)
                        let new = legacy.offerProbabilities(Paywall(m), willingnessToPay: wtp, valueFelt: v)
                        #expect(abs(old.none - new.none) < 1e-12 && abs(old.monthly - new.offers[0]) < 1e-12 && abs(old.annual - new.offers[1]) < 1e-12)
                    }
                }
            }
        }
        let m = PaywallMoment(reason: .other, monthlyPriceUSD: 4.99)
        #expect(Paywall(m).offers.count == 1)
    }

    @Test("upgrade: only higher tiers, the current plan as status quo; more WTP, more upgrades (seed 9, 10 000 draws)")
    func upgrade() {
        let current = three.offers[0]
        let low = model.upgradeProbabilities(three, current: current, willingnessToPay: 4, valueFelt: 0.5)
        let high = model.upgradeProbabilities(three, current: current, willingnessToPay: 30, valueFelt: 0.5)
        #expect(low.offers[0] == 0 && high.offers[0] == 0)
        #expect(abs(low.keep + low.offers.reduce(0, +) - 1) < 1e-12)
        #expect(low.keep > 0.5)
        #expect(high.keep < low.keep)
        let rng = RandomStream(seed: 9)
        var seen = Set<Int?>()
        for _ in 0..<10_000 { seen.insert(model.chooseUpgrade(three, current: current, willingnessToPay: 30, valueFelt: 0.5, rng: rng)) }
        #expect(seen == [nil, 1, 2])
        // Already on the top tier: nothing to upgrade to.
        #expect(model.upgradeProbabilities(three, current: three.offers[2], willingnessToPay: 30, valueFelt: 0.5).keep == 1)
        #expect(model.chooseUpgrade(three, current: three.offers[1], willingnessToPay: 30, valueFelt: 0.5, rng: rng) == nil)
    }

    @Test func refunds() {
        #expect(abs(model.refundProbability(propensity: 0.03, valueFelt: 0.5) - 0.03) < 1e-12)
        #expect(model.refundProbability(propensity: 0.03, valueFelt: 0.1) > 0.03)
        #expect(model.refundProbability(propensity: 0.03, valueFelt: 0.9) < 0.03)
        #expect(model.refundProbability(propensity: 0, valueFelt: 0.5) < 1e-5)
    }
}

@Suite("If-then plans and friction exercises at the shield (audit D4, D6)")
struct PlansAtTheShieldTests {
    static let model = ShieldChoiceModel()
    var model: ShieldChoiceModel { Self.model }
    let options: [OfferedOption] = [.init(.close), .init(model.spendCredits, creditCostSeconds: 300), .init(.open(fulfilment: 0.6, constant: 0.2)),
                                    .init(.reflect), .init(.open(fulfilment: 1, constant: -0.5))]
    let context = ChoiceContext(urgeStrength: 0.7, creditScarcity: 0.2)

    @Test("plans lower acting, with diminishing returns; no plans change nothing")
    func plans() {
        var c = context
        let acting = (0...5).map { n -> Double in c.ifThenPlans = n; return model.actingProbability(options, context: c) }
        for n in 1...5 { #expect(acting[n] < acting[n - 1]) }
        for n in 2...5 { #expect(acting[n - 1] - acting[n] < acting[n - 2] - acting[n - 1]) }
        #expect(abs(model.planEffect(1) - 0.65 * Double.pi / 3.0.squareRoot() / 2) < 1e-12)
        #expect(model.planEffect(0) == 0 && model.planEffect(-1) == 0)
        c.ifThenPlans = 0
        #expect(model.probabilities(options, context: c) == model.probabilities(options, context: context))
        // Non-acting options keep their utility.
        c.ifThenPlans = 3
        #expect(model.utility(options[0], c) == model.utility(options[0], context))
        #expect(model.utility(options[3], c) == model.utility(options[3], context))
    }

    @Test("a skipped exercise is not done: only a completed one lowers acting")
    func skippedIsNotDone() {
        var skipped = context, done = context
        skipped.exercise = .skipped
        done.exercise = .completed
        #expect(model.actingProbability(options, context: skipped) == model.actingProbability(options, context: context))
        #expect(model.actingProbability(options, context: done) < model.actingProbability(options, context: context))
        // The two-state form maps onto it.
        #expect(done.mindfulnessDone && !skipped.mindfulnessDone)
        let old = ChoiceContext(urgeStrength: 0.7, creditScarcity: 0.2, mindfulnessDone: true)
        #expect(old == done)
        var c = done
        c.mindfulnessDone = false
        #expect(c.exercise == ExerciseOutcome.none)
    }
}

@Suite("Planning and feature-use traits (audit D4, D11)")
struct PersonTraitTests {
    @Test("the later traits come from their own stream: population draws are untouched (seed 12, 200 people)")
    func ownStream() {
        for persona in PersonaCatalog.builtIn.values {
            for id in UInt64(0)..<200 {
                let key = StreamKey(seed: 12, replication: 1, person: id, stream: .population)
                let person = Person.draw(persona: persona, id: id, seed: 12, replication: 1)
                var core = Person.drawCore(persona: persona, id: id, rng: RandomStream(key: key))
                #expect(core.phoneUse == person.phoneUse && core.apps == person.apps
                        && core.willingnessToPayUSDPerMonth == person.willingnessToPayUSDPerMonth && core.appOpenHabit == person.appOpenHabit)
                let later = PersonTraits.draw(persona: persona, rng: RandomStream(key: key.with(stream: .personTraits)))
                #expect(later.planning == person.planning && later.featureUse == person.featureUse)
                core.planning = later.planning
                core.featureUse = later.featureUse
                // Things to do (issue 29): their traits from their own stream too.
                let tasks = TaskTraits.draw(persona: persona, rng: RandomStream(key: key.with(stream: TaskTraits.stream)))
                #expect(tasks == person.tasks)
                core.tasks = tasks
                #expect(core == person)
                #expect(Person.draw(persona: persona, id: id, rng: RandomStream(key: key)) == person)
            }
        }
    }

    @Test("traits within range for every persona; plan counts 1…5 (seed 3, 2 000 people each)")
    func ranges() {
        var meanBedtime: [String: Double] = [:]
        var planShares: [String: [Double]] = [:]
        for (name, persona) in PersonaCatalog.builtIn {
            var shares = [Double](repeating: 0, count: 6)
            var bedtime = 0.0
            for id in UInt64(0)..<2000 {
                let p = Person.draw(persona: persona, id: id, seed: 3, replication: 0)
                #expect((1...5).contains(p.planning.ifThenPlans))
                shares[p.planning.ifThenPlans] += 1 / 2000
                #expect((0...1).contains(p.planning.stepCompletion))
                let f = p.featureUse
                for x in [f.bedtimeSchedulePropensity, f.perAppBudgetPropensity, f.frictionOptOutPropensity, f.exerciseSkipProbability,
                          f.disableRestrictionExitShare, f.refundPropensity, f.clockChangePropensity] {
                    #expect((0...1).contains(x))
                }
                #expect((18...28).contains(f.bedtimeScheduleStartHour) && (4...12).contains(f.bedtimeScheduleEndHour))
                bedtime += f.bedtimeSchedulePropensity / 2000
            }
            meanBedtime[name] = bedtime
            planShares[name] = shares
        }
        #expect(meanBedtime["late-night-scroller"]! > 0.6 && meanBedtime["general"]! < 0.35)
        // General: rounded lognormal(median 2, σ 0.6): 1…5 at ≈ 0.32, 0.33, 0.18, 0.09, 0.09 (±0.03).
        for (k, expected) in zip(1...5, [0.32, 0.33, 0.18, 0.09, 0.09]) {
            #expect(abs(planShares["general"]![k] - expected) < 0.03, "\(k) plans")
        }
        #expect(planShares["general"]!.allSatisfy { $0 < 0.5 })
    }

    @Test("overridable like every persona parameter, with suggestions")
    func overrides() throws {
        let p = try PersonaCatalog.general.applying(overrides: ["if_then_plans": .fixed(4), "bedtime_schedule_propensity": .fixed(1)])
        let x = Person.draw(persona: p, id: 2, seed: 1, replication: 0)
        #expect(x.planning.ifThenPlans == 4 && x.featureUse.bedtimeSchedulePropensity == 1)
        let y = Person.draw(persona: try PersonaCatalog.general.applying(overrides: ["if_then_plans": .fixed(9)]), id: 2, seed: 1, replication: 0)
        #expect(y.planning.ifThenPlans == 5, "clamped to 1…5")
        #expect(throws: PersonaError.unknownParameter("if_then_plan", suggestion: "if_then_plans")) {
            try PersonaCatalog.general.applying(overrides: ["if_then_plan": .fixed(3)])
        }
    }

    @Test("the planning step at the default completion decides exactly as the configuration step (seed 21)")
    func planningStep() {
        let planning = PlanningTraits()
        for comfort in [0.0, 0.3, 0.5, 0.8, 1.0] {
            #expect(planning.stepCompletionProbability(techComfort: comfort)
                    == EngagementModel.onboardingCompletionProbability(.configuration, techComfort: comfort))
            let a = RandomStream(seed: 21), b = RandomStream(seed: 21)
            for _ in 0..<500 {
                #expect(planning.completesStep(techComfort: comfort, rng: a) == EngagementModel.completesStep(.configuration, techComfort: comfort, rng: b))
            }
        }
        #expect(PlanningTraits(stepCompletion: 0.5).stepCompletionProbability(techComfort: 0.5) == 0.5)
    }

    @Test("disabling the restriction replaces a share of uninstalls; share 0 decides as before (seed 30, 40 000 days)")
    func disableRestrictionExit() {
        var e = EngagementModel()
        for _ in 0..<6 { e.record(.paywallHit) }
        let h = e.churnHazardPerDay
        let a = RandomStream(seed: 30), b = RandomStream(seed: 30), c = RandomStream(seed: 30)
        var counts: [ChurnKind: Int] = [:]
        var allOut = 0
        for _ in 0..<40_000 {
            let old = e.dailyChurnDecision(rng: a)
            #expect(e.dailyChurnDecision(rng: b, disableRestrictionShare: 0) == old)
            let new = e.dailyChurnDecision(rng: c, disableRestrictionShare: 0.3)
            if let new { counts[new, default: 0] += 1 }
            #expect((new == nil) == (old == nil))
            #expect(new == old || (old == .uninstall && new == .disableRestriction))
            if e.dailyChurnDecision(rng: RandomStream(seed: 1), disableRestrictionShare: 1) == .uninstall { allOut += 1 }
        }
        #expect(allOut == 0)
        let leaves = Double(counts.values.reduce(0, +))
        #expect(abs(leaves / 40_000 - h) < 0.01)
        let disabled = Double(counts[.disableRestriction] ?? 0) / leaves
        #expect(abs(disabled - 0.35 * 0.3) < 0.03, "share \(disabled)")
    }
}

/// Audit 2026-11-25 E13. Seed 003 §5 "Purchase options (Pro): Monthly subscription (auto-renew); Annual subscription
/// (auto-renew, includes free trial)" — two plans a person chooses between. A trial on the annual plan alone made it
/// the only plan anyone chose (0 monthly sold): the period choice must come from the person, the trial only lowers
/// the step of taking Pro at all.
@Suite("A trial on one plan does not decide the billing period (audit 2026-11-25 E13)")
struct TrialAndPeriodTests {
    let model = PurchaseModel()
    func paywall(trial: Int) -> Paywall {
        Paywall(reason: .tierLimit, offers: [PlanOffer(id: 0, tierRank: 1, periodMonths: 1, priceUSD: 7.99),
                                             PlanOffer(id: 1, tierRank: 1, periodMonths: 12, priceUSD: 49.99, trialDays: trial)])
    }

    @Test("with the trial on the annual plan, buyers split between monthly and annual as they do without it; more of them buy")
    func periodSplitIsThePersons() {
        for (wtp, value) in [(3.0, 0.3), (8.0, 0.5), (15.0, 0.8)] {
            let with = model.offerProbabilities(paywall(trial: 7), willingnessToPay: wtp, valueFelt: value)
            let without = model.offerProbabilities(paywall(trial: 0), willingnessToPay: wtp, valueFelt: value)
            let monthlyShareWith = with.offers[0] / (with.offers[0] + with.offers[1])
            let monthlyShareWithout = without.offers[0] / (without.offers[0] + without.offers[1])
            #expect(abs(monthlyShareWith - monthlyShareWithout) < 1e-9)
            #expect(monthlyShareWith > 0.05, "some buyers choose monthly (\(monthlyShareWith))")
            #expect(with.none < without.none)
            #expect(abs(with.none + with.offers.reduce(0, +) - 1) < 1e-12)
        }
    }

    @Test("without a trial on the paywall the choice is the flat logit it always was")
    func noTrialIsFlat() {
        let p = model.offerProbabilities(paywall(trial: 0), willingnessToPay: 8, valueFelt: 0.5)
        let u = paywall(trial: 0).offers.map { model.offerUtility($0, at: paywall(trial: 0), willingnessToPay: 8, valueFelt: 0.5) }
        let z = 1 + u.map(exp).reduce(0, +)
        #expect(abs(p.none - 1 / z) < 1e-12 && abs(p.offers[0] - exp(u[0]) / z) < 1e-12)
    }
}
