import Behavior
import EarnedAccessLife
import Foundation
import Stochastics
import Testing

/// Focus sessions and habit check-ins (issue 15): the people's side of Earned Access's earning, its models in its own
/// folder since issue 42 (`EarnedAccessConstants`).
@Suite("Focus sessions and habit check-ins")
struct FocusAndHabitTests {
    static func stream(_ purpose: String) -> RandomStream { RandomStream(key: StreamKey(seed: 11, replication: 0, person: 1, stream: StreamName(purpose))) }

    @Test func plannedLengthsHaveThePomodoroMedianAndStayInTheirBounds() {
        let m = FocusSessionModel(), rng = Self.stream("focus-length")
        var lengths = (0..<20_000).map { _ in m.plannedMinutes(rng: rng) }
        lengths.sort()
        #expect(lengths.first! >= 10 && lengths.last! <= 90)
        #expect(abs(lengths[lengths.count / 2] - 25) <= 1, "median \(lengths[lengths.count / 2])")
    }

    @Test func sessionsADayFollowPerceivedValue() {
        let m = FocusSessionModel(), rng = Self.stream("focus-count")
        func mean(_ value: Double) -> Double { Double((0..<20_000).reduce(0) { n, _ in n + m.sessionsToday(valueFelt: value, rng: rng) }) / 20_000 }
        let low = mean(0.1), mid = mean(0.5), high = mean(0.9)
        #expect(abs(mid - 0.8) < 0.03, "mean at value 0.5: \(mid)")
        #expect(low < mid && mid < high)
    }

    @Test func longerSessionsAndLowerEfficacyAreAbandonedMore() {
        let m = FocusSessionModel()
        #expect(abs(m.completionProbability(minutes: 25, selfEfficacy: 0.5) - 0.75) < 1e-12)
        #expect(m.completionProbability(minutes: 60, selfEfficacy: 0.5) < m.completionProbability(minutes: 20, selfEfficacy: 0.5))
        #expect(m.completionProbability(minutes: 25, selfEfficacy: 0.2) < m.completionProbability(minutes: 25, selfEfficacy: 0.8))
    }

    @Test func sessionsStartInsideTheWindow() {
        let m = FocusSessionModel(), rng = Self.stream("focus-start")
        for _ in 0..<5_000 {
            let s = m.startSecondsOfDay(rng: rng)
            #expect((9 * 3600)...(21 * 3600) ~= s)
        }
    }

    @Test func habitsSetUpAverageTheirMeanAndCheckOffsFollowValue() {
        let m = HabitCheckInModel(), rng = Self.stream("habits")
        let counts = (0..<20_000).map { _ in m.habitsSetUp(rng: rng) }
        #expect(counts.allSatisfy { (0...3).contains($0) })
        #expect(abs(Double(counts.reduce(0, +)) / 20_000 - 1.5) < 0.03)
        #expect(abs(m.checkOffProbability(valueFelt: 0.5) - 0.6) < 1e-12)
        #expect(m.checkOffProbability(valueFelt: 0.2) < m.checkOffProbability(valueFelt: 0.8))
    }

    @Test func questAndEmergencyAreWaysThroughThatCostEffortAndReluctance() {
        let m = ShieldChoiceModel()
        let k = EarnedAccessConstants(values: BehaviorValues(catalogue: EarnedAccessAdapter.behaviorCatalogue))
        let c = ChoiceContext(urgeStrength: 0.7)
        let credits = OfferedOption(m.spendCredits)
        let quest = OfferedOption(k.quest, frictionSeconds: 60)
        let emergency = OfferedOption(k.emergency, frictionSeconds: 60)
        #expect(quest.actsOnUrge && emergency.actsOnUrge)
        #expect(m.utility(quest, c) < m.utility(credits, c), "a minute of breathing costs more than credits at no scarcity")
        #expect(m.utility(emergency, c) < m.utility(quest, c), "the day's only emergency is spent reluctantly")
        // The redirect step (a shield that cannot open the blocker) lowers every way through.
        let stepped = OfferedOption(m.spendCredits, frictionSeconds: k.redirectStepSeconds)
        #expect(m.utility(stepped, c) < m.utility(credits, c))
    }
}
