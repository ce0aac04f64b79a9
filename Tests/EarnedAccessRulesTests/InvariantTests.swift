import Testing
import RulesCore
@testable import EarnedAccessRules

/// Each engine invariant names its violation when the state is broken by hand (the sweeps prove they hold; these
/// prove they would speak).
@Suite("Earned Access invariants detect broken states")
struct InvariantTests {
    static func engine() -> (EarnedAccessEngine, Instant) {
        var h = Harness()
        h.onboard(apps: [1, 2])
        return (h.engine, h.at(0, 9))
    }

    static func grant(_ a: UInt16, _ m: UnlockMethod, _ minutes: Int, at t: Instant, tier: AccessTier) -> AccessGrant {
        AccessGrant(app: AppID(a), method: m, minutes: minutes, start: t, end: t + .minutes(Int64(minutes)), tierAtGrant: tier)
    }

    @Test("a clean engine has no violations")
    func clean() {
        var (e, t) = Self.engine()
        #expect(e.invariantViolations(at: t).isEmpty)
    }

    @Test("negative balance, carry-over above the cap, two emergencies, two bonuses")
    func counters() {
        var (e, t) = Self.engine()
        e.balance = -1
        e.carriedAtLastBoundary = 11
        e.emergenciesToday = 2
        e.bonusesToday = 2
        let v = e.invariantViolations(at: t).joined(separator: "\n")
        for s in ["negative balance", "over the cap", "emergencies on day_id", "streak bonus 2 times"] { #expect(v.contains(s), "\(s): \(v)") }
    }

    @Test("grants: too long for the plan, a Free 15-min grant after the downgrade, stacking, a shield over a live grant")
    func grants() {
        var (e, t) = Self.engine()
        e.grants = [Self.grant(1, .credits, 15, at: t, tier: .free), Self.grant(1, .emergency, 5, at: t, tier: .free)]
        e.shieldedApps = [AppID(1)]
        let v = e.invariantViolations(at: t).joined(separator: "\n")
        for s in ["above what free allows", "obtained after the downgrade", "stacked grants", "shield up on app:1"] { #expect(v.contains(s), "\(s): \(v)") }
    }

    @Test("day_id ahead of the clock")
    func dayAhead() {
        var (e, t) = Self.engine()
        e.dayID = e.dayID + 2
        #expect(e.invariantViolations(at: t).contains { $0.contains("ahead of the clock") })
    }
}
