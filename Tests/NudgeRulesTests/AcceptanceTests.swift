import Testing
import HabitatTestSupport
import RulesCore
@testable import NudgeRules

/// The inventory's §8 acceptance examples, from the seed's words (seed 001).
@Suite("Nudge acceptance examples (inventory §8)")
struct AcceptanceTests {
    /// 1. "Max 3 nudges per day. Never after 9pm. Never before 8am" (§4 Feature 5).
    @Test("1: a Pro user with 5 eligible nudges gets 3 (08:30, 10:00, 12:00), then cap; none in quiet hours")
    func maxThreeNudges() {
        var h = Harness(day0: LocalDate(year: 2026, month: 2, day: 10)!, at: 8)   // Tue; the day under test is Wed (day 1)
        h.start(pro: true)
        let ids = (1...4).map { h.add(UInt64($0), at: h.at(0, 9)) }
        h.run(until: h.at(1, 0))
        let from = h.log.count
        // "Later today" (+3 h) from 05:30, 07:00, 09:00, 17:30 → due 08:30, 10:00, 12:00, 20:30 on Wednesday.
        h.send(.snooze(ids[0], .laterToday), at: h.at(1, 5, 30))
        h.send(.snooze(ids[1], .laterToday), at: h.at(1, 7))
        h.send(.snooze(ids[2], .laterToday), at: h.at(1, 9))
        h.send(.snooze(ids[3], .laterToday), at: h.at(1, 17, 30))
        h.run(until: h.at(2, 0, 30))
        let wed = h.log[from...].filter { $0.1.name.hasPrefix("nudge_") }
        #expect(wed.filter { $0.1.name == "nudge_sent" }.map(\.0) == [h.at(1, 8, 30), h.at(1, 10), h.at(1, 12)])
        #expect(wed.filter { $0.1.name == "nudge_suppressed" }.map { render($0.1) } == [
            "nudge_suppressed(kind=end_of_day,item=1,reason=cap)", "nudge_suppressed(kind=resurfacing,item=4,reason=cap)"])
        #expect(wed.filter { $0.1.name == "nudge_suppressed" }.map(\.0) == [h.at(1, 16), h.at(1, 20, 30)])
        for t in h.times("nudge_sent") { #expect(!h.engine.isQuiet(t)) }
        #expect(h.problems.isEmpty, "\(h.problems)")
    }

    @Test("1: a resurfacing at 22:00 waits for 08:00; nothing is ever sent in [21:00, 08:00)")
    func quietHoursDefer() {
        var h = Harness(at: 8)
        h.start()
        let a = h.add(1, at: h.at(0, 9))
        h.send(.snooze(a, .laterToday), at: h.at(0, 19))           // → 22:00
        h.run(until: h.at(1, 12))
        #expect(h.rendered("item_resurfaced") == ["item_resurfaced(item=1,ref=1)"])
        #expect(h.times("item_resurfaced") == [h.at(0, 22)])
        #expect(h.rendered("nudge_deferred") == ["nudge_deferred(kind=resurfacing,item=1,ref=1)"])
        #expect(h.times("nudge_sent") == [h.at(1, 8)])
        for t in h.times("nudge_sent") { #expect(!h.engine.isQuiet(t)) }
        #expect(h.problems.isEmpty, "\(h.problems)")
    }

    /// 2. S5 quick options, and across DST.
    @Test("2: snooze presets from Wed 2026-02-11 14:00; Tomorrow morning across the spring-forward night")
    func snoozePresets() {
        var h = Harness(at: 8)
        h.start()
        let t = h.at(0, 14)
        let e = h.engine
        #expect(e.resurfaceTime(.laterToday, from: t) == h.at(0, 17))
        #expect(e.resurfaceTime(.tomorrowMorning, from: t) == h.at(1, 9))
        #expect(e.resurfaceTime(.thisWeekend, from: t) == h.at(3, 10))       // Sat 02-14
        #expect(e.resurfaceTime(.nextWeek, from: t) == h.at(5, 9))           // Mon 02-16
        // The snooze itself keeps that time.
        let a = h.add(1, at: t)
        h.send(.snooze(a, .nextWeek), at: t)
        #expect(h.engine.item(a)!.snoozedUntil == h.at(5, 9))
        // Sat 2026-03-07 22:00 EST → Sun 03-08 09:00 EDT = 13:00 UTC.
        let sat = newYork.instant(on: LocalDate(year: 2026, month: 3, day: 7)!, at: LocalTimeOfDay(hour: 22, minute: 0)!)
        let sun9 = e.resurfaceTime(.tomorrowMorning, from: sat)
        #expect(sun9.description == "2026-03-08T13:00:00.000Z")
    }

    /// 3. "Free tier limit | 3 brain dumps per day" (§4 Feature 1).
    @Test("3: a Free user's 4th dump of a day is refused at the tap; the first after 00:00 succeeds; Pro's 10th succeeds")
    func dumpLimit() {
        var h = Harness(at: 8)
        h.start()
        for k in 0..<3 {
            h.send(.brainDump(thoughts: thoughts(3, from: UInt64(10 * k)), seconds: 20, online: true, splitFails: false), at: h.at(0, 9 + k))
            #expect(h.lastDecision == .dumpSaved(cards: 3))
        }
        let speech = h.effects { if case .speech = $0 { true } else { false } }
        let ai = h.aiRequests, ledger = h.ledger.count
        h.send(.brainDump(thoughts: thoughts(3, from: 90), seconds: 20, online: true, splitFails: false), at: h.at(0, 13))
        #expect(h.lastDecision == .dumpLimitHit)
        #expect(h.count("brain_dump_limit_hit") == 1)
        #expect(h.rendered("paywall_shown") == ["paywall_shown(trigger=dump_limit)"])
        #expect(h.effects { if case .speech = $0 { true } else { false } } == speech)
        #expect(h.aiRequests == ai && h.ledger.count == ledger)
        h.send(.brainDump(thoughts: thoughts(3, from: 200), seconds: 20, online: true, splitFails: false), at: h.at(1, 0, 1))
        #expect(h.lastDecision == .dumpSaved(cards: 3))

        var p = Harness(at: 8)
        p.start(pro: true)
        for k in 0..<10 {
            p.send(.brainDump(thoughts: thoughts(2, from: UInt64(10 * k)), seconds: 10, online: true, splitFails: false), at: p.at(0, 9, k))
        }
        #expect(p.lastDecision == .dumpSaved(cards: 2))
        #expect(p.engine.dumpsToday == 10)
        #expect(h.problems.isEmpty && p.problems.isEmpty, "\(h.problems) \(p.problems)")
    }

    /// 4. "Empty recording → ignore. Single item → create 1 card, no AI call needed. No internet → save raw
    /// transcript, split later" (§4 Feature 1).
    @Test("4: empty → nothing; one short thought → 1 card, no AI; offline 4-item dump → queued, split when online")
    func edgeCases() {
        var h = Harness(at: 8)
        h.start()
        h.send(.brainDump(thoughts: [], seconds: 6, online: true, splitFails: false), at: h.at(0, 9))
        #expect(h.lastDecision == .dumpIgnoredEmpty)
        #expect(h.engine.items.isEmpty && h.aiRequests == 0 && h.engine.dumpsToday == 0)
        h.send(.brainDump(thoughts: [Thought(ref: 1, words: 3)], seconds: 3, online: true, splitFails: false), at: h.at(0, 9, 5))
        #expect(h.lastDecision == .dumpSaved(cards: 1))
        #expect(h.engine.items.count == 1 && h.aiRequests == 0)
        #expect(h.rendered("brain_dump_completed") == ["brain_dump_completed(items=1,seconds=3,ai_called=false)"])
        h.send(.brainDump(thoughts: thoughts(4), seconds: 20, online: false, splitFails: false), at: h.at(0, 10))
        #expect(h.lastDecision == .dumpQueuedOffline)
        #expect(h.engine.items.count == 1 && h.aiRequests == 0 && h.engine.queuedTranscripts.count == 1)
        #expect(h.engine.dumpsToday == 2)
        h.send(.connectivity(online: true), at: h.at(0, 11))
        #expect(h.lastDecision == .dumpSaved(cards: 4))
        #expect(h.aiRequests == 1 && h.engine.items.count == 5 && h.engine.queuedTranscripts.isEmpty)
        #expect(h.problems.isEmpty, "\(h.problems)")
    }

    /// 5. The seed's example dump → "4 separate cards" (§4 Feature 1), costed as §6 API Contract.
    @Test("5: the dentist/Sarah/dog food/Jake dump makes 4 voice-dump cards and one split costing $0.00004125")
    func exampleDump() {
        var h = Harness(at: 8)
        h.start()
        let said = [Thought(ref: 1, action: .call, words: 4), Thought(ref: 2, action: .text, words: 5),
                    Thought(ref: 3, words: 3), Thought(ref: 4, words: 5)]
        h.send(.brainDump(thoughts: said, seconds: 12, online: true, splitFails: false), at: h.at(0, 9))
        #expect(h.engine.items.count == 4)
        #expect(h.engine.items.allSatisfy { $0.source == .voiceDump && $0.status == .active })
        #expect(h.engine.item(ref: 1)!.action == .call)
        #expect(h.aiRequests == 1)
        #expect(h.engine.costExactPicoUSD == 41_250_000)          // 75 × 0.15 + 50 × 0.60 = 41.25 µ$
        #expect(h.engine.exactCostUSD == 0.00004125)
        #expect(h.ledger == [LedgerEntry(at: h.at(0, 9), amount: Money(micros: 41), productID: "nudge.ai.split", kind: .serviceCost)])
    }

    /// 6. "Saved items (Share-to-Nudge) | 5 total" (§7), counted as open shared items (C8).
    @Test("6: a Free user's 6th open share is refused; after a Done the next succeeds; Pro is never refused")
    func shareCap() {
        var h = Harness(at: 8)
        h.start()
        for k in 1...5 { h.send(.share(Thought(ref: UInt64(k), action: .openLink), preset: .tomorrowMorning), at: h.at(0, 9, k)) }
        #expect(h.engine.openSharedCount == 5)
        h.send(.share(Thought(ref: 6, action: .openLink), preset: .tomorrowMorning), at: h.at(0, 10))
        #expect(h.lastDecision == .shareLimitHit)
        #expect(h.rendered("share_limit_hit") == ["share_limit_hit(count=5)"])
        h.send(.done(1), at: h.at(0, 11))
        h.send(.share(Thought(ref: 7, action: .openLink), preset: .tomorrowMorning), at: h.at(0, 12))
        #expect(h.lastDecision == .shareSaved(6))

        var p = Harness(at: 8)
        p.start(pro: true)
        for k in 1...20 { p.send(.share(Thought(ref: UInt64(k)), preset: .thisWeekend), at: p.at(0, 9, k)) }
        #expect(p.count("share_limit_hit") == 0 && p.engine.openSharedCount == 20)
        #expect(h.problems.isEmpty && p.problems.isEmpty, "\(h.problems) \(p.problems)")
    }

    /// 7. "🟠 Amber (`#FF9F0A`) = stale (3+ days untouched)" (§4 Feature 4).
    @Test("7: created Mon 10:00, not stale Thu 09:59, stale Thu 10:00; a snooze and its resurfacing restart the 72 h")
    func stale() {
        var h = Harness(day0: LocalDate(year: 2026, month: 2, day: 9)!, at: 8)   // Monday
        h.start()
        let a = h.add(1, at: h.at(0, 10))
        let b = h.add(2, at: h.at(0, 10))
        h.run(until: h.at(3, 9, 59))
        #expect(h.count("item_became_stale") == 0)
        #expect(h.engine.color(of: h.engine.item(a)!, at: h.at(3, 9, 59)) == .blue)
        h.run(until: h.at(3, 10))
        #expect(h.rendered("item_became_stale") == ["item_became_stale(item=1,ref=1)", "item_became_stale(item=2,ref=2)"])
        #expect(h.times("item_became_stale") == [h.at(3, 10), h.at(3, 10)])
        #expect(h.engine.color(of: h.engine.item(a)!, at: h.at(3, 10)) == .amber)
        // b snoozed on Tuesday to Wednesday 09:00: stale again only 72 h after it came back.
        _ = b
        var g = Harness(day0: LocalDate(year: 2026, month: 2, day: 9)!, at: 8)
        g.start()
        let c = g.add(1, at: g.at(0, 10))
        g.send(.snooze(c, .tomorrowMorning), at: g.at(1, 12))        // back Wed 09:00
        g.run(until: g.at(5, 8, 59))
        #expect(g.count("item_became_stale") == 0)
        g.run(until: g.at(5, 9))
        #expect(g.times("item_became_stale") == [g.at(5, 9)])
        #expect(h.problems.isEmpty && g.problems.isEmpty, "\(h.problems) \(g.problems)")
    }

    /// 8. "(default: OFF). On first brain dump, a one-time prompt … never asked again" (§4 Feature 4b).
    @Test("8: no Live Activity effects by default; the first completed dump prompts once; after dismiss, none")
    func liveActivityPromptOnce() {
        var h = Harness(at: 8)
        h.start()
        func laEffects(_ h: Harness) -> Int {
            h.effects { switch $0 { case .backgroundWake, .liveActivityPush: true; default: false } }
        }
        h.run(until: h.at(1, 8))
        #expect(laEffects(h) == 0)
        h.send(.brainDump(thoughts: thoughts(3), seconds: 15, online: true, splitFails: false), at: h.at(1, 9))
        #expect(h.count("live_activity_prompt_shown") == 1)
        h.send(.liveActivityPrompt(enable: false), at: h.at(1, 9))
        h.send(.brainDump(thoughts: thoughts(3, from: 50), seconds: 15, online: true, splitFails: false), at: h.at(1, 10))
        h.send(.appOpened(via: .icon), at: h.at(1, 11))
        h.send(.done(1), at: h.at(1, 11))
        h.run(until: h.at(3, 8))
        #expect(h.count("live_activity_prompt_shown") == 1)
        #expect(laEffects(h) == 0 && h.count("live_activity_updated") == 0)
        #expect(h.engine.liveActivityPromptShown && !h.engine.liveActivityOn)
    }

    /// 9. "Nudge notifications | Basic (snoozed items only) | Smart nudges (stale items, end-of-day prompts)" and
    /// "Actionable notification buttons | ❌ | ✅" (§7).
    @Test("9: Free gets neither stale nor end-of-day nudges and no buttons; Pro gets both, with buttons")
    func tiers() {
        func run(pro: Bool) -> Harness {
            var h = Harness(day0: LocalDate(year: 2026, month: 2, day: 9)!, at: 8)   // Monday
            h.start(pro: pro)
            h.add(1, at: h.at(0, 9))                                                 // stale Thu 09:00
            h.run(until: h.at(3, 7))
            h.log.removeAll()                                                        // Thursday only
            let r = h.add(2, at: h.at(3, 8))
            h.send(.snooze(r, .laterToday), at: h.at(3, 8))                          // resurfaces Thu 11:00, with the check-in
            h.run(until: h.at(3, 17))
            return h
        }
        let free = run(pro: false)
        #expect(free.rendered("nudge_sent") == ["nudge_sent(kind=resurfacing,item=2,ref=2,buttons=false,merged=1)"])
        let pro = run(pro: true)
        #expect(pro.rendered("nudge_sent") == ["nudge_sent(kind=resurfacing,item=2,ref=2,buttons=true,merged=1)",
                                               "nudge_sent(kind=stale,item=1,ref=1,buttons=true,merged=1)",
                                               "nudge_sent(kind=end_of_day,item=2,ref=2,buttons=true,merged=1)"])
        #expect(pro.times("nudge_sent") == [pro.at(3, 11), pro.at(3, 11), pro.at(3, 16)])
        #expect(free.problems.isEmpty && pro.problems.isEmpty, "\(free.problems) \(pro.problems)")
    }

    /// 10. "Free tier | Action shortcuts work (call/text/link) but no AI drafts" and "If offline, no draft — falls
    /// back to blank compose" (§4 Feature 7).
    @Test("10: a 💬 card: Free → no AI request, blank compose; Pro online → one draft however often shown; Pro offline → none")
    func drafts() {
        func showTextCard(pro: Bool, online: Bool) -> Harness {
            var h = Harness(at: 8)
            h.start(pro: pro)
            if !online { h.send(.connectivity(online: false), at: h.at(0, 8)) }
            h.add(1, at: h.at(0, 9))
            h.send(.addContact(1, .text), at: h.at(0, 9))                          // the number added by hand
            for k in 0..<3 {
                h.send(.appOpened(via: .icon), at: h.at(0, 10 + k))
                h.send(.appClosed, at: h.at(0, 10 + k, 1))
            }
            h.send(.appOpened(via: .icon), at: h.at(0, 14))
            h.send(.actionTapped(1), at: h.at(0, 14))
            return h
        }
        let free = showTextCard(pro: false, online: true)
        #expect(free.aiRequests == 0)
        #expect(free.lastDecision == .actionOpened(.text, draft: false))
        #expect(free.count("paywall_shown") == 0)                                              // no teaser (audit N3)
        let pro = showTextCard(pro: true, online: true)
        #expect(pro.aiRequests == 1 && pro.count("draft_generated") == 1)
        #expect(pro.engine.costExactPicoUSD == 28_500_000)                                      // 30 × 0.15 + 40 × 0.60 = 28.5 µ$
        #expect(pro.lastDecision == .actionOpened(.text, draft: true))
        let offline = showTextCard(pro: true, online: false)
        #expect(offline.aiRequests == 0)
        #expect(offline.lastDecision == .actionOpened(.text, draft: false))
    }

    /// 11. "Skip (push to end of queue, next card)" (§4 Feature 3).
    @Test("11: queue [A, B, C]; skip A → B, C, A; Done on B shows C")
    func skipOrder() {
        var h = Harness(at: 8)
        h.start()
        let c = h.add(3, at: h.at(0, 9))
        let b = h.add(2, at: h.at(0, 9, 1))
        let a = h.add(1, at: h.at(0, 9, 2))                // the newest first
        h.send(.appOpened(via: .icon), at: h.at(0, 10))
        #expect(h.lastDecision == .cardShown(a))
        #expect(h.engine.queue(at: h.at(0, 10)) == [a, b, c])
        h.send(.skip(a), at: h.at(0, 10))
        #expect(h.engine.queue(at: h.at(0, 10)) == [b, c, a])
        #expect(h.engine.currentCard?.id == b)
        h.send(.done(b), at: h.at(0, 10))
        #expect(h.engine.currentCard?.id == c)
        #expect(h.log.compactMap { if case let .cardShown(id, _, _) = $0.1 { id } else { nil } } == [a, b, c])
    }
}
