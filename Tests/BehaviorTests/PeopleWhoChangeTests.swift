import Foundation
import RulesCore
import Stochastics
import Testing
@testable import Behavior

/// Issue 26's mechanisms, each against its source: habits fed and starved (Lally et al. 2010; Edgren et al. 2024),
/// habitual and intended urges, letting go at an interruption, dormant people who decide, trials that build value,
/// and auto-renewal inertia.
@Suite("People who change (issue 26)")
struct PeopleWhoChangeTests {
    @Test("a habit fed at every urge stays at its plateau: an untreated person does not drift")
    func fedHabitIsStationary() {
        var h = AppHabits(count: 2, strength: 0.7, daysTo95: 66, decayLevelOffDays: 15)
        for _ in 0..<200 {
            for _ in 0..<8 { h.acted(0); h.acted(1) }
            h.endOfDay()
        }
        #expect(h.strength == [0.7, 0.7])
    }

    @Test("starved at every urge, a habit loses 95 % of the way to its residual in its level-off days (Edgren et al. 2024)")
    func starvedHabitDecaysOverLevelOffDays() {
        let levelOff = 15.0
        var h = AppHabits(count: 1, strength: 0.8, daysTo95: 66, decayLevelOffDays: levelOff, residualShare: 0.3)
        var days = 0
        while h.strength[0] - 0.3 * 0.8 > 0.05 * (0.8 - 0.3 * 0.8) + 1e-12 {
            h.passed(0)
            h.endOfDay()
            days += 1
        }
        #expect(days == Int(levelOff))
        // It never falls below the residual.
        for _ in 0..<500 { h.passed(0); h.endOfDay() }
        #expect(h.strength[0] >= 0.3 * 0.8 - 1e-12)
    }

    @Test("fed again after starving, a habit regrows at Lally's pace: 95 % of the way back in its days to 95 %")
    func habitRegrowsAtLallyPace() {
        var h = AppHabits(count: 1, strength: 0.8, daysTo95: 40, decayLevelOffDays: 10, residualShare: 0.3)
        for _ in 0..<200 { h.passed(0); h.endOfDay() }
        let low = h.strength[0]
        var days = 0
        while 0.8 - h.strength[0] > 0.05 * (0.8 - low) + 1e-12 { h.acted(0); h.endOfDay(); days += 1 }
        #expect(days == 40)
    }

    @Test("a day with no urge for an app leaves its habit alone; half the urges passed moves it less than all")
    func habitsMoveWithCuesNotTheCalendar() {
        var h = AppHabits(count: 2, strength: 0.6, daysTo95: 66, decayLevelOffDays: 15)
        h.passed(0)
        h.endOfDay()
        #expect(h.strength[1] == 0.6)
        var half = AppHabits(count: 1, strength: 0.6), all = AppHabits(count: 1, strength: 0.6)
        half.acted(0); half.passed(0); half.endOfDay()
        all.passed(0); all.endOfDay()
        #expect(all.strength[0] < half.strength[0] && half.strength[0] < 0.6)
        // A wait that ended in the app after all turns a pass into an act.
        var late = AppHabits(count: 1, strength: 0.6)
        late.passed(0); late.actedAfterAll(0); late.endOfDay()
        #expect(late.strength[0] == 0.6)
    }

    @Test("with every habit at h the urge probability is the former urgeShare·(0.5 + h); the habitual share is h / (0.5 + h)")
    func urgeKindsAndRates() {
        let p = PhoneUseParameters()
        var process = PhoneUseProcess(parameters: p, appLikings: [0.8, 0.5], scrollingHabitStrength: 0.7)
        #expect(abs(process.urgeProbability - min(0.95, p.urgeShare * 1.2)) < 1e-12)
        let zone = ZoneCalendar.utc
        let rng = RandomStream(seed: 26)
        var t = Instant(millisecondsSinceEpoch: 1_767_600_000_000)
        var urges = 0, habitual = 0
        for _ in 0..<40_000 {
            let pick = process.nextPickup(after: t, zone: zone, rng: rng)
            if case .urge = pick.source { urges += 1; if pick.kind == .habitual { habitual += 1 } }
            t = pick.sessionEnd
        }
        let share = Double(habitual) / Double(urges)
        #expect(abs(share - 0.7 / 1.2) < 0.02, "habitual share \(share)")
    }

    @Test("a starved app is wanted less often: its urges fall, the other app's do not, and untreated urges stay as they were")
    func starvedAppIsWantedLess() {
        var process = PhoneUseProcess(parameters: PhoneUseParameters(), appLikings: [0.6, 0.6], scrollingHabitStrength: 0.7)
        let before = process.urgeProbability
        for _ in 0..<30 { process.urgePassed(0); process.urgeActed(1); process.endOfDay() }
        #expect(process.urgeProbability < before)
        #expect(process.habits.strength[1] == 0.7 && process.habits.strength[0] < 0.35)
        #expect(abs(process.plateauUrgeProbability - before) < 1e-12)
        // When the block goes away, urges come back at the rate the habit has by then — not at once.
        let starved = process.urgeProbability
        process.urgeActed(0); process.endOfDay()
        #expect(process.urgeProbability > starved && process.urgeProbability < before)
    }

    @Test("letting go: none without an interruption, likelier the longer it lasts and the weaker the urge, far less for an intended urge")
    func lettingGo() {
        let m = UrgeModel()
        #expect(m.letGoProbability(.habitual, urge: 0.5, seconds: 0) == 0)
        let short = m.letGoProbability(.habitual, urge: 0.5, seconds: 5), long = m.letGoProbability(.habitual, urge: 0.5, seconds: 120)
        #expect(short < long && long <= 0.5)
        #expect(m.letGoProbability(.habitual, urge: 0.9, seconds: 60) < m.letGoProbability(.habitual, urge: 0.3, seconds: 60))
        #expect(abs(m.letGoProbability(.intended, urge: 0.5, seconds: 60) - 0.25 * m.letGoProbability(.habitual, urge: 0.5, seconds: 60)) < 1e-12)
        // LocknType's direction (Kim et al. 2019): a longer lock-out task stops more launches than a bare pause.
        #expect(m.letGoProbability(.habitual, urge: 0.6, seconds: 30) > 2 * m.letGoProbability(.habitual, urge: 0.6, seconds: 5))
    }

    @Test("dormant people: frustration drives leaving, value drives coming back; the answers add up")
    func dormantResponse() {
        let m = DormantModel()
        let calm = m.probabilities(frustration: 0, value: 0.3, shields: 1)
        let angry = m.probabilities(frustration: 0.8, value: 0.3, shields: 10)
        #expect(angry.leave > 4 * calm.leave)
        let valued = m.probabilities(frustration: 0, value: 0.9, shields: 1)
        #expect(valued.comeBack > calm.comeBack && valued.leave < calm.leave)
        let rng = RandomStream(seed: 9)
        var counts: [DormantResponse: Int] = [:]
        for _ in 0..<20_000 { counts[m.response(frustration: 0.8, value: 0.3, shields: 10, rng: rng), default: 0] += 1 }
        let leave = Double(counts[.uninstall, default: 0] + counts[.liftBlocking, default: 0]) / 20_000
        #expect(abs(leave - angry.leave) < 0.015)
        #expect(abs(Double(counts[.uninstall, default: 0]) / 20_000 - angry.leave * m.uninstallShare) < 0.015)
    }

    @Test("inertia: a person who means to cancel renews with its probability; none at 0, all at 1")
    func inertia() {
        var m = PurchaseModel()
        for inertia in [0.0, 0.3, 1.0] {
            m.inertia = inertia
            let rng = RandomStream(seed: 3)
            var cancels = 0, inert = 0
            for _ in 0..<20_000 {
                switch m.keepOrCancel(probabilityOfKeeping: 0.4, rng: rng) {
                case .cancel: cancels += 1
                case .inert: inert += 1
                case .keep: break
                }
            }
            #expect(abs(Double(cancels) / 20_000 - 0.6 * (1 - inertia)) < 0.015)
            #expect(abs(Double(inert) / 20_000 - 0.6 * inertia) < 0.015)
        }
    }

    @Test("a trial builds value: the product's integration grows with the days it is in use, and raises keeping")
    func trialsBuildValue() {
        var e = EngagementModel()
        for day in 0..<3 { e.recordProductUse(onDay: Int64(day)) }
        let afterThree = e.integration(onDay: 3)
        for day in 3..<21 { e.recordProductUse(onDay: Int64(day)) }
        let afterTwentyOne = e.integration(onDay: 21)
        #expect(afterThree > 0 && afterTwentyOne > 2 * afterThree)
        let m = PurchaseModel()
        let p3 = m.trialConversionProbability(priceUSDPerMonth: 5, willingnessToPay: 3, valueFelt: m.valueAtDecision(valueFelt: 0.3, integration: afterThree))
        let p21 = m.trialConversionProbability(priceUSDPerMonth: 5, willingnessToPay: 3, valueFelt: m.valueAtDecision(valueFelt: 0.3, integration: afterTwentyOne))
        #expect(p21 > p3)
    }

    @Test("sophisticated inertia: only people sophisticated about it, and not meaning to keep, cancel as a trial starts")
    func cancelAtTrialStart() {
        var m = PurchaseModel()
        let rng = RandomStream(seed: 11)
        m.cancelAtTrialStart = 0
        #expect((0..<1000).allSatisfy { _ in !m.cancelsAtTrialStart(probabilityOfKeeping: 0, rng: rng) })
        m.cancelAtTrialStart = 1
        #expect((0..<1000).allSatisfy { _ in m.cancelsAtTrialStart(probabilityOfKeeping: 0, rng: rng) })
        #expect((0..<1000).allSatisfy { _ in !m.cancelsAtTrialStart(probabilityOfKeeping: 1, rng: rng) })
        m.cancelAtTrialStart = 0.3
        let n = (0..<20_000).filter { _ in m.cancelsAtTrialStart(probabilityOfKeeping: 0.4, rng: rng) }.count
        #expect(abs(Double(n) / 20_000 - 0.3 * 0.6) < 0.012)
    }
}
