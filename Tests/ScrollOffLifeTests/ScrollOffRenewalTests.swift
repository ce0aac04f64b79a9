import LifeHarness
import Testing
import RulesCore
import ScenarioFormat
@testable import Simulation
import ProductRegistry
@testable import ScrollOffLife

/// Issue 13, audit D12: a subscriber's keep-or-cancel decision falls a day before the engine's own period end —
/// calendar months (seed 000 §5.1, §9 renewal) — never on a 30-day month.
@Suite("Scroll Off renewal decisions follow the engine's calendar periods")
struct ScrollOffRenewalTests {
    /// The keep-or-cancel decisions (a trial's or a paid period's).
    static let keepKinds: Set<String> = ["trial_keep", "renewal_keep"]

    /// Cheap monthly plans (and a dear annual one) and a component-value buy constant, so that many people subscribe
    /// monthly and renew through February and the months after, from 2026-01-05.
    static func monthlySubscribers(days: Int, installs: Int) throws -> (ResolvedScenario, World<ScrollOffProduct>) {
        let scenario = try ScenarioLoader(catalogues: Products.catalogues).load(yaml: """
            name: renewals
            start: 2026-01-05
            horizon_days: \(days)
            population:
              installs: \(installs)
            rules:
              prices: {premium_monthly: 0.49, pro_monthly: 0.99, pro_annual: 500}
            behavior: {purchase.buy_constant: -3}
            """, fileName: "renewals.yaml")
        return (scenario, try World<ScrollOffProduct>(scenario: scenario, arm: scenario.arms[0], replication: 1))
    }

    @Test("every renewal charge comes exactly one day after a decision to keep, across February and 30- and 31-day months")
    func decisionsPrecedeRenewalsByOneDay() throws {
        let (scenario, world) = try Self.monthlySubscribers(days: 160, installs: 40)
        var renewals = 0, checked = 0
        for person in 0..<scenario.arms[0].population.installs {
            var life = PersonLife(world: world, person: person)
            let journal = life.runRecorded().journal
            let keeps = Set(journal.decisions(anyOf: Self.keepKinds).filter { $0.outcome == "keep" || $0.outcome == "inert" }.map(\.at))
            for renewed in journal.events(named: "subscription_renewed") {
                renewals += 1
                #expect(keeps.contains(renewed.at - .days(1)), "person \(person): renewed at \(renewed.at) without a decision a day before")
                checked += 1
            }
        }
        #expect(renewals >= 10, "the scenario must renew often enough to test anything (\(renewals))")
        #expect(checked == renewals)
    }
}

/// Audit 2026-11-25 E1. Seed 000 §5.1: subscriptions renew "auto-renew monthly/annually"; §9 renewal: the user keeps
/// or cancels before the period ends — one decision per period. The adapter drew it again whenever any scheduled
/// moment fired (the end of every mindfulness exercise, §3.4 step 4), cancelling a Pro annual plan hours after it
/// was bought.
@Suite("Scroll Off: one keep-or-cancel decision per period, never at an exercise's end (audit 2026-11-25 E1)")
struct ScrollOffOneRenewalDecisionTests {
    @Test("every renewal decision falls exactly a day before its period's end, at most once per period, exercises or not")
    func oneDecisionPerPeriod() throws {
        // Subscribers who meet shields (and so finish mindfulness exercises) while their periods run.
        let (scenario, world) = try ScrollOffRenewalTests.monthlySubscribers(days: 70, installs: 120)
        var decisions = 0, exercisesWhileSubscribed = 0
        for person in 0..<scenario.arms[0].population.installs {
            var life = PersonLife(world: world, person: person)
            let (summary, journal) = life.runRecorded()
            #expect(summary.violation == nil, "\(summary.violation.map(String.init(describing:)) ?? "")")
            #expect(summary.decisions.decisions(.renewalKeep) <= summary.decisions.opportunities(.renewalKeep))
            let subscribedAt = journal.events.first { if case .subscriptionPurchaseCompleted = $0.event { true } else { false } }?.order
            if let subscribedAt {
                exercisesWhileSubscribed += journal.events.count {
                    guard case .mindfulnessCompleted = $0.event else { return false }
                    return $0.order >= subscribedAt
                }
            }
            var decided: [String: Int] = [:]
            for decision in journal.decisions(anyOf: ScrollOffRenewalTests.keepKinds) {
                decisions += 1
                // Not at an exercise's end: no mindfulness completion at the same instant, just before it.
                #expect(!journal.events(at: decision.at).contains {
                    guard case .mindfulnessCompleted = $0.event else { return false }
                    return $0.order < decision.order
                }, "person \(person): renewal drawn at an exercise's end (\(decision.at))")
                decided[decision.at.description, default: 0] += 1
            }
            #expect(decided.values.allSatisfy { $0 == 1 })
        }
        #expect(decisions >= 5, "the scenario must reach renewal decisions (\(decisions))")
        #expect(exercisesWhileSubscribed >= 5, "subscribers must finish exercises for the test to mean anything (\(exercisesWhileSubscribed))")
    }
}
