import Behavior
import LifeHarness
import RulesCore
import ScrollOffLife
import ScrollOffRules
import Simulation
import Testing

/// Scroll Off's people followed through its adapter (the life harness): scripted urges, typed events and decisions.
struct ScrollOffLifeTests {
    typealias ScrollOff = ScrollOffAdapter<ScrollOffEngine>

    @Test("without a pickup the person never meets a shield: no urge, no shield shown, no shield decision")
    func noPickupNoShield() throws {
        let harness = try LifeHarness(ScrollOff.self, people: 12, days: 7)
        for person in harness.people {
            let life = harness.live(person: person, script: LifeScript())
            #expect(life.journal.urges.isEmpty, "person \(person)")
            #expect(life.journal.events(named: "shield_shown").isEmpty, "person \(person)")
            #expect(life.journal.decisions("shield_choice").isEmpty, "person \(person)")
        }
    }

    @Test("a scripted urge for a blocked app reaches the adapter at its instant, and a shield shown there is answered there")
    func scriptedUrgeMeetsTheShield() throws {
        // Installs come over the horizon's first third: every urge, 74 h after the install at most, is before the horizon.
        let harness = try LifeHarness(ScrollOff.self, people: 24, days: 10)
        var script = LifeScript()
        for hour in [26.0, 30, 50, 54, 74] { script.urge(app: 1, after: .minutes(Int64(hour * 60)), intensity: 0.8, minutes: 12) }
        var shielded = 0
        for person in harness.people {
            let life = harness.live(person: person, script: script)
            // A person who uninstalled lives on untreated: their urges no longer reach the adapter.
            guard life.completedOnboarding, !life.uninstalled else { continue }
            // Every scripted urge is handed to the adapter, at the time the script says (none was due mid-session).
            #expect(life.journal.urges.count == script.pickups.count, "person \(person)")
            #expect(life.journal.urges.allSatisfy { $0.app == AppID(1) }, "person \(person)")
            for urge in life.journal.urges where life.events(at: urge.at).contains("shield_shown") {
                shielded += 1
                // The person decides at the shield, at its moment (issue 25).
                #expect(life.decisions(at: urge.at).contains { $0.hasPrefix("shield_choice:") }, "person \(person) at \(urge.at): \(life.decisions(at: urge.at))")
            }
        }
        #expect(shielded > 0, "some scripted urge met a shield")
    }

    @Test("every shield decision has its moment: a shield shown, or an exercise at one ending, at that instant")
    func shieldDecisionsHaveTheirMoment() throws {
        let harness = try LifeHarness(ScrollOff.self, people: 30, days: 10)
        var decisions = 0
        for person in harness.people {
            let life = harness.live(person: person)
            let moments = Set(life.journal.events.filter { ["shield_shown", "mindfulness_completed", "mindfulness_skipped"].contains($0.event.name) }.map(\.at))
            for d in life.journal.decisions("shield_choice") {
                decisions += 1
                #expect(moments.contains(d.at), "person \(person): \(d.kind):\(d.outcome) at \(d.at) without a shield there")
            }
        }
        #expect(decisions > 0)
    }
}
