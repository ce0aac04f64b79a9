import Behavior
import RulesCore
import Simulation

/// The toy's own behaviour parameter, catalogued in its folder (issue 42).
extension ToyAdapter {
    public static var behaviorParameterGroups: [BehaviorParameterGroup] {
        [BehaviorParameterGroup(after: "churn.base_hazard", [
            .behavior("toy.keep_probability", 0.7, 0...1, "the chance a person who opens the toy notebook keeps a note",
                      .assumption("a toy's value, for the seam test")),
        ])]
    }

    public static func constants(_ values: BehaviorValues) -> ToyConstants { ToyConstants(keepProbability: values["toy.keep_probability"]) }
}

/// The toy's constants, read once per world.
public struct ToyConstants: Sendable, Equatable {
    public var keepProbability: Double
}
