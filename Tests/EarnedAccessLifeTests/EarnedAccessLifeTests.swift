import Behavior
import EarnedAccessLife
import EarnedAccessRules
import LifeHarness
import RulesCore
import Simulation
import Testing

/// Earned Access's people followed through its adapter (the life harness): scripted urges, typed events and decisions.
struct EarnedAccessLifeTests {
    @Test("without a pickup the person never meets a shield or the gate")
    func noPickupNoShield() throws {
        let harness = try LifeHarness(EarnedAccessAdapter.self, people: 12, days: 7)
        for person in harness.people {
            let life = harness.live(person: person, script: LifeScript())
            #expect(life.journal.urges.isEmpty, "person \(person)")
            #expect(life.journal.events(named: "shield_shown").isEmpty, "person \(person)")
            #expect(life.journal.decisions("shield_choice").isEmpty && life.journal.decisions("gate_option").isEmpty, "person \(person)")
        }
    }

    @Test("an urge scripted inside a running mode, for an app the person selected, meets a shield at that instant")
    func urgeInAModeMeetsTheShield() throws {
        let harness = try LifeHarness(EarnedAccessAdapter.self, people: 30, days: 6)
        var met = 0
        for person in harness.people {
            // The modes run on the person's own schedule, set at onboarding, whatever their pickups: a first life
            // without pickups finds a mode running; the second puts an urge in it.
            let quiet = harness.live(person: person, script: LifeScript())
            let selected = quiet.journal.events.compactMap { e -> AppID? in
                if case .appSelected(let app, _) = e.event { return app }
                return nil
            }
            guard quiet.completedOnboarding, !quiet.dormant, !quiet.uninstalled, let app = selected.first,
                  let start = quiet.journal.events(named: "mode_started").first(where: { $0.at > quiet.installedAt + .hours(2) })?.at
            else { continue }
            let end = quiet.journal.events(named: "mode_ended").first { $0.at > start }?.at
            let at = start + .minutes(10)
            guard end.map({ at < $0 }) ?? true else { continue }
            var script = LifeScript()
            script.urge(app: Int(app.rawValue), after: at - quiet.installedAt, intensity: 0.8, minutes: 10)
            let life = harness.live(person: person, script: script)
            #expect(life.journal.urges.map(\.at) == [at], "person \(person)")
            #expect(life.events(at: at).contains("shield_shown"), "person \(person): \(life.events(at: at))")
            // The shield is answered at its moment.
            #expect(life.decisions(at: at).contains { $0.hasPrefix("shield_choice:") }, "person \(person): \(life.decisions(at: at))")
            met += 1
        }
        #expect(met > 0, "some person had a mode running with an app selected")
    }
}
