import RulesCore

/// A position in a scenario: map keys and list indices, printed as `population.personas[1].share`.
struct KeyPath: CustomStringConvertible {
    enum Part { case key(String), index(Int) }
    var parts: [Part] = []

    static let root = KeyPath()
    func appending(_ key: String) -> KeyPath { KeyPath(parts: parts + [.key(key)]) }
    func appending(_ index: Int) -> KeyPath { KeyPath(parts: parts + [.index(index)]) }

    var description: String {
        var s = ""
        for p in parts {
            switch p {
            case .key(let k): s += s.isEmpty ? k.echoed() : ".\(k.echoed())"   // a 100 000-character key is cut
            case .index(let i): s += "[\(i)]"
            }
        }
        return s
    }
}
