import RulesCore

/// What the pending shield offers right now: the buttons a person can press (seed 000 §6.1 Blocked Shield,
/// §3.4 bypass ladder), with what each costs. The simulator lets people choose among exactly these.
public struct ShieldOffer: Hashable, Sendable {
    /// The app behind the shield.
    public var app: AppID
    /// Buttons shown, as a bit set over `ShieldOffer.order` (no allocation per shield).
    public var shown: UInt8
    /// The order buttons appear on the shield.
    public static let order: [ShieldChoice] = [.close, .useCredits, .peek, .emergencyToken]
    /// Whether a button is shown.
    public func offers(_ c: ShieldChoice) -> Bool { shown & ShieldOffer.bit(c) != 0 }
    /// Buttons shown, in the shield's order.
    public var choices: [ShieldChoice] { ShieldOffer.order.filter(offers) }
    static func bit(_ c: ShieldChoice) -> UInt8 {
        switch c { case .close: return 1; case .useCredits: return 2; case .peek: return 4; case .emergencyToken: return 8 }
    }
    /// The shield is a curfew shield (§3.3: no spending, no bypass).
    public var inCurfew: Bool
    /// Credit available for this app (global plus its per-app wallet).
    public var creditsAvailable: TimeSpan
    /// What the peek button costs now: zero for a free peek, the credit-peek cost otherwise.
    public var peekCost: TimeSpan
    /// Pressing the token button buys one first (no included or held token left).
    public var tokenNeedsPurchase: Bool
    /// The token price when a purchase is needed.
    public var tokenPrice: Money
    /// Tokens can no longer be bought this month (pressing the button hits the cap).
    public var tokenCapReached: Bool
}

extension ScrollOffEngine {
    /// The options of the pending shield, or nil when no shield is pending.
    ///
    /// Seed 000 §6.1: the shield shows "Close", "Use credits" (when credits are available) and "60-sec peek";
    /// §3.4: the emergency token appears once the peek steps are used up (or unaffordable) — at 0 credits at once
    /// (§6.1, `bypass.free_peek_at_zero_credits`); §3.3: during curfew
    /// only "Close" (and the token when `tokens.work_during_curfew`, an assumption).
    public func shieldOffer() -> ShieldOffer? {
        guard let p = pendingShield else { return nil }
        let app = p.app
        let credits = available(for: app)
        let needsPurchase = includedTokensRemaining == 0 && purchasedTokensHeld == 0
        var shown = ShieldOffer.bit(.close)
        if p.inCurfew {
            if parameters.tokensWorkDuringCurfew { shown |= ShieldOffer.bit(.emergencyToken) }
        } else {
            if credits > .zero { shown |= ShieldOffer.bit(.useCredits) }
            shown |= ShieldOffer.bit(ladderExhausted(app) ? .emergencyToken : .peek)
        }
        return ShieldOffer(app: app, shown: shown, inCurfew: p.inCurfew, creditsAvailable: credits,
                           peekCost: freePeekOffered(app) ? .zero : parameters.creditPeekCost,
                           tokenNeedsPurchase: needsPurchase, tokenPrice: parameters.tokenPrice,
                           tokenCapReached: needsPurchase && tokensCountedAgainstCap >= parameters.tokenMonthlyPurchaseCap)
    }
}
