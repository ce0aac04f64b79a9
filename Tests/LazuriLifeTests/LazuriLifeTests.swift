import Behavior
@testable import LazuriLife
import LazuriRules
import LifeHarness
import ProductRegistry
import RulesCore
import Simulation
import Testing

/// Lazuri's people followed through its adapter (the life harness): scripted urges inside a window meet the promise
/// shield and are answered there, each decision kind at its moment; the permission step refused; the promise and its
/// wear-out.
struct LazuriLifeTests {
    /// Everyone onboards, nobody churns (no hazard, nobody only trying the app), and the schedule blocks all day (an evening window from 0:00 to 0:00 is 1440
    /// minutes, inventory Q8): every scripted urge after onboarding falls inside a window.
    static let allDay = """
        behavior:
          onboarding.completion.permission: 1
          onboarding.completion.configuration: 1
          lazuri.onboarding.no_tutorial_completion: 1
          lazuri.schedule.evening_share: 1
          lazuri.schedule.evening_start_hour: 0
          lazuri.schedule.evening_end_hour: 0
          churn.base_hazard: 0
          retention.trying_share: 0
          shield.notice_seconds: 0

        """

    static func harness(_ extra: String = "", people: Int = 6, days: Int = 3) throws -> LifeHarness<LazuriAdapter> {
        try LifeHarness(LazuriAdapter.self, people: people, days: days, personas: "[{name: worker, share: 1}]", yaml: allDay + extra)
    }

    /// Strong urges for app 1, hours after the install.
    static func urges(_ hours: [Double] = [2, 5, 9]) -> LifeScript {
        var script = LifeScript()
        for h in hours { script.urge(app: 1, after: .minutes(Int64(h * 60)), intensity: 0.9, minutes: 10, kind: .intended) }
        return script
    }

    /// The outcomes of `lazuri_shield` over the harness's people with `script`.
    static func shieldOutcomes(_ harness: LifeHarness<LazuriAdapter>, _ script: LifeScript) -> [String] {
        harness.people.flatMap { harness.live(person: $0, script: script).journal.decisions("lazuri_shield").map(\.outcome) }
    }

    @Test("Screen Time refused at the permission step: the person drops out at step 0, is left dormant, selects no app and meets no shield")
    func permissionRefused() throws {
        let problems = try LifeHarness<LazuriAdapter>.permissionRefusedProblems { $0.apps.isEmpty && $0.scheduleID == nil }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("onboarded with no tutorial: Focus tab, Screen Time, the picker, a schedule fitting the day, switched on")
    func onboarding() throws {
        let h = try Self.harness()
        for person in h.people {
            let life = h.live(person: person, script: LifeScript())
            #expect(life.completedOnboarding, "person \(person)")
            #expect(life.journal.decisions("onboarding_step").map(\.outcome) == ["complete", "complete", "complete"])
            // The first switch-on asks for notifications (P2), and the person answers the prompt.
            #expect(life.journal.events(named: "permission_requested").count == 2)
            #expect(life.journal.events(named: "notification_permission_result").count == 1, "person \(person): the prompt left unanswered")
            #expect(!life.journal.events(named: "schedule_enabled").isEmpty && !life.state.apps.isEmpty && life.state.scheduleID != nil)
            #expect(life.state.spec?.name == "Evening")
        }
        // A late-night scroller's window crosses midnight.
        let night = try LifeHarness(LazuriAdapter.self, people: 4, days: 2, personas: "[{name: late-night-scroller, share: 1}]", yaml: Self.allDay)
        for person in night.people {
            let spec = try #require(night.live(person: person, script: LifeScript()).state.spec)
            #expect(spec.crossesMidnight && spec.name == "Night", "\(spec)")
        }
    }

    @Test("lazuri_shield: an urge inside a window meets the shield, and the person presses \"I won't break my promise!\"")
    func shieldPress() throws {
        let h = try Self.harness("  lazuri.break_constant: -20\n  shield.walk_away_share: 0\n")
        for person in h.people {
            let life = h.live(person: person, script: Self.urges())
            let shields = life.journal.events(named: "shield_shown").count
            #expect(shields == 3, "person \(person): \(shields) shields")
            #expect(life.journal.decisions("lazuri_shield").map(\.outcome) == ["press", "press", "press"])
            #expect(life.journal.events(named: "promise_kept_pressed").count == 3)
            #expect(life.journal.decisions("shield_choice").isEmpty, "the shared kind is opened, never decided")
        }
    }

    @Test("lazuri_shield: leaving by the home gesture")
    func shieldLeave() throws {
        let h = try Self.harness("  lazuri.break_constant: -20\n  shield.walk_away_share: 1\n")
        #expect(Set(Self.shieldOutcomes(h, Self.urges())) == ["leave"])
    }

    @Test("lazuri_shield: breaking the promise by switching the schedule off lifts the shield, the window ends interrupted, the app opens; at the day's end lazuri_resume")
    func shieldSwitchOff() throws {
        let h = try Self.harness("  lazuri.break_constant: 20\n  lazuri.break_friction_seconds: 0\n  lazuri.break_delete_share: 0\n  lazuri.break_revoke_share: 0\n  lazuri.resume_probability: 1\n")
        for person in h.people {
            let life = h.live(person: person, script: Self.urges([2]))
            #expect(life.journal.decisions("lazuri_shield").map(\.outcome) == ["switch_off"], "person \(person)")
            #expect(!life.journal.events(named: "schedule_disabled").isEmpty)
            #expect(life.journal.events(named: "block_ended").contains { "\($0.event)".contains("interrupted") })
            #expect(life.journal.decisions("lazuri_resume").map(\.outcome) == ["resume"])
            #expect(life.journal.events(named: "schedule_enabled").count == 2, "switched on again at the day's end")
        }
    }

    @Test("lazuri_shield: breaking by deleting the schedule; lazuri_resume left off")
    func shieldDelete() throws {
        let h = try Self.harness("  lazuri.break_constant: 20\n  lazuri.break_friction_seconds: 0\n  lazuri.break_delete_share: 1\n  lazuri.break_revoke_share: 0\n  lazuri.resume_probability: 0\n")
        for person in h.people {
            let life = h.live(person: person, script: Self.urges([2, 5]))
            // Deleted, the schedule blocks no more: the second urge is used as meant.
            #expect(life.journal.decisions("lazuri_shield").map(\.outcome) == ["delete"], "person \(person)")
            #expect(life.journal.events(named: "schedule_deleted").count == 1 && life.state.scheduleID == nil)
            #expect(life.journal.decisions("lazuri_resume").map(\.outcome) == ["leave_off"])
        }
    }

    @Test("lazuri_shield: breaking by revoking Screen Time lifts every shield")
    func shieldRevoke() throws {
        let h = try Self.harness("  lazuri.break_constant: 20\n  lazuri.break_friction_seconds: 0\n  lazuri.break_revoke_share: 1\n  lazuri.resume_probability: 0\n")
        for person in h.people {
            let life = h.live(person: person, script: Self.urges([2, 5]))
            #expect(life.journal.decisions("lazuri_shield").map(\.outcome) == ["revoke"], "person \(person)")
            #expect(life.journal.events(named: "screentime_revoked").count == 1)
        }
    }

    /// Visits on every pickup check: the engagement habit's scale at its top, the cue's pull high.
    static let visits = "  engagement.app_open_per_pickup_scale: 1\n  engagement.cue.none: 1\n"

    static func checks(_ n: Int = 40) -> LifeScript {
        var script = LifeScript()
        for i in 0..<n { script.check(after: .minutes(Int64(60 + 30 * i))) }
        return script
    }

    @Test("lazuri_visit and promise_write: on the Compete tab the person writes a promise, and later shields show it")
    func promiseWritten() throws {
        let h = try Self.harness(Self.visits + "  lazuri.visit.read_cards_share: 0\n  lazuri.visit.minutes_share: 0\n  lazuri.visit.rank_share: 1\n"
                                 + "  lazuri.promise_write_probability: 1\n  lazuri.promise_rewrite_probability: 0\n  lazuri.break_constant: -20\n")
        var script = Self.checks(6)
        for h in [12.0, 14, 16] { script.urge(app: 1, after: .minutes(Int64(h * 60)), intensity: 0.9, minutes: 10, kind: .intended) }
        var wrote = 0
        for person in h.people {
            let life = h.live(person: person, script: script)
            let visits = life.journal.decisions("lazuri_visit").map(\.outcome)
            #expect(Set(visits).isSubset(of: ["look_at_rank"]))
            let promises = life.journal.decisions("promise_write").map(\.outcome)
            #expect(promises.count == visits.count)
            guard promises.first == "write" else { continue }
            wrote += 1
            #expect(promises.dropFirst().allSatisfy { $0 == "skip" }, "\(promises)")
            #expect(life.journal.events(named: "promise_saved").count == 1)
            // The promise stands on each shield after it: its exposures counted for the wear-out.
            #expect(life.journal.events(named: "shield_shown").allSatisfy { "\($0.event)".contains("hasPromise: true") })
            #expect(life.state.promiseExposures == life.journal.events(named: "shield_shown").count)
        }
        #expect(wrote > 0, "nobody opened Lazuri on the checks")
    }

    @Test("lazuri_visit: reading cards gives unique views, and achievements follow from the engine")
    func readingCards() throws {
        let h = try Self.harness(Self.visits + "  lazuri.visit.read_cards_share: 1\n  lazuri.cards_per_visit: 6\n", days: 4)
        var unique = 0
        for person in h.people {
            let life = h.live(person: person, script: Self.checks())
            #expect(Set(life.journal.decisions("lazuri_visit").map(\.outcome)).isSubset(of: ["read_cards"]))
            let views = life.journal.events(named: "card_viewed").filter { "\($0.event)".contains("isNew: true") }.count
            unique = max(unique, views)
            if views >= 5 { #expect(!life.journal.events(named: "achievement_unlocked").isEmpty, "person \(person): \(views) unique cards") }
        }
        #expect(unique >= 5)
    }

    @Test("reading cards keeps the phone in hand: a visit opened on a check lasts until the last card is read (beBusy in a pickup the product took no other part in)")
    func readingKeepsThePhoneInHand() throws {
        let h = try Self.harness(Self.visits + "  lazuri.visit.read_cards_share: 1\n  lazuri.cards_per_visit: 1\n  lazuri.card_seconds: 300\n", people: 4, days: 2)
        var longer = 0
        for person in h.people {
            let life = h.live(person: person, script: Self.checks(4), traced: true)
            let visits = life.journal.decisions("lazuri_visit")
            #expect(!visits.isEmpty, "person \(person)")
            for visit in visits {
                // The put-down after this visit: not before the reading's end (one card, a lognormal of median 300 s).
                guard let down = life.trace.first(where: { $0.kind == "put_down" && $0.time >= visit.at }) else { continue }
                #expect(down.time > visit.at, "person \(person): put down at the visit's own instant")
                if down.time - visit.at > .seconds(60) { longer += 1 }
            }
            // The clock never went backwards: every trace row in time order.
            #expect(zip(life.trace, life.trace.dropFirst()).allSatisfy { $0.time <= $1.time })
        }
        #expect(longer > 0, "no visit held the phone past the check's own session")
    }

    @Test("the user study's figures: a person who uses every checklist feature in the first week is counted, one who stalls is not")
    func studyFigures() throws {
        let h = try Self.harness(Self.visits + "  lazuri.visit.read_cards_share: 0.5\n  lazuri.visit.rank_share: 0.5\n  lazuri.visit.minutes_share: 0\n"
                                 + "  lazuri.promise_at_setup_probability: 1\n  lazuri.break_constant: -20\n", days: 11)
        var script = Self.urges([2, 20, 30])
        for i in 0..<30 { script.check(after: .minutes(Int64(90 + 45 * i))) }
        var completed = 0
        for person in h.people {
            let life = h.live(person: person, script: script)
            let c = life.summary.tally.counts
            #expect(c[.d7Eligible] == 1 && c[.weekKept] == 1 && c[.onboardingStalled] == 0, "person \(person)")
            #expect(life.journal.count("promise_write", "write") >= 1, "the promise written at set-up")
            if life.state.checklist == .all { completed += 1; #expect(c[.checklistCompleted] == 1) } else { #expect(c[.checklistCompleted] == 0) }
        }
        #expect(completed > 0)
        // Whether the horizon falls after day 7's end or right at it, a person who keeps the app kept the week.
        for days in [9, 10, 11] {
            let h = try LifeHarness(LazuriAdapter.self, people: 6, days: days, personas: "[{name: worker, share: 1}]", yaml: Self.allDay)
            for person in h.people {
                let c = h.live(person: person, script: LifeScript()).summary.tally.counts
                #expect(c[.weekKept] == c[.d7Eligible], "\(days) days, person \(person): eligible \(c[.d7Eligible]), kept \(c[.weekKept])")
            }
        }
        let stalled = try LifeHarness(LazuriAdapter.self, people: 4, days: 11, personas: "[{name: worker, share: 1}]",
                                      yaml: Self.allDay.replacingOccurrences(of: "lazuri.onboarding.no_tutorial_completion: 1", with: "lazuri.onboarding.no_tutorial_completion: 0"))
        for person in stalled.people {
            let c = stalled.live(person: person, script: LifeScript()).summary.tally.counts
            #expect(c[.onboardingStalled] == 1 && c[.checklistCompleted] == 0, "person \(person)")
        }
    }

    @Test("a promise at set-up: written right after the first switch-on, and the same later draws whether or not it is (arms stay paired)")
    func promiseAtSetupIsPaired() throws {
        let with = try Self.harness("  lazuri.promise_at_setup_probability: 1\n  lazuri.promise_effect: 0\n")
        let without = try Self.harness("  lazuri.promise_at_setup_probability: 0\n  lazuri.promise_effect: 0\n")
        for person in with.people {
            let a = with.live(person: person, script: Self.urges()), b = without.live(person: person, script: Self.urges())
            #expect(a.journal.events(named: "promise_saved").count == 1 && b.journal.events(named: "promise_saved").isEmpty)
            // With no effect, the shields end the same way: the set-up step shifted no later draw.
            #expect(a.journal.decisions("lazuri_shield").map(\.outcome) == b.journal.decisions("lazuri_shield").map(\.outcome), "person \(person)")
        }
    }

    @Test("the promise's effect wears off by half every half-life of shields, and a written promise lowers breaking it")
    func promiseWearOut() throws {
        let k = LazuriConstants(values: BehaviorValues(["lazuri.promise_effect": 0.8, "lazuri.promise_half_life_shields": 10],
                                                       catalogue: Products.behaviorParameters))
        #expect(k.promiseEffect(afterExposures: 0) == 0.8)
        #expect(abs(k.promiseEffect(afterExposures: 10) - 0.4) < 1e-12)
        #expect(abs(k.promiseEffect(afterExposures: 30) - 0.1) < 1e-12)
        // At the shield: breaking's acting probability with a fresh promise is below that with none, and climbs back
        // toward it as the same words meet the urge again.
        let model = ShieldChoiceModel()
        guard case let .open(f, c) = k.breakRole else { Issue.record("breaking is an open option"); return }
        func acting(_ effect: Double) -> Double {
            model.actingProbability([OfferedOption(.close), OfferedOption(.open(fulfilment: f, constant: c - effect))], context: ChoiceContext(urgeStrength: 0.8))
        }
        #expect(acting(k.promiseEffect(afterExposures: 0)) < acting(k.promiseEffect(afterExposures: 20)))
        #expect(acting(k.promiseEffect(afterExposures: 20)) < acting(0))
    }
}
