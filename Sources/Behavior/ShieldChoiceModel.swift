import Foundation
import Stochastics

/// What taking an option at a shield does, as the person weighs it: product-neutral attributes, so the choice model
/// knows no product's buttons. The adapter describes each button the engine shows by its role and its costs.
public enum OptionRole: Hashable, Sendable {
    /// Closes the shield and stays out of the app: the urge is not acted on.
    case close
    /// A reflection step before anything else (a mindfulness prompt): not acting, with its own appeal.
    case reflect
    /// Leaves the app for something else, pulled by frustration with the blocker (a give-up button).
    case giveUp
    /// Opens the app now, acting on the urge: `fulfilment` is the share of the urge it satisfies (a peek only part
    /// of it, lifting the block more than all), `constant` the option's own pull or reluctance (guilt of unblocking,
    /// reluctance to spend a scarce token).
    case open(fulfilment: Double, constant: Double)
}

/// One option as the engine offers it: its role and what it costs the person now.
public struct OfferedOption: Hashable, Sendable {
    public var role: OptionRole
    /// Money the option costs now, USD (buying a token).
    public var priceUSD: Double
    /// Earned credit the option spends, seconds.
    public var creditCostSeconds: Double
    /// Waiting or effort the option demands, seconds (cooldowns, typing a reason, a breathing exercise).
    public var frictionSeconds: Double
    public init(_ role: OptionRole, priceUSD: Double = 0, creditCostSeconds: Double = 0, frictionSeconds: Double = 0) {
        self.role = role
        self.priceUSD = priceUSD
        self.creditCostSeconds = creditCostSeconds
        self.frictionSeconds = frictionSeconds
    }

    /// True for an option that opens the app (acts on the urge).
    public var actsOnUrge: Bool { if case .open = role { true } else { false } }
}

/// What became of a friction exercise (mindfulness prompt, breathing quest) at this shield encounter.
public enum ExerciseOutcome: String, Hashable, Sendable, CaseIterable {
    /// None was offered, or the person has not met it yet.
    case none
    /// Offered and skipped: it does not lower acting (audit D6).
    case skipped
    /// Done: lowers the utility of every acting option by `ShieldChoiceModel.mindfulnessEffect`.
    case completed
}

/// The person's state at the shield.
public struct ChoiceContext: Hashable, Sendable {
    /// Urge intensity 0…1.
    public var urgeStrength: Double
    public var selfEfficacy: Double
    /// 0 = plenty of credit, 1 = nearly none left.
    public var creditScarcity: Double
    /// USD per month.
    public var willingnessToPay: Double
    public var habitStrength: Double
    public var resistHabit: Double
    /// The friction exercise at this shield encounter: only `.completed` lowers acting (a skip is not done).
    public var exercise: ExerciseOutcome
    /// Frustration with the blocker 0…1 (see `EngagementModel`).
    public var frustration: Double
    /// If-then plans (implementation intentions) the person has written for this kind of urge, 0…; see
    /// `ShieldChoiceModel.planEffect`. 0 (the default) leaves every utility as it was.
    public var ifThenPlans: Int

    public init(urgeStrength: Double, selfEfficacy: Double = 0.5, creditScarcity: Double = 0, willingnessToPay: Double = 2.5,
                habitStrength: Double = 0.5, resistHabit: Double = 0.2, exercise: ExerciseOutcome = .none, frustration: Double = 0,
                ifThenPlans: Int = 0) {
        self.urgeStrength = urgeStrength
        self.selfEfficacy = selfEfficacy
        self.creditScarcity = creditScarcity
        self.willingnessToPay = willingnessToPay
        self.habitStrength = habitStrength
        self.resistHabit = resistHabit
        self.exercise = exercise
        self.frustration = frustration
        self.ifThenPlans = ifThenPlans
    }

    /// The two-state form of `exercise`: true only for a completed exercise; setting false records none.
    public var mindfulnessDone: Bool {
        get { exercise == .completed }
        set { exercise = newValue ? .completed : .none }
    }

    public init(urgeStrength: Double, selfEfficacy: Double = 0.5, creditScarcity: Double = 0, willingnessToPay: Double = 2.5,
                habitStrength: Double = 0.5, resistHabit: Double = 0.2, mindfulnessDone: Bool, frustration: Double = 0) {
        self.init(urgeStrength: urgeStrength, selfEfficacy: selfEfficacy, creditScarcity: creditScarcity, willingnessToPay: willingnessToPay,
                  habitStrength: habitStrength, resistHabit: resistHabit, exercise: mindfulnessDone ? .completed : .none,
                  frustration: frustration)
    }
}

/// Multinomial-logit choice at a shield among exactly the offered options (docs/DESIGN.md principle 5).
///
/// Utilities (close is the reference, utility 0); deliberation D = 1 − `habitDeliberationCut`·habit scales every
/// cost the person weighs (self-control, price, credit), so strong habits act more automatically:
///
///     act   = fulfilment(kind)·(wUrge·urge + wHabit·habit) + constant(kind)
///             − D·(wEfficacy·selfEfficacy + wResist·resistHabit)
///             − D·wPrice·price / max(WTP, 0.5) − D·wScarcity·scarcity·min(2, credit/600 s)
///             − wFriction·friction/60 s − (exercise == .completed ? mindfulnessEffect : 0)
///             − planEffect(ifThenPlans)
///     mindfulness = mindfulnessConstant + wEfficacy/2·selfEfficacy − wFriction·friction/60 s
///     giveUp      = giveUpConstant + wFrustration·frustration
///
/// Mindfulness lowers the probability of acting (a utility shift), not the urge itself; a skipped exercise does not.
///
/// If-then plans: implementation intentions bind a cue ("if I reach for the app after 22:00") to a response
/// ("then I put the phone away"), which makes the response more automatic (Gollwitzer & Sheeran 2006,
/// meta-analysis of 94 tests: d = 0.65 on goal attainment; Sheeran, Listrom & Gollwitzer 2024, 642 tests:
/// 0.27 ≤ d ≤ 0.66). A shield is the cue, so plans lower every acting option's utility by
///
///     planEffect(n) = planEffectMax · (1 − planEffectDecay^n)
///
/// with `planEffectMax` = 0.65·π/√3 ≈ 1.18, the d of Gollwitzer & Sheeran converted to a log-odds shift (Chinn
/// 2000: ln OR = d·π/√3), and `planEffectDecay` 0.5, so 1 plan gives half of it, 3 plans 88%, 5 plans 97%
/// (diminishing returns). Taking a between-groups d on goal attainment as the per-urge shift, and the shape of
/// the returns, are assumptions. The effect is not scaled by deliberation: plans act automatically. Nothing is
/// fitted to any product's claim about planning (e.g. "6 fewer unlocks per unit of planning"): the simulator
/// measures such claims. Other weights are assumptions.
public struct ShieldChoiceModel: Hashable, Sendable {
    /// Share of the shields a person does not act on that they leave without tapping Close (`shield.walk_away_share`,
    /// an assumption; audit 2026-11-25 E6). Read by the adapters, not by `choose`.
    public var walkAwayShare = 0.2
    public var wUrge = 3.0
    public var wHabit = 1.0
    public var wEfficacy = 2.0
    public var wResist = 1.5
    public var wPrice = 1.5
    public var wScarcity = 1.0
    public var wFriction = 0.6
    public var wFrustration = 3.0
    public var habitDeliberationCut = 0.5
    public var mindfulnessEffect = 1.0
    public var mindfulnessConstant = -0.8
    public var giveUpConstant = -4.0
    public var temperature = 1.0
    /// Largest lowering of acting from if-then plans (see the type's documentation): 0.65·π/√3.
    public var planEffectMax = 0.65 * Double.pi / 3.0.squareRoot()
    /// Share of the remaining effect each further plan leaves unrealised (diminishing returns). Assumption.
    public var planEffectDecay = 0.5

    public init() {}

    /// A model with the weights of `values` (`BehaviorCatalogue`: `shield.*`).
    public init(values: BehaviorValues) {
        walkAwayShare = values["shield.walk_away_share"]
        wUrge = values["shield.urge_weight"]
        wHabit = values["shield.habit_weight"]
        wEfficacy = values["shield.efficacy_weight"]
        wResist = values["shield.resist_weight"]
        wPrice = values["shield.price_weight"]
        wScarcity = values["shield.scarcity_weight"]
        wFriction = values["shield.friction_weight"]
        wFrustration = values["shield.frustration_weight"]
        habitDeliberationCut = values["shield.habit_deliberation_cut"]
        mindfulnessEffect = values["shield.mindfulness_effect"]
        mindfulnessConstant = values["shield.mindfulness_constant"]
        giveUpConstant = values["shield.give_up_constant"]
        temperature = values["shield.temperature"]
        planEffectMax = values["shield.plan_effect_max"]
        planEffectDecay = values["shield.plan_effect_decay"]
    }

    /// The lowering of every acting option's utility from `plans` if-then plans: 0 for none.
    public func planEffect(_ plans: Int) -> Double {
        plans <= 0 ? 0 : planEffectMax * (1 - pow(planEffectDecay, Double(plans)))
    }

    /// Spending earned credit on the whole intended use: the whole urge satisfied, no constant of its own. A
    /// product's own buttons (a peek, a token, a quest) are roles it builds from its own constants
    /// (`OptionRole.open(fulfilment:constant:)`, `ProductAdapter.Constants`, issue 42).
    public var spendCredits: OptionRole { .open(fulfilment: 1, constant: 0) }

    /// The utility of one option.
    public func utility(_ o: OfferedOption, _ c: ChoiceContext) -> Double {
        let friction = wFriction * o.frictionSeconds / 60
        switch o.role {
        case .close: return -friction
        case .reflect: return mindfulnessConstant + wEfficacy / 2 * c.selfEfficacy - friction
        case .giveUp: return giveUpConstant + wFrustration * c.frustration - friction
        case let .open(fulfilment, constant):
            let d = 1 - habitDeliberationCut * min(max(c.habitStrength, 0), 1)
            var u = fulfilment * (wUrge * c.urgeStrength + wHabit * c.habitStrength) + constant
            u -= d * (wEfficacy * c.selfEfficacy + wResist * c.resistHabit)
            u -= d * wPrice * o.priceUSD / max(c.willingnessToPay, 0.5)
            u -= d * wScarcity * c.creditScarcity * min(2, o.creditCostSeconds / 600)
            u -= friction
            if c.exercise == .completed { u -= mindfulnessEffect }
            if c.ifThenPlans > 0 { u -= planEffect(c.ifThenPlans) }
            return u
        }
    }

    /// Choice probabilities, aligned with `options`.
    public func probabilities(_ options: [OfferedOption], context: ChoiceContext) -> [Double] {
        Choice.logitProbabilities(utilities: options.map { utility($0, context) }, temperature: temperature)
    }

    /// Probability of choosing any option that acts on the urge.
    public func actingProbability(_ options: [OfferedOption], context: ChoiceContext) -> Double {
        zip(options, probabilities(options, context: context)).reduce(0) { $0 + ($1.0.actsOnUrge ? $1.1 : 0) }
    }

    /// The index of the chosen option (one uniform from `rng`; each utility and weight computed once, on the stack).
    public func choose(_ options: [OfferedOption], context: ChoiceContext, rng: RandomStream) -> Int {
        precondition(!options.isEmpty, "a shield must offer at least one option")
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: options.count) { weights in
            var top = -Double.infinity
            for (i, o) in options.enumerated() {
                let u = utility(o, context)
                weights[i] = u
                top = max(top, u)
            }
            var total = 0.0
            for i in 0..<options.count {
                weights[i] = exp((weights[i] - top) / temperature)
                total += weights[i]
            }
            let target = rng.uniform() * total
            var cumulative = 0.0
            for i in 0..<options.count {
                cumulative += weights[i]
                if target < cumulative { return i }
            }
            return options.count - 1
        }
    }
}
