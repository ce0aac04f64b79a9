/// A value a rule parameter can take in a scenario file.
public enum ParameterValue: Hashable, Sendable, CustomStringConvertible {
    case bool(Bool)
    case int(Int)
    case number(Double)
    case text(String)
    case list([ParameterValue])

    public var description: String {
        switch self {
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .number(let d): return d == d.rounded() && abs(d) < 1e15 ? String(format2: d) : String(d)
        case .text(let s): return s
        case .list(let l): return "[" + l.map(\.description).joined(separator: ", ") + "]"
        }
    }

    public var intValue: Int? { if case .int(let i) = self { return i }; return nil }
    public var doubleValue: Double? {
        switch self { case .int(let i): return Double(i); case .number(let d): return d; default: return nil }
    }
    public var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }
    public var textValue: String? { if case .text(let s) = self { return s }; return nil }
    public var listValue: [ParameterValue]? { if case .list(let l) = self { return l }; return nil }
}

extension String {
    /// A double with at least one decimal place (`5.0`), so YAML reads it back as a float.
    init(format2 d: Double) { self = String(d) }
}

/// Where a rule parameter's default comes from, shown by `habitat validate --explain`.
public enum ParameterSource: Hashable, Sendable, CustomStringConvertible {
    /// Stated by a product's seed document: file and section, e.g. `000_5f03618b73c6ae9a.txt §3.1`.
    case seed(file: String, section: String)
    /// A published figure (behavioural calibration), e.g. `Andrews et al. 2015`.
    case publication(String)
    /// The seed is silent or ambiguous: Habitat's choice, with the reasoning.
    case assumption(String)

    public var description: String {
        switch self {
        case let .seed(file, section): return "seed \(file) \(section)"
        case let .publication(p): return "publication: \(p)"
        case let .assumption(why): return "assumption: \(why)"
        }
    }
    /// True for `.assumption`.
    public var isAssumption: Bool { if case .assumption = self { return true }; return false }
}

/// The type and allowed range of a rule parameter.
public enum ParameterKind: Hashable, Sendable, CustomStringConvertible {
    case integer(ClosedRange<Int>)
    case number(ClosedRange<Double>)
    case boolean
    /// One of a fixed list of words.
    case choice([String])
    /// A wall-clock time `HH:MM`.
    case timeOfDay
    /// A list of weekday names (`mon` … `sun`).
    case weekdays

    /// "an integer in 0…5", "one of free, premium, pro", …
    public var description: String {
        switch self {
        case .integer(let r): return "an integer in \(r.lowerBound)…\(r.upperBound)"
        case .number(let r): return "a number in \(r.lowerBound)…\(r.upperBound)"
        case .boolean: return "true or false"
        case .choice(let c): return "one of " + c.joined(separator: ", ")
        case .timeOfDay: return "a time of day HH:MM"
        case .weekdays: return "a list of weekdays (mon … sun)"
        }
    }
}

/// The description of one rule parameter of a product engine: its key path in a scenario's `rules:` section,
/// its type and range, its default, and where that default comes from.
///
/// Engines publish a catalogue of these so that scenario validation, `validate --explain` and reports know every
/// parameter without the engine depending on the scenario format.
public struct RuleParameter: Hashable, Sendable {
    /// Dotted key path under `rules:`, snake_case, e.g. `tokens.monthly_purchase_cap`.
    public var keyPath: String
    /// Type and allowed range.
    public var kind: ParameterKind
    /// The default value.
    public var defaultValue: ParameterValue
    /// One line on what the parameter controls, with its unit.
    public var summary: String
    /// Where the default comes from.
    public var source: ParameterSource
    /// Whether the resolved scenario lists the parameter at its default. False for a parameter added after committed
    /// baselines were recorded (`paywall.mode`): a scenario lists it only where its value differs from the default, so
    /// a scenario at the default keeps the resolved text and hash it had before the parameter existed (as behaviour
    /// parameters do). `validate --explain` lists every parameter either way.
    public var listedWhenDefault: Bool

    public init(_ keyPath: String, _ kind: ParameterKind, default defaultValue: ParameterValue, _ summary: String, source: ParameterSource,
                listedWhenDefault: Bool = true) {
        self.keyPath = keyPath
        self.kind = kind
        self.defaultValue = defaultValue
        self.summary = summary
        self.source = source
        self.listedWhenDefault = listedWhenDefault
    }

    /// Checks a value against the kind; returns a problem text or nil when valid.
    public func problem(with value: ParameterValue) -> String? {
        switch (kind, value) {
        case (.integer(let r), .int(let i)): return r.contains(i) ? nil : "must be \(kind)"
        case (.number(let r), _):
            guard let d = value.doubleValue else { return "must be \(kind)" }
            return r.contains(d) ? nil : "must be \(kind)"
        case (.boolean, .bool): return nil
        case (.choice(let c), .text(let t)): return c.contains(t) ? nil : "must be \(kind)"
        case (.timeOfDay, .text(let t)): return LocalTimeOfDay(text: t) == nil ? "must be \(kind)" : nil
        case (.weekdays, .list(let l)):
            return l.allSatisfy({ $0.textValue.flatMap(Weekday.init(name:)) != nil }) ? nil : "must be \(kind)"
        default: return "must be \(kind)"
        }
    }
}

/// A complete set of rule-parameter values keyed by key path (every default filled in).
public struct ParameterValues: Hashable, Sendable {
    public private(set) var values: [String: ParameterValue]

    /// The defaults of a catalogue.
    public init(defaultsOf catalogue: [RuleParameter]) {
        values = Dictionary(uniqueKeysWithValues: catalogue.map { ($0.keyPath, $0.defaultValue) })
    }
    public init(_ values: [String: ParameterValue]) { self.values = values }

    public subscript(_ key: String) -> ParameterValue? {
        get { values[key] }
        set { values[key] = newValue }
    }
    /// Integer value (precondition: present and integral).
    public func int(_ key: String) -> Int { values[key]!.intValue ?? Int(values[key]!.doubleValue!) }
    /// Numeric value (precondition: present).
    public func double(_ key: String) -> Double { values[key]!.doubleValue! }
    public func bool(_ key: String) -> Bool { values[key]!.boolValue! }
    public func text(_ key: String) -> String { values[key]!.textValue! }
    public func money(_ key: String) -> Money { Money(usd: double(key)) }
    public func timeOfDay(_ key: String) -> LocalTimeOfDay { LocalTimeOfDay(text: text(key))! }
    public func weekdays(_ key: String) -> WeekdaySet {
        var set: WeekdaySet = []
        for v in values[key]!.listValue! { if let d = v.textValue.flatMap(Weekday.init(name:)) { set.insert(WeekdaySet(d)) } }
        return set
    }
}

extension RuleParameter {
    /// An integer parameter in `range` with default `value` (the catalogues' shorthand).
    public static func int(_ key: String, _ range: ClosedRange<Int>, _ value: Int, _ summary: String, _ source: ParameterSource) -> RuleParameter {
        RuleParameter(key, .integer(range), default: .int(value), summary, source: source)
    }

    /// A boolean parameter with default `value` (the catalogues' shorthand).
    public static func bool(_ key: String, _ value: Bool, _ summary: String, _ source: ParameterSource) -> RuleParameter {
        RuleParameter(key, .boolean, default: .bool(value), summary, source: source)
    }
}
