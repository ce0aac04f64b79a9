import Testing
import RulesCore
@testable import NudgeRules

@Suite("Nudge parameters")
struct ParameterTests {
    @Test("Every parameter cites seed 001 or is an assumption, and is documented in the Rules README")
    func documented() {
        for p in NudgeParameters.catalogue {
            switch p.source {
            case .seed(let file, let section): #expect(file == NudgeEngine.seedFile && section.hasPrefix("§"), "\(p.keyPath)")
            case .assumption(let why): #expect(!why.isEmpty, "\(p.keyPath)")
            case .publication: Issue.record("\(p.keyPath): engine parameters cite the seed or an assumption")
            }
        }
        let readme = (try? String(contentsOfFile: #filePath.replacingOccurrences(of: "Tests/NudgeRulesTests/ParameterTests.swift",
                                                                                with: "Sources/Products/Nudge/Rules/README.md"), encoding: .utf8)) ?? ""
        for p in NudgeParameters.catalogue { #expect(readme.contains("`\(p.keyPath)`"), "\(p.keyPath) missing from the Rules README") }
    }

    @Test("The seed's silent spots are assumptions; its explicit numbers cite it")
    func sources() {
        let assumed = Set(NudgeParameters.catalogue.filter(\.source.isAssumption).map(\.keyPath))
        for k in ["limits.share_limit_mode", "capture.single_item_max_words", "nudges.stale_hours", "nudges.stale_hour",
                  "nudges.end_of_day_hour", "trial_days", "ai.prompt_overhead_tokens", "drafts.for_call_cards", "energy.share_ingest_seconds"] {
            #expect(assumed.contains(k), "\(k)")
        }
        for k in ["limits.free_dumps_per_day", "limits.free_saved_shares", "recording.cap_seconds", "nudges.max_per_day",
                  "nudges.quiet_start_hour", "nudges.quiet_end_hour", "snooze.later_today_hours", "snooze.tomorrow_hour",
                  "snooze.weekend_hour", "snooze.next_week_hour", "prices.monthly", "prices.annual", "ai.price_in_per_million",
                  "ai.price_out_per_million", "ai.split_tokens_in", "ai.split_tokens_out", "ai.draft_tokens_in", "ai.draft_tokens_out",
                  "live_activity.restart_hours"] {
            #expect(!assumed.contains(k), "\(k)")
        }
    }

    @Test("Defaults as the seed: 3 dumps, 5 shares, 55 s, 3 nudges 21–8, $9.99 / $59.99, $0.15 / $0.60 per million")
    func defaults() {
        let d = NudgeParameters.defaults
        #expect(d.freeDumpsPerDay == 3 && d.freeSavedShares == 5 && d.shareLimitMode == .open && d.recordingCapSeconds == 55)
        #expect(d.maxNudgesPerDay == 3 && d.quietStartHour == 21 && d.quietEndHour == 8 && d.staleHours == 72)
        #expect(d.monthlyPrice == Money(usd: 9.99) && d.annualPrice == Money(usd: 59.99) && d.trialDays == 0)
        #expect(d.priceInPerMillion == Money(micros: 150_000) && d.priceOutPerMillion == Money(micros: 600_000))
    }
}
