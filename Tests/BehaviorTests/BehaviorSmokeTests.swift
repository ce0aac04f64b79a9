import Testing
@testable import Behavior

@Test func behaviorTargetLinks() { _ = BehaviorModel.self }
