import RulesCore

/// Behaviour parameters a product declares in its own folder (issue 42: a product brings its own words), placed in
/// the assembled catalogue right after the generic key `after` (nil: at the end), so `validate --explain` shows a
/// product's parameter beside the generic ones it refines (an empty wallet's frustration beside a refused shield's).
/// Groups anchored on the same key follow it in registry order.
public struct BehaviorParameterGroup: Sendable {
    /// The generic key (`BehaviorCatalogue.parameters`) the group follows; nil: after every generic parameter.
    public var after: String?
    public var parameters: [RuleParameter]

    public init(after: String? = nil, _ parameters: [RuleParameter]) {
        self.after = after
        self.parameters = parameters
    }
}

/// Two declarations of one behaviour-parameter key (two products, a product and the generic catalogue), or a group
/// anchored on a key that is not generic: the catalogue cannot be assembled.
public struct BehaviorCatalogueConflict: Error, Equatable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// `owner` declares a key the generic catalogue has.
        case redeclaresGeneric
        /// `owner` declares a key `other` declared first.
        case declaredTwice(other: String)
        /// `owner` anchors a group on a key that is not a generic parameter.
        case unknownAnchor
    }
    public let owner: String
    public let key: String
    public let kind: Kind

    public var description: String {
        switch kind {
        case .redeclaresGeneric: "\(owner) declares the behaviour parameter '\(key)', which the generic catalogue has"
        case let .declaredTwice(other): "\(owner) declares the behaviour parameter '\(key)', which \(other) declares too"
        case .unknownAnchor: "\(owner) places behaviour parameters after '\(key)', which is not a generic behaviour parameter"
        }
    }
}

extension BehaviorCatalogue {
    /// Every behaviour parameter a scenario may use: `generic`, with each owner's groups (products, in registry order)
    /// placed after their anchors. A key is declared once: a product may not redeclare a generic key nor one another
    /// product declared (`BehaviorCatalogueConflict`).
    public static func assembled(_ owners: [(owner: String, groups: [BehaviorParameterGroup])],
                                 generic: [RuleParameter] = parameters) throws(BehaviorCatalogueConflict) -> [RuleParameter] {
        let genericKeys = Set(generic.map(\.keyPath))
        var declaredBy: [String: String] = [:]
        var after: [String: [RuleParameter]] = [:]
        var atEnd: [RuleParameter] = []
        for (owner, groups) in owners {
            for g in groups {
                if let a = g.after, !genericKeys.contains(a) { throw BehaviorCatalogueConflict(owner: owner, key: a, kind: .unknownAnchor) }
                for p in g.parameters {
                    if genericKeys.contains(p.keyPath) { throw BehaviorCatalogueConflict(owner: owner, key: p.keyPath, kind: .redeclaresGeneric) }
                    if let other = declaredBy[p.keyPath] {
                        throw BehaviorCatalogueConflict(owner: owner, key: p.keyPath, kind: .declaredTwice(other: other))
                    }
                    declaredBy[p.keyPath] = owner
                }
                if let a = g.after { after[a, default: []] += g.parameters } else { atEnd += g.parameters }
            }
        }
        var out: [RuleParameter] = []
        for p in generic {
            out.append(p)
            out += after[p.keyPath] ?? []
        }
        return out + atEnd
    }
}

extension RuleParameter {
    /// A behaviour parameter as a product declares it in its groups (`.behavior("key", value, range, "summary")`):
    /// `BehaviorCatalogue.parameter`, so a fitted default replaces the component value and cites its fit.
    public static func behavior(_ key: String, _ componentValue: Double, _ range: ClosedRange<Double>, _ summary: String,
                                _ source: ParameterSource = BehaviorCatalogue.defaultSource) -> RuleParameter {
        BehaviorCatalogue.parameter(key, componentValue, range, summary, source)
    }
}
