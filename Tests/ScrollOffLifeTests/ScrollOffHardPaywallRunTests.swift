import LifeHarness
import ScrollOffLife
import ScrollOffRules
import Simulation
import Testing

/// Issue 26 item 5 on whole lives, Scroll Off: under `paywall.mode: hard` (an assumption-option, not in seed 000 or 003) nobody
/// without a paid plan or a trial meets the product after onboarding — no shield, no mode, no credit — while the
/// freemium default (the seeds' Free tiers) does enforce for Free people. Each test reads every person's journal (the
/// engine's own events with the plan after each) in both arms on the same people; the mechanism behaviour (more
/// purchases) so that people who pay, and unlock the product, occur in a population this small. Download→paid and
/// trial-start shares are printed, not asserted: the mechanism does not fix their direction (a wall at every opening
/// is more chances to buy, but the app gives no value to grow the willingness to pay on).
@Suite("Hard paywall on whole lives: Scroll Off (issue 26 item 5)", .serialized)
struct ScrollOffHardPaywallRunTests {
    @Test("Scroll Off: under hard, no Free person meets a shield, earns or spends after onboarding; under freemium Free people do")
    func scrollOff() throws {
        let s = try HardPaywallArm.scenario("scroll-off")
        let enforcing: Set<String> = ["shield_shown", "earn_award", "spend_tick"]
        let isWall = { (e: ScrollOffEvent) in if case .paywallShown(.hardPaywall, _) = e { true } else { false } }
        let hard = try HardPaywallArm(ScrollOffProduct.self, s, "hard", enforcing: enforcing, isWall: isWall)
        let free = try HardPaywallArm(ScrollOffProduct.self, s, "freemium", enforcing: enforcing, isWall: isWall)
        #expect(hard.freeEnforcement.isEmpty, "\(hard.freeEnforcement.prefix(5))")
        #expect(free.freeEnforcement.count > 100, "the check has teeth: Free people enforce under freemium")
        #expect(hard.walls > hard.installs / 2, "most people finish onboarding and meet the wall: \(hard.walls)")
        #expect(hard.paid > 0 && hard.unlockedShields > 0, "some buy and are then shielded: \(hard.paid), \(hard.unlockedShields)")
        #expect(hard.trials == 0 && free.trials == 0, "seed 000 offers no trial")
        HardPaywallArm.report("scroll-off", free, hard)
    }
}
