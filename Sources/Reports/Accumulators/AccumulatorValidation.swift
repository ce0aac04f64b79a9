/// A figure of an accumulator read from outside the process (a shard record, `habitat merge`) that no run can
/// produce: the field's path (`retention[2026-W02/all/in_use].active[7]`) and what is wrong with it
/// (`522 > eligible 22`).
public struct AccumulatorInvalid: Error, CustomStringConvertible, Sendable {
    public let field: String
    public let problem: String
    public init(_ field: String, _ problem: String) { self.field = field; self.problem = problem }
    public var description: String { "\(field): \(problem)" }
}

/// An accumulator that can check, after decoding, that its figures are ones its people could have produced: counts
/// non-negative, subsets within their sets (active ≤ eligible), sizes that fit the horizon, histogram bins that add
/// up to their count, and every figure within `AccumulatorBounds` — bounds that also make every later sum (the
/// merge of the shards, the pooling of replications, a report's totals) free of overflow.
///
/// Only figures read from a file are checked (`habitat merge`); the run's own folds of 64-person blocks merge
/// accumulators the run built itself and check nothing.
public protocol ValidatedAccumulator {
    /// Throws `AccumulatorInvalid` naming the first figure under `path` that breaks an invariant or a bound.
    func validate(_ bounds: AccumulatorBounds, at path: String) throws(AccumulatorInvalid)
}

/// The most a record's figures may hold: counts of people at most the record's people; every other count (events,
/// pickups, milliseconds, millionths), and every sum of such counts over a family of cells (months, sources,
/// personas, devices), at most `countCap` — the record's people × the horizon's days × a per-person-day ceiling;
/// money at most `moneyCap` in magnitude, likewise.
///
/// The per-person-day ceilings (2^28 of a count — more than the milliseconds in a day, 2^40 micro-dollars —
/// about a million dollars) are also cut to 2^59 ÷ the whole run's person-days (every replication, every person
/// of the arm, every day), so the records of a whole run add up to at most 2^59 per figure: no merge, pooling or
/// report total of a handful of figures can overflow 64 bits, whatever numbers a forged record holds.
public struct AccumulatorBounds: Sendable {
    /// People in the record.
    public let people: Int
    /// Days from the first to the horizon (horizon days + 1: the install day and its last day both count).
    public let days: Int
    /// The horizon in days (sizes of per-day arrays).
    public let horizonDays: Int
    public let countCap: Int
    public let moneyCap: Int64

    /// Ceiling of a count per person-day.
    public static let countPerPersonDay = 1 << 28
    /// Ceiling of micro-dollars per person-day.
    public static let microsPerPersonDay = 1 << 40
    /// Ceiling of any figure over a whole run.
    public static let runCeiling = 1 << 59

    /// Bounds of a record of `people` of an arm of `armPeople`, in a run of `replications` and `horizonDays`.
    /// `people` must already be known to lie within `0...armPeople`.
    public init(people: Int, armPeople: Int, replications: Int, horizonDays: Int) {
        self.people = people
        self.horizonDays = horizonDays
        days = horizonDays + 1
        let (runDays, o1) = max(1, armPeople).multipliedReportingOverflow(by: days)
        let (runPersonDays, o2) = runDays.multipliedReportingOverflow(by: max(1, replications))
        let share = o1 || o2 ? 0 : Self.runCeiling / runPersonDays
        let perCount = min(Self.countPerPersonDay, share), perMicros = min(Self.microsPerPersonDay, share)
        // people × days × share ≤ runCeiling when people ≤ armPeople: no overflow.
        countCap = people * days * perCount
        moneyCap = Int64(people * days * perMicros)
    }

    /// Bounds for tests and tools: a record of `people` over `horizonDays`, one replication, no other shard.
    public init(people: Int, horizonDays: Int) { self.init(people: people, armPeople: people, replications: 1, horizonDays: horizonDays) }

    /// A count: 0…`countCap`.
    @inlinable public func count(_ v: Int, _ field: @autoclosure () -> String) throws(AccumulatorInvalid) {
        if v < 0 { throw AccumulatorInvalid(field(), "\(v) is negative") }
        if v > countCap {
            throw AccumulatorInvalid(field(), "\(v) is more than \(people) people can reach in \(days) days (at most \(countCap))")
        }
    }

    /// A count of people: 0…`people`.
    @inlinable public func people(_ v: Int, _ field: @autoclosure () -> String) throws(AccumulatorInvalid) {
        if v < 0 { throw AccumulatorInvalid(field(), "\(v) is negative") }
        if v > people { throw AccumulatorInvalid(field(), "\(v) is more than the record's \(people) people") }
    }

    /// A count of a subset: 0…`set`, `set` already checked.
    @inlinable public func subset(_ v: Int, of set: Int, _ setName: @autoclosure () -> String, _ field: @autoclosure () -> String) throws(AccumulatorInvalid) {
        if v < 0 { throw AccumulatorInvalid(field(), "\(v) is negative") }
        if v > set { throw AccumulatorInvalid(field(), "\(v) > \(setName()) \(set)") }
    }

    /// An amount of micro-dollars: 0…`moneyCap`, or (`signed`) −`moneyCap`…`moneyCap`.
    @inlinable public func micros(_ v: Int64, signed: Bool = false, _ field: @autoclosure () -> String) throws(AccumulatorInvalid) {
        if !signed && v < 0 { throw AccumulatorInvalid(field(), "\(v) micro-dollars is negative") }
        if v.magnitude > UInt64(moneyCap) {
            throw AccumulatorInvalid(field(), "\(v) micro-dollars is more than \(people) people can pay in \(days) days (at most \(moneyCap))")
        }
    }

    /// A family's running total (one figure summed over months, sources, personas, devices …): each part within
    /// its bound, the total within the same bound (so it cannot overflow either).
    public struct Total {
        public let cap: Int
        public let name: String
        public private(set) var sum = 0
        public init(cap: Int, name: String) { self.cap = cap; self.name = name }
        /// Adds a part already checked to lie within ±`cap`.
        public mutating func add(_ v: Int) throws(AccumulatorInvalid) {
            sum += abs(v)
            if sum > cap { throw AccumulatorInvalid(name, "the cells add up to more than the bound \(cap)") }
        }
    }
    public func countTotal(_ name: String) -> Total { Total(cap: countCap, name: name) }
    public func moneyTotal(_ name: String) -> Total { Total(cap: Int(moneyCap), name: name) }

    /// An array whose size is fixed by the product or the horizon.
    @inlinable public func size(_ n: Int, _ expected: Int, _ field: @autoclosure () -> String) throws(AccumulatorInvalid) {
        if n != expected { throw AccumulatorInvalid(field(), "\(n) entries; this run has \(expected)") }
    }
}

/// What a counter of a `Counters` may hold (`CounterKey.bound`).
public enum CounterBound<Key> {
    /// Any count a person-day can produce (`AccumulatorBounds.count`).
    case perPersonDay
    /// A per-person flag summed to a count of people.
    case people
    /// A subset of another counter (checked on its own too).
    case atMost(Key)
    /// Micro-dollars that may be negative (refunds).
    case signedMicros
}

extension CounterKey {
    /// Every counter is a per-person-day count unless its key says otherwise.
    public var bound: CounterBound<Self> { .perPersonDay }
}

extension Counters: ValidatedAccumulator {
    public func validate(_ b: AccumulatorBounds, at path: String) throws(AccumulatorInvalid) {
        try b.size(values.count, Key.allCases.count, path)
        for key in Key.allCases {
            let v = values[key.rawValue]
            switch key.bound {
            case .perPersonDay: try b.count(v, "\(path).\(key)")
            case .people: try b.people(v, "\(path).\(key)")
            case .atMost(let set): try b.subset(v, of: values[set.rawValue], "\(set)", "\(path).\(key)")
            case .signedMicros: try b.micros(Int64(v), signed: true, "\(path).\(key)")
            }
        }
    }
}
