import Testing
import RulesCore
@testable import EarnedAccessRules

/// A typical day (inventory §1 and §5): schedule starts → shields → a focus session earns credits → the user spends
/// them, breathes, or gives up the app → rollover at 04:00; with its energy effects.
@Suite("Earned Access: a day in the life")
struct DayInTheLifeTests {
    @Test("work mode 09:00–17:00: focus, shields, a credits unlock, a breathing quest, rollover")
    func day() {
        var h = Harness()
        h.onboard(apps: [1, 2], mode: workMode(time(9), time(17)), at: 7)
        h.focus(45, from: h.at(0, 7, 30))                   // 9 credits + streak bonus 5 (before the mode starts)
        #expect(h.engine.balance == 14 && h.engine.streak == 1)
        // 10 shields met during the mode.
        for k in 0..<10 { h.send(.appForeground(AppID(UInt16(1 + k % 2))), at: h.at(0, 9, 10 + 5 * k)) }
        h.send(.shieldClose(AppID(1)), at: h.at(0, 10))
        h.send(.appOpened, at: h.at(0, 10, 1))
        #expect(h.send(.unlock(AppID(1), .credits(minutes: 5)), at: h.at(0, 10, 1)).decision == .granted)
        h.reachGate(AppID(2), at: h.at(0, 11))
        h.send(.unlock(AppID(2), .breathingQuest), at: h.at(0, 11))
        h.run(until: h.at(0, 11, 1))
        #expect(h.engine.grant(for: AppID(2), at: h.at(0, 11, 1))?.method == .quest)
        h.run(until: h.at(1, 4))
        #expect(h.engine.balance == 9 && h.engine.dayID == h.day0 + 1)
        let names = h.log.map(\.1.name)
        for n in ["mode_started", "mode_ended", "shield_shown", "unlock_granted", "unlock_expired", "quest_completed", "day_rolled_over"] {
            #expect(names.contains(n), "\(n)")
        }
        let shields = h.effectsLog.filter { if case .shieldRendered = $0.1 { return true }; return false }.count
        let callbacks = h.effectsLog.filter { $0.1 == .monitorCallback }.count
        let foreground = h.effectsLog.reduce(0) { if case .foreground(let s) = $1.1 { return $0 + s }; return $0 }
        #expect(shields == 11)            // 10 met + the one on the way to the second gate
        #expect(callbacks == 5)           // mode start, mode end, 2 grant expiries, the 04:00 boundary
        #expect(foreground == 2 * 10 + 60) // 2 gate visits + 60 s of breathing
        #expect(h.problems.isEmpty, "\(h.problems)")
    }
}
