import Reports

/// Opportunities, decisions and outcomes per kind, for one life or (summed) one run, in the dense layout of the
/// product's declared kinds (`DecisionLayout`): integer counts, so they merge exactly (shards, threads).
///
/// In a shard file the counts are sparse and self-describing (issue 42): a list of the kinds counted, each with its
/// id, opportunities, decisions and the outcomes counted by id —
/// `[{"kind":"churn","opportunities":30,"decisions":30,"outcomes":[{"outcome":"stay","count":29},…]},…]` — so a
/// product that declares a new kind or outcome does not change the format. `habitat merge` checks what it reads
/// against the product's declared kinds (`validate(_:at:declared:)`), then merges by id.
public struct DecisionCounts: Mergeable, Sendable, Hashable, Codable {
    /// The kinds counted and where each count is.
    public private(set) var layout: DecisionLayout
    /// Per kind of `layout`: opportunities, decisions, then one count per outcome (flat, kind-major).
    var values: [Int]

    /// Nothing counted, of no kinds (merging counts into it takes their layout).
    public init() { self.init(layout: .empty) }

    /// Nothing counted yet, of `layout`'s kinds.
    public init(layout: DecisionLayout) {
        self.layout = layout
        values = Array(repeating: 0, count: layout.width)
    }

    /// Opportunities of kind `k` (0 when the layout does not hold it).
    public func opportunities(_ k: DecisionKind) -> Int { layout.slot(of: k).map { values[layout.bases[$0]] } ?? 0 }
    /// Decisions of kind `k`.
    public func decisions(_ k: DecisionKind) -> Int { layout.slot(of: k).map { values[layout.bases[$0] + 1] } ?? 0 }
    /// Decisions of kind `k` that came out `o`.
    public func count(_ k: DecisionKind, _ o: DecisionOutcome) -> Int {
        guard let s = layout.slot(of: k), let c = layout.cell(of: o, slot: s) else { return 0 }
        return values[c]
    }

    @inline(__always)
    mutating func countOpportunity(slot: Int) { values[layout.bases[slot]] += 1 }
    @inline(__always)
    mutating func countDecision(slot: Int, cell: Int) {
        values[layout.bases[slot] + 1] += 1
        values[cell] += 1
    }

    /// Adds `other`'s counts. Counts of one layout add cell by cell; otherwise (a shard's counts, which name only
    /// what was counted) they add by id, and every kind and outcome of `other` must be one of this layout's —
    /// `habitat merge` has checked it (`validate(_:at:declared:)`), so anything else is a defect and stops.
    public mutating func merge(_ other: DecisionCounts) {
        if other.layout === layout || other.layout.agrees(with: layout) {
            for i in values.indices { values[i] += other.values[i] }
            return
        }
        if other.values.allSatisfy({ $0 == 0 }) { return }
        if layout.kinds.isEmpty {
            self = other
            return
        }
        for (s, k) in other.layout.kinds.enumerated() {
            guard let t = layout.slot(of: k) else { preconditionFailure("decision counts of kind '\(k.id)' merged into counts of \(layout)") }
            let from = other.layout.bases[s], to = layout.bases[t]
            values[to] += other.values[from]
            values[to + 1] += other.values[from + 1]
            for (j, o) in k.outcomes.enumerated() {
                guard let c = layout.cell(of: o, slot: t) else {
                    preconditionFailure("decision counts of outcome '\(o.id)' of kind '\(k.id)' merged into counts of \(layout)")
                }
                values[c] += other.values[from + 2 + j]
            }
        }
    }

    /// `decisions.csv`'s columns after the report keys.
    public static let header = ReportKeys.header + ["decision", "opportunity", "per_opportunity", "opportunities", "decisions", "outcome", "count", "share"]

    /// One row per kind of `kinds` and each of its outcomes.
    public func rows(_ keys: ReportKeys, kinds: [DecisionKind]) -> [[CSVField]] {
        kinds.flatMap { k in
            k.outcomes.map { o in
                let n = decisions(k)
                return keys.fields + [.text(k.id), .text(k.opportunity), .integer(Int64(k.perOpportunity)), .integer(Int64(opportunities(k))),
                                      .integer(Int64(n)), .text(o.id), .integer(Int64(count(k, o))),
                                      n > 0 ? .rate(Double(count(k, o)) / Double(n)) : .empty]
            }
        }
    }

    // MARK: - The shard form: sparse, by id

    /// One kind counted.
    struct Entry: Codable {
        var kind: String
        var opportunities: Int
        var decisions: Int
        var outcomes: [OutcomeCount]
    }

    /// One outcome counted.
    struct OutcomeCount: Codable {
        var outcome: String
        var count: Int
    }

    /// The kinds with any count, each with its outcomes counted (in the layout's order).
    public func encode(to encoder: any Encoder) throws {
        var entries: [Entry] = []
        for (s, k) in layout.kinds.enumerated() {
            let base = layout.bases[s]
            let outcomes = k.outcomes.enumerated().compactMap { j, o in values[base + 2 + j] == 0 ? nil : OutcomeCount(outcome: o.id, count: values[base + 2 + j]) }
            guard values[base] != 0 || values[base + 1] != 0 || !outcomes.isEmpty else { continue }
            entries.append(Entry(kind: k.id, opportunities: values[base], decisions: values[base + 1], outcomes: outcomes))
        }
        var c = encoder.singleValueContainer()
        try c.encode(entries)
    }

    /// The counts as written: their layout is the kinds and outcomes named, in the order read (which
    /// `validate(_:at:declared:)` then checks against the product's).
    /// - Throws: `DecodingError` when a kind is named twice, or an outcome twice in a kind.
    public init(from decoder: any Decoder) throws {
        let entries = try decoder.singleValueContainer().decode([Entry].self)
        let kinds = entries.map { e in DecisionKind(e.kind, opportunity: "", outcomes: e.outcomes.map { DecisionOutcome($0.outcome) }) }
        do { layout = try DecisionLayout(kinds) } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "decisions: \(error)"))
        }
        values = entries.flatMap { e in [e.opportunities, e.decisions] + e.outcomes.map(\.count) }
    }
}
