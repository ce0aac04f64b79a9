import RulesCore

extension ScrollOffEngine {
    /// Free peeks left today. Seed 000 §3.4 Step 1: Free 1, Premium 2 (Pro: assumption).
    public var freePeeksRemaining: Int { max(0, parameters.freePeeksPerDay[tier] - freePeeksUsedToday) }

    /// Whether a credit peek (§3.4 Steps 2–3) is possible now for the app.
    func creditPeekPossible(_ app: AppID) -> Bool {
        creditPeeksUsedToday < parameters.creditPeeksPerDay && available(for: app) >= parameters.creditPeekCost
    }

    /// Whether the free peek (§3.4 Step 1) is offered now. At 0 credits it is not, unless
    /// `bypass.free_peek_at_zero_credits`: §6.1 "At 0 credits: … Only bypass option: Emergency Token ($0.99) if under
    /// monthly cap" (assumption; audit 2026-11 D13).
    func freePeekOffered(_ app: AppID) -> Bool {
        freePeeksRemaining > 0 && (parameters.freePeekAtZeroCredits || available(for: app) > .zero)
    }

    /// The peek steps of the ladder are used up (or unaffordable): tokens may be offered.
    func ladderExhausted(_ app: AppID) -> Bool { !freePeekOffered(app) && !creditPeekPossible(app) }

    /// A button on the pending shield (§6.1 Blocked Shield; §3.4 / §7.4 bypass ladder). A refusal marks the
    /// encounter: closing it afterwards is not a willpower win (audit 2026-11 D8).
    mutating func shieldChoice(_ choice: ShieldChoice, _ now: Instant, _ out: inout ScrollOffOutcome) {
        applyShieldChoice(choice, now, &out)
        if out.decision.isRefusal, var p = pendingShield {
            p.refused = true
            pendingShield = p
        }
    }

    mutating func applyShieldChoice(_ choice: ShieldChoice, _ now: Instant, _ out: inout ScrollOffOutcome) {
        guard let p = pendingShield else { out.decision = .noPendingShield; return }
        let app = p.app
        switch choice {
        case .close:
            closeShield(now, &out)
        case .useCredits:
            // §7.4 Spend: "User chooses 'Use credits' on shield → Remove shield, … deduct 1s per second".
            guard !p.inCurfew else { out.decision = .curfewActive; return }
            guard available(for: app) > .zero else { out.decision = .noCredits; return }
            pendingShield = nil
            accesses.removeAll { $0.app == app }
            accesses.append(Access(app: app, kind: .credits, until: .distantFuture, foregroundSince: now, pausedAt: nil))
            foreground = app
            out.effects.append(.shieldRemoved(app))
            out.timers.append(ScrollOffTimer(.walletEmpty(app), at: now + available(for: app)))
            resetEarnCounter(now, &out)
            out.decision = .spendStarted
        case .peek:
            guard !p.inCurfew else { out.decision = .curfewActive; return }
            if freePeekOffered(app) {
                // §3.4 Step 1: "One free 60-sec peek (Free); two for Premium".
                peekQuotaInForceToday = max(peekQuotaInForceToday, parameters.freePeeksPerDay[tier])
                freePeeksUsedToday += 1
                out.events.append(.bypassFreePeek(app: app, peeksRemaining: freePeeksRemaining))
                out.credits.append(CreditLedgerEntry(delta: .zero, reason: .bypassFree, app: app))
                grantUnlock(app, .peek, until: now + parameters.peekLength, now, &out)
                out.decision = .freePeek
            } else if creditPeekPossible(app) {
                // §3.4 Steps 2–3: "Each costs 60s of credit (if available)".
                creditPeeksUsedToday += 1
                let cost = deduct(parameters.creditPeekCost, app: app)
                out.events.append(.bypassCreditPeek(app: app, cost: cost))
                out.credits.append(CreditLedgerEntry(delta: -cost, reason: .bypassCredit, app: app))
                grantUnlock(app, .peek, until: now + parameters.peekLength, now, &out)
                out.decision = .creditPeek
            } else if offerMindfulness(now, &out) {
                return
            } else {
                out.decision = .peeksExhausted
            }
        case .emergencyToken:
            if p.inCurfew {
                guard parameters.tokensWorkDuringCurfew else { out.decision = .curfewActive; return }
            } else {
                guard ladderExhausted(app) else { out.decision = .ladderNotExhausted; return }
                if offerMindfulness(now, &out) { return }
            }
            useToken(app, now, &out)
        }
    }

    /// Seed 000 §3.4 Step 4: "'Try this first' → 2-minute guided mindfulness exercise … → user can skip or
    /// complete → then proceed to bypass". Offered once per shield encounter when enabled. The suggested exercise
    /// rotates breath → grounding → body scan (deterministic: the charter forbids randomness, §5.2).
    mutating func offerMindfulness(_ now: Instant, _ out: inout ScrollOffOutcome) -> Bool {
        guard mindfulnessAtBypasses, var p = pendingShield, p.mindfulnessOffered == nil else { return false }
        let e = MindfulnessExercise(rawValue: UInt8(promptCount % 3))!
        promptCount += 1
        p.mindfulnessOffered = e
        p.mindfulnessPromptedAt = now
        pendingShield = p
        out.events.append(.mindfulnessPrompted(e))
        out.decision = .mindfulnessPrompted
        return true
    }

    /// Seed 000 §4: how long an exercise takes (breath awareness 2 min, 5-4-3-2-1 grounding 2 min, body scan 3 min).
    public func mindfulnessLength(_ e: MindfulnessExercise) -> TimeSpan { parameters.mindfulnessLength[e] ?? .zero }

    /// When the pending shield's suggested exercise is over (prompt time + its length), if one is pending and
    /// unanswered: a host lets that time pass before answering `.complete`.
    public var pendingExerciseEndsAt: Instant? {
        guard let p = pendingShield, let e = p.mindfulnessOffered, !p.mindfulnessAnswered, let t = p.mindfulnessPromptedAt else { return nil }
        return t + mindfulnessLength(e)
    }

    /// The user's answer to the mindfulness step (§8.1 `mindfulness_completed` / `mindfulness_skipped`). A skip
    /// is immediate (§9 "User can skip immediately or complete") and is not a completion. A completion takes the
    /// exercise's length (§4: breath 2 min, grounding 2 min, body scan 3 min) from the prompt: earlier, it is
    /// refused with `.exerciseUnfinished` and the step stays open. Completing with `bypass_avoided` closes the shield
    /// — a willpower win unless a request was refused earlier in the encounter.
    mutating func mindfulness(_ e: MindfulnessExercise, _ r: MindfulnessResponse, _ now: Instant, _ out: inout ScrollOffOutcome) {
        guard var p = pendingShield, p.mindfulnessOffered != nil, !p.mindfulnessAnswered else { out.decision = .noPendingShield; return }
        if case .complete = r, let at = p.mindfulnessPromptedAt, now < at + mindfulnessLength(e) {
            out.decision = .exerciseUnfinished
            return
        }
        p.mindfulnessAnswered = true
        pendingShield = p
        switch r {
        case .skip:
            out.events.append(.mindfulnessSkipped(e))
            out.decision = .ok
        case .complete(let avoided):
            out.events.append(.mindfulnessCompleted(e, bypassAvoided: avoided))
            out.effects.append(.databaseWrite)
            if avoided {
                closeShield(now, &out)
                if out.decision == .willpowerWin { out.decision = .bypassAvoided }
            } else {
                out.decision = .ok
            }
        }
    }

    /// Lifts the shield for a peek or a token (§3.4); resets the earn counter (§7.4 "including peek").
    mutating func grantUnlock(_ app: AppID, _ kind: AccessKind, until: Instant, _ now: Instant, _ out: inout ScrollOffOutcome) {
        pendingShield = nil
        accesses.removeAll { $0.app == app }
        accesses.append(Access(app: app, kind: kind, until: until, foregroundSince: nil, pausedAt: nil))
        foreground = app
        out.effects.append(.shieldRemoved(app))
        out.effects.append(.databaseWrite)
        out.timers.append(ScrollOffTimer(.unlockEnd(app), at: until))
        resetEarnCounter(now, &out)
    }

    /// A peek or token unlock ends: "60-second timer → shield reappears" (§6.1). Over the app in front, the shield
    /// returns as one the user answers (`reshield`).
    mutating func unlockEndTimer(_ app: AppID, _ now: Instant, _ out: inout ScrollOffOutcome) {
        guard let i = accessIndex(app), accesses[i].kind != .credits, accesses[i].until <= now else { return }
        accesses.remove(at: i)
        if foreground == app {
            reshield(app, now, &out)
            refreshEarning(now, &out)
        }
        out.decision = .unlockEnded
    }

    // MARK: Tokens

    /// Purchases counted against the monthly cap (assumption `tokens.included_count_toward_cap`).
    var tokensCountedAgainstCap: Int {
        tokensPurchasedThisMonth + (parameters.includedTokensCountTowardCap ? includedGrantedThisMonth : 0)
    }

    /// Seed 000 §5.2: "Maximum 5 tokens purchasable per month (all tiers)"; §8.1 `bypass_token_cap_hit`;
    /// `bypass_token_purchased(month_id, tokens_used_this_month)` carries the tokens *used* this month as its name
    /// says, counting this one when it is bought at the shield to be used at once (audit 2026-11 D14).
    mutating func purchaseToken(_ now: Instant, atShield: Bool, _ out: inout ScrollOffOutcome) -> Bool {
        guard tokensCountedAgainstCap < parameters.tokenMonthlyPurchaseCap else {
            out.events.append(.bypassTokenCapHit)
            out.decision = .tokenCapReached
            return false
        }
        tokensPurchasedThisMonth += 1
        purchasedTokensHeld += 1
        out.ledger.append(LedgerEntry(at: now, amount: parameters.tokenPrice, productID: Plan.tokenSKU, kind: .consumablePurchase))
        out.events.append(.bypassTokenPurchased(month: tokenMonth, tokensUsedThisMonth: tokensUsedThisMonth + (atShield ? 1 : 0)))
        out.effects.append(.databaseWrite)
        out.decision = .tokenPurchased
        return true
    }

    /// A token bought outside the shield: refused unless `tokens.purchasable_outside_shield` (§5.2 "Never encourage
    /// token purchases (show as last resort only)"; assumption).
    mutating func buyToken(_ now: Instant, _ out: inout ScrollOffOutcome) {
        guard parameters.tokensPurchasableOutsideShield else { out.decision = .tokenOnlyAtShield; return }
        _ = purchaseToken(now, atShield: false, &out)
    }

    /// Seed 000 §3.4 "Beyond that: Emergency Token"; included Pro tokens are used first, then held purchases,
    /// else one is bought. Assumption: a token unlocks the app for `tokens.unlock_minutes`.
    mutating func useToken(_ app: AppID, _ now: Instant, _ out: inout ScrollOffOutcome) {
        let included: Bool
        if includedTokensRemaining > 0 {
            includedTokensRemaining -= 1
            included = true
        } else {
            if purchasedTokensHeld == 0 { guard purchaseToken(now, atShield: true, &out) else { return } }
            purchasedTokensHeld -= 1
            included = false
        }
        tokensUsedThisMonth += 1
        tokensUsedToday += 1
        out.events.append(.emergencyTokenUsed(month: tokenMonth, included: included))
        out.credits.append(CreditLedgerEntry(delta: .zero, reason: .bypassToken, app: app))
        grantUnlock(app, .token, until: now + parameters.tokenUnlockLength, now, &out)
        out.decision = .tokenUsed
    }
}
