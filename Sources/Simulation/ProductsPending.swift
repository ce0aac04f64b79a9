import RulesCore
/// Scroll Off's rule catalogue, wired to the engine when `ScrollOffRules` lands.
let scrollOffParameters: [RuleParameter]? = nil
