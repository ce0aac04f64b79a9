/// One line of a product's money ledger, as a rule engine reports it (docs/DESIGN.md, principle 6).
///
/// Amounts are **gross** (what the customer pays, or gets back when negative); store commission and net revenue
/// are the simulator's business. Engines emit these in their outcomes; reports fold them per month and source.
/// One kind is money the product pays rather than earns: a service cost (`serviceCost`, e.g. an AI request),
/// booked the same way — by the engine, as a ledger line — and reported beside the revenue it is set against
/// (`revenue.csv`'s `cost_usd`, the `gross_margin` KPI).
public struct LedgerEntry: Hashable, Sendable, CustomStringConvertible {
    /// What kind of money movement this is.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// First purchase of a subscription period.
        case subscriptionPurchase = "subscription_purchase"
        /// Automatic renewal of a subscription for another period.
        case subscriptionRenewal = "subscription_renewal"
        /// Credit for the unused part of a plan replaced by an upgrade (negative amount).
        case upgradeProration = "upgrade_proration"
        /// A refund granted by the store (negative amount).
        case refund
        /// A consumable in-app purchase (e.g. an emergency token).
        case consumablePurchase = "consumable_purchase"
        /// A free trial started (amount zero): no money moves, but the world check counts trial starts and their
        /// conversions (`trial_to_paid`, `trial_start_install_day_share`). Not a transaction in `revenue.csv`.
        case trialStart = "trial_start"
        /// Money the product pays a supplier for serving this person (e.g. an AI request: tokens × price per token;
        /// `LedgerEntry.serviceCost(at:tokens:price:perTokens:productID:)`). The amount is positive: a cost. No store
        /// commission is due on it and it is not a transaction the customer makes (never a charge, never refunded); it
        /// is reported under the revenue model's `costSource` in `revenue.csv`'s `cost_usd`.
        case serviceCost = "service_cost"

        /// A charge the customer pays (a purchase, renewal or consumable): what refunds and first payments count.
        public var isCharge: Bool { self == .subscriptionPurchase || self == .subscriptionRenewal || self == .consumablePurchase }
    }

    /// When the store charged or credited.
    public var at: Instant
    /// Gross amount; negative for prorations and refunds.
    public var amount: Money
    /// The store product identifier (SKU), e.g. `scrolloff.pro.annual`.
    public var productID: String
    /// The kind of movement.
    public var kind: Kind

    public init(at: Instant, amount: Money, productID: String, kind: Kind) {
        self.at = at
        self.amount = amount
        self.productID = productID
        self.kind = kind
    }

    /// A service cost of `tokens` at `price` per `perTokens` tokens (1 by default: a price per token; 1 000 000 for a
    /// per-million list price), rounded half away from zero to the micro-dollar (`Money.times(_:per:)`, exact):
    /// 1 234 tokens at $0.60 per million tokens cost $0.00074. `productID` names what was served (e.g. the model
    /// or the feature, `nudge.ai.plan`).
    public static func serviceCost(at t: Instant, tokens: Int64, price: Money, perTokens: Int64 = 1, productID: String) -> LedgerEntry {
        precondition(tokens >= 0 && price >= .zero, "a service cost is never negative")
        return LedgerEntry(at: t, amount: price.times(tokens, per: perTokens), productID: productID, kind: .serviceCost)
    }

    /// `2026-03-08T07:00:00.000Z consumable_purchase scrolloff.token $0.99`.
    public var description: String { "\(at) \(kind.rawValue) \(productID) \(amount)" }
}
