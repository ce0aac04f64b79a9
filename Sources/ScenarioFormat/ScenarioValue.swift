import RulesCore

/// A checked value from a scenario file: the typed tree validation produces and defaults are written in.
///
/// Maps keep their keys in order, so that everything derived from a tree (the resolved YAML, its hash) is
/// deterministic.
public indirect enum ScenarioValue: Hashable, Sendable {
    /// A whole number.
    case int(Int)
    /// A whole number that may exceed `Int.max` (seeds).
    case unsigned(UInt64)
    /// A number.
    case number(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// Text: names, words, zone ids, paths.
    case text(String)
    /// A calendar date.
    case date(LocalDate)
    /// A product rule-parameter value (leaves of `rules`, sweep values).
    case parameter(ParameterValue)
    /// A list.
    case list([ScenarioValue])
    /// A map, keys in order.
    case map([ScenarioEntry])

    /// The value under `key` when this is a map.
    public subscript(_ key: String) -> ScenarioValue? {
        guard case .map(let entries) = self else { return nil }
        return entries.first(where: { $0.key == key })?.value
    }

    /// Entries of a map (empty otherwise).
    public var entries: [ScenarioEntry] { if case .map(let e) = self { return e }; return [] }
    /// Items of a list (empty otherwise).
    public var items: [ScenarioValue] { if case .list(let l) = self { return l }; return [] }

    /// Integer value (also from an unsigned that fits).
    public var intValue: Int? {
        switch self {
        case .int(let i): return i
        case .unsigned(let u): return Int(exactly: u)
        case .parameter(let p): return p.intValue
        default: return nil
        }
    }
    /// Numeric value.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .unsigned(let u): return Double(u)
        case .number(let d): return d
        case .parameter(let p): return p.doubleValue
        default: return nil
        }
    }
    /// Text value.
    public var textValue: String? {
        switch self {
        case .text(let s): return s
        case .parameter(let p): return p.textValue
        default: return nil
        }
    }

    /// A copy with `value` set under `key` (replacing an existing entry in place, or appending).
    func setting(_ key: String, to value: ScenarioValue) -> ScenarioValue {
        var e = entries
        if let i = e.firstIndex(where: { $0.key == key }) { e[i].value = value } else { e.append(ScenarioEntry(key, value)) }
        return .map(e)
    }
}

/// One key and value of a `ScenarioValue.map`.
public struct ScenarioEntry: Hashable, Sendable {
    /// The key (a dotted key path inside `rules` and `sweep`).
    public var key: String
    /// Its value.
    public var value: ScenarioValue
    /// Creates an entry.
    public init(_ key: String, _ value: ScenarioValue) { self.key = key; self.value = value }
}
