/// The app store's commission on the product's sales, as the scenario sets it (`store:`, issue 38, audit N16).
///
/// Apple's rules, as defaults: 30 % of a sale (`standard_rate`), 15 % (`reduced_rate`) on a subscription once the
/// subscriber has over a year of paid tenure, and 15 % on every sale for a developer in the App Store Small Business
/// Program (under $1M of proceeds a year: `small_business_program`). The defaults keep the 30 % every run had before
/// the key existed; a scenario at them writes no `store:` block, so its resolved text and hash are unchanged.
public struct StoreSpec: Sendable, Hashable {
    /// The default standard commission (30 %).
    public static let defaultStandardRate = 0.30
    /// The default reduced commission (15 %).
    public static let defaultReducedRate = 0.15

    /// Member of the App Store Small Business Program: every sale pays `reducedRate`.
    public var smallBusinessProgram: Bool
    /// The commission on a sale, 0…1.
    public var standardRate: Double
    /// The commission after a year of a subscriber's paid tenure, and on every sale in the programme; 0…`standardRate`.
    public var reducedRate: Double

    public init(smallBusinessProgram: Bool = false, standardRate: Double = StoreSpec.defaultStandardRate,
                reducedRate: Double = StoreSpec.defaultReducedRate) {
        self.smallBusinessProgram = smallBusinessProgram
        self.standardRate = standardRate
        self.reducedRate = reducedRate
    }

    /// True at Apple's standard rules (no `store:` block is written).
    public var isDefault: Bool { self == StoreSpec() }

    /// The rate a new sale pays: `reducedRate` in the programme, else `standardRate` (a renewal after a year of paid
    /// tenure pays `reducedRate` too).
    public var firstYearRate: Double { smallBusinessProgram ? reducedRate : standardRate }

    /// What the run's commission is, in words: `30 % (15 % on a subscription after a year of paid tenure)` or
    /// `15 % (App Store Small Business Program)`.
    public var summary: String {
        func pct(_ r: Double) -> String {
            let v = r * 100
            return (v.rounded() == v ? String(Int(v)) : String(v)) + " %"
        }
        return smallBusinessProgram ? "\(pct(reducedRate)) on every sale (App Store Small Business Program)"
            : "\(pct(standardRate)) of a sale, \(pct(reducedRate)) on a subscription after a year of paid tenure"
    }
}
