import Testing
import Behavior
import Stochastics
import RulesCore
import ScenarioFormat
@testable import Simulation
import ProductRegistry
import ScrollOffLife
import EarnedAccessLife
import NudgeLife

/// Issue 38, audit N9: in the App Store deleting an app cancels nothing — the store renews the subscription, the
/// person may still cancel it in the store's settings or ask for a refund, and the plan lapses only when cancelled
/// or refunded. Every product that sells: a subscriber whose tenure ends (`tenure_days`) is charged after the
/// uninstall when they keep, cancels and lapses when they do not, gets a refund they asked for, and the MRR at the
/// horizon agrees with the month's standing `forecast.csv` reads.
@Suite("A subscription outlives its app (issue 38, audit N9)")
struct SubscriptionOutlivesAppTests {
    final class Rows: @unchecked Sendable { var rows: [TraceRow] = [] }

    /// One life and what it left: the summary, every ledger line, the uninstall instant, the horizon month's standing.
    struct Lived<A: ProductAdapter> {
        var summary: LifeSummary<A>
        var ledger: [LedgerEntry]
        var uninstalledAt: Instant?
        var rows: [TraceRow]
        var horizonMonthMRR: Money
    }

    /// Everyone buys at their first paywall (`purchase.buy_constant` 6) and uninstalls at the end of day 12
    /// (`tenure_days`; no other churn: nobody only tries the app, a dormant person never leaves), over a horizon long enough for two monthly renewals after.
    static func lives<A: ProductAdapter>(_: A.Type, product: String, behavior: String, installs: Int = 60, tenureDays: Int = 12) throws -> [Lived<A>] {
        let yaml = """
            name: outlives
            product: \(product)
            start: 2026-01-05
            horizon_days: 75
            tenure_days: \(tenureDays)
            population:
              installs: \(installs)
            behavior: {purchase.buy_constant: 6, churn.base_hazard: 0.0001, retention.trying_share: 0, dormant.leave_constant: -20, \(behavior)}
            """
        let s = try ScenarioLoader(catalogues: Products.catalogues).load(yaml: yaml, fileName: "outlives.yaml")
        let world = try World<A>(scenario: s, arm: s.arms[0], replication: 1)
        return (0..<installs).map { id in
            let box = Rows()
            var life = PersonLife(world: world, person: id) { box.rows.append($0) }
            life.ledgerLog = []
            let summary = life.run()
            let uninstalledAt = box.rows.first { $0.kind == "tenure_end" }?.time
            return Lived(summary: summary, ledger: life.ledgerLog ?? [], uninstalledAt: uninstalledAt, rows: box.rows,
                         horizonMonthMRR: summary.months[life.currentMonth]?.mrr ?? .zero)
        }
    }

    /// Charges (first charges, trial conversions, renewals) after the uninstall, over every life.
    static func chargesAfterUninstall<A>(_ lives: [Lived<A>]) -> Int {
        lives.reduce(0) { n, l in
            guard let u = l.uninstalledAt else { return n }
            return n + l.ledger.filter { $0.at > u && $0.amount > .zero && $0.kind != .serviceCost }.count
        }
    }

    static func keepOrCancelAfterUninstall<A>(_ lives: [Lived<A>], _ prefix: String) -> Int {
        lives.reduce(0) { n, l in
            guard let u = l.uninstalledAt else { return n }
            return n + l.rows.filter { $0.time > u && $0.kind == "renewal-decision" && $0.detail.hasPrefix(prefix) }.count
        }
    }

    static let keeps = "purchase.renew_intercept: 12, purchase.trial_intercept: 12, purchase.cancel_at_trial_start: 0"
    static let cancels = "purchase.renew_intercept: -20, purchase.trial_intercept: -20, purchase.inertia: 0, purchase.cancel_at_trial_start: 0"

    static func check<A: ProductAdapter>(_ a: A.Type, product: String) throws {
        // Keeping: the store charges after the app is gone, and the decision was taken after the uninstall.
        let kept = try lives(a, product: product, behavior: keeps)
        #expect(kept.allSatisfy { $0.summary.violation == nil }, "\(kept.compactMap(\.summary.violation).first.map(String.init(describing:)) ?? "")")
        #expect(kept.allSatisfy { $0.uninstalledAt != nil }, "every tenure ends on day 12")
        let charged = chargesAfterUninstall(kept)
        #expect(charged >= 3, "\(product): \(charged) charges after uninstalling — the subscription must outlive the app")
        #expect(keepOrCancelAfterUninstall(kept, "keep") + keepOrCancelAfterUninstall(kept, "inert") >= 3)
        // forecast.csv's standing at the horizon and mrr_usd_at_horizon agree person by person.
        for (id, l) in kept.enumerated() {
            #expect(l.summary.mrrAtEnd == l.horizonMonthMRR, "\(product) person \(id): MRR at horizon \(l.summary.mrrAtEnd) ≠ forecast's \(l.horizonMonthMRR)")
        }
        #expect(kept.contains { $0.summary.mrrAtEnd > .zero }, "\(product): some uninstalled subscriber still pays at the horizon")

        // Cancelling: decided in the store after the uninstall; nothing charged after the period that was paid for.
        let cancelled = try lives(a, product: product, behavior: cancels)
        #expect(cancelled.allSatisfy { $0.summary.violation == nil })
        #expect(keepOrCancelAfterUninstall(cancelled, "cancel") >= 3, "\(product): cancellations after uninstalling")
        #expect(chargesAfterUninstall(cancelled) == 0, "\(product): charged after cancelling")
        // A cancelled plan runs to the end of the period paid for: at the horizon it counts only if that is later.
        #expect(cancelled.allSatisfy { $0.summary.mrrAtEnd == $0.horizonMonthMRR })

        // Refunds: asked for on the third day after a charge, which for a purchase in a one-day tenure falls after
        // the uninstall (`refund.value_weight` at its maximum makes a person of low value felt ask).
        let refunding = try lives(a, product: product, behavior: keeps + ", refund.value_weight: 20", installs: 60, tenureDays: 1)
        let refundsAfter = refunding.reduce(0) { n, l in
            guard let u = l.uninstalledAt else { return n }
            return n + l.ledger.filter { $0.at > u && $0.kind == .refund }.count
        }
        #expect(refundsAfter >= 1, "\(product): a refund asked for is granted after the uninstall")
        for l in refunding {
            #expect(l.summary.mrrAtEnd == l.horizonMonthMRR)
        }
    }

    @Test("Scroll Off: charged at renewal after uninstalling, may cancel or be refunded; MRR agrees with forecast")
    func scrollOff() throws { try Self.check(ScrollOffProduct.self, product: "scroll-off") }

    @Test("Earned Access: charged at renewal after uninstalling, may cancel or be refunded; MRR agrees with forecast")
    func earnedAccess() throws { try Self.check(EarnedAccessProduct.self, product: "earned-access") }

    @Test("Nudge: charged at renewal after uninstalling, may cancel or be refunded; MRR agrees with forecast")
    func nudge() throws { try Self.check(NudgeProduct.self, product: "nudge") }

    @Test("the app's own timers and plans go with it: no engine event after the uninstall but the store's")
    func onlyTheStoreOutlivesTheApp() throws {
        let kept = try Self.lives(NudgeProduct.self, product: "nudge", behavior: Self.keeps)
        let storeEvents: Set<String> = ["subscription_renewed", "subscription_started", "subscription_expired", "subscription_cancelled",
                                        "subscription_refunded"]
        for l in kept {
            guard let u = l.uninstalledAt else { continue }
            for row in l.rows where row.time > u && row.kind == "engine" {
                let name = String(row.detail.prefix { $0 != " " })
                #expect(storeEvents.contains(name), "an app event after the uninstall: \(row.detail)")
            }
        }
    }

    @Test("a person paying now leaves at churn.paying_hazard_ratio times the hazard; the same draws otherwise")
    func payingIsAReasonToStay() throws {
        let m = EngagementModel(values: .defaults)
        #expect(m.payingHazardRatio == 0.5)
        // Same stream, same draws: at ratio 1 the decision is the unscaled one, at ratio 0 nobody leaves.
        for seed in 0..<200 {
            let a = RandomStream(seed: UInt64(seed)), b = RandomStream(seed: UInt64(seed)), c = RandomStream(seed: UInt64(seed))
            var high = m
            high.baseChurnHazard = 0.9
            #expect(high.dailyChurnDecision(rng: a, disableRestrictionShare: 0) == high.dailyChurnDecision(rng: b, disableRestrictionShare: 0, hazardScale: 1))
            #expect(high.dailyChurnDecision(rng: c, disableRestrictionShare: 0, hazardScale: 0) == nil)
        }
    }
}
