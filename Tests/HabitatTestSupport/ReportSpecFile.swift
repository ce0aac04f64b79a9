import Foundation

/// `docs/report-spec.json` merged with each product folder's fragment (`Sources/Products/<Name>/report-spec.json`,
/// issue 42), the one description of the CSV files a run writes (Notebooks/README.md, "One report
/// specification"), as the Swift tests read it to hold the writers to it: each file's columns and which products
/// write it when. Only the fields the tests check are decoded; units, meanings, targets and charts are the Python
/// readers' (Notebooks/test_report_spec.py checks those).
public struct ReportSpecFile: Decodable, Sendable {
    public struct Column: Decodable, Sendable { public let name: String }

    /// Which products write a file: every product (`"all"`), every product with an app (`"with_app"`: all but those
    /// whose fragment says `"app": false`) or the one product whose folder's fragment describes it (issue 42).
    public enum Products: Decodable, Equatable, Sendable {
        case all
        case withApp
        /// Every product that sells something or pays for serving its people (`RevenueModel.hasMoney`): all but those
        /// whose fragment says `"money": false` or `"app": false` (revenue.csv, forecast.csv; issue 42).
        case withMoney
        case only([String])

        public init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let list = try? c.decode([String].self) { self = .only(list); return }
            let word = try c.decode(String.self)
            switch word {
            case "all": self = .all
            case "with_app": self = .withApp
            case "with_money": self = .withMoney
            default:
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "products: \"all\", \"with_app\", \"with_money\" or a list, not \"\(word)\"")
            }
        }

        /// Whether a run of `product` writes the file; `withoutApp`: the products that have no app; `withoutMoney`: those
        /// that neither sell nor pay for a service.
        public func includes(_ product: String, withoutApp: Set<String>, withoutMoney: Set<String> = []) -> Bool {
            switch self {
            case .all: true
            case .withApp: !withoutApp.contains(product)
            case .withMoney: !withoutMoney.contains(product) && !withoutApp.contains(product)
            case .only(let list): list.contains(product)
            }
        }
    }

    /// A product folder's part of the specification (`Sources/Products/<Name>/report-spec.json`, issue 42): the
    /// files only that product writes, and whether it has an app. Its page sections are the Python side's.
    public struct Fragment: Decodable, Sendable {
        public let product: String
        public let app: Bool?
        /// false for a product that neither sells nor pays for a service (a free product): it writes no `"with_money"` file.
        public let money: Bool?
        public let files: [File]
        /// The columns of the product's people's traces after the four every trace starts with (issue 43).
        public let traceColumns: [String]?
        enum CodingKeys: String, CodingKey { case product, app, money, files, traceColumns = "trace_columns" }
    }

    /// Why a fragment is refused (the same rules as Notebooks/report_spec.py's `merged`).
    public struct FragmentError: Error, CustomStringConvertible {
        public let description: String
    }

    public struct File: Decodable, Sendable {
        public let file: String
        public let products: Products
        /// `always`, `arms` (runs with more than one arm) or `acquisition` (runs with an acquisition curve).
        public let written: String
        /// false for a file without the key columns (none so far).
        public let keys: Bool?
        public let columns: [Column]
    }

    /// A command's output described apart from a run's report files: a one-file output (`compare --out`, `check
    /// --out`, `trace --out`), a file a run writes under a name pattern (traces) or a calibration's or benchmark's
    /// file. Either another file's columns then its own (`columns_of`, `extra_columns`), or its own `columns` — a
    /// trace's then followed by its product's (`product_columns`).
    public struct Output: Decodable, Sendable {
        public let id: String
        public let columnsOf: String?
        public let extraColumns: [Column]?
        public let columns: [Column]?
        public let keys: Bool?
        public internal(set) var productColumns: [String: [String]]?
        enum CodingKeys: String, CodingKey {
            case id, columnsOf = "columns_of", extraColumns = "extra_columns", columns, keys, productColumns = "product_columns"
        }
    }

    public let keyColumns: [Column]
    public private(set) var files: [File]
    public private(set) var outputs: [Output]
    public let writtenWhen: [String: String]
    /// The products whose fragment says they have no app (`none`): they write no `"with_app"` file.
    public private(set) var withoutApp: Set<String> = []
    /// The products whose fragment says they have no money (`"money": false`, or no app): no `"with_money"` file.
    public private(set) var withoutMoney: Set<String> = []
    /// The products with a fragment, in path order.
    public private(set) var fragmentProducts: [String] = []

    enum CodingKeys: String, CodingKey { case keyColumns = "key_columns", files, outputs, writtenWhen = "written_when" }

    /// The repository's `docs/report-spec.json` (found from this source file's path).
    public static var url: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/report-spec.json")
    }

    /// The repository's root (three folders above this source file).
    public static var repository: URL { url.deletingLastPathComponent().deletingLastPathComponent() }

    /// Every product folder's fragment, `Sources/Products/*/report-spec.json`, in path order.
    public static func fragmentURLs(root: URL = repository) throws -> [URL] {
        let products = root.appendingPathComponent("Sources/Products")
        return try FileManager.default.contentsOfDirectory(atPath: products.path).sorted()
            .map { products.appendingPathComponent($0).appendingPathComponent("report-spec.json") }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// docs/report-spec.json merged with every product folder's fragment (`merging`).
    public static func load() throws -> ReportSpecFile {
        var spec = try JSONDecoder().decode(ReportSpecFile.self, from: Data(contentsOf: url))
        for fragmentURL in try fragmentURLs() {
            let fragment = try JSONDecoder().decode(Fragment.self, from: Data(contentsOf: fragmentURL))
            try spec.merge(fragment, from: "Sources/Products/\(fragmentURL.deletingLastPathComponent().lastPathComponent)/report-spec.json")
        }
        return spec
    }

    /// Adds a fragment's files and its trace columns: refused when a file is already described (by name) or is written
    /// by another product than the fragment's, or when the product's trace columns are declared already.
    public mutating func merge(_ fragment: Fragment, from path: String) throws {
        guard !fragmentProducts.contains(fragment.product) else {
            throw FragmentError(description: "\(path): a second fragment of \(fragment.product)")
        }
        fragmentProducts.append(fragment.product)
        if fragment.app == false { withoutApp.insert(fragment.product) }
        if (fragment.money ?? fragment.app) == false { withoutMoney.insert(fragment.product) }
        for f in fragment.files {
            guard file(f.file) == nil else {
                throw FragmentError(description: "\(path): \(f.file) is already described; a fragment may only add files")
            }
            guard f.products == .only([fragment.product]) else {
                throw FragmentError(description: "\(path): \(f.file) must be written by \(fragment.product) alone")
            }
            files.append(f)
        }
        if let columns = fragment.traceColumns, let trace = outputs.firstIndex(where: { $0.id == "trace" }) {
            guard outputs[trace].productColumns?[fragment.product] == nil else {
                throw FragmentError(description: "\(path): \(fragment.product)'s trace columns are already declared")
            }
            outputs[trace].productColumns = (outputs[trace].productColumns ?? [:]).merging([fragment.product: columns]) { $1 }
        }
    }

    public func file(_ name: String) -> File? { files.first { $0.file == name } }

    /// A file's header as written: the key columns (unless `keys` is false), then its own columns.
    public func header(_ file: File) -> [String] {
        (file.keys == false ? [] : keyColumns.map(\.name)) + file.columns.map(\.name)
    }

    /// A command's one-file output (`comparison`, `check`): another file's header, then its own columns.
    public func header(output id: String, product: String? = nil) -> [String]? {
        guard let o = outputs.first(where: { $0.id == id }) else { return nil }
        if let of = o.columnsOf {
            guard let base = file(of) else { return nil }
            return header(base) + (o.extraColumns ?? []).map(\.name)
        }
        let own = (o.columns ?? []).map(\.name) + (product.flatMap { o.productColumns?[$0] } ?? [])
        return (o.keys == false ? [] : keyColumns.map(\.name)) + own
    }

    /// The CSVs a run of `product` writes, with `arms` arms, with or without an acquisition curve.
    public func expectedFiles(product: String, arms: Int, acquisition: Bool) -> Set<String> {
        expectedFiles(products: [product], arms: arms, acquisition: acquisition)
    }

    /// The files a run whose arms are of `products` writes (issue 28: several products, one arm or more each): those
    /// any of its products writes, and those written when the arms differ in product.
    public func expectedFiles(products: [String], arms: Int, acquisition: Bool) -> Set<String> {
        let holds = ["always": true, "arms": arms > 1, "acquisition": acquisition, "products": Set(products).count > 1]
        return Set(files.filter { f in products.contains { f.products.includes($0, withoutApp: withoutApp, withoutMoney: withoutMoney) } && holds[f.written] == true }.map(\.file))
    }
}
