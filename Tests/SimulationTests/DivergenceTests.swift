import Testing
import Reports
import ScenarioFormat
@testable import Simulation
import ProductRegistry
@testable import ScrollOffLife

/// Issue 6: the first-divergence explanation points at the right person and event in a constructed case.
@Suite("First divergence", .serialized)
struct DivergenceTests {
    @Test("lowering Free's daily earn cap from 45 to 40 minutes first shows at the 9th earn award of a Free day")
    func earnCap() throws {
        let base = """
            name: diverge
            horizon_days: 10
            population:
              installs: 40
            """
        let loader = ScenarioLoader(catalogues: Products.catalogues)
        let before = try loader.load(yaml: base, fileName: "a.yaml")
        let after = try loader.load(yaml: base + "\nrules:\n  earn:\n    daily_cap_minutes:\n      free: 40\n", fileName: "b.yaml")
        // Expected, from the baseline's own timelines: the first person with a Free day of nine 300-second awards
        // (45 minutes); under a 40-minute cap that ninth award is where their life first departs.
        let run = SimulationRun<ScrollOffProduct>(scenario: before, threads: 1)
        var expected: (person: Int, time: String)?
        for person in 0..<40 where expected == nil {
            let rows = CSVTable.parse(try run.trace(person: person, arm: "control", replication: 1).text).rows
            var perDay: [String: Int] = [:]
            for r in rows where r[2] == "engine" && r[3].hasPrefix("earn_award seconds=300 wallet_id=global") && r[8] == "free" {
                let day = String(r[1].prefix(10))
                perDay[day, default: 0] += 1
                if perDay[day] == 9 { expected = (person, r[0]); break }
            }
        }
        let e = try #require(expected, "no one earned 45 minutes on a Free day; make the case bigger")
        let d = try #require(try RegressionCheck.firstDivergence(baseline: before, current: after, run: { try Products.run($0, threads: 1) }))
        #expect(d.person == e.person)
        #expect(d.time == e.time)
        #expect(d.before.contains("earn_award seconds=300"))
        #expect(d.after.contains("earn_award seconds=0") && d.after.contains("daily_cap_hit=true"))
    }
}
