import EarnedAccessLife
import LifeHarness
import NoAppLife
import NudgeLife
import ProductRegistry
import RulesCore
import ScenarioFormat
import ScrollOffLife
import ScrollOffRules
import Testing
@testable import Simulation

/// The person is the same whatever the product (the generic life, not one product's): their phone use until a
/// product's decisions differ, and the things they have to do.
struct SamePeopleAcrossProductsTests {
    typealias ScrollOff = ScrollOffAdapter<ScrollOffEngine>
    final class Rows: @unchecked Sendable { var rows: [TraceRow] = [] }

    @Test("the same people as Scroll Off: person i's phone use (pickup times) is the same under both products until a product's decisions differ")
    func samePeopleAsScrollOff() throws {
        let so = try ScenarioLoader(catalogues: Products.catalogues).load(yaml: """
            name: so-same
            start: 2026-01-05
            horizon_days: 2
            population:
              installs: 10
            """, fileName: "so.yaml")
        let ea = try ScenarioLoader(catalogues: Products.catalogues).load(yaml: """
            name: ea-same
            product: earned-access
            start: 2026-01-05
            horizon_days: 2
            population:
              installs: 10
            """, fileName: "ea.yaml")
        let soWorld = try World<ScrollOffProduct>(scenario: so, arm: so.arms[0], replication: 1)
        let eaWorld = try World<EarnedAccessProduct>(scenario: ea, arm: ea.arms[0], replication: 1)
        for person in 0..<10 {
            let a = Rows(), b = Rows()
            var soLife = PersonLife(world: soWorld, person: person) { a.rows.append($0) }
            var eaLife = PersonLife(world: eaWorld, person: person) { b.rows.append($0) }
            #expect(soLife.installedAt == eaLife.installedAt)
            #expect(soLife.person.personaName == eaLife.person.personaName)
            _ = soLife.run(); _ = eaLife.run()
            let first = { (rows: [TraceRow]) in rows.first { $0.kind == "pickup" }.map(\.time) }
            #expect(first(a.rows) == first(b.rows), "person \(person)")
        }
    }

    @Test("things to do are the person's: the same things arise, due the same, under Nudge, Scroll Off and no app")
    func thingsToDoArePeoples() throws {
        let nudge = try TaskToolLives.lives(NudgeAdapter.self, TaskToolLives.scenario(product: "nudge"))
        let none = try TaskToolLives.lives(NoAppAdapter.self, TaskToolLives.scenario(product: "none"))
        let scrollOff = try TaskToolLives.lives(ScrollOff.self, TaskToolLives.scenario(product: "scroll-off"))
        var arisen = 0
        for i in nudge.indices {
            #expect(nudge[i].tasks.map(\.task) == none[i].tasks.map(\.task), "person \(i)")
            #expect(scrollOff[i].tasks.map(\.task) == none[i].tasks.map(\.task), "person \(i)")
            // Unaided, what the person does is the same with Scroll Off as with no app: nothing there touches tasks.
            #expect(scrollOff[i].tasks.map(\.doneAt) == none[i].tasks.map(\.doneAt), "person \(i)")
            arisen += none[i].tasks.count
        }
        // About six a day over 28 days (tasks_per_day median 6), minus the days before install.
        #expect(arisen > 150 * 20 * 3, "things to do arise: \(arisen)")
    }
}
