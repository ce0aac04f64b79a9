import RulesCore

/// Pro's controls (seed 003 §5 Pro): "Credit durations 5/15/30 & configurable pricing (within safe caps)",
/// "Advanced limits & cooldown controls per mode", "Weekly review + insights" — against Free's "Credits unlock
/// (limited): 5 min only + fixed pricing" and "Basic Progress (today + streak)" (audit 2026-11-25 E11). On Free these
/// controls are locked without an upsell (§5's paywall moments do not name them); after a downgrade what was set is
/// kept but not applied (§5 "App does not delete user data", "App enforces Free limits").
extension EarnedAccessEngine {
    /// Credits a credits unlock of `minutes` costs now: Pro's own price when set, else the fixed price (whole credits,
    /// rounded up).
    public func creditCost(minutes: Int) -> Int {
        guard tier == .pro, let p = proCreditCostPerMinute else { return parameters.creditCost(minutes: minutes) }
        return Int((Double(minutes) * p).rounded(.up))
    }

    /// Pro sets their credit price per minute within the safe caps (`pricing.pro_*_cost_per_minute`), or goes back to
    /// the fixed price (nil).
    mutating func setCreditPrice(_ p: Double?, _ out: inout EarnedAccessOutcome) {
        guard tier == .pro else { out.decision = .proOnly; return }
        if let p, !parameters.proCostPerMinuteRange.contains(p) { out.decision = .outOfRange; return }
        proCreditCostPerMinute = p
        out.events.append(.creditPriceSet(perMinute: p))
        out.effects.append(.databaseWrite)
        out.decision = .priceSet
    }

    /// A mode's Pro controls are Pro's to set, within the cooldown's safe cap (nil: they may be set).
    func proControlsRefusal(_ s: ModeSpec) -> EarnedAccessDecision? {
        guard s.usesProControls else { return nil }
        if tier == .free { return .proOnly }
        if let c = s.cooldownMinutes, !(0...parameters.maxModeCooldownMinutes).contains(c) { return .outOfRange }
        if let l = s.dailyUnlockLimit, l < 0 { return .outOfRange }
        return nil
    }

    /// Why the mode shielding now refuses another unlock (its daily limit, its cooldown), on Pro only; nil otherwise.
    func modeControlsRefusal(_ mode: ModeID?, _ now: Instant) -> EarnedAccessDecision? {
        guard tier == .pro, let id = mode, let m = modes.first(where: { $0.id == id }) else { return nil }
        if let limit = m.spec.dailyUnlockLimit, unlocksTodayByMode[id, default: 0] >= limit { return .modeLimitReached }
        if let c = m.spec.cooldownMinutes, now < lastGrantEnd + .minutes(Int64(c)) { return .cooldownActive }
        return nil
    }

    /// A grant (not the emergency, which no mode control refuses) counts toward the daily limit of the mode shielding then.
    mutating func countModeUnlock(_ now: Instant) {
        if let id = shieldingSource(at: now)?.mode { unlocksTodayByMode[id, default: 0] += 1 }
    }

    /// A screen viewed: Progress for everyone; the weekly review on Pro only (Free's Progress is "today + streak").
    mutating func view(_ v: AccessView, _ out: inout EarnedAccessOutcome) {
        switch v {
        case .progress: out.events.append(.progressViewed)
        case .weeklyReview:
            guard tier == .pro else { out.decision = .proOnly; return }
            out.events.append(.weeklyReviewViewed)
        }
    }
}
