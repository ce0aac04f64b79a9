import Testing
import HabitatTestSupport
import RulesCore
@testable import NudgeRules

/// The generic property driver (`HabitatTestSupport.EngineSweep`) on Nudge: every engine invariant (≤ max nudges a
/// local day, none in quiet hours, Free dumps ≤ limit, Free shares ≤ cap, snoozed ⇔ snoozedUntil, done ⇔ completedAt,
/// cost booked + remainder = exact, Pro only while a period runs) after every step of many random sequences, plus
/// properties over the whole run: ≤ 1 draft per card, nudges per local day.
@Suite("Nudge property sweeps")
struct PropertyTests {
    static let seeds: [UInt64] = Array(1...200)

    /// Every catalogue value drawn inside its range (one seed in five).
    static func randomParameters(_ r: inout SplitMix64) -> NudgeParameters {
        NudgeParameters(values: .random(from: NudgeParameters.catalogue, &r))
    }

    static func randomInput(_ r: inout SplitMix64, _ e: NudgeEngine, _ t: Instant) -> NudgeInput {
        let n = e.items.count
        let id = ItemID(1 + r.below(max(n, 1) + 1))
        let known = e.currentCard.map(\.id) ?? id
        let pick = r.chance(0.6) ? known : id
        let preset = r.pick(SnoozePreset.allCases)
        let ref = UInt64(r.below(1_000_000))
        func thought() -> Thought { Thought(ref: UInt64(r.below(1_000_000)), action: r.chance(0.5) ? r.pick(ActionType.allCases) : nil, words: 1 + r.below(15)) }
        switch r.below(100) {
        case 0..<10: return .appOpened(via: r.pick(OpenVia.allCases))
        case 10..<14: return .appClosed
        case 14..<24:
            let k = r.below(6)
            return .brainDump(thoughts: (0..<k).map { _ in thought() }, seconds: [0, 5, 20, 40, 55, 70, 120][r.below(7)],
                              online: r.chance(0.8), splitFails: r.chance(0.1))
        case 24..<26: return .connectivity(online: r.chance(0.6))
        case 26..<31: return .addManual(thought())
        case 31..<37: return .share(Thought(ref: ref, action: r.chance(0.7) ? .openLink : nil, words: 5), preset: preset)
        case 37..<45: return .done(pick)
        case 45..<50: return .skip(pick)
        case 50..<56: return .snooze(pick, preset)
        case 56..<58: return .letGo(pick)
        case 58..<62: return .actionTapped(pick)
        case 62..<64: return .contactPicked(pick)
        case 64..<66: return r.chance(0.7) ? .draftSent(pick, edited: r.chance(0.5)) : .draftAbandoned(pick)
        case 66..<71: return .notificationReply(r.chance(0.8) ? pick : nil, r.pick(NudgeKind.allCases), r.pick(NotificationReply.allCases))
        case 71..<75: return .permission(r.pick(PermissionKind.allCases), granted: r.chance(0.75))
        case 75..<77: return .liveActivityPrompt(enable: r.chance(0.5))
        case 77: return .setLiveActivity(r.chance(0.5))
        case 78: return .muteNudgesToday
        case 79: return .setNudgeType(r.pick(NudgeKind.allCases), on: r.chance(0.6))
        case 80: return .setNotificationsAllowed(r.chance(0.7))
        case 81: return .upgradeTapped
        case 82..<86: return .paywallResponse(r.chance(0.4) ? nil : r.pick(NudgePlan.allCases))
        case 86..<88: return .cancelAutoRenew
        case 88: return .refund
        case 89: return .onboarding(panelsViewed: r.below(4), skipped: r.chance(0.5))
        default:
            return .timer(NudgeTimer(r.pick(NudgeTimer.Kind.allCases), at: .epoch))
        }
    }

    static var sweep: EngineSweep<NudgeEngine> { sweep(of: NudgeEngine.self, { $0 }, properties: properties) }

    /// The sweep for any engine that wraps Nudge's (e.g. `FaultyEngine<NudgeEngine, _>`).
    static func sweep<E: RuleEngine>(of: E.Type, _ nudge: @escaping (E) -> NudgeEngine, steps: Int = 400,
                                     properties: @escaping () -> (SweepStep<E>) -> [String] = { { _ in [] } }) -> EngineSweep<E>
    where E.Input == NudgeInput, E.Parameters == NudgeParameters {
        EngineSweep(
            generator: { SplitMix64(seed: $0 &* 0x9E37_79B9) },
            start: { seed, r in
                let zone: ZoneCalendar = switch seed % 3 {
                case 0: .utc
                case 1: newYork
                default: .fixed(offset: .hours(14))
                }
                // Spring-forward (2026-03-08) or fall-back (2026-11-01) within reach in New York.
                let day = seed % 4 < 2 ? LocalDate(year: 2026, month: 3, day: 5)! : LocalDate(year: 2026, month: 10, day: 29)!
                let t = zone.instant(on: day, at: LocalTimeOfDay(hour: r.below(24), minute: 0)!)
                var prelude: [NudgeInput] = [.appOpened(via: .icon), .onboarding(panelsViewed: 3, skipped: false)]
                if seed % 2 == 0 { prelude += [.permission(.notifications, granted: true), .permission(.microphone, granted: true)] }
                if seed % 5 == 1 { prelude.append(.paywallResponse(.monthly)) }
                return SweepStart(parameters: seed % 5 == 4 ? randomParameters(&r) : .defaults, zone: zone, installedAt: t,
                                  prelude: prelude.map { SweepInput($0, at: t) })
            },
            steps: steps,
            nextInstant: { r, _, now in now + (r.chance(0.5) ? .seconds(Int64(r.below(600))) : .minutes(Int64(r.below(600)))) },
            drain: .days(3),
            properties: properties,
            randomInput: { r, e, t in randomInput(&r, nudge(e), t) })
    }

    /// Properties over the run: one draft per card; nudges per local day ≤ the cap and never in quiet hours; an item's
    /// status moves only as the rules allow (done and dropped are final).
    static func properties() -> (SweepStep<NudgeEngine>) -> [String] {
        var drafts: [ItemID: Int] = [:]
        var perDay: [LocalDate: Int] = [:]
        return { step in
            var p: [String] = []
            let e = step.after
            for ev in step.outcome.events {
                switch ev {
                case .draftGenerated(let id, _, _):
                    drafts[id, default: 0] += 1
                    if drafts[id]! > 1 { p.append("two drafts for item \(id)") }
                case .nudgeSent:
                    let d = e.zone.localDate(e.sentToday.last ?? step.at)
                    perDay[d, default: 0] += 1
                    if perDay[d]! > e.parameters.maxNudgesPerDay { p.append("\(perDay[d]!) nudges on \(d)") }
                default: break
                }
            }
            for (b, a) in zip(step.before.items, e.items) where (b.status == .done || b.status == .dropped) && a.status != b.status {
                p.append("item \(a.id) left \(b.status) for \(a.status)")
            }
            if e.items.count < step.before.items.count { p.append("items deleted") }
            return p
        }
    }

    @Test("Invariants hold after every step of random sequences", arguments: seeds)
    func sweep(seed: UInt64) {
        expectNoFailure(Self.sweep.run(seed: seed))
    }

    @Test("The sweeps exercise every rule")
    func coverage() {
        var names: [String: Int] = [:]
        for seed in Self.seeds.prefix(30) { for e in Self.sweep.run(seed: seed).events { names[e.event.name, default: 0] += 1 } }
        for n in ["app_opened", "brain_dump_completed", "brain_dump_empty", "brain_dump_auto_stopped", "brain_dump_queued_offline",
                  "brain_dump_limit_hit", "ai_split_completed", "ai_split_failed", "item_created", "share_saved", "share_limit_hit",
                  "share_ingested", "card_shown", "item_done", "item_skipped", "item_snoozed", "item_resurfaced", "item_became_stale",
                  "item_dropped", "all_clear", "action_tapped", "contact_attached", "draft_generated", "draft_sent", "nudge_sent",
                  "nudge_suppressed", "nudge_deferred", "nudge_opened", "nudge_action", "live_activity_prompt_shown",
                  "live_activity_enabled", "live_activity_updated", "paywall_shown", "subscription_started", "subscription_renewed",
                  "subscription_cancelled", "subscription_refunded", "permission_requested", "permission_result"] {
            #expect(names[n, default: 0] > 0, "\(n) never happened")
        }
    }
}
