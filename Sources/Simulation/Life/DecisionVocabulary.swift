import Synchronization

/// How a decision came out: a value with an id (`decisions.csv`'s `outcome`), declared by whoever declares the
/// kinds it belongs to — the generic life, the shared person layer (`SharedPerson/`) or a product's `Life` folder —
/// as a static member, so a call site reads `life.decide(.gateOption, .quest, at: now)` (issue 42: a product brings
/// its own words). Two outcomes are the same outcome when their ids are.
public struct DecisionOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The id in `decisions.csv` and in shard files.
    public let id: String
    /// FNV-1a 64 of `id`, computed once: the decision audit compares these, never strings.
    let code: UInt64

    public init(_ id: String) {
        self.id = id
        code = decisionCode(id)
    }

    public static func == (a: Self, b: Self) -> Bool { a.code == b.code && a.id == b.id }
    public func hash(into h: inout Hasher) { h.combine(code) }
    public var description: String { id }
}

/// A kind of decision a simulated person makes (issue 25, "every decision once, at its moment"), declared as a value
/// by the module whose people make it (issue 42): its id, its **opportunity** — the moment the product gives, which
/// makes the decision legal —, how many decisions one opportunity allows, and its outcomes in report order.
/// `PersonLife.offerDecision(_:moment:)` opens an opportunity, `PersonLife.decide(_:_:at:)` takes one: a decision
/// without its open opportunity, beyond its allowance, of a kind the product does not list in
/// `ProductAdapter.decisionKinds` or with an outcome not among its kind's is an invariant violation that stops the life
/// with a replayable person id, like an engine invariant.
///
/// The generic life declares the kinds every product's life may meet (`DecisionKind+Life.swift`), the shared person
/// layer the subscription and blocker kinds (`SharedPerson/`), and a product its own kinds in its `Life` folder, as
/// `extension DecisionKind { public static let … }`. Two kinds are the same kind when their ids are.
public struct DecisionKind: Sendable, Hashable, CustomStringConvertible {
    /// The kind's id in `decisions.csv` and in shard files.
    public let id: String
    /// The event that opens the opportunity (`decisions.csv`'s `opportunity`).
    public let opportunity: String
    /// The most decisions one opportunity allows.
    public let perOpportunity: Int
    /// The outcomes a decision of this kind can have, in report order.
    public let outcomes: [DecisionOutcome]
    /// FNV-1a 64 of `id`, computed once.
    let code: UInt64

    public init(_ id: String, opportunity: String, perOpportunity: Int = 1, outcomes: [DecisionOutcome]) {
        self.id = id
        self.opportunity = opportunity
        self.perOpportunity = perOpportunity
        self.outcomes = outcomes
        code = decisionCode(id)
    }

    public static func == (a: Self, b: Self) -> Bool { a.code == b.code && a.id == b.id }
    public func hash(into h: inout Hasher) { h.combine(code) }
    public var description: String { id }
}

/// FNV-1a 64 of a decision id's UTF-8 bytes: the code the audit compares (a layout refuses two ids of one code).
func decisionCode(_ id: String) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in id.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
    return h
}

/// The dense layout of one product's decision counts, built once from its declared kinds
/// (`ProductAdapter.decisionKinds`, in report order): per kind a slot of `2 + outcomes` cells — opportunities,
/// decisions, then one count per outcome in the kind's order. `offerDecision` and `decide` find a kind's slot and an
/// outcome's cell by a short linear scan over precomputed integer codes (no string hashing, no dictionary, nothing
/// allocated on the hot path). Immutable and shared by every life and accumulator of the product.
public final class DecisionLayout: Sendable, Hashable, CustomStringConvertible {
    /// The kinds, in report order.
    public let kinds: [DecisionKind]
    /// Per slot: the kind's code, and the index of its opportunities cell (its decisions' is the next, its
    /// outcomes' follow).
    let kindCodes: [UInt64]
    let bases: [Int]
    /// Per slot: the kind's `perOpportunity`.
    let allowances: [Int]
    /// Per cell: the outcome's code (0 in the opportunities and decisions cells).
    let cellCodes: [UInt64]
    /// Cells in all.
    public let width: Int

    /// A declaration a layout cannot be built from: two kinds of one id, two outcomes of one id in a kind, two ids of
    /// one code, an allowance below 1.
    public struct Invalid: Error, CustomStringConvertible, Sendable {
        public let problems: [String]
        public var description: String { problems.joined(separator: "; ") }
    }

    /// The layout of no kinds (a `DecisionCounts()` nothing was counted in).
    public static let empty = try! DecisionLayout([])

    /// The layout of `kinds`, in their order.
    /// - Throws: `Invalid` naming every duplicate id (or code) and every allowance below 1.
    public init(_ kinds: [DecisionKind]) throws(Invalid) {
        var problems: [String] = []
        var seenKinds: [UInt64: String] = [:]
        var bases: [Int] = [], cells: [UInt64] = []
        for k in kinds {
            if let other = seenKinds[k.code] {
                problems.append(other == k.id ? "decision kind '\(k.id)' is declared twice" : "decision kinds '\(other)' and '\(k.id)' have one code")
            }
            seenKinds[k.code] = k.id
            if k.perOpportunity < 1 { problems.append("decision kind '\(k.id)' allows \(k.perOpportunity) decisions an opportunity; at least 1") }
            var seenOutcomes: [UInt64: String] = [:]
            for o in k.outcomes {
                if let other = seenOutcomes[o.code] {
                    problems.append(other == o.id ? "decision kind '\(k.id)' lists outcome '\(o.id)' twice"
                                                  : "outcomes '\(other)' and '\(o.id)' of decision kind '\(k.id)' have one code")
                }
                seenOutcomes[o.code] = o.id
            }
            bases.append(cells.count)
            cells += [0, 0] + k.outcomes.map(\.code)
        }
        guard problems.isEmpty else { throw Invalid(problems: problems) }
        self.kinds = kinds
        kindCodes = kinds.map(\.code)
        self.bases = bases
        allowances = kinds.map(\.perOpportunity)
        cellCodes = cells
        width = cells.count
    }

    /// The layout of `Adapter`'s declared kinds, built at its first use and shared after (a lock and a lookup per
    /// call: a life asks once, never per decision).
    public static func of<Adapter: ProductAdapter>(_: Adapter.Type) -> DecisionLayout {
        let key = ObjectIdentifier(Adapter.self)
        if let known = layouts.withLock({ $0[key] }) { return known }
        let built: DecisionLayout
        do { built = try DecisionLayout(Adapter.decisionKinds) } catch {
            preconditionFailure("\(Adapter.self).decisionKinds: \(error)")
        }
        return layouts.withLock { table in
            if let known = table[key] { return known }
            table[key] = built
            return built
        }
    }

    /// The slot of `kind`, nil when the layout does not hold it.
    @inline(__always)
    func slot(of kind: DecisionKind) -> Int? {
        let c = kind.code
        for i in kindCodes.indices where kindCodes[i] == c { return i }
        return nil
    }

    /// The cell of outcome `outcome` of the kind in `slot`, nil when that kind does not list it.
    @inline(__always)
    func cell(of outcome: DecisionOutcome, slot: Int) -> Int? {
        let c = outcome.code, end = slot + 1 < bases.count ? bases[slot + 1] : width
        var i = bases[slot] + 2
        while i < end {
            if cellCodes[i] == c { return i }
            i += 1
        }
        return nil
    }

    /// The slot of the kind with id `id`, nil when the layout does not hold it.
    func slot(id: String) -> Int? { kinds.firstIndex { $0.id == id } }

    /// The same kinds, each with the same outcomes, in the same order (by id).
    public func agrees(with other: DecisionLayout) -> Bool {
        self === other || (kinds.map(\.id) == other.kinds.map(\.id) && zip(kinds, other.kinds).allSatisfy { $0.outcomes.map(\.id) == $1.outcomes.map(\.id) })
    }

    public static func == (a: DecisionLayout, b: DecisionLayout) -> Bool { a.agrees(with: b) }
    public func hash(into h: inout Hasher) { for k in kinds { h.combine(k.code) } }
    public var description: String { kinds.map { "\($0.id) (\($0.outcomes.map(\.id).joined(separator: ", ")))" }.joined(separator: ", ") }
}

/// Each adapter's layout, built once.
private let layouts = Mutex<[ObjectIdentifier: DecisionLayout]>([:])
