import Testing
import Stochastics
@testable import Behavior

@Suite("Habit model (Lally et al. 2010; Edgren et al. 2024)")
struct HabitTests {
    /// Days to 95% for 5000 people of the general persona (seed 66), daily use and one missed day a week.
    static let days: (daily: [Double], missing: [Double]) = {
        var daily: [Double] = [], missing: [Double] = []
        for id in 0..<5000 {
            let rng = RandomStream(key: StreamKey(seed: 66, replication: 0, person: UInt64(id), stream: .population))
            let p = HabitModel.drawParameters(persona: PersonaCatalog.general, rng: rng)
            daily.append(Double(HabitModel.daysTo95Percent(parameters: p)!))
            missing.append(Double(HabitModel.daysTo95Percent(parameters: p, missOneDayPerWeek: true) ?? 5000)) // censored: never reached
        }
        return (daily, missing)
    }()

    @Test("median days to 95% in 55–80 (Lally: 66), right-skewed, 5th–95th percentiles near 18–254")
    func lallyMedian() {
        let q = SampleQuantiles(Self.days.daily)
        let median = q.median!, p05 = q.quantile(0.05)!, p95 = q.quantile(0.95)!
        print("habit: median \(median) p05 \(p05) p95 \(p95) mean \(Summary(Self.days.daily).mean)")
        #expect((55...80).contains(median))
        #expect(Summary(Self.days.daily).mean > median * 1.1, "right skew: mean above median")
        #expect(p95 - median > 2 * (median - p05), "right skew: longer upper tail")
        #expect((10...30).contains(p05) && (180...360).contains(p95))
    }

    @Test("one missed day a week changes the median by under 10%")
    func missedDay() {
        let a = SampleQuantiles(Self.days.daily).median!, b = SampleQuantiles(Self.days.missing).median!
        print("habit: median daily \(a), missing one day a week \(b)")
        #expect(abs(b - a) / a < 0.10)
        #expect(b >= a, "missing days never helps")
    }

    @Test("growth follows y = a − b·e^(−c·t) and stays below the asymptote")
    func curve() {
        let p = HabitParameters(asymptote: 0.8, daysTo95: 40)
        var h = HabitModel(parameters: p)
        for d in Int64(1)...40 { h.reinforce(onDay: d) }
        #expect(abs(h.strengthAtLastUse - 0.95 * 0.8) < 1e-9)
        for d in Int64(41)...400 { h.reinforce(onDay: d) }
        #expect(h.strengthAtLastUse <= 0.8)
        h.reinforce(onDay: 400)
        #expect(h.strengthAtLastUse <= 0.8, "same-day repeats count once")
    }

    @Test("decay with disuse is slow at first and levels off at the residual share")
    func decay() {
        var h = HabitModel(parameters: HabitParameters(decayLevelOffDays: 20, residualShare: 0.3), initialStrength: 0)
        for d in Int64(1)...200 { h.reinforce(onDay: d) }
        let s = h.strengthAtLastUse
        #expect(h.strength(onDay: 202) > 0.99 * s, "one missed day costs < 1%")
        #expect(h.strength(onDay: 215) < 0.7 * s)
        let at21 = h.strength(onDay: 221), at60 = h.strength(onDay: 260)
        #expect(abs(at60 - 0.3 * s) < 0.01)
        #expect((at21 - 0.3 * s) <= 0.05 * 0.7 * s + 1e-9, "95% of the loss done after levelOff days")
        var g = h
        g.decay(days: 1000)
        #expect(abs(g.strengthAtLastUse - 0.3 * s) < 1e-9)
    }

    @Test("self-efficacy rises with wins, falls with lapses, stays bounded")
    func selfEfficacy() {
        var e = SelfEfficacy(value: 0.5)
        e.recordWin()
        #expect(e.value > 0.5)
        for _ in 0..<1000 { e.recordWin() }
        #expect(e.value <= 0.95)
        let top = e.value
        e.recordLapse()
        #expect(e.value < top)
        for _ in 0..<5000 { e.recordLapse() }
        #expect(e.value >= 0.05)
    }
}
