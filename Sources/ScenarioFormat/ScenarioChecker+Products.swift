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
                   allowed: "one of " + AllowedList.text(ids))
        }
    }
}

/// Issue 40: every problem at once, located — products without an engine and arm lists past the limit are checked
/// with the schema's issues, not after them.
extension ScenarioChecker {
    /// Reports, at each place it is written, every product that is registered but has no rule engine in this version
    /// (planned: `ProductListing.hasEngine` false): the scenario's `product:` (its key), each arm's `product:` (its key),
    /// each `products:` entry and each value of a `product` sweep axis. Unknown ids are reported by the schema walk.
    mutating func checkPlannedProducts(_ root: Node?, productFromCommandLine: Bool) {
        guard case .mapping(let top)? = root, let listings = registry?.products, !listings.isEmpty else { return }
        let planned = Set(listings.filter { !$0.hasEngine }.map(\.id.rawValue))
        guard !planned.isEmpty else { return }
        let withEngines = listings.filter(\.hasEngine).map(\.id.rawValue)
        func flag(_ id: String, _ path: KeyPath, _ mark: Mark?) {
            guard planned.contains(id) else { return }
            report(.outOfRange, path, at: mark,
                   "product '\(id.echoed())' has no rule engine in this version; products with engines: "
                   + AllowedList.text(withEngines, seeAlso: "habitat list"), value: id)
        }
        /// The key node and the value of `key` in `map`.
        func entry(_ key: String, in map: Node.Mapping) -> (key: Node, value: Node)? {
            map.first(where: { $0.key.scalar?.string == key }).map { ($0.key, $0.value) }
        }
        if !productFromCommandLine, let (key, value) = entry("product", in: top), case .scalar(let named) = value {
            flag(named.string, KeyPath.root.appending("product"), key.mark)
        }
        if let (_, value) = entry("products", in: top), case .sequence(let listed) = value {
            for (i, item) in listed.enumerated() {
                if case .scalar(let named) = item { flag(named.string, KeyPath.root.appending("products").appending(i), item.mark) }
            }
        }
        if let (_, value) = entry("arms", in: top), case .sequence(let arms) = value {
            for (i, arm) in arms.enumerated() {
                guard case .mapping(let m) = arm, let (key, v) = entry("product", in: m), case .scalar(let named) = v else { continue }
                flag(named.string, KeyPath.root.appending("arms").appending(i).appending("product"), key.mark)
            }
        }
        if let (_, value) = entry("sweep", in: top), case .mapping(let sweep) = value,
           let (_, axis) = entry("product", in: sweep), case .sequence(let values) = axis {
            for (i, item) in values.enumerated() {
                if case .scalar(let named) = item { flag(named.string, KeyPath.root.appending("sweep").appending("product").appending(i), item.mark) }
            }
        }
    }

    /// The arm list (`arms:`, or `products:`, which makes one arm per entry) holds at most `maxArms` arms: a longer one
    /// is reported at its key with its length and the limit (not as a sweep: there may be none). A sweep's points are
    /// counted with the arms by the loader.
    mutating func checkArmCount(_ root: Node?, maxArms: Int, largeMaxArms: Int) {
        guard case .mapping(let top)? = root else { return }
        for listKey in ["arms", "products"] {
            guard let pair = top.first(where: { $0.key.scalar?.string == listKey }), case .sequence(let items) = pair.value,
                  items.count > maxArms else { continue }
            report(.outOfRange, KeyPath.root.appending(listKey), at: pair.key.mark,
                   "the \(listKey == "arms" ? "arm" : "product") list has \(items.count) \(listKey == "arms" ? "arms" : "entries (one arm each)"): "
                   + "more arms than one run may hold", value: String(items.count),
                   allowed: "at most \(maxArms) arms in all; split them into several scenarios"
                   + (maxArms < largeMaxArms ? ", or pass --allow-large (up to \(largeMaxArms))" : ""))
        }
    }
}
