import HabitatTestSupport
import RulesCore
import Testing
@testable import NudgeRules

/// Issue 38: the upsells and actions as the seed writes them — the paywall at the Free limits and in Settings, no
/// locked draft teaser unless the assumption-option is on (audit N3), quick actions only where the AI split a dump or
/// the person added one (N13), and what Free misses made visible (N14).
struct SeedUpsellTests {
    /// Seed 001 §4 Feature 6 "When AI splits a brain dump, it detects actionable items … Users can also manually add
    /// a phone number or contact name to any card"; §4 Feature 1 "Single item → create 1 card, no AI call needed".
    @Test("only AI-split cards carry a detected action; typed and single-item cards carry none until the person adds one")
    func actionsNeedTheAIOrThePerson() {
        var h = Harness(at: 8)
        h.start()
        let typed = h.add(1, .call, at: h.at(0, 9))
        #expect(h.engine.item(typed)!.action == nil)
        h.send(.brainDump(thoughts: [Thought(ref: 2, action: .text, words: 4)], seconds: 4, online: true, splitFails: false), at: h.at(0, 9, 1))
        #expect(h.aiRequests == 0 && h.engine.item(ref: 2)!.action == nil)          // single item: no AI, no detection
        h.send(.brainDump(thoughts: [Thought(ref: 3, action: .call, words: 4), Thought(ref: 4, action: .email, words: 5)],
                          seconds: 8, online: true, splitFails: false), at: h.at(0, 9, 2))
        #expect(h.aiRequests == 1)
        #expect(h.engine.item(ref: 3)!.action == .call && h.engine.item(ref: 4)!.action == .email)
        #expect(h.rendered("item_created").filter { $0.contains("source=manual") } == ["item_created(item=1,source=manual,action=,ref=1)"])
        // A share: a URL gets 🔗 ("Shared URLs auto-get the 🔗 action"), nothing else is detected.
        h.send(.share(Thought(ref: 5, action: .openLink), preset: .tomorrowMorning), at: h.at(0, 9, 3))
        h.send(.share(Thought(ref: 6, action: .call), preset: .tomorrowMorning), at: h.at(0, 9, 4))
        #expect(h.engine.item(ref: 5)!.action == .openLink && h.engine.item(ref: 6)!.action == nil)
        // The person adds a number by hand: the card gets the action with its contact, so the tap needs no picker.
        h.send(.addContact(typed, .call), at: h.at(0, 10))
        #expect(h.engine.item(typed)!.action == .call && h.engine.item(typed)!.hasContact)
        h.send(.appOpened(via: .icon), at: h.at(0, 10))
        h.send(.actionTapped(typed), at: h.at(0, 10))
        #expect(h.lastDecision == .actionOpened(.call, draft: false))
        h.send(.addContact(typed, .openLink), at: h.at(0, 10))
        #expect(h.lastDecision == .refused(.noAction))
        #expect(h.problems.isEmpty, "\(h.problems)")
    }

    /// Seed 001 §9 Week 4 Day 2 "paywall screen … Free tier limits enforcement (dump count, saved items cap)", §5
    /// Screen 4 "Upgrade to Pro"; §5 Screen 1 "AI draft preview (Pro)" is no paywall.
    @Test("the seed's upsells by default: the 4th dump, a share over the cap, Settings — and no teaser on a Free 💬 card")
    func seedUpsellsOnly() {
        var h = Harness(at: 8)
        h.start()
        h.send(.brainDump(thoughts: [Thought(ref: 1, action: .text, words: 4), Thought(ref: 2, action: .email, words: 4)],
                          seconds: 8, online: true, splitFails: false), at: h.at(0, 9))
        for k in 0..<3 {
            h.send(.appOpened(via: .icon), at: h.at(0, 10 + k))
            if let c = h.engine.currentCard { h.send(.skip(c.id), at: h.at(0, 10 + k)) }
            h.send(.appClosed, at: h.at(0, 10 + k, 1))
        }
        #expect(h.count("card_shown") >= 2 && h.count("paywall_shown") == 0)
        for k in 0..<3 { h.send(.brainDump(thoughts: thoughts(2, from: UInt64(10 + 2 * k)), seconds: 8, online: true, splitFails: false), at: h.at(0, 14, k)) }
        #expect(h.rendered("paywall_shown") == ["paywall_shown(trigger=dump_limit)"])
        h.send(.paywallResponse(nil), at: h.at(0, 14, 3))
        for k in 1...6 { h.send(.share(Thought(ref: UInt64(30 + k), action: .openLink), preset: .nextWeek), at: h.at(0, 15, k)) }
        h.send(.appOpened(via: .icon), at: h.at(0, 16))
        h.send(.paywallResponse(nil), at: h.at(0, 16))
        h.send(.upgradeTapped, at: h.at(0, 16, 1))
        #expect(h.rendered("paywall_shown") == ["paywall_shown(trigger=dump_limit)", "paywall_shown(trigger=share_limit)",
                                                "paywall_shown(trigger=settings)"])
        #expect(h.problems.isEmpty, "\(h.problems)")
    }

    /// The inventory's teaser (R40) as an assumption-option: `paywall.draft_teasers_per_day`.
    @Test("teaser option: once per 💬/📧 card, at most `paywall.draft_teasers_per_day` a local day, reset at midnight")
    func teaserOption() {
        var h = Harness(parameters: params(["paywall.draft_teasers_per_day": .int(1)]), at: 8)
        h.start()
        h.send(.brainDump(thoughts: [Thought(ref: 1, action: .text, words: 4), Thought(ref: 2, action: .email, words: 4),
                                     Thought(ref: 3, action: .text, words: 4)], seconds: 10, online: true, splitFails: false), at: h.at(0, 9))
        func look(_ h: inout Harness, day: Int64, hour: Int) {
            h.send(.appOpened(via: .icon), at: h.at(day, hour))
            if let c = h.engine.currentCard { h.send(.skip(c.id), at: h.at(day, hour)) }     // the next card is shown
            if let c = h.engine.currentCard { h.send(.skip(c.id), at: h.at(day, hour)) }
            h.send(.paywallResponse(nil), at: h.at(day, hour))
            h.send(.appClosed, at: h.at(day, hour, 1))
        }
        look(&h, day: 0, hour: 10)
        look(&h, day: 0, hour: 11)
        #expect(h.count("card_shown") >= 3)
        #expect(h.rendered("paywall_shown") == ["paywall_shown(trigger=draft_teaser)"])     // one a day
        look(&h, day: 1, hour: 10)
        look(&h, day: 1, hour: 11)
        #expect(h.count("paywall_shown") == 2)                                            // the next day's one
        // A typed 💬 card (no AI: no action, no teaser) never teases.
        var t = Harness(parameters: params(["paywall.draft_teasers_per_day": .int(5)]), at: 8)
        t.start()
        t.add(1, .text, at: t.at(0, 9))
        look(&t, day: 0, hour: 10)
        #expect(t.count("card_shown") == 1 && t.count("paywall_shown") == 0)
        #expect(h.problems.isEmpty && t.problems.isEmpty, "\(h.problems) \(t.problems)")
    }

    /// Seed 001 §7 "Nudge notifications | Basic (snoozed items only) | Smart nudges (stale items, end-of-day
    /// prompts)": Free reaches the moments and is told no for its tier (audit N14).
    @Test("Free: the stale check-in and end-of-day moments are suppressed for the tier; Pro's are sent")
    func freeMissesSmartNudges() {
        func run(pro: Bool) -> Harness {
            var h = Harness(day0: LocalDate(year: 2026, month: 2, day: 9)!, at: 8)   // Monday
            h.start(pro: pro)
            h.add(1, at: h.at(0, 9))                                                 // stale Thu 09:00
            h.run(until: h.at(3, 7))
            h.log.removeAll()
            h.send(.appOpened(via: .icon), at: h.at(3, 17))                          // a call after 16:00 applies Free's moments
            return h
        }
        let free = run(pro: false)
        #expect(free.rendered("nudge_suppressed") == ["nudge_suppressed(kind=stale,item=1,reason=tier)",
                                                      "nudge_suppressed(kind=end_of_day,item=1,reason=tier)"])
        #expect(free.count("nudge_sent") == 0)
        let pro = run(pro: true)
        #expect(pro.rendered("nudge_sent") == ["nudge_sent(kind=stale,item=1,ref=1,buttons=true,merged=1)",
                                               "nudge_sent(kind=end_of_day,item=1,ref=1,buttons=true,merged=1)"])
        #expect(!pro.rendered("nudge_suppressed").contains { $0.contains("reason=tier") })
        // Without notifications, Free's moments are suppressed for the permission first.
        var n = Harness(day0: LocalDate(year: 2026, month: 2, day: 9)!, at: 8)
        n.start(notifications: false)
        n.add(1, at: n.at(0, 9))
        n.send(.appOpened(via: .icon), at: n.at(3, 17))
        #expect(!n.rendered("nudge_suppressed").contains { $0.contains("reason=tier") })
        #expect(free.problems.isEmpty && pro.problems.isEmpty, "\(free.problems) \(pro.problems)")
    }
}
