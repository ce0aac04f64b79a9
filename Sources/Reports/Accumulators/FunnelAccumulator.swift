import RulesCore
/// `activation-funnel.csv` (CONTRACT.md, report 1): how many people reached each stage (in order, within its
/// window — the product's tracker decides), with rates from the previous stage and from the start, and whether
/// the conversion from the previous stage meets the product's target range.
public struct FunnelAccumulator: Mergeable, Sendable, Hashable, Codable {
    /// People who reached each stage.
    public private(set) var reached: [Int]
    /// People who entered the funnel (installs).
    public private(set) var people = 0

    public init(stageCount: Int) { reached = Array(repeating: 0, count: stageCount) }

    /// Adds one person and the stages they reached (a stage counts only if every earlier stage was reached too).
    public mutating func add(reachedStages: [Bool]) {
        precondition(reachedStages.count == reached.count)
        people += 1
        for (i, r) in reachedStages.enumerated() {
            guard r else { break }
            reached[i] += 1
        }
    }

    public mutating func merge(_ o: FunnelAccumulator) {
        for i in reached.indices { reached[i] += o.reached[i] }
        people += o.people
    }

    /// Conversion from the previous stage (the first stage's from installs).
    public func rateFromPrevious(_ i: Int) -> Double? {
        let base = i == 0 ? people : reached[i - 1]
        return base > 0 ? Double(reached[i]) / Double(base) : nil
    }

    /// Conversion from installs.
    public func rateFromStart(_ i: Int) -> Double? { people > 0 ? Double(reached[i]) / Double(people) : nil }

    public static let header = ReportKeys.header + ["stage_order", "stage", "stage_name", "window", "users", "rate_from_previous",
                                                    "rate_from_start", "target_min", "target_max", "meets_target"]

    /// One row per stage; `meets_target` is empty where the product sets no target.
    public func rows(_ keys: ReportKeys, stages: [FunnelStage]) -> [[CSVField]] {
        precondition(stages.count == reached.count)
        return stages.enumerated().map { i, s in
            let rate = rateFromPrevious(i)
            let meets: CSVField = s.isMet(by: rate).map { .flag($0) } ?? .empty
            return keys.fields + [.integer(Int64(s.order)), .text(s.id), .text(s.name), .text(s.windowText), .integer(Int64(reached[i])),
                                  .optional(rate, decimals: 6), .optional(rateFromStart(i), decimals: 6),
                                  .optional(s.targetMin, decimals: 2), .optional(s.targetMax, decimals: 2), meets]
        }
    }
}
