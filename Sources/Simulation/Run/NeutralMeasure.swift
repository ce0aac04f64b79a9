import Behavior
import Reports
import RulesCore

/// A product-neutral measure besides the life's own figures (pickups, sessions, target-app time, urges, battery,
/// retention, money): a per-person count a person process books for every person, treated or not — the things to do
/// of `TaskProcess` (issue 29) the first. Declared once as a value with an id (issue 42); `ComparisonSums` holds one
/// count per measure of `NeutralMeasure.all` and writes them by id, so a new measure does not change the shard
/// format, and the KPIs on it (`NeutralKPI`) name it by id.
public struct NeutralMeasure: Sendable, Hashable, CustomStringConvertible {
    /// The id in shard files and validation messages.
    public let id: String
    /// What a count of this measure can be at most, given the person's other sums (a forged shard's check): the set
    /// it is a subset of and the set's name; nil for a per-person-day count with no other bound.
    public let within: (@Sendable (ComparisonSums) -> (set: Int, name: String))?
    /// FNV-1a 64 of `id` (compared instead of the string).
    let code: UInt64

    public init(_ id: String, within: (@Sendable (ComparisonSums) -> (set: Int, name: String))? = nil) {
        self.id = id
        self.within = within
        code = decisionCode(id)
    }

    public static func == (a: Self, b: Self) -> Bool { a.code == b.code && a.id == b.id }
    public func hash(into h: inout Hasher) { h.combine(code) }
    public var description: String { id }

    /// Every neutral measure, in the order `ComparisonSums` holds them: those the standard person processes declare
    /// (`MeasuredPersonProcess.neutralMeasures`), in their order.
    public static let all: [NeutralMeasure] = PersonProcesses.standard.flatMap { ($0 as? any MeasuredPersonProcess.Type)?.neutralMeasures ?? [] }

    /// The position of `m` in `all` (a short scan; measures are booked once a life, read once a replication).
    static func index(of m: NeutralMeasure) -> Int {
        let c = m.code
        guard let i = all.firstIndex(where: { $0.code == c }) else { preconditionFailure("neutral measure '\(m.id)' is not in NeutralMeasure.all") }
        return i
    }
}

/// The counts of `NeutralMeasure.all` for one person or group: dense in memory, sparse and by id in a shard file —
/// `[{"measure":"tasks_done","value":12},…]` — where an id this Habitat does not know is kept aside for the
/// shard's check to refuse by name (`ComparisonAccumulator.validate`).
public struct NeutralCounts: Sendable, Hashable, Codable {
    var values = [Int](repeating: 0, count: NeutralMeasure.all.count)
    /// Ids read from a shard that are not measures of this Habitat (always empty in a run).
    var unknown: [String] = []

    public init() {}

    public subscript(_ m: NeutralMeasure) -> Int {
        get { values[NeutralMeasure.index(of: m)] }
        set { values[NeutralMeasure.index(of: m)] = newValue }
    }

    public mutating func merge(_ o: NeutralCounts) {
        for i in values.indices { values[i] += o.values[i] }
    }

    struct Entry: Codable {
        var measure: String
        var value: Int
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(zip(NeutralMeasure.all, values).compactMap { m, v in v == 0 ? nil : Entry(measure: m.id, value: v) })
    }

    /// - Throws: `DecodingError` when a measure is named twice.
    public init(from decoder: any Decoder) throws {
        for e in try decoder.singleValueContainer().decode([Entry].self) {
            guard let i = NeutralMeasure.all.firstIndex(where: { $0.id == e.measure }) else {
                unknown.append(e.measure)
                continue
            }
            guard values[i] == 0 else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "neutral measure '\(e.measure)' twice"))
            }
            values[i] = e.value
        }
    }
}

/// A person process that books product-neutral measures (issue 42): it declares them and their KPIs beside itself, and
/// counts them from its mind at each life's end, for every person, treated or not. Generic code lists none of them.
public protocol MeasuredPersonProcess: PersonProcess {
    /// The measures it books (ids unique among all processes').
    static var neutralMeasures: [NeutralMeasure] { get }
    /// The KPIs on them (`ComparisonKPIs.neutral`).
    static var neutralKPIs: [NeutralKPI] { get }
    /// Adds one life's counts from the person's mind at the life's end.
    static func book(_ mind: Mind, into counts: inout NeutralCounts, horizonEnd: Instant)
}

extension NeutralKPI {
    /// The KPIs the standard person processes declare, in their order.
    static let processKPIs: [NeutralKPI] = PersonProcesses.standard.flatMap { ($0 as? any MeasuredPersonProcess.Type)?.neutralKPIs ?? [] }
}

/// A product-neutral KPI (`ComparisonKPIs.neutral`): a ratio of two of a group's sums, each named — a life's own
/// figure or a `NeutralMeasure` by id — so a process's KPIs are declared beside its measures, not by position.
public struct NeutralKPI: Sendable {
    /// One of `ComparisonSums`' figures.
    public enum Figure: Sendable, Equatable {
        case personDays, pickups, sessions, sessionsUnder30s, targetAppMinutes, urgesActed, batteryPct
        /// A `NeutralMeasure`, by id.
        case measure(String)

        func value(_ s: ComparisonSums) -> Double {
            switch self {
            case .personDays: return Double(s.personDays)
            case .pickups: return Double(s.pickups)
            case .sessions: return Double(s.sessions)
            case .sessionsUnder30s: return Double(s.sessionsUnder30s)
            case .targetAppMinutes: return Double(s.targetAppMs) / 60_000
            case .urgesActed: return Double(s.urgesActed)
            case .batteryPct: return Double(s.batteryMicroPct) / 1_000_000
            case .measure(let id):
                guard let i = NeutralMeasure.all.firstIndex(where: { $0.id == id }) else { preconditionFailure("no neutral measure '\(id)'") }
                return Double(s.measures.values[i])
            }
        }
    }

    public let definition: KPIDefinition
    public let numerator: Figure
    public let denominator: Figure

    public init(_ definition: KPIDefinition, _ numerator: Figure, per denominator: Figure) {
        self.definition = definition
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The KPI's value for `s`: NaN where the denominator is 0.
    func value(_ s: ComparisonSums) -> Double {
        let d = denominator.value(s)
        return d > 0 ? numerator.value(s) / d : .nan
    }
}
