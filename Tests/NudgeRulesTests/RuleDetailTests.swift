import Testing
import HabitatTestSupport
import RulesCore
@testable import NudgeRules

@Suite("Nudge rules in detail")
struct RuleDetailTests {
    /// Seed 001 §4 Feature 3 ordering (inventory R22): due today → overdue → newest → skipped; snoozed hidden.
    @Test("One-Thing order: due today (earliest) → overdue (oldest) → newest created → skipped; snoozed hidden")
    func ordering() {
        var h = Harness(at: 8)
        h.start()
        let old = h.add(1, at: h.at(0, 8))
        let overdue = h.add(2, at: h.at(0, 8))
        let dueLate = h.add(3, at: h.at(0, 8))
        let dueEarly = h.add(4, at: h.at(0, 8))
        h.send(.snooze(overdue, .laterToday), at: h.at(0, 9))           // due today 12:00 → overdue tomorrow
        h.send(.snooze(dueLate, .tomorrowMorning), at: h.at(0, 9))      // due tomorrow 09:00
        h.send(.snooze(dueEarly, .laterToday), at: h.at(1, 5))          // due tomorrow 08:00
        let newer = h.add(5, at: h.at(1, 6))
        let hidden = h.add(6, at: h.at(1, 6))
        h.send(.snooze(hidden, .nextWeek), at: h.at(1, 6))
        h.run(until: h.at(1, 10))
        #expect(h.engine.color(of: h.engine.item(overdue)!, at: h.at(1, 10)) == .red)
        #expect(h.engine.queue(at: h.at(1, 10)) == [dueEarly, dueLate, overdue, newer, old])
        h.send(.skip(dueEarly), at: h.at(1, 10))
        h.send(.skip(newer), at: h.at(1, 10))
        #expect(h.engine.queue(at: h.at(1, 10)) == [dueLate, overdue, old, dueEarly, newer])
        // The skip order resets at 00:00 (inventory R14, R20).
        h.run(until: h.at(2, 1))
        // On day 2 the three due items are all overdue: oldest due first; then the newest created.
        #expect(h.engine.queue(at: h.at(2, 1)) == [overdue, dueEarly, dueLate, newer, old])
        #expect(h.problems.isEmpty, "\(h.problems)")
    }

    /// Inventory R36 / C1–C3: cumulative cost exact, lines in whole micro-dollars.
    @Test("AI cost: 41.25 µ$ a split books lines of 41, 41, 41, 42; booked + remainder = exact")
    func costRemainder() {
        var h = Harness(at: 8)
        h.start(pro: true)
        for k in 0..<8 {
            h.send(.brainDump(thoughts: thoughts(2, from: UInt64(10 * k)), seconds: 10, online: true, splitFails: false), at: h.at(0, 9, k))
        }
        let lines = h.ledger.filter { $0.kind == .serviceCost }
        #expect(lines.map(\.amount.micros) == [41, 41, 41, 42, 41, 41, 41, 42])
        #expect(lines.allSatisfy { $0.productID == "nudge.ai.split" })
        #expect(h.engine.costBooked == Money(micros: 330))
        #expect(h.engine.costRemainder == 0 && h.engine.costExactPicoUSD == 330_000_000)
        // With a prompt overhead of 150 tokens: (75 + 150) × 0.15 + 50 × 0.60 = 63.75 µ$.
        var o = Harness(parameters: params(["ai.prompt_overhead_tokens": .int(150)]), at: 8)
        o.start()
        o.send(.brainDump(thoughts: thoughts(2), seconds: 10, online: true, splitFails: true), at: o.at(0, 9))
        #expect(o.engine.costExactPicoUSD == 63_750_000 && o.ledger.map(\.amount.micros) == [63])
        #expect(o.engine.items.count == 1 && o.engine.items[0].otherRefs == [101])          // raw text as one card
        #expect(o.count("ai_split_failed") == 1)
    }

    /// Seed 001 §4 Feature 1 cap.
    @Test("Recording cap: a 110 s dump of 4 thoughts keeps the 2 finished by 55 s")
    func recordingCap() {
        var h = Harness(at: 8)
        h.start()
        h.send(.brainDump(thoughts: thoughts(4), seconds: 110, online: true, splitFails: false), at: h.at(0, 9))
        #expect(h.rendered("brain_dump_auto_stopped") == ["brain_dump_auto_stopped(cut=2)"])
        #expect(h.engine.items.map(\.ref) == [100, 101])
        #expect(h.effectsLog.contains { $0.1 == .speech(seconds: 55) })
    }

    /// Seed 001 §5 Screen 7 "request mic on first brain dump".
    @Test("Microphone: the first dump waits for the prompt; granted → recorded; denied → dumps refused")
    func microphone() {
        var h = Harness(at: 8)
        h.start(mic: false)
        h.send(.brainDump(thoughts: thoughts(3), seconds: 15, online: true, splitFails: false), at: h.at(0, 9))
        #expect(h.lastDecision == .needsPermission(.microphone))
        #expect(h.engine.items.isEmpty && h.engine.dumpsToday == 0)
        h.send(.permission(.microphone, granted: true), at: h.at(0, 9))
        #expect(h.lastDecision == .dumpSaved(cards: 3) && h.engine.items.count == 3)
        var d = Harness(at: 8)
        d.start(mic: false)
        d.send(.brainDump(thoughts: thoughts(3), seconds: 15, online: true, splitFails: false), at: d.at(0, 9))
        d.send(.permission(.microphone, granted: false), at: d.at(0, 9))
        d.send(.brainDump(thoughts: thoughts(3), seconds: 15, online: true, splitFails: false), at: d.at(0, 10))
        #expect(d.lastDecision == .refused(.micDenied) && d.engine.items.isEmpty)
    }

    /// Seed 001 §5 Screen 7 "notifications on first snooze"; inventory C17 (a first share asks at the next open).
    @Test("Notifications: asked at the first snooze, or at the next open after a first share; off → nothing sent")
    func notifications() {
        var h = Harness(at: 8)
        h.start(notifications: false)
        let a = h.add(1, at: h.at(0, 9))
        h.send(.snooze(a, .laterToday), at: h.at(0, 9))
        #expect(h.lastDecision == .needsPermission(.notifications))
        #expect(h.engine.item(a)!.status == .snoozed)
        var s = Harness(at: 8)
        s.start(notifications: false)
        s.send(.share(Thought(ref: 1, action: .openLink), preset: .laterToday), at: s.at(0, 9))
        #expect(s.count("permission_requested") == 0)
        s.send(.appOpened(via: .icon), at: s.at(0, 9, 30))
        #expect(s.rendered("permission_requested") == ["permission_requested(kind=notifications)"])
        #expect(s.rendered("share_ingested") == ["share_ingested(item=1,ref=1)"])
        // Notifications switched off in the OS: resurfacings happen, silently.
        var o = Harness(at: 8)
        o.start(pro: true)
        o.send(.setNotificationsAllowed(false), at: o.at(0, 8))
        let b = o.add(1, at: o.at(0, 9))
        o.send(.snooze(b, .laterToday), at: o.at(0, 9))
        o.run(until: o.at(2, 20))
        #expect(o.count("nudge_sent") == 0 && o.count("item_resurfaced") == 1)
        #expect(o.effects { $0 == .notification } == 0)
        #expect(o.rendered("nudge_suppressed").allSatisfy { $0.hasSuffix("reason=no_permission)") })
    }

    /// Seed 001 §4 Feature 5 User control.
    @Test("Mute today and a type turned off suppress; the mute ends at 00:00")
    func userControl() {
        var h = Harness(at: 8)
        h.start(pro: true)
        let a = h.add(1, at: h.at(0, 9))
        h.send(.muteNudgesToday, at: h.at(0, 9))
        h.send(.snooze(a, .laterToday), at: h.at(0, 9))
        h.send(.setNudgeType(.endOfDay, on: false), at: h.at(0, 9))
        h.run(until: h.at(1, 17))
        #expect(h.rendered("nudge_suppressed") == ["nudge_suppressed(kind=resurfacing,item=1,reason=muted)",
                                                   "nudge_suppressed(kind=end_of_day,item=1,reason=type_off)",
                                                   "nudge_suppressed(kind=end_of_day,item=1,reason=type_off)"])
        #expect(!h.engine.mutedToday && !h.engine.typeEnabled(.endOfDay))
    }

    /// Seed 001 §7; inventory R38–R42.
    @Test("Pro: purchase, renewal, cancel (Pro to the period's end), refund; standing and MRR")
    func plan() {
        var h = Harness(at: 8)
        h.start()
        h.send(.upgradeTapped, at: h.at(0, 9))
        #expect(h.lastDecision == .paywallShown(.settings))
        h.send(.paywallResponse(.monthly), at: h.at(0, 9))
        #expect(h.lastDecision == .purchased(.monthly) && h.engine.isPro)
        #expect(h.engine.standing == PlanStanding(segment: "pro", monthlyPrice: Money(usd: 9.99)))
        h.run(until: h.at(31, 12))
        h.send(.cancelAutoRenew, at: h.at(31, 12))
        #expect(h.engine.isPro)
        #expect(h.engine.mrrAtHorizon(h.at(40, 0)) == Money(usd: 9.99))
        h.run(until: h.at(70, 0))
        #expect(!h.engine.isPro && h.engine.mrrAtHorizon(h.at(70, 0)) == nil)
        let money = h.ledger.filter { $0.kind != .serviceCost }
        #expect(money.map(\.kind) == [.subscriptionPurchase, .subscriptionRenewal])
        #expect(money.map(\.at) == [h.at(0, 9), h.at(28, 9)])          // 2026-02-11 → 03-11, 09:00 local across DST
        #expect(h.rendered("subscription_expired") == ["subscription_expired(plan=monthly)"])
        var r = Harness(at: 8)
        r.start()
        r.send(.paywallResponse(.annual), at: r.at(0, 9))
        #expect(r.engine.standing.monthlyPrice == Money(micros: 4_999_166))
        r.send(.refund, at: r.at(3, 9))
        #expect(r.ledger.map(\.amount) == [Money(usd: 59.99), Money(usd: -59.99)])
        #expect(!r.engine.isPro && r.lastDecision == .refunded)
        #expect(h.problems.isEmpty && r.problems.isEmpty, "\(h.problems) \(r.problems)")
    }

    /// Inventory R40 paywall triggers (the teaser only under its assumption-option, audit N3).
    @Test("Paywall triggers: 4th dump, share over the cap (next open), draft teaser once per card (option), Settings")
    func paywallTriggers() {
        var h = Harness(parameters: params(["paywall.draft_teasers_per_day": .int(10)]), at: 8)
        h.start()
        for k in 1...6 { h.send(.share(Thought(ref: UInt64(k)), preset: .nextWeek), at: h.at(0, 9, k)) }
        #expect(h.count("paywall_shown") == 0)
        h.send(.appOpened(via: .icon), at: h.at(0, 10))
        #expect(h.rendered("paywall_shown") == ["paywall_shown(trigger=share_limit)"])
        h.send(.paywallResponse(nil), at: h.at(0, 10))
        #expect(h.lastDecision == .declined)
        h.send(.brainDump(thoughts: [Thought(ref: 20, action: .email, words: 4), Thought(ref: 21, action: .email, words: 4)],
                          seconds: 8, online: true, splitFails: false), at: h.at(0, 11))
        h.send(.done(ItemID(7)), at: h.at(0, 11, 2))                   // card 7 teased, then card 6
        h.send(.appClosed, at: h.at(0, 12))                           // card 6 again at the next open: no second teaser
        h.send(.appOpened(via: .icon), at: h.at(0, 13))
        #expect(h.rendered("paywall_shown") == ["paywall_shown(trigger=share_limit)", "paywall_shown(trigger=draft_teaser)",
                                                "paywall_shown(trigger=draft_teaser)"])
    }

    /// Seed 001 §4 Feature 4b.
    @Test("Live Activity ON: 5 transitions a day and a restart every 8 h, each a background wake; in-app pushes")
    func liveActivityOn() {
        var h = Harness(at: 8)
        h.start()
        h.send(.brainDump(thoughts: thoughts(2), seconds: 10, online: true, splitFails: false), at: h.at(0, 9))
        h.send(.liveActivityPrompt(enable: true), at: h.at(0, 9))
        #expect(h.engine.liveActivityOn)
        let from = h.log.count
        h.run(until: h.at(1, 9))                                       // 24 h: transitions 13, 17, 20, 06, 09; restarts 17, 01, 09
        let causes = h.log[from...].compactMap { if case let .liveActivityUpdated(c) = $0.1 { c } else { nil } }
        #expect(causes.filter { $0 == .transition }.count == 5)
        #expect(causes.filter { $0 == .restart }.count == 3)
        h.send(.appOpened(via: .icon), at: h.at(1, 10))
        h.send(.done(1), at: h.at(1, 10))
        #expect(h.effectsLog.last { $0.1 == .liveActivityPush } != nil)
        h.send(.liveActivityPrompt(enable: true), at: h.at(1, 11))
        #expect(h.lastDecision == .refused(.nothingPending))
    }

    /// Contacts (seed 001 §4 Feature 6 "Contact lookup").
    @Test("📞 without a number: contacts asked once, picker, number saved, dialer opens")
    func contacts() {
        var h = Harness(at: 8)
        h.start()
        h.send(.brainDump(thoughts: [Thought(ref: 1, action: .call, words: 4), Thought(ref: 2, words: 4)],
                          seconds: 8, online: true, splitFails: false), at: h.at(0, 9))
        let a = h.engine.item(ref: 1)!.id                              // detected by the AI split (no number yet)
        h.send(.appOpened(via: .icon), at: h.at(0, 9))
        h.send(.actionTapped(a), at: h.at(0, 9))
        #expect(h.lastDecision == .needsPermission(.contacts))
        h.send(.permission(.contacts, granted: true), at: h.at(0, 9))
        #expect(h.lastDecision == .contactPickerShown(a))
        h.send(.contactPicked(a), at: h.at(0, 9))
        #expect(h.lastDecision == .actionOpened(.call, draft: false))
        h.send(.actionTapped(a), at: h.at(0, 10))
        #expect(h.lastDecision == .actionOpened(.call, draft: false))
        #expect(h.count("contact_attached") == 1 && h.count("action_tapped") == 2)
    }

    /// Seed 001 §4 Feature 5 buttons, Pro only.
    @Test("Notification buttons: refused on Free; Pro's Tomorrow snoozes to 09:00 in the background")
    func replies() {
        var f = Harness(at: 8)
        f.start()
        f.add(1, at: f.at(0, 9))
        f.send(.notificationReply(1, .resurfacing, .tomorrow), at: f.at(0, 10))
        #expect(f.lastDecision == .refused(.proOnly))
        var p = Harness(at: 8)
        p.start(pro: true)
        p.add(1, at: p.at(0, 9))
        p.send(.notificationReply(1, .endOfDay, .tomorrow), at: p.at(0, 16))
        #expect(p.engine.item(1)!.snoozedUntil == p.at(1, 9))
        #expect(p.effectsLog.contains { $0.1 == .backgroundWake } && !p.engine.appOpen)
        p.send(.notificationReply(nil, .endOfDay, .open), at: p.at(0, 17))
        #expect(p.rendered("nudge_opened") == ["nudge_opened(kind=end_of_day,item=)"])
        #expect(p.engine.appOpen)
    }

    @Test("Timer kinds have slots 0..<8; every armed timer is in the future")
    func timerSlots() {
        #expect(NudgeTimer.Kind.allCases.map(\.slotIndex) == Array(0..<8))
    }

    @Test("Catalogue: unique keys, defaults valid, the brief's keys present with their defaults")
    func catalogue() {
        let c = NudgeParameters.catalogue
        #expect(Set(c.map(\.keyPath)).count == c.count)
        for p in c { #expect(p.problem(with: p.defaultValue) == nil, "\(p.keyPath)") }
        let d = Dictionary(uniqueKeysWithValues: c.map { ($0.keyPath, $0.defaultValue) })
        #expect(d["limits.free_dumps_per_day"] == .int(3) && d["limits.free_saved_shares"] == .int(5))
        #expect(d["nudges.max_per_day"] == .int(3) && d["nudges.quiet_start_hour"] == .int(21) && d["nudges.quiet_end_hour"] == .int(8))
        #expect(d["prices.monthly"] == .number(9.99) && d["prices.annual"] == .number(59.99) && d["trial_days"] == .int(0))
        #expect(d["ai.price_in_per_million"] == .number(0.15) && d["ai.price_out_per_million"] == .number(0.60))
        let desc = NudgeEngine.descriptor
        #expect(desc.id == "nudge" && desc.funnel.count == 8 && desc.revenue.costSource == "ai")
        #expect(desc.kpi("cost_per_dau_day")?.targetMax == 0.00018)
        for i in desc.inputs { for k in i.parameters where !k.hasSuffix(".") { #expect(d[k] != nil, "\(i.name) governs unknown \(k)") } }
    }
}
