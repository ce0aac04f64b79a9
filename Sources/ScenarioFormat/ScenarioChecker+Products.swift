import Foundation
import RulesCore
import Yams

/// Products as arms (issue 28): which products a scenario's arms run, and the checks across `product`, `products`
/// and `arms` that no single key can make. Runs after the schema walk, over the same nodes, so every issue is located.
extension ScenarioChecker {
    /// The distinct products of the arms the scenario will have, in arm order, from the file as written: the explicit
    /// arms (`product:`, else `scenario`), else one per `products:` entry, else the lone control arm of `scenario`; then
    /// the sweep's points (its `product` axis values, else `scenario`). Product ids that are not registered are left out
    /// (they are reported where they are written).
    func armProducts(_ top: Node.Mapping, scenario: Product) -> [Product] {
        func valid(_ id: String) -> Bool { products.isEmpty || products.contains(id) }
        var list: [Product] = []
        if case .sequence(let arms)? = top["arms"], !arms.isEmpty {
            for arm in arms {
                if case .scalar(let named)? = arm.mapping?["product"] {
                    if valid(named.string) { list.append(Product(rawValue: named.string)) }
                } else {
                    list.append(scenario)
                }
            }
        } else if case .sequence(let listed)? = top["products"], !listed.isEmpty {
            for case .scalar(let named) in listed where valid(named.string) { list.append(Product(rawValue: named.string)) }
        } else {
            list.append(scenario)
        }
        if case .mapping(let sweep)? = top["sweep"], sweep.contains(where: { $0.key.scalar?.string != "zip" }) {
            if case .sequence(let values)? = sweep["product"] {
                for case .scalar(let named) in values where valid(named.string) { list.append(Product(rawValue: named.string)) }
            } else {
                list.append(scenario)
            }
        }
        var seen = Set<Product>()
        return list.filter { seen.insert($0).inserted }
    }

    /// `products:` makes the arms, so it cannot go with `arms:`; and the scenario's `product:` (from the file) must be
    /// one of them. A `product` from the command line is checked by the loader.
    mutating func checkProductList(_ root: Node?, productFromCommandLine: Bool) {
        guard case .mapping(let top)? = root,
              let (key, value) = top.first(where: { $0.key.scalar?.string == "products" }),
              case .sequence(let listed) = value else { return }
        if top["arms"] != nil {
            report(.invalid, KeyPath.root.appending("products"), at: key.mark,
                   "not allowed together with arms: (products: makes one arm per product)",
                   allowed: "either products: [a, b, …], or arms: with `product:` on each arm that runs another product")
        }
        let ids = listed.compactMap { $0.scalar?.string }
        if !productFromCommandLine, case .scalar(let named)? = top["product"], products.isEmpty || products.contains(named.string),
           !ids.contains(named.string) {
            report(.outOfRange, KeyPath.root.appending("product"), at: named.mark,
                   "product '\(named.string.echoed())' is not one of products: (the scenario's product is one of its arms)", value: named.string,
                   allowed: "one of " + ids.joined(separator: ", "))
        }
    }
}
