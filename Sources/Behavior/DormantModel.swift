import Foundation
import Stochastics

/// What a dormant person does at the end of a local day (issue 26; every day since issue 39).
public enum DormantResponse: String, Hashable, Sendable, CaseIterable {
    /// Nothing: the app stays, unopened, its blocking on.
    case stay
    /// The person lifts the blocking (removes the apps, deletes the schedules) and keeps the app.
    case liftBlocking
    /// The person deletes the app.
    case uninstall
    /// The person opens the app again and uses it: no longer dormant.
    case comeBack
}

/// Dormant is not frozen (issue 26): a person who no longer opens the app keeps it, lifts its blocking, deletes it
/// or comes back. Its shields add friction with no value to weigh against it. At the end of every local day as a
/// dormant person — a day with no shield too (issue 39: an app kept but unused is still cleaned out, or opened again,
/// in time) — they answer a multinomial logit against staying (utility 0; `shields` is the day's count, 0 included):
///
///     leave:     leave_constant + frustration_weight·frustration + shields_weight·ln(1 + shields) − value_weight·value
///     come back: come_back_constant + value_weight·value
///
/// and a person who leaves uninstalls with `uninstall_share`, else lifts the blocking. Constants are assumptions
/// (`dormant.*`), fitted with the rest of the population.
public struct DormantModel: Hashable, Sendable {
    public var leaveConstant = -2.5
    public var frustrationWeight = 3.0
    public var shieldsWeight = 0.5
    public var valueWeight = 3.0
    public var comeBackConstant = -6.0
    public var uninstallShare = 0.5

    public init() {}

    /// The model with the values of `values` (`dormant.*`).
    public init(values: BehaviorValues) {
        leaveConstant = values["dormant.leave_constant"]
        frustrationWeight = values["dormant.frustration_weight"]
        shieldsWeight = values["dormant.shields_weight"]
        valueWeight = values["dormant.value_weight"]
        comeBackConstant = values["dormant.come_back_constant"]
        uninstallShare = values["dormant.uninstall_share"]
    }

    /// Probabilities of (leave, come back) on a day with `shields` shields met (0 on a day with none).
    public func probabilities(frustration: Double, value: Double, shields: Int) -> (leave: Double, comeBack: Double) {
        let leave = exp(leaveConstant + frustrationWeight * frustration + shieldsWeight * log1p(Double(max(shields, 0))) - valueWeight * value)
        let back = exp(comeBackConstant + valueWeight * value)
        let total = 1 + leave + back
        return (leave / total, back / total)
    }

    /// The day's answer (one uniform from `rng`, normally the `churn` stream). A product that restricts nothing has
    /// no blocking to lift: leaving it is deleting it (`restricts` false).
    public func response(frustration: Double, value: Double, shields: Int, restricts: Bool = true, rng: RandomStream) -> DormantResponse {
        let p = probabilities(frustration: frustration, value: value, shields: shields)
        let u = rng.uniform()
        if u < p.leave { return !restricts || u < p.leave * uninstallShare ? .uninstall : .liftBlocking }
        return u < p.leave + p.comeBack ? .comeBack : .stay
    }
}
