import RulesCore

extension ParameterValues {
    /// A catalogue's defaults with about half its values drawn inside their ranges, for the property sweeps' "one seed
    /// in five" parameter sets: an integer at one of its ends three times in ten, else near its lower end; a number
    /// on a hundredth of its range; a choice or a flag at random; a time of day from `timesOfDay` (left at its
    /// default when empty); weekdays left at their default.
    public static func random(from catalogue: [RuleParameter], _ r: inout SplitMix64, timesOfDay: [String] = []) -> ParameterValues {
        var v = ParameterValues(defaultsOf: catalogue)
        for p in catalogue where r.chance(0.5) {
            switch p.kind {
            case .integer(let range): v[p.keyPath] = .int(r.chance(0.3) ? r.pick([range.lowerBound, range.upperBound]) : range.lowerBound + r.below(min(range.count, 200)))
            case .number(let range): v[p.keyPath] = .number(range.lowerBound + (range.upperBound - range.lowerBound) * Double(r.below(101)) / 100)
            case .boolean: v[p.keyPath] = .bool(r.chance(0.5))
            case .choice(let c): v[p.keyPath] = .text(r.pick(c))
            case .timeOfDay: if !timesOfDay.isEmpty { v[p.keyPath] = .text(r.pick(timesOfDay)) }
            case .weekdays: break
            }
        }
        return v
    }
}
