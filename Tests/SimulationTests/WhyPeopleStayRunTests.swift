import Behavior
import EarnedAccessRules
import Foundation
import NudgeLife
import ProductRegistry
import RulesCore
import ScenarioFormat
import Testing
@testable import EarnedAccessLife
@testable import ScrollOffLife
@testable import Simulation

/// Issue 39's whole-run checks of why people stay, read from whole lives as a product manager would: each product's
/// install cohort keeps the world's shape, and a dormant person with no shields is not frozen.
@Suite("Why people stay, on whole runs (issue 39)")
struct WhyPeopleStayRunTests {
    /// Per person of a run at the defaults: the local days after install the app was opened (voluntarily), the days
    /// observed, and the decision counts.
    struct Cohort {
        var opened: [[Int]] = [], observed: [Int] = [], decisions = DecisionCounts()

        /// Share of the people observed for `day` days or more who opened the app on local day `day` (retention.csv's
        /// `app_opened`, Adjust's definition).
        func retention(_ day: Int) -> Double {
            let eligible = observed.indices.filter { observed[$0] > day }
            return Double(eligible.filter { opened[$0].contains(day) }.count) / Double(max(eligible.count, 1))
        }
    }

    static func cohort<A: ProductAdapter>(_: A.Type, product: String, people: Int, days: Int) -> Cohort {
        let scenario = try! ScenarioLoader(catalogues: Products.catalogues).load(yaml: """
            name: why-people-stay
            product: \(product)
            seed: 39
            start: 2026-01-05
            horizon_days: \(days)
            population:
              installs: \(people)
            """, fileName: "why-people-stay.yaml")
        let world = try! World<A>(scenario: scenario, arm: scenario.arms[0], replication: 1)
        var c = Cohort()
        for person in 0..<people {
            var life = PersonLife(world: world, person: person)
            let s = life.run()
            c.opened.append(s.activeDays)
            c.observed.append(s.observedDays)
            c.decisions.merge(s.decisions)
        }
        return c
    }

    static let scrollOff = cohort(ScrollOffProduct.self, product: "scroll-off", people: 1_500, days: 48)
    static let earnedAccess = cohort(EarnedAccessProduct.self, product: "earned-access", people: 1_500, days: 48)
    static let nudge = cohort(NudgeProduct.self, product: "nudge", people: 1_500, days: 48)

    @Test("each product's install cohort has the world's shape: steep first days, then a slow tail (Adjust 2023)",
          arguments: ["scroll-off", "earned-access", "nudge"])
    func cohortShape(product: String) {
        let c = product == "scroll-off" ? Self.scrollOff : product == "earned-access" ? Self.earnedAccess : Self.nudge
        let d1 = c.retention(1), d7 = c.retention(7), d30 = c.retention(30)
        // Daily decay of the share opening the app, between D1 and D7 and between D7 and D30 (Adjust's all-app medians:
        // ≈ 0.11 a day, then ≈ 0.04 a day). A single daily hazard makes the two equal; the world's curve is steeper first.
        let early = log(d1 / d7) / 6, late = log(d7 / d30) / 23
        #expect(d30 > 0, "\(product): a tail (D30 \(d30))")
        #expect(early > 1.3 * late, "\(product): D1 \(d1), D7 \(d7), D30 \(d30): \(early) a day, then \(late)")
    }

    @Test("a dormant person with no shields still leaves or comes back over time (Nudge has no shields)")
    func dormantWithoutShieldsIsNotFrozen() {
        let d = Self.nudge.decisions
        #expect(d.decisions(.dormantResponse) == d.opportunities(.dormantResponse))
        #expect(d.count(.dormantResponse, .uninstall) > 0)
        #expect(d.count(.dormantResponse, .comeBack) > 0)
        #expect(d.count(.dormantResponse, .disableRestriction) == 0, "Nudge has no blocking to lift")
    }
}
