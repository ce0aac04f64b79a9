import RulesCore

/// Capture: voice brain dumps, typed cards, shares, the AI split and its cost. Seed 001 §4 Feature 1, Feature 2,
/// §5 Screen 2, Screen 6, §6 API Contract: Brain Dump Splitting.
extension NudgeEngine {
    /// Seed 001 §4 Feature 1: Voice Brain Dump "Tap one big button → speak freely → AI splits your ramble into
    /// discrete task cards". In order:
    /// - microphone denied → refused (seed 001 §5 Screen 7 "request mic on first brain dump"; denied = no dump);
    /// - "Free tier limit | 3 brain dumps per day" (`limits.free_dumps_per_day`), checked at the mic tap: refused,
    ///   `brain_dump_limit_hit` and the paywall (inventory R3, R40), nothing recorded, no AI call;
    /// - first dump: the microphone prompt (`needsPermission(.microphone)`); the dump waits for the answer;
    /// - then `record`.
    mutating func brainDump(_ d: PendingDump, online on: Bool, _ now: Instant, _ out: inout NudgeOutcome) {
        online = on
        if micPermission == .denied { out.decision = .refused(.micDenied); return }
        if !isPro && dumpsToday >= parameters.freeDumpsPerDay {
            out.events.append(.brainDumpLimitHit(dumpsToday: dumpsToday))
            showPaywall(.dumpLimit, &out)
            out.decision = .dumpLimitHit
            return
        }
        if micPermission == .unasked {
            pendingDump = d
            askPermission(.microphone, &out)
            out.decision = .needsPermission(.microphone)
            return
        }
        record(d, now, &out)
    }

    /// Recording and processing a dump:
    /// - Seed 001 §4 Feature 1 "Cap recording at 55 seconds … If user is still talking at 55s, auto-stop, process what
    ///   we have, and allow a second dump immediately" (`recording.cap_seconds`): the thoughts are spoken evenly over
    ///   `seconds`; those finished after the cap are not recorded (`brain_dump_auto_stopped(cut)`).
    /// - "Empty recording → ignore": no card, no AI call, no quota (inventory R4, assumption).
    /// - "Single item → create 1 card, no AI call needed": one thought of ≤ `capture.single_item_max_words` words.
    /// - "No internet → save raw transcript, split later": the quota is used now, the AI call when online.
    /// - Otherwise one AI split (a service cost); "AI splitting produces garbage results … Fallback to raw text as
    ///   single card" (§12 Risks) when `splitFails` (the call still costs).
    mutating func record(_ d: PendingDump, _ now: Instant, _ out: inout NudgeOutcome) {
        let cap = parameters.recordingCapSeconds
        let seconds = max(0, d.seconds)
        let recorded = min(seconds, cap)
        var kept = d.thoughts
        if seconds > cap {
            let n = d.thoughts.count
            let keep = min(n, cap * n / seconds)
            kept = Array(d.thoughts.prefix(keep))
            out.events.append(.brainDumpAutoStopped(cut: n - keep))
        }
        if recorded > 0 { out.effects.append(.speech(seconds: recorded)) }
        guard !kept.isEmpty else {
            out.events.append(.brainDumpEmpty(seconds: recorded))
            out.decision = .dumpIgnoredEmpty
            return
        }
        dumpsToday += 1
        if !isPro { freeDumpsToday += 1 }
        if kept.count == 1 && kept[0].words <= parameters.singleItemMaxWords {
            // No AI saw it, so no action was detected (§4 Feature 6 "When AI splits a brain dump, it detects
            // actionable items"; audit N13).
            create(kept[0].withoutDetectedAction, .voiceDump, now, &out)
            dumpCompleted(items: 1, seconds: recorded, aiCalled: false, &out)
            out.decision = .dumpSaved(cards: 1)
            return
        }
        guard online else {
            queuedTranscripts.append(QueuedTranscript(thoughts: kept, seconds: recorded, splitFails: d.splitFails))
            out.events.append(.brainDumpQueuedOffline(thoughts: kept.count))
            out.effects.append(.databaseWrite)
            out.decision = .dumpQueuedOffline
            return
        }
        let n = split(kept, fails: d.splitFails, now, &out)
        dumpCompleted(items: n, seconds: recorded, aiCalled: true, &out)
        out.decision = .dumpSaved(cards: n)
    }

    /// One AI split of `thoughts` (seed 001 §6 API Contract: Brain Dump Splitting): a card per thought, or the raw
    /// text as one card when it fails. Returns the cards made.
    mutating func split(_ thoughts: [Thought], fails: Bool, _ now: Instant, _ out: inout NudgeOutcome) -> Int {
        let usd = bookAI(.split, now, &out)
        if fails {
            let words = thoughts.reduce(0) { $0 + $1.words }
            let id = create(Thought(ref: thoughts[0].ref, action: nil, words: words), .voiceDump, now, &out)
            items[Int(id) - 1].otherRefs = thoughts.dropFirst().map(\.ref)
            out.events.append(.aiSplitFailed(usd: usd))
            return 1
        }
        for t in thoughts { create(t, .voiceDump, now, &out) }
        out.events.append(.aiSplitCompleted(items: thoughts.count, usd: usd))
        return thoughts.count
    }

    /// A dump's cards are saved (seed 001 §5 Screen 2 "Save all"); the first completed dump shows the one-time Live
    /// Activity prompt (seed 001 §4 Feature 4b "On first brain dump, a one-time prompt … never asked again").
    mutating func dumpCompleted(items n: Int, seconds: Int, aiCalled: Bool, _ out: inout NudgeOutcome) {
        dumpsCompleted += 1
        out.events.append(.brainDumpCompleted(items: n, seconds: seconds, aiCalled: aiCalled))
        out.effects.append(.databaseWrite)
        if !liveActivityPromptShown && !liveActivityOn {
            liveActivityPromptShown = true
            liveActivityPromptOpen = true
            out.events.append(.liveActivityPromptShown)
        }
    }

    /// The network came back: queued transcripts are split (seed 001 §4 Feature 1 "split later").
    mutating func connectivity(_ on: Bool, _ now: Instant, _ out: inout NudgeOutcome) {
        online = on
        out.decision = .updated
        guard on, !queuedTranscripts.isEmpty else { return }
        let queued = queuedTranscripts
        queuedTranscripts.removeAll()
        var cards = 0
        for q in queued {
            let n = split(q.thoughts, fails: q.splitFails, now, &out)
            dumpCompleted(items: n, seconds: q.seconds, aiCalled: true, &out)
            cards += n
        }
        out.decision = .dumpSaved(cards: cards)
    }

    /// A typed card (seed 001 §9 Week 1 "Manual text entry fallback", §12 "tap to manually type"; inventory C11:
    /// unlimited, no AI call) — so no detected action: the person adds one with `addContact` (§4 Feature 6 "Users can
    /// also manually add a phone number or contact name to any card"; audit N13).
    mutating func addManual(_ t: Thought, _ now: Instant, _ out: inout NudgeOutcome) {
        let id = create(t.withoutDetectedAction, .manual, now, &out)
        out.decision = .itemAdded(id)
    }

    /// Seed 001 §4 Feature 2: Share-to-Nudge "pick when to be reminded → done in 2 taps"; "Free tier limit | 5 saved
    /// items" (`limits.free_saved_shares`, counted by `limits.share_limit_mode`: inventory C8) — over the cap the share
    /// is refused and the paywall shows at the next open (inventory R40). The item waits in the App Group until the app
    /// ingests it ("on next launch or via `NSNotification` if running"), and resurfaces at the preset's time (the
    /// extension schedules its notification: inventory R12). A first share before any snooze owes the notification
    /// prompt at the next open (inventory C17).
    mutating func share(_ t: Thought, _ preset: SnoozePreset, _ now: Instant, _ out: inout NudgeOutcome) {
        if !isPro {
            let count = parameters.shareLimitMode == .open ? openSharedCount : sharesSaved
            if count >= parameters.freeSavedShares {
                out.events.append(.shareLimitHit(count: count))
                shareLimitPaywallOwed = true
                out.decision = .shareLimitHit
                return
            }
        }
        // "Shared URLs auto-get the 🔗 action" (§4 Feature 6); nothing else is detected in a share (audit N13).
        let shared = Thought(ref: t.ref, action: t.action == .openLink ? .openLink : nil, words: t.words)
        let id = create(shared, .share, now, &out, snoozedUntil: resurfaceTime(preset, from: now), ingested: appOpen)
        sharesSaved += 1
        out.events.append(.shareSaved(id, preset: preset, ref: t.ref))
        if appOpen { ingest(id, &out) }
        if notificationPermission == .unasked { notificationPromptOwed = true }
        out.decision = .shareSaved(id)
    }

    /// A shared item moves from the App Group into the app's store.
    mutating func ingest(_ id: ItemID, _ out: inout NudgeOutcome) {
        let k = Int(id) - 1
        items[k].ingested = true
        out.events.append(.shareIngested(id, ref: items[k].ref))
        out.effects.append(.foreground(seconds: parameters.shareIngestSeconds))
        out.effects.append(.databaseWrite)
    }

    /// Makes an item (seed 001 §6 Data Model): active, or snoozed until `snoozedUntil`.
    @discardableResult
    mutating func create(_ t: Thought, _ source: ItemSource, _ now: Instant, _ out: inout NudgeOutcome,
                         snoozedUntil: Instant? = nil, ingested: Bool = true) -> ItemID {
        let id = ItemID(items.count + 1)
        open.append(items.count)
        items.append(NudgeItem(id: id, ref: t.ref, source: source, action: t.action, status: snoozedUntil == nil ? .active : .snoozed,
                               createdAt: now, touchedAt: now, snoozedUntil: snoozedUntil, ingested: ingested))
        out.events.append(.itemCreated(id, source: source, action: t.action, ref: t.ref))
        out.effects.append(.databaseWrite)
        return id
    }

    /// Books one AI request as a service cost (seed 001 §6 API Contracts; inventory R36, C1–C3): (tokens in + prompt
    /// overhead) × price in + tokens out × price out, prices per million tokens. Ledger lines are whole micro-dollars;
    /// the engine keeps the sub-micro-dollar remainder so the cumulative booked cost is the exact cost rounded down
    /// (41.25 µ$ per split: lines of 41, 41, 41, 42). Returns the line's amount.
    @discardableResult
    mutating func bookAI(_ kind: AIRequestKind, _ now: Instant, _ out: inout NudgeOutcome) -> Money {
        let p = parameters
        let (tin, tout) = kind == .split ? (p.splitTokensIn, p.splitTokensOut) : (p.draftTokensIn, p.draftTokensOut)
        costExactPicoUSD += Int64(tin + p.promptOverheadTokens) * p.priceInPerMillion.micros + Int64(tout) * p.priceOutPerMillion.micros
        let booked = costExactPicoUSD / 1_000_000
        let line = Money(micros: booked - costBooked.micros)
        costBooked = Money(micros: booked)
        costRemainder = costExactPicoUSD - booked * 1_000_000
        if line > .zero { out.ledger.append(LedgerEntry(at: now, amount: line, productID: kind.productID, kind: .serviceCost)) }
        out.effects.append(.aiRequest(kind))
        if kind == .split { splitRequests += 1 } else { draftRequests += 1 }
        return line
    }

    /// The exact AI cost so far, USD (for tests and reports; the ledger holds it rounded down to the micro-dollar).
    public var exactCostUSD: Double { Double(costExactPicoUSD) / 1e12 }
}
