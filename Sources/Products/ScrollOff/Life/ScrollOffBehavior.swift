import Behavior
import RulesCore
import Simulation

/// Scroll Off's own behaviour parameters (issue 42: declared beside its adapter, not in the generic catalogue): the
/// frustration of an empty wallet, looking at the plans, and the pull of its shield's buttons (seed 000: peek,
/// emergency token, unblock). Keys, defaults and sources are those the generic catalogue had, so scenarios, sweeps,
/// calibration files and fitted defaults (`shield.constant.buy_token`, `engagement.plans_view_probability`) keep
/// working (`BehaviorCatalogue.parameter` applies the fits).
public enum ScrollOffBehavior {
    /// Each group placed after the generic key it sits beside in `validate --explain`.
    public static let groups: [BehaviorParameterGroup] = [
        BehaviorParameterGroup(after: "engagement.frustration.shield_refused", [
            .behavior("engagement.frustration.wallet_empty", 0.08, 0...1, "frustration step of an empty wallet"),
        ]),
        BehaviorParameterGroup(after: "engagement.app_open_per_pickup_scale", [
            .behavior("engagement.plans_view_probability", 0.05, 0...1,
              "probability that a Free person at value 0.5 opening the app looks at the plans (Plan & Billing's Upgrade CTA), scaled by 2·value; at most once a day (Scroll Off adapter)",
              .assumption("audit 2026-11-25 E7: a charter path no one took; no published figure, fitted jointly")),
        ]),
        BehaviorParameterGroup(after: "shield.plan_effect_decay", [
            .behavior("shield.constant.peek", 0.2, -20...20, "utility constant of a peek"),
            .behavior("shield.constant.use_token", -0.5, -20...20, "utility constant of using a token (reluctance to spend it)"),
            .behavior("shield.constant.buy_token", -0.8, -20...20, "utility constant of buying a token"),
            .behavior("shield.constant.unblock", -1.5, -20...20, "utility constant of unblocking (guilt)"),
            .behavior("shield.fulfilment.peek", 0.6, 0...2, "share of the urge a peek satisfies"),
            .behavior("shield.fulfilment.unblock", 1.1, 0...2, "share of the urge unblocking satisfies"),
        ]),
    ]
}

/// Scroll Off's constants, read once per world (`World.constants`).
public struct ScrollOffConstants: Sendable, Hashable {
    /// Frustration step of an empty wallet (`engagement.frustration.wallet_empty`).
    public var walletEmptyFrustration: Double
    /// Value step of credit earned (`engagement.value.earned_credit`, generic: Earned Access earns credit too).
    public var earnedCreditValue: Double
    /// The probability, at value 0.5, of looking at the plans on an app open (`engagement.plans_view_probability`).
    public var plansViewProbability: Double
    /// The shield's buttons as the person weighs them (`ShieldChoiceModel`'s roles): a short look, part of the urge
    /// satisfied; using an emergency token held; buying one (its price is the option's); lifting the block.
    public var peek: OptionRole
    public var useToken: OptionRole
    public var buyToken: OptionRole
    public var unblock: OptionRole

    public init(values: BehaviorValues) {
        walletEmptyFrustration = values["engagement.frustration.wallet_empty"]
        earnedCreditValue = values["engagement.value.earned_credit"]
        plansViewProbability = values["engagement.plans_view_probability"]
        peek = .open(fulfilment: values["shield.fulfilment.peek"], constant: values["shield.constant.peek"])
        useToken = .open(fulfilment: 1, constant: values["shield.constant.use_token"])
        buyToken = .open(fulfilment: 1, constant: values["shield.constant.buy_token"])
        unblock = .open(fulfilment: values["shield.fulfilment.unblock"], constant: values["shield.constant.unblock"])
    }
}

extension ScrollOffAdapter {
    public typealias Constants = ScrollOffConstants
    public static var behaviorParameterGroups: [BehaviorParameterGroup] { ScrollOffBehavior.groups }
    public static func constants(_ values: BehaviorValues) -> ScrollOffConstants { ScrollOffConstants(values: values) }
}
