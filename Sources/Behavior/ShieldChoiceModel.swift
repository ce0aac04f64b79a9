import Foundation
import Stochastics

/// The kinds of option a rule engine may offer at a shield.
public enum ShieldOptionKind: String, CaseIterable, Hashable, Sendable {
    case close, useCredits, peek, mindfulness, buyToken, useToken, unblock, giveUp
    /// Options that satisfy the urge now (acting on it).
    public var actsOnUrge: Bool {
        switch self {
        case .useCredits, .peek, .buyToken, .useToken, .unblock: return true
        case .close, .mindfulness, .giveUp: return false
        }
    }
}

/// One option as the engine offers it.
public struct OfferedOption: Hashable, Sendable {
    public var kind: ShieldOptionKind
    /// Money the option costs now, USD (buying a token).
    public var priceUSD: Double
    /// Earned credit the option spends, seconds.
    public var creditCostSeconds: Double
    /// Waiting or effort the option demands, seconds (cooldowns, typing a reason, a breathing exercise).
    public var frictionSeconds: Double
    public init(kind: ShieldOptionKind, priceUSD: Double = 0, creditCostSeconds: Double = 0, frictionSeconds: Double = 0) {
        self.kind = kind
        self.priceUSD = priceUSD
        self.creditCostSeconds = creditCostSeconds
        self.frictionSeconds = frictionSeconds
    }
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
    /// The person has just done a mindfulness exercise at this shield.
    public var mindfulnessDone: Bool
    /// Frustration with the blocker 0…1 (see `EngagementModel`).
    public var frustration: Double
    public init(urgeStrength: Double, selfEfficacy: Double = 0.5, creditScarcity: Double = 0, willingnessToPay: Double = 2.5,
                habitStrength: Double = 0.5, resistHabit: Double = 0.2, mindfulnessDone: Bool = false, frustration: Double = 0) {
        self.urgeStrength = urgeStrength
        self.selfEfficacy = selfEfficacy
        self.creditScarcity = creditScarcity
        self.willingnessToPay = willingnessToPay
        self.habitStrength = habitStrength
        self.resistHabit = resistHabit
        self.mindfulnessDone = mindfulnessDone
        self.frustration = frustration
    }
}

/// Multinomial-logit choice at a shield among exactly the offered options (DESIGN.md principle 5).
///
/// Utilities (close is the reference, utility 0); deliberation D = 1 − `habitDeliberationCut`·habit scales every
/// cost the person weighs (self-control, price, credit), so strong habits act more automatically:
///
///     act   = fulfilment(kind)·(wUrge·urge + wHabit·habit) + constant(kind)
///             − D·(wEfficacy·selfEfficacy + wResist·resistHabit)
///             − D·wPrice·price / max(WTP, 0.5) − D·wScarcity·scarcity·min(2, credit/600 s)
///             − wFriction·friction/60 s − (mindfulnessDone ? mindfulnessEffect : 0)
///     mindfulness = mindfulnessConstant + wEfficacy/2·selfEfficacy − wFriction·friction/60 s
///     giveUp      = giveUpConstant + wFrustration·frustration
///
/// Mindfulness lowers the probability of acting (a utility shift), not the urge itself. All weights are assumptions.
public struct ShieldChoiceModel: Hashable, Sendable {
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

    public init() {}

    /// Share of the urge an option satisfies (a peek only partly).
    public func fulfilment(_ kind: ShieldOptionKind) -> Double {
        switch kind {
        case .useCredits, .useToken, .buyToken: return 1
        case .peek: return 0.6
        case .unblock: return 1.1
        case .close, .mindfulness, .giveUp: return 0
        }
    }

    /// A constant per acting option (guilt of unblocking, reluctance to spend a scarce token). Assumption.
    public func constant(_ kind: ShieldOptionKind) -> Double {
        switch kind {
        case .useCredits: return 0
        case .peek: return 0.2
        case .useToken: return -0.5
        case .buyToken: return -0.8
        case .unblock: return -1.5
        case .close, .mindfulness, .giveUp: return 0
        }
    }

    /// The utility of one option.
    public func utility(_ o: OfferedOption, _ c: ChoiceContext) -> Double {
        let friction = wFriction * o.frictionSeconds / 60
        switch o.kind {
        case .close: return -friction
        case .mindfulness: return mindfulnessConstant + wEfficacy / 2 * c.selfEfficacy - friction
        case .giveUp: return giveUpConstant + wFrustration * c.frustration - friction
        case .useCredits, .peek, .buyToken, .useToken, .unblock:
            let d = 1 - habitDeliberationCut * min(max(c.habitStrength, 0), 1)
            var u = fulfilment(o.kind) * (wUrge * c.urgeStrength + wHabit * c.habitStrength) + constant(o.kind)
            u -= d * (wEfficacy * c.selfEfficacy + wResist * c.resistHabit)
            u -= d * wPrice * o.priceUSD / max(c.willingnessToPay, 0.5)
            u -= d * wScarcity * c.creditScarcity * min(2, o.creditCostSeconds / 600)
            u -= friction
            if c.mindfulnessDone { u -= mindfulnessEffect }
            return u
        }
    }

    /// Choice probabilities, aligned with `options`.
    public func probabilities(_ options: [OfferedOption], context: ChoiceContext) -> [Double] {
        Choice.logitProbabilities(utilities: options.map { utility($0, context) }, temperature: temperature)
    }

    /// Probability of choosing any option that acts on the urge.
    public func actingProbability(_ options: [OfferedOption], context: ChoiceContext) -> Double {
        zip(options, probabilities(options, context: context)).reduce(0) { $0 + ($1.0.kind.actsOnUrge ? $1.1 : 0) }
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
