import Behavior
import NoAppLife
import NudgeLife
import ProductRegistry
import RulesCore
import ScenarioFormat
import ScrollOffRules
import Testing
@testable import EarnedAccessLife
@testable import ScrollOffLife
@testable import Simulation

/// The shared blocker layer (issue 42 item 3): its bookkeeping and its figure exist only for products that restrict.
@Suite("The blocker layer (issue 42)")
struct BlockerLayerTests {
    static func life<A: ProductAdapter>(_: A.Type, product: String) -> PersonLife<A> {
        let scenario = try! ScenarioLoader(catalogues: Products.catalogues).load(yaml: """
            name: blocker-layer
            product: \(product)
            seed: 42
            horizon_days: 3
            population:
              installs: 2
            """, fileName: "blocker-layer.yaml")
        return PersonLife(world: try! World<A>(scenario: scenario, arm: scenario.arms[0], replication: 1), person: 0)
    }

    @Test("the bookkeeping is held by the life of a product that restricts apps, and only then")
    func bookkeepingOnlyForBlockers() {
        #expect(Self.life(ScrollOffAdapter<ScrollOffEngine>.self, product: "scroll-off").blocker != nil)
        #expect(Self.life(EarnedAccessAdapter.self, product: "earned-access").blocker != nil)
        #expect(Self.life(NudgeAdapter.self, product: "nudge").blocker == nil)
        #expect(Self.life(NoAppAdapter.self, product: "none").blocker == nil)
    }

    @Test("true time saved is Habitat's figure for blockers only: not reported for Nudge or none")
    func trueTimeSavedOnlyForBlockers() {
        let ids = ["true_time_saved_per_day_median", "true_time_saved_per_day_mean"]
        func has<A: ProductAdapter>(_: A.Type) -> Bool { RunAccumulator<A>.commonKPIs.contains { ids.contains($0.id) } }
        #expect(has(ScrollOffAdapter<ScrollOffEngine>.self))
        #expect(has(EarnedAccessAdapter.self))
        #expect(!has(NudgeAdapter.self))
        #expect(!has(NoAppAdapter.self))
    }

    @Test("an urge for a restricted app adds to the day's intended time; a lift with nothing left keeps the person leaving")
    func urgeBookkeeping() {
        var life = Self.life(ScrollOffAdapter<ScrollOffEngine>.self, product: "scroll-off")
        #expect(life.blocker?.intendedRestrictedMs == 0)
        let p = Pickup(at: life.installedAt, source: .urge(app: 0), sessionLength: .minutes(7), urgeIntensity: 0.8)
        life.meetUrgeForRestrictedApp(AppID(1), pickup: p, at: life.installedAt)
        life.meetUrgeForRestrictedApp(AppID(1), pickup: p, at: life.installedAt)
        let intended: Int64 = life.blocker?.intendedRestrictedMs ?? -1
        #expect(intended == 840_000, "two urges of 7 minutes")
        life.blocker?.leavingByUnblocking = true
        life.liftRestrictionIfLeaving(at: life.installedAt)
        #expect(life.blocker?.leavingByUnblocking == true)
    }
}
