import Behavior
import RulesCore

/// The constants of a product that declares none (`ProductAdapter.Constants`'s default).
public struct NoProductConstants: Sendable, Hashable {
    public init() {}
}

extension ProductAdapter {
    public static var behaviorParameterGroups: [BehaviorParameterGroup] { [] }

    /// The product's own behaviour parameters, in declaration order (`behaviorParameterGroups`, flattened).
    public static var behaviorParameters: [RuleParameter] { behaviorParameterGroups.flatMap(\.parameters) }

    /// The behaviour catalogue of a world of this product: the generic parameters, then the product's own (what
    /// `World.behavior` holds values of).
    public static var behaviorCatalogue: [RuleParameter] { BehaviorCatalogue.parameters + behaviorParameters }
}

extension ProductAdapter where Constants == NoProductConstants {
    public static func constants(_ values: BehaviorValues) -> NoProductConstants { NoProductConstants() }
}
