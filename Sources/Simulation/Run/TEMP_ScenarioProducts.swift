import RulesCore
import ScenarioFormat
// TEMPORARY until issue28-scenario merges: remove.
extension ResolvedScenario {
    public func product(of arm: ResolvedArm) -> Product { product }
    public var products: [Product] { [product] }
    public var isMultiProduct: Bool { products.count > 1 }
}
