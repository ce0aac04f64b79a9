/// One line of a product's money ledger, as a rule engine reports it (docs/DESIGN.md, principle 6).
///
/// Amounts are **gross** (what the customer pays, or gets back when negative); store commission and net revenue
/// are the simulator's business. Engines emit these in their outcomes; reports fold them per month and source.
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

    /// `2026-03-08T07:00:00.000Z consumable_purchase scrolloff.token $0.99`.
    public var description: String { "\(at) \(kind.rawValue) \(productID) \(amount)" }
}
