@testable import ScrollOffLife
import HabitatTestSupport
import RulesCore
import ScrollOffRules
import Simulation

/// The wrapped engine (`HabitatTestSupport.FaultyEngine`) shows the person the same screens as Scroll Off's.
extension FaultyEngine: ScrollOffEngineView where Base == ScrollOffEngine {
    public var tier: Tier { base.tier }
    public var plan: Plan? { base.plan }
    public var periodStart: Instant { base.periodStart }
    public var periodEnd: Instant { base.periodEnd }
    public var autoRenew: Bool { base.autoRenew }
    public var pendingShield: ShieldEncounter? { base.pendingShield }
    public var curfews: [Curfew] { base.curfews }
    public var timeSavedEstimateToday: TimeSpan { base.timeSavedEstimateToday }
    public func shieldOffer() -> ShieldOffer? { base.shieldOffer() }
    public func balance(for app: AppID?) -> TimeSpan { base.balance(for: app) }
    public func listPrice(of p: Plan) -> PlanPrice { base.listPrice(of: p) }
}
