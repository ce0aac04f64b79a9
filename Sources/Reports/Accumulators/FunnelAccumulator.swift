import RulesCore
/// `activation-funnel.csv` (CONTRACT.md, report 1): how many people reached each stage (within its window, after
/// the chain before it where the stage is chained — the product's tracker decides), with rates from the previous
/// stage and from the start, and whether the rate on the stage's basis (`FunnelBasis`: the previous stage, or
/// installs — issue 38) meets the product's target range.
public struct FunnelAccumulator: Mergeable, Sendable, Hashable, Codable {
    /// People who reached each stage (of a stage with an observed-days basis, only those in its basis population).
    public private(set) var reached: [Int]
    /// People in each stage's basis population when the basis is installs (everyone, or those observed past the
    /// basis's day); for a stage on the previous stage, everyone.
    public private(set) var eligible: [Int]
    /// People who entered the funnel (installs).
    public private(set) var people = 0

    public init(stageCount: Int) {
        reached = Array(repeating: 0, count: stageCount)
        eligible = Array(repeating: 0, count: stageCount)
    }

    /// Adds one person: the stages they reached (the tracker's verdict, `FunnelStage.reached`). With the funnel's
    /// `stages` and the local days the person's life was observed since install (`observedDays`, install day
    /// included), each stage counts them in its basis population when `FunnelBasis.includes(observedDays:)` says so,
    /// and as reached when they reached it, are in its basis population and — for a chained stage — were counted at
    /// its chain predecessor. Without `stages` every stage is chained on the one before (a prefix, as before issue 38).
    public mutating func add(reachedStages: [Bool], observedDays: Int? = nil, stages: [FunnelStage]? = nil) {
        precondition(reachedStages.count == reached.count && (stages?.count ?? reached.count) == reached.count)
        people += 1
        var counted = Array(repeating: false, count: reached.count)
        for i in reached.indices {
            let stage = stages?[i]
            if let stage, let observedDays, !stage.basis.includes(observedDays: observedDays) { continue }
            eligible[i] += 1
            guard reachedStages[i] else { continue }
            if stage?.chained ?? true {
                let previous = stages.map { FunnelStage.chainPredecessor(of: i, in: $0) } ?? (i > 0 ? i - 1 : nil)
                if let previous, !counted[previous] { continue }
            }
            counted[i] = true
            reached[i] += 1
        }
    }

    public mutating func merge(_ o: FunnelAccumulator) {
        for i in reached.indices { reached[i] += o.reached[i]; eligible[i] += o.eligible[i] }
        people += o.people
    }

    /// Conversion from the previous stage of the chain (the first stage's from installs); nil for a stage outside
    /// the chain (`FunnelStage.chained` false), whose people are not a subset of any stage before it.
    public func rateFromPrevious(_ i: Int, stages: [FunnelStage]) -> Double? {
        guard stages[i].chained else { return nil }
        let base = FunnelStage.chainPredecessor(of: i, in: stages).map { reached[$0] } ?? people
        return base > 0 ? Double(reached[i]) / Double(base) : nil
    }

    /// Conversion from installs.
    public func rateFromStart(_ i: Int) -> Double? { people > 0 ? Double(reached[i]) / Double(people) : nil }

    /// The people stage `i`'s target rate is a share of: the previous chained stage's users (installs for the first),
    /// or the installs in its basis population.
    public func basisPeople(_ i: Int, stages: [FunnelStage]) -> Int {
        switch stages[i].basis {
        case .previousStage: return FunnelStage.chainPredecessor(of: i, in: stages).map { reached[$0] } ?? people
        case .installs: return eligible[i]
        }
    }

    /// The rate the stage's target is read against: users ÷ `basisPeople`.
    public func rateOnBasis(_ i: Int, stages: [FunnelStage]) -> Double? {
        let base = basisPeople(i, stages: stages)
        return base > 0 ? Double(reached[i]) / Double(base) : nil
    }

    /// The columns; `target_basis`, `basis_people` and `rate_on_basis` (issue 38) come last, so the columns before
    /// them keep their place and, for a funnel whose stages are all on the previous stage, their values.
    public static let header = ReportKeys.header + ["stage_order", "stage", "stage_name", "window", "users", "rate_from_previous",
                                                    "rate_from_start", "target_min", "target_max", "meets_target",
                                                    "target_basis", "basis_people", "rate_on_basis"]

    /// One row per stage; `meets_target` (the rate on the stage's basis against its target) is empty where the
    /// product sets no target.
    public func rows(_ keys: ReportKeys, stages: [FunnelStage]) -> [[CSVField]] {
        precondition(stages.count == reached.count)
        return stages.enumerated().map { i, s in
            let rate = rateOnBasis(i, stages: stages)
            let meets: CSVField = s.isMet(by: rate).map { .flag($0) } ?? .empty
            return keys.fields + [.integer(Int64(s.order)), .text(s.id), .text(s.name), .text(s.windowText), .integer(Int64(reached[i])),
                                  .optional(rateFromPrevious(i, stages: stages), decimals: 6), .optional(rateFromStart(i), decimals: 6),
                                  .optional(s.targetMin, decimals: 2), .optional(s.targetMax, decimals: 2), meets,
                                  .text(s.basis.text), .integer(Int64(basisPeople(i, stages: stages))), .optional(rate, decimals: 6)]
        }
    }
}
