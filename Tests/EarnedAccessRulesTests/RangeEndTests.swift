import Testing
import HabitatTestSupport
import RulesCore
@testable import EarnedAccessRules

/// Every catalogue value at both ends of its range (the others at their defaults) keeps every invariant over short
/// random sequences: no parameter a scenario may set can crash the engine or break a rule.
@Suite("Earned Access parameters at their range ends")
struct RangeEndTests {
    static var cases: [(String, ParameterValue)] {
        var out: [(String, ParameterValue)] = []
        for p in EarnedAccessParameters.catalogue {
            switch p.kind {
            case .integer(let r): out += [(p.keyPath, .int(r.lowerBound)), (p.keyPath, .int(r.upperBound))]
            case .number(let r): out += [(p.keyPath, .number(r.lowerBound)), (p.keyPath, .number(r.upperBound))]
            case .boolean: out += [(p.keyPath, .bool(false)), (p.keyPath, .bool(true))]
            case .choice(let c): out += c.map { (p.keyPath, .text($0)) }
            case .timeOfDay: out += [(p.keyPath, .text("00:00")), (p.keyPath, .text("02:30")), (p.keyPath, .text("23:59"))]
            case .weekdays: break
            }
        }
        return out
    }

    @Test("each range end keeps every invariant over 4 seeds × 150 random inputs")
    func rangeEnds() {
        for (key, value) in Self.cases {
            let sweep = PropertyTests.sweep(of: EarnedAccessEngine.self, { $0 }, parameters: params([key: value]), steps: 150,
                                            properties: PropertyTests.properties)
            for seed: UInt64 in [1, 2, 3, 4] {
                if let f = sweep.run(seed: seed).failure { Issue.record(Comment(rawValue: "\(key) = \(value):\n\(f)")) }
            }
        }
    }
}
