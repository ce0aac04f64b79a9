/// Belief in one's ability to resist, 0…1 bounded to `[floor, ceiling]`: rises with willpower wins, falls with
/// lapses (Bandura's mastery experiences; rates are assumptions).
public struct SelfEfficacy: Hashable, Sendable {
    public private(set) var value: Double
    /// Fraction of the remaining headroom gained per win. Assumption: 0.03.
    public var winRate: Double
    /// Fraction of the current value lost per lapse. Assumption: 0.02 (lapses weigh a little less than wins).
    public var lapseRate: Double
    public var floor: Double
    public var ceiling: Double

    public init(value: Double, winRate: Double = 0.03, lapseRate: Double = 0.02, floor: Double = 0.05, ceiling: Double = 0.95) {
        self.floor = floor
        self.ceiling = ceiling
        self.winRate = winRate
        self.lapseRate = lapseRate
        self.value = min(max(value, floor), ceiling)
    }

    /// A resisted urge.
    public mutating func recordWin() { value = min(ceiling, value + winRate * (ceiling - value)) }
    /// Acting on an urge the person meant to resist (unblock, bypass, giving in).
    public mutating func recordLapse() { value = max(floor, value - lapseRate * (value - floor)) }
}
