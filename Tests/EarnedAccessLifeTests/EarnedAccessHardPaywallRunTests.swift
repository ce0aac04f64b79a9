import EarnedAccessLife
import EarnedAccessRules
import LifeHarness
import Simulation
import Testing

/// Issue 26 item 5 on whole lives, Earned Access: under `paywall.mode: hard` (an assumption-option, not in seed 000 or 003) nobody
/// without a paid plan or a trial meets the product after onboarding — no shield, no mode, no credit — while the
/// freemium default (the seeds' Free tiers) does enforce for Free people. Each test reads every person's journal (the
/// engine's own events with the plan after each) in both arms on the same people; the mechanism behaviour (more
/// purchases) so that people who pay, and unlock the product, occur in a population this small. Download→paid and
/// trial-start shares are printed, not asserted: the mechanism does not fix their direction (a wall at every opening
/// is more chances to buy, but the app gives no value to grow the willingness to pay on).
@Suite("Hard paywall on whole lives: Earned Access (issue 26 item 5)", .serialized)
struct EarnedAccessHardPaywallRunTests {
    @Test("Earned Access: under hard, no Free person meets a shield, a running mode or earns credits after onboarding; under freemium Free people do")
    func earnedAccess() throws {
        let s = try HardPaywallArm.scenario("earned-access")
        let enforcing: Set<String> = ["shield_shown", "mode_started", "credits_earned", "unlock_granted", "focus_session_started"]
        let isWall = { (e: EarnedAccessEvent) in if case .paywallShown(.hardPaywall) = e { true } else { false } }
        let hard = try HardPaywallArm(EarnedAccessProduct.self, s, "hard", enforcing: enforcing, isWall: isWall)
        let free = try HardPaywallArm(EarnedAccessProduct.self, s, "freemium", enforcing: enforcing, isWall: isWall)
        #expect(hard.freeEnforcement.isEmpty, "\(hard.freeEnforcement.prefix(5))")
        #expect(free.freeEnforcement.count > 100, "the check has teeth: Free people enforce under freemium")
        #expect(hard.walls + hard.boughtBeforeWall > hard.installs / 2,
                "most people finish onboarding and meet the wall, or bought before it: \(hard.walls) + \(hard.boughtBeforeWall)")
        #expect(hard.trials + hard.paid > 0 && hard.unlockedShields > 0, "some start the trial or buy and are then shielded: \(hard.trials), \(hard.paid), \(hard.unlockedShields)")
        HardPaywallArm.report("earned-access", free, hard)
    }
}
