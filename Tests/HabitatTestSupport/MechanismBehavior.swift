/// Behaviour for tests of purchase mechanisms (paywalls, renewals, tokens, refunds, MRR): the component values the
/// models had before the end-to-end fit (issue 14), under which about half the people buy something. At the fitted
/// defaults about 2 % of installs pay within 35 days — the world's figure — which leaves a small test run with too
/// few purchases to test a mechanism. Tests that check *how* purchases work use this block; tests of *how many* use
/// the defaults.
public enum MechanismBehavior {
    /// The values, by `behavior.` key.
    public static let values: [String: Double] = [
        "purchase.buy_constant": -2.8, "purchase.surplus_weight": 2.0, "purchase.renew_intercept": 0.24116205681688824,
        "shield.constant.buy_token": -0.8, "refund.value_weight": 3.0,
        "churn.base_hazard": 0.08, "churn.value_weight": 3.0,
        // Issue 39's retention mechanisms at their component values: nobody only tries the app, novelty as the former
        // starting value, dormant people rarely come back.
        "retention.trying_share": 0.0, "engagement.novelty_start": 0.3, "dormant.come_back_constant": -6.0,
    ]

    /// The values as a scenario's top-level (or an arm's) `behavior:` block, indented by `indent` spaces.
    public static func yaml(indent: Int = 0) -> String {
        let pad = String(repeating: " ", count: indent)
        return pad + "behavior:\n" + values.keys.sorted().map { "\(pad)  \($0): \(values[$0]!)" }.joined(separator: "\n") + "\n"
    }

    /// The values as `--set behavior.KEY=VALUE` arguments.
    public static var setArguments: [String] { values.keys.sorted().flatMap { ["--set", "behavior.\($0)=\(values[$0]!)"] } }
}
