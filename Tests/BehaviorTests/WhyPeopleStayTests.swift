import Foundation
import RulesCore
import Stochastics
import Testing

@testable import Behavior

/// Issue 39's mechanisms of why people stay, each against its source's words (component level; the whole-run checks
/// are in `SimulationTests/WhyPeopleStayRunTests`).
@Suite("Why people stay (issue 39)")
struct WhyPeopleStayTests {
    /// A cohort of `n` people with `model`'s constants, fraction `trying` of them only trying: the daily hazards of
    /// the cohort (leavers ÷ those left) over `days` days, value and frustration held at the start.
    static func cohortHazards(_ model: EngagementModel, n: Int, days: Int, seed: UInt64) -> [Double] {
        let rng = RandomStream(seed: seed)
        var people = (0..<n).map { _ -> EngagementModel in var m = model; m.drawTrying(rng: rng); return m }
        var hazards: [Double] = []
        for _ in 0..<days {
            var left: [EngagementModel] = []
            for p in people where p.dailyChurnDecision(rng: rng) == nil { left.append(p) }
            hazards.append(Double(people.count - left.count) / Double(max(people.count, 1)))
            people = left
        }
        return hazards
    }

    @Test("trying and dropping: a cohort mixing people who only try with people who adopt has a steep start and a slow tail (Fader & Hardie 2007)")
    func tryingMakesTheCohortCurve() {
        var m = EngagementModel(perceivedValue: 0.5)
        m.baseChurnHazard = 0.04 / exp(-m.valueWeight * 0.5 - m.engagementWeight * m.appOpenHabit)   // adopters: 4 % a day
        m.tryingShare = 0.6
        m.tryingDailyDrop = 0.6
        let h = Self.cohortHazards(m, n: 40_000, days: 21, seed: 5)
        // Day 1: 0.6 × 0.6 + 0.4 × 0.04 = 0.376 of the cohort; by week 3 the triers are gone and the hazard is the adopters'.
        #expect(abs(h[0] - 0.376) < 0.01)
        #expect(h[0] > 5 * h[14])
        #expect(abs(h[14] - 0.04) < 0.01)
        // The hazard falls day by day in the first week (the curve's shape), never rising by more than noise.
        for d in 1..<7 { #expect(h[d] < h[d - 1] + 0.005, "day \(d)") }
        // Without people who only try, the hazard is flat from the first day: no steep start.
        m.tryingShare = 0
        let flat = Self.cohortHazards(m, n: 40_000, days: 8, seed: 5)
        #expect(abs(flat[0] - flat[7]) < 0.01)
    }

    @Test("a person who only tries drops at the trying rate whatever the product gives, and no faster than an adopter would")
    func tryingIsWhateverTheProductGives() {
        var m = EngagementModel(perceivedValue: 1)
        m.tryingShare = 1
        m.drawTrying(rng: RandomStream(seed: 1))
        #expect(m.triesOnly)
        #expect(m.churnHazardPerDay == m.tryingDailyDrop)
        for _ in 0..<50 { m.record(.paywallHit) }   // a frustrated one who tries leaves at the adopter's hazard if that is higher
        #expect(m.churnHazardPerDay == max(m.tryingDailyDrop, m.adoptedChurnHazardPerDay))
        m.tryingShare = 0
        m.drawTrying(rng: RandomStream(seed: 1))
        #expect(!m.triesOnly && m.churnHazardPerDay == m.adoptedChurnHazardPerDay)
    }

    @Test("novelty fades: value felt starts at the novelty of a new app and what the product gives adds to it")
    func noveltyFades() {
        var values = BehaviorValues.defaults
        values["engagement.novelty_start"] = 0.4
        values["engagement.novelty_daily_retention"] = 0.9
        values["engagement.value_daily_retention"] = 0.95
        let person = Person.draw(persona: PersonaCatalog.general, id: 1, seed: 2, replication: 0)
        var m = EngagementModel(values: values).starting(person: person)
        #expect(m.novelty == 0.4 && m.productValue == 0 && m.perceivedValue == 0.4)
        for _ in 0..<10 { m.endOfDay() }
        #expect(abs(m.novelty - 0.4 * pow(0.9, 10)) < 1e-12 && m.productValue == 0)
        m.record(.resistedUrge)
        #expect(m.productValue > 0 && abs(m.perceivedValue - (m.novelty + m.productValue)) < 1e-12)
        // A product that gives nothing is kept only while it is new: the hazard rises as novelty fades.
        var idle = EngagementModel(values: values).starting(person: person)
        let first = idle.churnHazardPerDay
        for _ in 0..<30 { idle.endOfDay() }
        #expect(idle.churnHazardPerDay > first)
    }

    @Test("dormant people decide every day: with no shield at all they still leave or come back")
    func dormantWithoutShields() {
        let m = DormantModel()
        let p = m.probabilities(frustration: 0, value: 0, shields: 0)
        #expect(p.leave > 0.01 && p.comeBack > 0)
        // Over 60 days with no shield, most leave and some come back (the default constants).
        let rng = RandomStream(seed: 4)
        var left = 0, back = 0
        for _ in 0..<5_000 {
            dayLoop: for _ in 0..<60 {
                switch m.response(frustration: 0, value: 0, shields: 0, rng: rng) {
                case .stay: continue
                case .comeBack: back += 1; break dayLoop
                case .uninstall, .liftBlocking: left += 1; break dayLoop
                }
            }
        }
        #expect(left > 2_500 && back > 0)
        // A product with no blocking to lift: leaving is deleting.
        for _ in 0..<2_000 {
            #expect(m.response(frustration: 0.9, value: 0, shields: 0, restricts: false, rng: rng) != .liftBlocking)
        }
    }

    @Test("value grows only through the product's declared channels")
    func valueChannels() {
        #expect(EngagementEvent.resistedUrge.valueChannel == .urgeResisted)
        #expect(EngagementEvent.minutesSaved(3).valueChannel == .minutesKept)
        #expect(EngagementEvent.value(0.01, .creditEarned).valueChannel == .creditEarned)
        // A product's own channel, declared where it is used (Nudge's `thingDoneWithHelp` is declared in its folder).
        let own = ValueChannel("thing_done_with_help")
        #expect(EngagementEvent.value(0.03, own).valueChannel == own && own != .creditEarned && own.description == "thing_done_with_help")
        #expect(EngagementEvent.frustration(0.06).valueChannel == nil && EngagementEvent.appOpened.valueChannel == nil)
    }

    @Test("a product's own events step frustration and value by the weight its constants give (issue 42)")
    func productWeightedEvents() {
        var a = EngagementModel(), b = EngagementModel()
        a.record(.frustration(0.08))
        b.record(.frustration(0.2))
        #expect(a.frustration > 0 && b.frustration > a.frustration)
        let before = a.productValue
        a.record(.value(0.05, .creditEarned))
        #expect(abs(a.productValue - (before + (1 - before) * 0.05)) < 1e-15)
        var c = EngagementModel()
        c.record(.frustration(0))
        #expect(c.frustration == 0)
    }
}
