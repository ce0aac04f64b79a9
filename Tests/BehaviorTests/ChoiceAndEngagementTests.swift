import Testing
import Stochastics
@testable import Behavior

@Suite("Shield choice (multinomial logit)")
struct ShieldChoiceTests {
    static let model = ShieldChoiceModel()
    var model: ShieldChoiceModel { Self.model }
    /// A product's buttons are roles it builds from its own constants (issue 42); these are Scroll Off's defaults.
    static let peek = OptionRole.open(fulfilment: 0.6, constant: 0.2), useToken = OptionRole.open(fulfilment: 1, constant: -0.5)
    static let buyToken = OptionRole.open(fulfilment: 1, constant: -0.8), unblock = OptionRole.open(fulfilment: 1.1, constant: -1.5)
    let all: [OfferedOption] = [
        .init(.close), .init(model.spendCredits, creditCostSeconds: 300), .init(Self.peek, frictionSeconds: 10),
        .init(.reflect, frictionSeconds: 30), .init(Self.buyToken, priceUSD: 0.99),
        .init(Self.useToken), .init(Self.unblock, frictionSeconds: 20), .init(.giveUp),
    ]
    let context = ChoiceContext(urgeStrength: 0.6, creditScarcity: 0.3)

    @Test func probabilitiesSumToOne() {
        for urge in stride(from: 0.0, through: 1, by: 0.25) {
            var c = context; c.urgeStrength = urge
            let p = model.probabilities(all, context: c)
            #expect(abs(p.reduce(0, +) - 1) < 1e-12)
            #expect(p.allSatisfy { $0 > 0 })
        }
    }

    @Test func higherPriceLowersBuying() {
        var cheap = all, dear = all
        cheap[4].priceUSD = 0.99; dear[4].priceUSD = 4.99
        #expect(model.probabilities(dear, context: context)[4] < model.probabilities(cheap, context: context)[4])
    }

    @Test func higherUrgeRaisesActing() {
        var weak = context, strong = context
        weak.urgeStrength = 0.2; strong.urgeStrength = 0.9
        #expect(model.actingProbability(all, context: strong) > model.actingProbability(all, context: weak) + 0.1)
    }

    @Test func mindfulnessLowersActing() {
        var after = context; after.mindfulnessDone = true
        #expect(model.actingProbability(all, context: after) < model.actingProbability(all, context: context))
    }

    @Test("only offered options are chosen; empirical shares match the probabilities (seed 17, 20 000 draws, ±0.015)")
    func onlyOffered() {
        let offered = [OfferedOption(.close), OfferedOption(Self.peek), OfferedOption(Self.unblock)]
        let rng = RandomStream(seed: 17)
        var counts = [0, 0, 0]
        for _ in 0..<20_000 { counts[model.choose(offered, context: context, rng: rng)] += 1 }
        let p = model.probabilities(offered, context: context)
        for i in 0..<3 { #expect(abs(Double(counts[i]) / 20_000 - p[i]) < 0.015) }
        #expect(model.choose([OfferedOption(.close)], context: context, rng: rng) == 0)
    }
}

@Suite("Engagement, churn and onboarding")
struct EngagementTests {
    @Test func frustrationRaisesAndValueLowersChurn() {
        var e = EngagementModel()
        let h0 = e.churnHazardPerDay
        var f = e
        for _ in 0..<5 { f.record(.paywallHit); f.record(.frustration(0.08)) }
        #expect(f.churnHazardPerDay > h0 * 1.5)
        for _ in 0..<10 { e.record(.resistedUrge); e.record(.minutesSaved(30)) }
        #expect(e.churnHazardPerDay < h0 * 0.7)
        for _ in 0..<30 { f.endOfDay() }
        #expect(f.frustration < 0.01, "frustration fades")
    }

    @Test("churn decisions follow the hazard (seed 8, 20 000 days, ±0.01)")
    func churnDraws() {
        let e = EngagementModel()
        let rng = RandomStream(seed: 8)
        var leaves = 0
        for _ in 0..<20_000 where e.dailyChurnDecision(rng: rng) != nil { leaves += 1 }
        #expect(abs(Double(leaves) / 20_000 - e.churnHazardPerDay) < 0.01)
    }

    @Test func appOpenHabitGrowsWithOpens() {
        var e = EngagementModel(appOpenHabit: 0.1)
        let before = e.appOpenProbability(cue: .notification)
        for _ in 0..<20 { e.record(.appOpened) }
        #expect(e.appOpenProbability(cue: .notification) > before)
        #expect(e.appOpenProbability(cue: .notification) > e.appOpenProbability(cue: .none))
    }

    @Test func onboardingDependsOnTechComfort() {
        for k in OnboardingStepKind.allCases {
            #expect(EngagementModel.onboardingCompletionProbability(k, techComfort: 0.9) > EngagementModel.onboardingCompletionProbability(k, techComfort: 0.2))
            #expect(abs(EngagementModel.onboardingCompletionProbability(k, techComfort: 0.5) - k.baseCompletion) < 1e-12)
        }
    }
}

@Suite("Purchases")
struct PurchaseTests {
    let model = PurchaseModel()

    @Test("first monthly renewal ≈ 56% at the reference; simulated over 20 000 draws (seed 56) within ±0.015")
    func renewal() {
        let p = model.renewalProbability(plan: .monthly, priceUSDPerMonth: 4.99, willingnessToPay: 4.99, valueFelt: 0.5, isFirstRenewal: true)
        let rng = RandomStream(seed: 56)
        var n = 0
        for _ in 0..<20_000 where model.renews(plan: .monthly, priceUSDPerMonth: 4.99, willingnessToPay: 4.99, valueFelt: 0.5, isFirstRenewal: true, rng: rng) { n += 1 }
        #expect(abs(Double(n) / 20_000 - 0.56) < 0.015)
        #expect(abs(p - 0.56) < 1e-9)
        #expect(model.renewalProbability(plan: .monthly, priceUSDPerMonth: 4.99, willingnessToPay: 4.99, valueFelt: 0.8, isFirstRenewal: true) > p)
        #expect(model.renewalProbability(plan: .monthly, priceUSDPerMonth: 9.99, willingnessToPay: 4.99, valueFelt: 0.5, isFirstRenewal: true) < p)
    }

    @Test func trialConversionInRange() {
        let p = model.trialConversionProbability(priceUSDPerMonth: 4.99, willingnessToPay: 4.99, valueFelt: 0.5)
        #expect((0.34...0.38).contains(p))
    }

    @Test func priceAndWillingnessDriveBuying() {
        let m = PaywallMoment(reason: .tierLimit, monthlyPriceUSD: 4.99, annualPriceUSD: 39.99)
        let base = model.purchaseProbabilities(m, willingnessToPay: 3, valueFelt: 0.5)
        var dear = m; dear.monthlyPriceUSD = 7.99; dear.annualPriceUSD = 59.99
        let d = model.purchaseProbabilities(dear, willingnessToPay: 3, valueFelt: 0.5)
        #expect(1 - d.none < 1 - base.none)
        let rich = model.purchaseProbabilities(m, willingnessToPay: 15, valueFelt: 0.5)
        #expect(1 - rich.none > 1 - base.none)
        #expect(abs(base.none + base.monthly + base.annual - 1) < 1e-12)
        let noAnnual = model.purchaseProbabilities(PaywallMoment(reason: .tierLimit, monthlyPriceUSD: 4.99), willingnessToPay: 3, valueFelt: 0.5)
        #expect(noAnnual.annual == 0)
        let rng = RandomStream(seed: 1)
        for _ in 0..<1000 { #expect(model.decide(PaywallMoment(reason: .other, monthlyPriceUSD: 4.99), willingnessToPay: 3, valueFelt: 0.5, rng: rng) != .annual) }
    }

    @Test("a plan priced 0 is a free plan: finite probabilities, bought more than at any price (rules.prices.* allow 0)",
          arguments: [(0.0, 59.99), (4.99, 0.0), (0.0, 0.0)])
    func freePlan(monthly: Double, annual: Double) {
        let free = PaywallMoment(reason: .tierLimit, monthlyPriceUSD: monthly, annualPriceUSD: annual)
        let paid = PaywallMoment(reason: .tierLimit, monthlyPriceUSD: 4.99, annualPriceUSD: 59.99)
        for wtp in [0.0, 2.5, 200] {
            let p = model.purchaseProbabilities(free, willingnessToPay: wtp, valueFelt: 0.5)
            #expect([p.none, p.monthly, p.annual].allSatisfy { $0.isFinite && $0 >= 0 })
            #expect(abs(p.none + p.monthly + p.annual - 1) < 1e-12)
            #expect(p.none <= model.purchaseProbabilities(paid, willingnessToPay: wtp, valueFelt: 0.5).none)
        }
        let renew = model.renewalProbability(plan: .monthly, priceUSDPerMonth: 0, willingnessToPay: 2.5, valueFelt: 0.5, isFirstRenewal: true)
        #expect(renew.isFinite && renew > 0.99 && renew < 1)
        let trial = model.trialConversionProbability(priceUSDPerMonth: 0, willingnessToPay: 2.5, valueFelt: 0.5)
        #expect(trial.isFinite && trial > 0.9 && trial < 1)
    }
}

@Suite("Personas")
struct PersonaTests {
    @Test func builtInPersonasExist() throws {
        for name in ["general", "student", "worker", "late-night-scroller", "adhd-adult"] {
            #expect(try PersonaCatalog.persona(named: name).name == name)
        }
        #expect(throws: PersonaError.unknownPersona("studnet", suggestion: "student")) { try PersonaCatalog.persona(named: "studnet") }
    }

    @Test func overrides() throws {
        let p = try PersonaCatalog.general.applying(overrides: ["pickups_per_day": .fixed(50)])
        #expect(p[.pickupsPerDay] == .fixed(50))
        let person = Person.draw(persona: p, id: 1, seed: 1, replication: 0)
        #expect(person.phoneUse.pickupsPerDay == 50)
        #expect(throws: PersonaError.unknownParameter("pickups_per_dya", suggestion: "pickups_per_day")) {
            try PersonaCatalog.general.applying(overrides: ["pickups_per_dya": .fixed(50)])
        }
        do {
            _ = try PersonaCatalog.general.applying(overrides: ["burstines": .fixed(0.3), "tech_comfort": .beta(a: -1, b: 2)])
            Issue.record("expected an error")
        } catch let PersonaError.several(list) {
            #expect(list.count == 2)
        }
    }

    @Test("drawn people carry every attribute within range (seed 4, 300 people of each persona)")
    func drawnRanges() {
        for persona in PersonaCatalog.builtIn.values {
            for id in 0..<300 {
                let x = Person.draw(persona: persona, id: UInt64(id), seed: 4, replication: 0)
                #expect((1...5).contains(x.apps.count))
                #expect(x.apps.allSatisfy { (0...1).contains($0.liking) })
                #expect(Set(x.apps.map(\.name)).count == x.apps.count)
                #expect(x.willingnessToPayUSDPerMonth >= 0 && (0...1).contains(x.techComfort))
                #expect((0...1).contains(x.scrollingHabit.strengthAtLastUse))
            }
        }
    }
}
