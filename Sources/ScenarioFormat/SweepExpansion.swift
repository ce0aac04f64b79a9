import RulesCore

/// Turning a `sweep:` grid into experiment arms (issue 5): each grid point is an arm named after its values,
/// run on the same people as the control arm.
extension SweepSpec {
    /// One grid point: the value of every swept key path.
    public typealias Point = [(keyPath: String, value: ParameterValue)]

    /// The most grid points (arms) a sweep may have: far beyond any experiment worth running, and low enough that
    /// expanding the grid stays cheap (a 1000 × 1000 grid fits in a few kilobytes of YAML).
    public static let maxPoints = 10_000

    /// The grid's units in order: the zip groups (moving in lock-step) and the ungrouped axes, in the order their
    /// first key path is written.
    var units: [[Axis]] {
        var units: [[Axis]] = []
        var placed: Set<String> = []
        for axis in axes where !placed.contains(axis.keyPath) {
            if let group = zip.first(where: { $0.contains(axis.keyPath) }) {
                let members = group.compactMap { k in axes.first { $0.keyPath == k } }
                units.append(members)
                placed.formUnion(group)
            } else {
                units.append([axis])
                placed.insert(axis.keyPath)
            }
        }
        return units
    }

    /// The number of grid points, without building them (`Int.max` when that overflows).
    public var pointCount: Int {
        guard !axes.isEmpty else { return 0 }
        var count = 1
        for unit in units {
            let (product, overflow) = count.multipliedReportingOverflow(by: unit.map(\.values.count).min() ?? 0)
            if overflow { return .max }
            count = product
        }
        return count
    }

    /// The grid in order. Units are the zip groups (moving in lock-step) and the ungrouped axes, in the order
    /// their first key path is written; the first unit varies slowest (like nested loops in reading order).
    public var points: [Point] {
        guard !axes.isEmpty else { return [] }
        var result: [Point] = [[]]
        for unit in units {
            let n = unit.map(\.values.count).min() ?? 0
            result = result.flatMap { prefix in
                (0..<n).map { i in prefix + unit.map { (keyPath: $0.keyPath, value: $0.values[i]) } }
            }
        }
        return result
    }

    /// The arm name of a grid point, e.g. `monthly_purchase_cap=3;pro_included_per_month=0`: each key path by its
    /// last component (in full where two swept key paths share a last component), numbers in shortest form,
    /// joined by `;` (no comma, so CSV cells need no quoting).
    public func armName(_ point: Point) -> String {
        let last = axes.map { $0.keyPath.split(separator: ".").last.map(String.init) ?? $0.keyPath }
        return point.map { p in
            let short = p.keyPath.split(separator: ".").last.map(String.init) ?? p.keyPath
            let label = last.filter { $0 == short }.count > 1 ? p.keyPath : short
            let value: String
            if case .number(let d) = p.value {
                value = d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : formatNumber(d)
            } else {
                value = p.value.description
            }
            return "\(label)=\(value)"
        }.joined(separator: ";")
    }
}

extension PopulationSpec {
    /// This population with a behaviour parameter fixed for one persona (or for every persona when `persona` is nil).
    /// Returns nil when the named persona is not in the mix.
    func settingBehaviour(_ parameter: String, to value: Double, persona: String?) -> PopulationSpec? {
        var p = self
        var found = persona == nil
        for i in p.personas.indices where persona == nil || p.personas[i].name == persona {
            p.personas[i].params[parameter] = .fixed(value)
            found = true
        }
        return found ? p : nil
    }
}
