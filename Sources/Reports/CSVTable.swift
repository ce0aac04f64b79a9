import Foundation

/// One field of a CSV report, formatted so that output is byte-stable across machines and runs.
public enum CSVField: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case text(String)
    case integer(Int64)
    /// A number with a fixed count of decimals; NaN and infinities are written as an empty field.
    case number(Double, decimals: Int)
    /// An empty field (e.g. a target the product does not set).
    case empty

    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int) { self = .integer(Int64(value)) }

    /// A rate or fraction with 6 decimals.
    public static func rate(_ v: Double) -> CSVField { .number(v, decimals: 6) }
    /// A general measurement with 4 decimals.
    public static func value(_ v: Double) -> CSVField { .number(v, decimals: 4) }
    /// A boolean as `true`/`false`.
    public static func flag(_ b: Bool) -> CSVField { .text(b ? "true" : "false") }
    /// An optional number, empty when nil.
    public static func optional(_ v: Double?, decimals: Int = 4) -> CSVField { v.map { .number($0, decimals: decimals) } ?? .empty }

    /// The field's text before quoting.
    public var rendered: String {
        switch self {
        case .text(let s): return s
        case .integer(let i): return String(i)
        case .number(let d, let decimals):
            guard d.isFinite else { return "" }
            let s = String(format: "%.\(decimals)f", d)
            // Never write "-0.000": a negative zero after rounding is zero.
            if s.hasPrefix("-"), s.dropFirst().allSatisfy({ $0 == "0" || $0 == "." }) { return String(s.dropFirst()) }
            return s
        case .empty: return ""
        }
    }
}

/// A CSV table with a header row, written per RFC 4180: fields quoted when they hold a comma, quote, CR or LF
/// (quotes doubled), records ended by CRLF, UTF-8.
public struct CSVTable: Sendable, Hashable {
    public let header: [String]
    public private(set) var rows: [[CSVField]] = []

    public init(header: [String]) { self.header = header }

    /// Appends a row; its field count must match the header.
    public mutating func append(_ row: [CSVField]) {
        precondition(row.count == header.count, "CSV row has \(row.count) fields, header has \(header.count)")
        rows.append(row)
    }

    /// Appends many rows.
    public mutating func append(contentsOf more: [[CSVField]]) { for r in more { append(r) } }

    /// The document's text.
    public var text: String { headerLine + bodyText }

    /// The header record alone.
    public var headerLine: String { header.map(CSVTable.quote).joined(separator: ",") + "\r\n" }

    /// The data records without the header (to stream a long report in pieces).
    public var bodyText: String {
        var out = ""
        out.reserveCapacity(64 * rows.count)
        for r in rows { out += r.map { CSVTable.quote($0.rendered) }.joined(separator: ",") + "\r\n" }
        return out
    }

    /// RFC 4180 quoting of one field.
    public static func quote(_ s: String) -> String {
        guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
        return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Parses RFC 4180 text back into a header and rows of strings (for `compare`, `check` and tests).
    public static func parse(_ text: String) -> (header: [String], rows: [[String]]) {
        var records: [[String]] = []
        var field = "", record: [String] = []
        var inQuotes = false
        var it = Array(text.unicodeScalars)[...]
        while let c = it.popFirst() {
            if inQuotes {
                if c == "\"" {
                    if it.first == "\"" { field.unicodeScalars.append("\""); it.removeFirst() } else { inQuotes = false }
                } else { field.unicodeScalars.append(c) }
            } else if c == "\"" {
                inQuotes = true
            } else if c == "," {
                record.append(field); field = ""
            } else if c == "\r" || c == "\n" {
                if c == "\r", it.first == "\n" { it.removeFirst() }
                record.append(field); field = ""
                records.append(record); record = []
            } else { field.unicodeScalars.append(c) }
        }
        if !field.isEmpty || !record.isEmpty { record.append(field); records.append(record) }
        guard let header = records.first else { return ([], []) }
        return (header, Array(records.dropFirst()))
    }
}
