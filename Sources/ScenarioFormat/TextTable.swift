import Foundation

/// Plain-text tables with aligned columns, for `habitat validate --explain`.
public enum TextTable {
    /// `header` and `rows` as lines, columns padded to their widest cell (the last column is not padded),
    /// separated by two spaces; with `underline`, a dashed line under the header.
    public static func render(_ header: [String], _ rows: [[String]], underline: Bool) -> String {
        var widths = header.map(\.count)
        for r in rows { for (i, c) in r.enumerated() { widths[i] = max(widths[i], c.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, c in i == cells.count - 1 ? c : c.padding(toLength: widths[i], withPad: " ", startingAt: 0) }
                .joined(separator: "  ")
        }
        var text = line(header) + "\n"
        if underline {
            text += line(widths.enumerated().map { i, w in String(repeating: "-", count: i == widths.count - 1 ? header[i].count : w) }) + "\n"
        }
        for r in rows { text += line(r) + "\n" }
        return text
    }
}
